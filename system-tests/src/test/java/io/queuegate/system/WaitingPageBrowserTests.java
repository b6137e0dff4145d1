package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;

import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The waiting page in headless Chromium against the running stack: what a person in line sees, from joining to
 * a booking, and what they see when things go otherwise. Each test has its own product and a fresh browser.
 */
class WaitingPageBrowserTests extends StackTests {

    private final List<Browser> browsers = new ArrayList<>();

    /** Statuses a test provokes: the browser logs every 4xx load as an error, and these are not the page's. */
    private String[] provokedStatuses = {};

    /** Every test ends with no page having logged an error of its own. */
    @AfterEach
    void noPageLoggedAnErrorThenCloseThem() {
        try {
            this.browsers.forEach((browser) -> assertThat(browser.consoleErrors(this.provokedStatuses)).isEmpty());
        }
        finally {
            this.browsers.forEach(Browser::close);
        }
    }

    private void provokes(String... statuses) {
        this.provokedStatuses = statuses;
    }

    private long queue(int maxActive, int ttlSeconds, long stock) {
        long productId = openQueue(maxActive, 10, ttlSeconds);
        assertThat(this.stack.setStock(productId, stock).status()).isEqualTo(200);
        return productId;
    }

    /** Someone who entered through the API, so that the page's user has people ahead. */
    private String enterAndAwait(long productId, String userId, String status) {
        String token = entered(productId, userId);
        awaitStatus(productId, token, status);
        return token;
    }

    private String page(long productId) {
        return Stack.url(this.stack.ingest, "/queues/" + productId);
    }

    /** The browser, closed after the test, on the product's waiting page. */
    private Browser onPage(Browser browser, long productId) {
        this.browsers.add(browser);
        browser.open(page(productId));
        return browser;
    }

    /** A desktop browser on the product's waiting page, joined as {@code userId}. */
    private Browser joined(long productId, String userId) {
        Browser browser = onPage(Browser.desktop(), productId);
        join(browser, userId);
        return browser;
    }

    /**
     * The same in a browser without event streams, so that the page polls, and a test can answer the polls itself
     * (the page's fetch) as the stack will not.
     */
    private Browser joinedPolling(long productId, String userId) {
        Browser browser = Browser.desktop();
        browser.driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
                Map.of("source", "delete window.EventSource;"));
        join(onPage(browser, productId), userId);
        return browser;
    }

    /** Types the user id and joins with the keyboard alone. */
    private static void join(Browser browser, String userId) {
        browser.await("the join form", d -> browser.visible("#user-id"));
        browser.find("#user-id").sendKeys(userId, Keys.ENTER);
    }

    private static String savedToken(Browser browser, long productId) {
        return (String) browser.script("var s = JSON.parse(localStorage.getItem(arguments[0]) || 'null');"
                + "return s && s.token;", "queuegate:" + productId);
    }

    private static long shownPosition(Browser browser) {
        String position = browser.find("#position").getAttribute("data-position");
        return position == null || position.isEmpty() ? -1 : Long.parseLong(position);
    }

    @Test
    void aPersonJoinsWatchesTheLineMoveByItselfAndBooks() {
        long productId = queue(1, 120, 5);
        String first = enterAndAwait(productId, "ahead-1", "AVAILABLE");
        String second = enterAndAwait(productId, "ahead-2", "WAITING");
        Browser browser = onPage(Browser.desktop(), productId);
        browser.awaitText("h1", "Waiting room for product " + productId);
        browser.screenshot("1-join");

        // Held back, the line has not taken the enter in yet: the page says the place is kept all the same.
        MessageListenerContainer writer = this.stack.worker.getBean(KafkaListenerEndpointRegistry.class)
            .getListenerContainer("waiting-writer");
        writer.stop();
        try {
            join(browser, "page-user");
            browser.awaitText("#pending", "We've got your place");
            browser.screenshot("2-pending");
        }
        finally {
            writer.start();
        }

        browser.awaitText("#position", "You are number 2 in line. 1 person is ahead of you.");
        // one place, held up to 120 s, and no pace measured yet: honest about the range, not a confident figure
        assertThat(browser.text("#eta")).isEqualTo("Your turn should come within 4 minutes; the line is just "
                + "starting, so this will get more precise.");
        assertThat(browser.text("#updated")).matches("\\d{1,2}:\\d{2}:\\d{2}.*");
        assertThat(browser.find("#progress").getAttribute("value")).isEqualTo("0");
        browser.screenshot("3-waiting");

        // The line moves without any click on the page: the person ahead gives up their turn.
        assertThat(this.stack.leave(productId, first).status()).isEqualTo(204);
        browser.awaitText("#position", "You are number 1 in line. Nobody is ahead of you.");
        assertThat(browser.find("#progress").getAttribute("value")).isEqualTo("50");

        assertThat(this.stack.leave(productId, second).status()).isEqualTo(204);
        browser.awaitText("#available-heading", "It's your turn");
        String countdown = browser.text("#countdown");
        assertThat(countdown).matches("[12]:\\d{2}");
        browser.await("the countdown to move", d -> !browser.text("#countdown").equals(countdown));
        browser.screenshot("4-available");

        browser.find("#book").click();
        browser.awaitText("#done-heading", "Booked!");
        String bookingId = browser.text("#booking-id");
        Reply booking = this.stack.send("GET", Stack.url(this.stack.booking, "/api/v1/bookings/" + bookingId), null,
                null, Map.of());
        assertThat(booking.status()).isEqualTo(200);
        assertThat(booking.text("userId")).isEqualTo("page-user");
        browser.screenshot("5-booked");

        browser.driver.navigate().refresh();
        browser.awaitText("#done-heading", "Booked!");
        assertThat(browser.text("#booking-id")).isEqualTo(bookingId);
    }

    @Test
    void aLineThatAsksForProofOfWorkChecksTheBrowserWithProgressShownThenBooks() {
        long productId = ownProduct();
        // about 0.1 s of hashing on average in a browser: long enough to be seen, short enough for a test
        Reply configured = this.stack.admin("PUT", "/api/v1/queues/" + productId,
                "{\"maxActive\":1,\"admitPerSecond\":10,\"entryTtlSeconds\":120,\"open\":true,"
                        + "\"challengeMaxNumber\":20000}");
        assertThat(configured.status()).isEqualTo(200);
        assertThat(this.stack.setStock(productId, 1).status()).isEqualTo(200);
        // an enter through the API without a proof is refused
        Reply bare = this.stack.enter(productId, "no-proof");
        assertThat(bare.status()).isEqualTo(403);
        assertThat(bare.text("code")).isEqualTo("proof_required");

        Browser browser = onPage(Browser.desktop(), productId);
        // the button's text is recorded at each change, so that a check shorter than a poll is still seen
        browser.script("window.__seen = []; var b = document.getElementById('join');"
                + "new MutationObserver(function () { window.__seen.push(b.textContent); })"
                + ".observe(b, {childList: true, characterData: true, subtree: true});");
        join(browser, "pow-user");
        browser.awaitText("#available-heading", "It's your turn");
        @SuppressWarnings("unchecked")
        List<String> seen = (List<String>) browser.script("return window.__seen;");
        assertThat(seen).anySatisfy((text) -> assertThat(text).matches("Checking your browser… \\d+\\.\\d s"));
        browser.find("#book").click();
        browser.awaitText("#done-heading", "Booked!");
        // the page learns that the line asks for a proof from the first enter's 403
        provokes("403");
    }

    @Test
    void aReloadKeepsThePlaceAndLeavingGivesItUp() {
        long productId = queue(1, 120, 5);
        enterAndAwait(productId, "holder", "AVAILABLE");
        enterAndAwait(productId, "before-me", "WAITING");
        Browser browser = joined(productId, "reloader");
        browser.awaitText("#position", "You are number 2 in line.");
        String token = savedToken(browser, productId);
        assertThat(token).isNotBlank();

        browser.driver.navigate().refresh();
        browser.awaitText("#position", "You are number 2 in line.");
        assertThat(savedToken(browser, productId)).isEqualTo(token);
        assertThat(this.stack.status(productId, token).text("status")).isEqualTo("WAITING");

        browser.find("#leave").click();
        browser.awaitText("#notice", "You left the line and gave up your place.");
        assertThat(browser.visible("#user-id")).isTrue();
        assertThat(savedToken(browser, productId)).isNull();
        assertThat(this.stack.status(productId, token).text("status")).isEqualTo("EXPIRED");
        browser.screenshot("6-left");

        browser.driver.navigate().refresh();
        browser.await("the join form after a reload", d -> browser.visible("#user-id"));
    }

    @Test
    void soldOutIsSaidAtOnceToAnAdmittedPersonWhoKeepsTheTurnAndBooksWhenTicketsComeBack() {
        long productId = queue(5, 120, 1);
        Browser browser = joined(productId, "too-late");
        browser.awaitText("#available-heading", "It's your turn");
        // someone else admitted at the same time books the last ticket: the page says so without being asked
        String quicker = enterAndAwait(productId, "quicker", "AVAILABLE");
        assertThat(this.stack.book(productId, quicker).status()).isEqualTo(201);
        browser.awaitText("#available-heading", "Sold out for now");
        assertThat(browser.text("#available-text")).contains("Your turn is kept");
        assertThat(browser.visible("#book")).as("no Book button the counter could only refuse").isFalse();
        assertThat(browser.text("#countdown-label")).isEqualTo("Your turn is kept for");
        assertThat(browser.text("#countdown")).matches("[12]:\\d{2}");
        assertThat(this.stack.status(productId, savedToken(browser, productId)).text("status")).isEqualTo("SOLD_OUT");
        browser.screenshot("7-sold-out");

        browser.driver.navigate().refresh();
        browser.awaitText("#available-heading", "Sold out for now");

        // a ticket comes back within the turn, and the Book button with it
        assertThat(this.stack.setStock(productId, 1).status()).isEqualTo(200);
        browser.awaitText("#available-heading", "It's your turn");
        browser.find("#book").click();
        browser.awaitText("#done-heading", "Booked!");
    }

    @Test
    void aBookingRefusedAsSoldOutBeforeThePageHeardOfItKeepsTheTurn() {
        long productId = queue(5, 120, 1);
        // a browser whose polls go unanswered once admitted: the counter tells it first
        Browser browser = joinedPolling(productId, "too-late");
        browser.awaitText("#available-heading", "It's your turn");
        browser.script("""
                const real = window.fetch;
                window.fetch = function (url, init) {
                  if (String(url).includes('/entries/') && (!init || init.method === 'GET')) return new Promise(() => {});
                  return real.apply(this, arguments);
                };""");
        String quicker = enterAndAwait(productId, "quicker", "AVAILABLE");
        assertThat(this.stack.book(productId, quicker).status()).isEqualTo(201);

        browser.find("#book").click();
        browser.awaitText("#available-heading", "Sold out for now");
        assertThat(browser.visible("#book")).isFalse();
        provokes("409");
    }

    @Test
    void aKoreanBrowserGetsThePageInKoreanAndTheSwitchTurnsItToEnglishForGood() {
        long productId = queue(1, 120, 5);
        enterAndAwait(productId, "ko-holder", "AVAILABLE");
        Browser browser = onPage(Browser.desktop("ko-KR,ko"), productId);
        browser.awaitText("h1", "상품 " + productId + " 대기실");
        assertThat(browser.text("#join-heading")).isEqualTo("대기열에 들어가기");
        assertThat(browser.text("#join")).isEqualTo("대기열 들어가기");

        join(browser, "hangul");
        browser.awaitText("#position", "현재 대기 순번은 1번입니다. 내 앞에 아무도 없습니다.");
        assertThat(browser.text("#waiting-heading")).isEqualTo("대기 중");
        assertThat(browser.text("#eta")).startsWith("예상 대기 시간");
        assertThat(browser.text("#leave")).isEqualTo("대기열 나가기");
        browser.screenshot("11-korean-waiting");

        browser.find("nav.languages a[lang=en]").click();
        browser.awaitText("#position", "You are number 1 in line. Nobody is ahead of you.");
        assertThat(browser.text("#waiting-heading")).isEqualTo("You are in line");
        // the choice is remembered: the page's plain address speaks English in this browser from now on
        browser.open(page(productId));
        browser.awaitText("#position", "You are number 1 in line.");
        assertThat(browser.script("return document.documentElement.lang;")).isEqualTo("en");
    }

    @Test
    void anEnglishBrowserGetsThePageInEnglishAndTheSwitchTurnsItToKorean() {
        long productId = queue(1, 120, 5);
        String holder = enterAndAwait(productId, "en-holder", "AVAILABLE");
        Browser browser = onPage(Browser.desktop("en-US,en"), productId);
        browser.awaitText("h1", "Waiting room for product " + productId);
        assertThat(browser.text("#join")).isEqualTo("Join");
        join(browser, "latin");
        browser.awaitText("#position", "You are number 1 in line. Nobody is ahead of you.");

        browser.find("nav.languages a[lang=ko]").click();
        browser.awaitText("#position", "현재 대기 순번은 1번입니다.");
        assertThat(browser.text("h1")).isEqualTo("상품 " + productId + " 대기실");
        assertThat(this.stack.leave(productId, holder).status()).isEqualTo(204);
        browser.awaitText("#available-heading", "입장 가능");
        assertThat(browser.text("#available-text")).startsWith("지금 예매할 수 있습니다.");
        assertThat(browser.text("#countdown-label")).isEqualTo("남은 예매 시간");
        assertThat(browser.text("#book")).isEqualTo("예매하기");
        browser.screenshot("12-korean-available");
    }

    @Test
    void aLineSoldOutKeepsThePlaceAndMovesAgainWhenTicketsComeBack() {
        long productId = queue(1, 120, 0);
        Browser browser = joined(productId, "hopeful");
        browser.awaitText("#other-status", "Sold out for now: every ticket is taken. You keep your place");
        assertThat(this.stack.status(productId, savedToken(browser, productId)).text("status")).isEqualTo("SOLD_OUT");
        browser.screenshot("7b-sold-out-for-now");

        // a ticket comes back: the line moves again, and the page follows on its next poll (SOLD_OUT polls slowly)
        assertThat(this.stack.setStock(productId, 1).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> "AVAILABLE".equals(
                this.stack.status(productId, savedToken(browser, productId)).text("status")));
        browser.driver.navigate().refresh();
        browser.awaitText("#available-heading", "It's your turn");
    }

    @Test
    void thePageFollowsItsPlaceByItsEventStreamNotByPolls() {
        long productId = queue(1, 120, 5);
        String holder = enterAndAwait(productId, "stream-holder", "AVAILABLE");
        Browser browser = joined(productId, "streamer");
        browser.awaitText("#position", "You are number 1 in line.");
        browser.script("""
                window.statusPolls = 0;
                const real = window.fetch;
                window.fetch = function (url, init) {
                  if (String(url).includes('/entries/') && (!init || init.method === 'GET')) window.statusPolls++;
                  return real.apply(this, arguments);
                };""");

        // polled, number 1 of a line would be read again within about a second: none for three seconds
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
            .until(() -> Long.valueOf(0).equals(browser.script("return window.statusPolls;")));
        assertThat(this.stack.leave(productId, holder).status()).isEqualTo(204);
        browser.awaitText("#available-heading", "It's your turn");
    }

    @Test
    void aBusyServiceIsSaidInPlainWordsWhileThePlaceIsKept() {
        long productId = queue(1, 120, 5);
        enterAndAwait(productId, "busy-holder", "AVAILABLE");
        // a browser whose polls can be answered as a busy server would
        Browser browser = joinedPolling(productId, "patient");
        browser.awaitText("#position", "You are number 1 in line.");

        // The stack cannot be made to shed polls without disturbing other tests, so the page's own fetch answers
        // its next two polls as an overloaded server would: 503, then 429, each with Retry-After.
        browser.script("""
                const real = window.fetch;
                const answers = [[503, 'unavailable', '3'], [429, 'too_many_requests', '2']];
                window.fetch = function (url, init) {
                  if (answers.length > 0 && String(url).includes('/entries/') && (!init || init.method === 'GET')) {
                    const [status, code, retryAfter] = answers.shift();
                    return Promise.resolve(new Response(JSON.stringify({ status: status, code: code }), {
                      status: status, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': retryAfter }
                    }));
                  }
                  return real.apply(this, arguments);
                };""");
        browser.awaitText("#notice", "The waiting room is very busy right now (it answered 503). You keep your place.");
        assertThat(browser.text("#notice")).matches(".*Checking again in [34] s\\.");
        browser.screenshot("8-busy");
        browser.awaitText("#notice", "Slow down");
        assertThat(browser.text("#notice")).contains("You keep your place.");
        browser.await("the notice to clear once polls are answered again", d -> !browser.visible("#notice"));
        assertThat(browser.text("#position")).startsWith("You are number 1 in line.");
    }

    @Test
    void onAPhoneNothingScrollsSideways() {
        long productId = queue(1, 120, 5);
        String holder = enterAndAwait(productId, "phone-holder", "AVAILABLE");
        Browser browser = onPage(Browser.phone(), productId);
        join(browser, "someone-with-a-rather-long-user-id@example.com");
        browser.awaitText("#position", "You are number 1 in line.");
        assertNoSidewaysScroll(browser);
        browser.screenshot("9-phone-waiting");

        this.stack.leave(productId, holder);
        browser.awaitText("#available-heading", "It's your turn");
        assertNoSidewaysScroll(browser);
        browser.screenshot("10-phone-available");
    }

    private static void assertNoSidewaysScroll(Browser browser) {
        long viewport = ((Number) browser.script("return window.innerWidth;")).longValue();
        long content = ((Number) browser.script("return document.documentElement.scrollWidth;")).longValue();
        assertThat(viewport).isLessThanOrEqualTo(400);
        assertThat(content).as("page width on a %d px wide screen", viewport).isLessThanOrEqualTo(viewport);
    }
}
