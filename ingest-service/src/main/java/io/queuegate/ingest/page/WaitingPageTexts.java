package io.queuegate.ingest.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.MessageSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.EncodedResource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.stereotype.Component;
import org.springframework.web.util.HtmlUtils;

/**
 * The waiting page in every language it has words for. The words are one message bundle
 * ({@code waiting-page/messages*.properties}, Spring's {@link MessageSource} through {@code spring.messages.*}):
 * the server writes the page's fixed text from it, and hands the page's script the same bundle as a JSON catalogue
 * inside the page, so that a language is one file. English is the base bundle; a key another language leaves out is
 * said in English. The pages are rendered once, at start: they differ by language only.
 */
@Component
class WaitingPageTexts {

    /** The language of the base bundle, told when nothing the client asks for is available. */
    static final Locale BASE = Locale.ENGLISH;

    private static final String BUNDLE = "waiting-page/messages";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z0-9.]+)}}");

    private final List<Locale> languages;

    private final Map<Locale, byte[]> pages = new LinkedHashMap<>();

    WaitingPageTexts(MessageSource messages) {
        this.languages = discover();
        TreeSet<String> keys = new TreeSet<>(load(new ClassPathResource(BUNDLE + ".properties")).stringPropertyNames());
        String template = read(new ClassPathResource("waiting-page/waiting-room.html"));
        for (Locale language : this.languages) {
            Map<String, String> catalogue = new LinkedHashMap<>();
            keys.forEach((key) -> catalogue.put(key, messages.getMessage(key, null, language)));
            this.pages.put(language, render(template, language, catalogue, messages).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The languages the page is written in: English first, then one per bundle beside it, in order of their tags. */
    List<Locale> languages() {
        return this.languages;
    }

    private static List<Locale> discover() {
        List<Locale> found = new ArrayList<>(List.of(BASE));
        try {
            Resource[] bundles = new PathMatchingResourcePatternResolver()
                .getResources("classpath*:" + BUNDLE + "_*.properties");
            TreeSet<String> tags = new TreeSet<>();
            for (Resource bundle : bundles) {
                String name = bundle.getFilename();
                tags.add(name.substring(name.indexOf('_') + 1, name.length() - ".properties".length()).replace('_', '-'));
            }
            tags.forEach((tag) -> found.add(Locale.forLanguageTag(tag)));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return List.copyOf(found);
    }

    /**
     * The language to answer in: the one the page's switch asked for ({@code ?lang=}), else the best the client's
     * Accept-Language names, else English.
     */
    Locale choose(String asked, List<Locale.LanguageRange> accepted) {
        if (asked != null) {
            for (Locale language : this.languages) {
                if (language.toLanguageTag().equalsIgnoreCase(asked)) {
                    return language;
                }
            }
        }
        Locale best = accepted.isEmpty() ? null : Locale.lookup(accepted, this.languages);
        return best != null ? best : BASE;
    }

    /** The page in one of {@link #languages()}. */
    byte[] page(Locale language) {
        return this.pages.get(language);
    }

    private String render(String template, Locale language, Map<String, String> catalogue, MessageSource messages) {
        Matcher placeholders = PLACEHOLDER.matcher(template);
        StringBuilder page = new StringBuilder();
        while (placeholders.find()) {
            String key = placeholders.group(1);
            String text = switch (key) {
                case "lang" -> language.toLanguageTag();
                // a JSON data block: "</script" or "<!--" inside a string must not end it, so every < is escaped
                case "messages" -> JsonMapper.shared().writeValueAsString(catalogue).replace("<", "\\u003c");
                case "languages" -> links(language, messages);
                default -> HtmlUtils.htmlEscape(catalogue.getOrDefault(key, key), "UTF-8");
            };
            placeholders.appendReplacement(page, Matcher.quoteReplacement(text));
        }
        return placeholders.appendTail(page).toString();
    }

    /** The language switch: each language named in its own words, the one shown marked as current. */
    private String links(Locale shown, MessageSource messages) {
        StringBuilder links = new StringBuilder();
        for (Locale language : this.languages) {
            String tag = language.toLanguageTag();
            links.append("<a href=\"?lang=").append(tag).append("\" hreflang=\"").append(tag).append("\" lang=\"")
                .append(tag).append("\" data-lang=\"").append(tag).append('"')
                .append(language.equals(shown) ? " aria-current=\"true\"" : "").append('>')
                .append(HtmlUtils.htmlEscape(messages.getMessage("language.name", null, language), "UTF-8"))
                .append("</a>");
        }
        return links.toString();
    }

    private static Properties load(Resource resource) {
        try {
            return PropertiesLoaderUtils.loadProperties(new EncodedResource(resource, StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static String read(Resource resource) {
        try {
            return resource.getContentAsString(StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
