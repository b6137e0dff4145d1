package io.queuegate.system;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.system.Stack.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The waiting page in headless Chromium against the running stack: what a person in line sees, from joining to
 * a booking, and what they see when things go otherwise. Each test has its own product and a fresh browser. Nobody
 * types who they are: in a line of identity "visitor" the page joins at once and the line makes the id, in one of
 * identity "pass" it joins with the pass of the shop's link, and in one of identity "trusted" it follows the place
 * the shop hands it.
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

    /** A product of the test's own with an open line of identity "visitor" and that much stock. */
    private long queue(int maxActive, int ttlSeconds, long stock) {
        long productId = ownProduct();
        configure(productId, maxActive, ttlSeconds, "\"identity\":\"visitor\"");
        assertThat(this.stack.setStock(productId, stock).status()).isEqualTo(200);
        return productId;
    }

    /** Opens the product's line with these settings, {@code more} being further members of the settings' JSON. */
    private void configure(long productId, int maxActive, int ttlSeconds, String more) {
        Reply configured = this.stack.admin("PUT", "/api/v1/queues/" + productId,
                "{\"maxActive\":%d,\"admitPerSecond\":10,\"entryTtlSeconds\":%d,\"open\":true,%s}".formatted(
                        maxActive, ttlSeconds, more));
        assertThat(configured.status()).as(configured.response().body()).isEqualTo(200);
    }

    /** An enter through the API with this body, as a browser would send it. */
    private Reply enterWith(long productId, String body) {
        return this.stack.send("POST", Stack.url(this.stack.ingest, "/api/v1/queues/" + productId + "/entries"), body,
                "application/json", Map.of());
    }

    /** A visitor who entered through the API, so that the page's person has people ahead: their token. */
    private String visitorAhead(long productId, String status) {
        Reply entered = enterWith(productId, "{}");
        assertThat(entered.status()).as(entered.response().body()).isEqualTo(202);
        String token = entered.text("token");
        awaitStatus(productId, token, status);
        return token;
    }

    private String page(long productId) {
        return Stack.url(this.stack.ingest, "/queues/" + productId);
    }

    /** The browser, closed after the test, on the product's waiting page. */
    private Browser onPage(Browser browser, long productId) {
        return onPage(browser, page(productId));
    }

    /** The browser, closed after the test, on this page. */
    private Browser onPage(Browser browser, String url) {
        this.browsers.add(browser);
        browser.open(url);
        return browser;
    }

    /** A desktop browser on the product's waiting page, which joins the line by itself. */
    private Browser joined(long productId) {
        return awaitPlace(onPage(Browser.desktop(), productId), productId);
    }

    /**
     * The same in a browser without event streams, so that the page polls, and a test can answer the polls itself
     * (the page's fetch) as the stack will not.
     */
    private Browser joinedPolling(long productId) {
        Browser browser = Browser.desktop();
        browser.driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
                Map.of("source", "delete window.EventSource;"));
        return awaitPlace(onPage(browser, productId), productId);
    }

    /** Waits for the page to have joined: a place saved in the browser. */
    private static Browser awaitPlace(Browser browser, long productId) {
        browser.await("a place saved", d -> savedToken(browser, productId) != null);
        return browser;
    }

    private static String savedToken(Browser browser, long productId) {
        return saved(browser, productId, "token");
    }

    /** The user id the line made (or the pass named), as the page saved it from the 202. */
    private static String savedUserId(Browser browser, long productId) {
        return saved(browser, productId, "userId");
    }

    private static String saved(Browser browser, long productId, String member) {
        return (String) browser.script("var s = JSON.parse(localStorage.getItem(arguments[0]) || 'null');"
                + "return s && s[arguments[1]] || null;", "queuegate:" + productId, member);
    }

    private static long shownPosition(Browser browser) {
        String position = browser.find("#position").getAttribute("data-position");
        return position == null || position.isEmpty() ? -1 : Long.parseLong(position);
    }

    @Test
    void aPersonJoinsWatchesTheLineMoveByItselfAndBooks() {
        long productId = queue(1, 120, 5);
        String first = visitorAhead(productId, "AVAILABLE");
        String second = visitorAhead(productId, "WAITING");

        // Held back, the line has not taken the enter in yet: the page says the place is kept all the same.
        MessageListenerContainer writer = this.stack.worker.getBean(KafkaListenerEndpointRegistry.class)
            .getListenerContainer("waiting-writer");
        writer.stop();
        Browser browser;
        try {
            // the page joins as it opens: nothing to type, nothing to click
            browser = onPage(Browser.desktop(), productId);
            browser.awaitText("h1", "Waiting room for product " + productId);
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
        // the id the line made for this visitor, which the page kept from the 202
        assertThat(booking.text("userId")).isEqualTo(savedUserId(browser, productId)).matches("[A-Za-z0-9_-]{22}");
        browser.screenshot("5-booked");

        browser.driver.navigate().refresh();
        browser.awaitText("#done-heading", "Booked!");
        assertThat(browser.text("#booking-id")).isEqualTo(bookingId);
    }

    @Test
    void aLineThatAsksForProofOfWorkChecksTheBrowserWithProgressShownThenBooks() {
        long productId = ownProduct();
        // about 0.1 s of hashing on average in a browser: long enough to be seen, short enough for a test
        configure(productId, 1, 120, "\"identity\":\"visitor\",\"challengeMaxNumber\":20000");
        assertThat(this.stack.setStock(productId, 1).status()).isEqualTo(200);
        // an enter through the API without a proof is refused
        Reply bare = enterWith(productId, "{}");
        assertThat(bare.status()).isEqualTo(403);
        assertThat(bare.text("code")).isEqualTo("proof_required");

        // the button's text is recorded at each change from the page's start, as the page joins by itself, so that
        // a check shorter than a poll is still seen
        Browser browser = Browser.desktop();
        browser.driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", """
                window.__seen = [];
                document.addEventListener('DOMContentLoaded', function () {
                  var b = document.getElementById('join');
                  new MutationObserver(function () { window.__seen.push(b.textContent); })
                    .observe(b, {childList: true, characterData: true, subtree: true});
                });"""));
        onPage(browser, productId);
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
    void aVisitorJoinsWithoutTypingAnythingKeepsThePlaceOnAReloadAndAnotherBrowserGetsAPlaceOfItsOwn() {
        long productId = queue(1, 120, 5);
        visitorAhead(productId, "AVAILABLE");
        Browser first = joined(productId);
        first.awaitText("#position", "You are number 1 in line. Nobody is ahead of you.");
        assertThat(first.script("return document.querySelectorAll('input, textarea').length;")).isEqualTo(0L);
        String token = savedToken(first, productId);
        String userId = savedUserId(first, productId);
        assertThat(userId).matches("[A-Za-z0-9_-]{22}");

        first.driver.navigate().refresh();
        first.awaitText("#position", "You are number 1 in line.");
        assertThat(shownPosition(first)).isEqualTo(1);
        assertThat(savedToken(first, productId)).isEqualTo(token);
        assertThat(savedUserId(first, productId)).isEqualTo(userId);
        Reply status = this.stack.status(productId, token);
        assertThat(status.text("status")).isEqualTo("WAITING");
        assertThat(status.json().get("position").asLong()).isEqualTo(1);

        // another browser, another profile: nothing of the first one's place, a place of its own behind it
        Browser second = joined(productId);
        second.awaitText("#position", "You are number 2 in line. 1 person is ahead of you.");
        assertThat(savedToken(second, productId)).isNotEqualTo(token);
        assertThat(savedUserId(second, productId)).isNotEqualTo(userId).matches("[A-Za-z0-9_-]{22}");
        assertThat(shownPosition(second)).isEqualTo(2);
        assertThat(first.text("#position")).startsWith("You are number 1 in line.");
    }

    @Test
    void aReloadKeepsThePlaceAndLeavingGivesItUp() {
        long productId = queue(1, 120, 5);
        visitorAhead(productId, "AVAILABLE");
        visitorAhead(productId, "WAITING");
        Browser browser = joined(productId);
        browser.awaitText("#position", "You are number 2 in line.");
        String token = savedToken(browser, productId);
        assertThat(token).isNotBlank();

        browser.driver.navigate().refresh();
        browser.awaitText("#position", "You are number 2 in line.");
        assertThat(savedToken(browser, productId)).isEqualTo(token);
        assertThat(this.stack.status(productId, token).text("status")).isEqualTo("WAITING");

        browser.find("#leave").click();
        browser.awaitText("#notice", "You left the line and gave up your place.");
        assertThat(browser.text("#join")).isEqualTo("Join the line");
        assertThat(savedToken(browser, productId)).isNull();
        assertThat(this.stack.status(productId, token).text("status")).isEqualTo("EXPIRED");
        browser.screenshot("6-left");

        // having left, a reload offers to join again rather than joining by itself
        browser.driver.navigate().refresh();
        browser.await("the join button after a reload", d -> browser.visible("#join")
                && browser.find("#join").isEnabled() && browser.text("#join").equals("Join the line"));
        assertThat(savedToken(browser, productId)).isNull();

        browser.find("#join").click();
        browser.awaitText("#position", "You are number 2 in line.");
        assertThat(savedToken(browser, productId)).isNotEqualTo(token);
    }

    @Test
    void soldOutIsSaidAtOnceToAnAdmittedPersonWhoKeepsTheTurnAndBooksWhenTicketsComeBack() {
        long productId = queue(5, 120, 1);
        Browser browser = joined(productId);
        browser.awaitText("#available-heading", "It's your turn");
        // someone else admitted at the same time books the last ticket: the page says so without being asked
        String quicker = visitorAhead(productId, "AVAILABLE");
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
        Browser browser = joinedPolling(productId);
        browser.awaitText("#available-heading", "It's your turn");
        browser.script("""
                const real = window.fetch;
                window.fetch = function (url, init) {
                  if (String(url).includes('/entries/') && (!init || init.method === 'GET')) return new Promise(() => {});
                  return real.apply(this, arguments);
                };""");
        String quicker = visitorAhead(productId, "AVAILABLE");
        assertThat(this.stack.book(productId, quicker).status()).isEqualTo(201);

        browser.find("#book").click();
        browser.awaitText("#available-heading", "Sold out for now");
        assertThat(browser.visible("#book")).isFalse();
        provokes("409");
    }

    @Test
    void aKoreanBrowserGetsThePageInKoreanAndTheSwitchTurnsItToEnglishForGood() {
        long productId = queue(1, 120, 5);
        visitorAhead(productId, "AVAILABLE");
        Browser browser = onPage(Browser.desktop("ko-KR,ko"), productId);
        browser.awaitText("h1", "상품 " + productId + " 대기실");
        assertThat(browser.script("return document.getElementById('join-heading').textContent;"))
            .isEqualTo("대기열에 들어가기");

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
        String holder = visitorAhead(productId, "AVAILABLE");
        Browser browser = onPage(Browser.desktop("en-US,en"), productId);
        browser.awaitText("h1", "Waiting room for product " + productId);
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
        Browser browser = joined(productId);
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
        String holder = visitorAhead(productId, "AVAILABLE");
        Browser browser = joined(productId);
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
        visitorAhead(productId, "AVAILABLE");
        // a browser whose polls can be answered as a busy server would
        Browser browser = joinedPolling(productId);
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
    void aLinkWithThePassTheShopSignedJoinsAsItsSubjectAndLeavesNoPassInTheAddressBar() throws JOSEException {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID("shop-page").generate();
        long productId = ownProduct();
        configure(productId, 1, 120, "\"identity\":\"pass\",\"passKeys\":["
                + JsonMapper.shared().writeValueAsString(shop.toPublicJWK().toJSONObject()) + "]");
        assertThat(this.stack.setStock(productId, 1).status()).isEqualTo(200);

        // without the shop's link the page cannot join, and says where to go
        Browser stranger = onPage(Browser.desktop(), productId);
        stranger.awaitText("#notice", "This line is for people the shop invited: open the link the shop sent you.");
        assertThat(stranger.visible("#join")).as("no button that could only be refused").isFalse();
        assertThat(savedToken(stranger, productId)).isNull();
        // nor with a pass that has expired
        stranger.open("about:blank");
        stranger.open(page(productId) + "#pass=" + pass(shop, "member-7", productId, -120));
        stranger.awaitText("#notice", "This link does not let you into this line, or it has expired");
        assertThat(stranger.driver.getCurrentUrl()).doesNotContain("pass=");

        String pass = pass(shop, "member-42", productId, 600);
        Browser member = onPage(Browser.desktop(), page(productId) + "#pass=" + pass);
        member.awaitText("#available-heading", "It's your turn");
        assertThat(savedUserId(member, productId)).isEqualTo("member-42");
        // read once, the pass is out of the address bar: not bookmarked, shared or synced with the page
        assertThat(member.script("return location.hash;")).isEqualTo("");
        assertThat(member.driver.getCurrentUrl()).isEqualTo(page(productId));
        assertThat(member.script("return JSON.stringify(localStorage);")).asString().doesNotContain(pass);
        // the pass names the place: the shop entering with it again is answered the same token
        String token = savedToken(member, productId);
        assertThat(enterWith(productId, "{\"pass\":\"" + pass + "\"}").text("token")).isEqualTo(token);

        member.driver.navigate().refresh();
        member.awaitText("#available-heading", "It's your turn");
        assertThat(savedToken(member, productId)).isEqualTo(token);
        member.find("#book").click();
        member.awaitText("#done-heading", "Booked!");
        Reply booking = this.stack.send("GET", Stack.url(this.stack.booking, "/api/v1/bookings/"
                + member.text("#booking-id")), null, null, Map.of());
        assertThat(booking.text("userId")).isEqualTo("member-42");
        provokes("403");
    }

    @Test
    void aLineOnlyTheShopEntersIsNotJoinedFromThePageWhichFollowsThePlaceTheShopHandsIt() {
        long productId = ownProduct();
        configure(productId, 1, 120, "\"identity\":\"visitor\"");
        assertThat(this.stack.setStock(productId, 5).status()).isEqualTo(200);
        // the place the shop's backend entered for its user and hands to the page (taken here while the line let
        // visitors in; a token is the place whoever entered it)
        String handed = visitorAhead(productId, "AVAILABLE");
        configure(productId, 1, 120, "\"identity\":\"trusted\"");
        // a trusted line asks an enter without a user id for one (400 user_id_required) before it asks for the key
        await().atMost(Stack.ANSWER_WITHIN)
            .until(() -> "user_id_required".equals(enterWith(productId, "{}").text("code")));

        Browser stranger = onPage(Browser.desktop(), productId);
        stranger.awaitText("#notice", "This line is joined from the shop's site");
        assertThat(stranger.visible("#join")).as("no button that could only be refused").isFalse();
        assertThat(savedToken(stranger, productId)).isNull();
        stranger.screenshot("1-from-shop");

        Browser customer = onPage(Browser.desktop(), page(productId) + "#token=" + handed);
        customer.awaitText("#available-heading", "It's your turn");
        assertThat(savedToken(customer, productId)).isEqualTo(handed);
        assertThat(customer.driver.getCurrentUrl()).isEqualTo(page(productId));
        customer.driver.navigate().refresh();
        customer.awaitText("#available-heading", "It's your turn");
        provokes("400");
    }

    /** A pass the shop's backend signs for its user: sub, product and exp, as PassVerifier takes them. */
    private static String pass(ECKey key, String userId, long productId, int expiresInSeconds) throws JOSEException {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(userId)
            .claim("product", productId)
            .expirationTime(new Date(System.currentTimeMillis() + expiresInSeconds * 1000L))
            .build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }

    @Test
    void onAPhoneNothingScrollsSideways() {
        long productId = queue(1, 120, 5);
        String holder = visitorAhead(productId, "AVAILABLE");
        Browser browser = onPage(Browser.phone(), productId);
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
