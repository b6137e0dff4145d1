package io.queuegate.ingest.page;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The waiting page in the buyer's language: chosen by Accept-Language, overridden by the page's switch
 * ({@code ?lang=}), English otherwise; its fixed text written by the server and its script's catalogue inside it.
 */
class WaitingPageLanguageTests extends IngestHttpTestSupport {

    private static final Pattern CATALOGUE = Pattern.compile(
            "<script id=\"messages\" type=\"application/json\">(.*?)</script>", Pattern.DOTALL);

    @Autowired
    private WaitingPageTexts texts;

    @Test
    void aKoreanBrowserIsAnsweredInKoreanAndTheSwitchOverridesIt() {
        HttpResponse<String> korean = page("/queues/7", "ko-KR,ko;q=0.9,en;q=0.5");
        assertThat(korean.statusCode()).isEqualTo(200);
        assertThat(korean.headers().firstValue("Content-Language")).hasValue("ko");
        assertThat(korean.headers().firstValue("Vary")).hasValueSatisfying((vary) -> assertThat(vary)
            .containsIgnoringCase("Accept-Language"));
        assertThat(korean.body()).contains("<html lang=\"ko\">", "<title>대기실</title>",
                "<button id=\"join\" type=\"submit\">대기열 들어가기</button>", "<a href=\"?lang=en\"", ">English</a>",
                "aria-current=\"true\">한국어</a>");
        assertThat(catalogue(korean).get("available.text").asString()).isEqualTo(
                "지금 예매할 수 있습니다. 남은 시간이 끝날 때까지 차례가 유지됩니다.");

        HttpResponse<String> switched = page("/queues/7?lang=en", "ko-KR,ko;q=0.9");
        assertThat(switched.headers().firstValue("Content-Language")).hasValue("en");
        assertThat(switched.body()).contains("<html lang=\"en\">", "<button id=\"join\" type=\"submit\">Join the line</button>");
    }

    @Test
    void aLanguageThePageDoesNotSpeakIsAnsweredInEnglish() {
        for (String accepted : new String[] { "fr-FR,fr;q=0.9", "*", "", "not a language;;q=x" }) {
            HttpResponse<String> answer = page("/queues/7", accepted);
            assertThat(answer.statusCode()).as(accepted).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Language")).as(accepted).hasValue("en");
            assertThat(catalogue(answer).get("available.heading").asString()).isEqualTo("It's your turn");
        }
        assertThat(page("/queues/7?lang=xx", "ko").headers().firstValue("Content-Language")).hasValue("ko");
    }

    @Test
    void everyLanguageHasEveryKeyAndThePageNoPlaceholderLeft() throws IOException {
        Properties english = bundle("");
        assertThat(this.texts.languages()).contains(Locale.ENGLISH, Locale.KOREAN);
        for (Locale language : this.texts.languages()) {
            if (!language.equals(WaitingPageTexts.BASE)) {
                assertThat(bundle("_" + language.toLanguageTag()).stringPropertyNames()).as(language.toLanguageTag())
                    .containsExactlyInAnyOrderElementsOf(english.stringPropertyNames());
            }
            String page = new String(this.texts.page(language), StandardCharsets.UTF_8);
            assertThat(page).doesNotContain("{{");
            assertThat(catalogue(page).propertyNames()).containsExactlyInAnyOrderElementsOf(
                    english.stringPropertyNames());
        }
    }

    private static Properties bundle(String suffix) throws IOException {
        return PropertiesLoaderUtils.loadProperties(new EncodedResource(
                new ClassPathResource("waiting-page/messages" + suffix + ".properties"), StandardCharsets.UTF_8));
    }

    private HttpResponse<String> page(String path, String acceptLanguage) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path));
        if (!acceptLanguage.isEmpty()) {
            request.header("Accept-Language", acceptLanguage);
        }
        return send(request);
    }

    private static JsonNode catalogue(HttpResponse<String> page) {
        return catalogue(page.body());
    }

    private static JsonNode catalogue(String page) {
        Matcher found = CATALOGUE.matcher(page);
        assertThat(found.find()).as("the script's catalogue in the page").isTrue();
        return JsonMapper.shared().readTree(found.group(1));
    }
}
