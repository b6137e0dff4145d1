package io.queuegate.web.egress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class EgressUrlsTests {

    private final EgressUrls deployed = new EgressUrls(new EgressProperties(false, false));

    private final EgressUrls local = new EgressUrls(new EgressProperties(true, true));

    @Test
    void asDeployedOnlyHttpsIsTaken() throws RefusedUrlException {
        assertThat(this.deployed.refusal("https://shop.example/.well-known/jwks.json")).isEmpty();
        assertThat(this.deployed.refusal("HTTPS://shop.example:8443/events?x=1")).isEmpty();
        assertThat(this.deployed.check("https://93.184.216.34/events")).hasHost("93.184.216.34");
        assertThat(this.deployed.refusal("http://shop.example/events")).hasValueSatisfying(
                (refusal) -> assertThat(refusal).contains("https").contains("queuegate.egress.allow-http"));
        assertThatExceptionOfType(RefusedUrlException.class)
            .isThrownBy(() -> this.deployed.check("http://shop.example/events"));
    }

    @Test
    void withAllowHttpPlainHttpIsTakenToo() {
        EgressUrls http = new EgressUrls(new EgressProperties(false, true));

        assertThat(http.refusal("http://shop.example/events")).isEmpty();
        assertThat(http.refusal("http://127.0.0.1:8090/events")).as("still no private address").isPresent();
    }

    @Test
    void anAddressWrittenInTheUrlThatIsNotPublicIsRefusedUnlessAllowed() {
        for (String url : new String[] { "https://127.0.0.1/", "https://10.1.2.3:8443/events",
                "https://169.254.169.254/latest/meta-data/", "https://[::1]/", "https://[fd12::1]/",
                "https://[::ffff:10.0.0.1]/", "https://0.0.0.0/", "https://[::]/", "https://224.0.0.1/" }) {
            assertThat(this.deployed.refusal(url)).as(url)
                .hasValueSatisfying((refusal) -> assertThat(refusal).contains("not a public address")
                    .contains("queuegate.egress.allow-private"));
            assertThat(new EgressUrls(new EgressProperties(true, false)).refusal(url)).as(url).isEmpty();
        }
        assertThat(this.deployed.refusal("https://localhost/")).as("a name is judged when connected to").isEmpty();
    }

    @Test
    void whatIsNotAnAbsoluteHttpUrlIsRefusedWhateverIsAllowed() {
        for (String url : new String[] { "file:///etc/passwd", "ftp://shop.example/keys", "/jwks.json",
                "https://user:pass@shop.example/", "https:///path", "gopher://127.0.0.1:6379/_INFO", "not a url" }) {
            assertThat(this.local.refusal(url)).as(url).hasValue("must be an absolute https URL");
        }
        assertThat(this.local.refusal("http://127.0.0.1:8090/events")).isEmpty();
    }
}
