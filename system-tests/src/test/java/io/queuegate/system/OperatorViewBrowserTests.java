package io.queuegate.system;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The operator view at /admin in headless Chromium against the running stack. */
class OperatorViewBrowserTests extends StackTests {

    private final long productId = ownProduct();

    private Browser browser;

    @AfterEach
    void closeBrowser() {
        if (this.browser != null) {
            this.browser.close();
        }
    }

    private void openAdmin() {
        this.browser = Browser.desktop();
        this.browser.open(Stack.url(this.stack.worker, "/admin"));
        this.browser.await("the sign-in form", d -> this.browser.visible("#admin-token"));
    }

    private void signIn(String token) {
        this.browser.find("#admin-token").sendKeys(token, Keys.ENTER);
    }

    /** Every request the page has made, by URL. */
    @SuppressWarnings("unchecked")
    private List<String> requested() {
        return (List<String>) this.browser.script(
                "return performance.getEntriesByType('resource').map(function (e) { return e.name; });");
    }

    private String cell(String field) {
        return this.browser.text("tr[data-product='" + this.productId + "'] [data-field='" + field + "']");
    }

    @Test
    void itAsksForTheTokenFirstAndRefusesAWrongOne() {
        this.stack.configure(this.productId, 3, 5, 60, true);
        openAdmin();
        assertThat(this.browser.visible("#queues-view")).isFalse();
        assertThat(this.browser.find("main").getText()).doesNotContain(Long.toString(this.productId));
        assertThat(requested()).noneMatch(url -> url.contains("/api/"));
        this.browser.screenshot("11-admin-sign-in");

        signIn("not-the-admin-token");
        this.browser.awaitText("#notice", "The admin token was refused.");
        assertThat(this.browser.visible("#queues-view")).isFalse();
        assertThat(this.browser.visible("#admin-token")).isTrue();
        assertThat(this.browser.consoleErrors("401")).isEmpty();
    }

    @Test
    void withTheTokenItListsTheQueueChartsItAndChangesIt() {
        // a setting the view does not edit, which its changes must keep
        String queue = "/api/v1/queues/" + this.productId;
        assertThat(this.stack.admin("PUT", queue, "{\"maxActive\":1,\"admitPerSecond\":5,\"entryTtlSeconds\":60,"
                + "\"open\":true,\"abandonAfterSeconds\":900,\"identity\":\"trusted\"}").status()).isEqualTo(200);
        List<String> tokens = entered(this.productId, numbered("op", 3));
        openAdmin();
        signIn(Stack.ADMIN_TOKEN);
        String row = "tr[data-product='" + this.productId + "']";
        this.browser.await("the queue's row", d -> this.browser.visible(row));
        this.browser.await("2 waiting and 1 active", d -> cell("waiting").equals("2") && cell("active").equals("1"));
        assertThat(cell("state")).isEqualTo("open");
        assertThat(cell("identity")).isEqualTo("trusted");
        assertThat(cell("maxActive")).isEqualTo("1");
        assertThat(cell("admitPerSecond")).isEqualTo("5");
        assertThat(cell("ttl")).isEqualTo("60 s");
        this.browser.await("an admission rate", d -> cell("rate").matches("\\d+\\.\\d"));

        this.browser.find(row + " button[aria-label='Chart product " + this.productId + "']").click();
        this.browser.awaitText("#chart-heading", "Product " + this.productId + ": waiting and active");
        this.browser.await("a few samples in the chart", d -> Integer.parseInt(
                this.browser.find("#chart").getAttribute("data-samples")) >= 3);
        assertThat(this.browser.find("#chart").getAttribute("aria-label")).contains("2 waiting and 1 active now");
        // the line moves: the admitted user leaves, the next is admitted, and the chart follows
        assertThat(this.stack.leave(this.productId, tokens.getFirst()).status()).isEqualTo(204);
        this.browser.await("the chart to follow the line", d -> this.browser.find("#chart").getAttribute("aria-label")
            .contains("1 waiting and 1 active now"));
        this.browser.await("a few more samples", d -> Integer.parseInt(
                this.browser.find("#chart").getAttribute("data-samples")) >= 6);
        assertThat(cell("held")).isEqualTo("0");
        assertThat(cell("revoked")).isEqualTo("0");
        assertThat(this.stack.admin("PUT", queue + "/held-users/op-2").status()).isEqualTo(204);
        assertThat(this.stack.admin("DELETE", queue + "/entries/" + tokens.get(1)).status()).isEqualTo(204);
        this.browser.await("the hold and the revocation shown", d -> cell("held").equals("1")
                && cell("revoked").equals("1"));
        this.browser.screenshot("12-admin-queues");
        this.browser.script("document.getElementById('chart-panel').scrollIntoView();");
        this.browser.screenshot("13-admin-chart");

        this.browser.find(row + " button[aria-label='Edit the settings of product " + this.productId + "']").click();
        assertThat(this.browser.find("#s-product").getAttribute("value")).isEqualTo(Long.toString(this.productId));
        this.browser.find("#s-admit").clear();
        this.browser.find("#s-admit").sendKeys("7");
        this.browser.find("#save").click();
        this.browser.awaitText("#notice", "Settings of product " + this.productId + " saved.");
        await().atMost(Duration.ofSeconds(5))
            .until(() -> this.stack.admin("GET", queue).json().get("admitPerSecond").asInt() == 7);
        this.browser.await("the new rate in the row", d -> cell("admitPerSecond").equals("7"));

        this.browser.find(row + " button[aria-label='Close the queue of product " + this.productId + "']").click();
        this.browser.await("the queue shown closed", d -> cell("state").equals("closed"));
        await().atMost(Duration.ofSeconds(5))
            .until(() -> this.stack.enter(this.productId, "after-close").status() == 409);
        assertThat(this.stack.admin("GET", queue).json().get("abandonAfterSeconds").asInt())
            .as("kept through the view's changes").isEqualTo(900);
        assertThat(this.stack.admin("GET", queue).json().get("identity").asString())
            .as("kept through the view's changes").isEqualTo("trusted");
        assertThat(this.browser.consoleErrors()).isEmpty();
    }
}
