package io.queuegate.web.egress;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Requests to a real server on 127.0.0.1 standing in for a shop's, refused or reached as the settings say. */
class EgressClientTests {

    private static final Duration DEADLINE = Duration.ofSeconds(1);

    /** Far more than the deadline, far less than what a trickling server would hold a request for without it. */
    private static final Duration CUT_WITHIN = Duration.ofSeconds(4);

    private static final byte[] KEYS = "{\"keys\":[]}".getBytes(StandardCharsets.UTF_8);

    private final AtomicInteger requests = new AtomicInteger();

    private final AtomicInteger redirected = new AtomicInteger();

    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();

    private HttpServer server;

    private EgressClient client;

    @BeforeEach
    void startTheShop() throws IOException {
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        this.server.setExecutor(this.handlers);
        this.server.createContext("/keys", (exchange) -> {
            this.requests.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(200, KEYS.length);
            exchange.getResponseBody().write(KEYS);
            exchange.close();
        });
        this.server.createContext("/moved", (exchange) -> {
            this.requests.incrementAndGet();
            exchange.getResponseHeaders().set("Location", "/elsewhere");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        this.server.createContext("/elsewhere", (exchange) -> {
            this.redirected.incrementAndGet();
            exchange.sendResponseHeaders(200, KEYS.length);
            exchange.getResponseBody().write(KEYS);
            exchange.close();
        });
        this.server.createContext("/trickle", (exchange) -> {
            this.requests.incrementAndGet();
            exchange.sendResponseHeaders(200, 1_000);
            try (OutputStream body = exchange.getResponseBody()) {
                for (int i = 0; i < 1_000; i++) {
                    body.write(' ');
                    body.flush();
                    Thread.sleep(50);
                }
            }
            catch (IOException | InterruptedException ex) {
                // the client went away
            }
        });
        this.server.createContext("/large", (exchange) -> {
            this.requests.incrementAndGet();
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(new byte[100 * 1024]);
            }
            catch (IOException ex) {
                // the client went away
            }
        });
        this.server.start();
    }

    @AfterEach
    void stopTheShop() {
        if (this.client != null) {
            this.client.close();
        }
        this.server.stop(0);
        this.handlers.shutdownNow();
    }

    @Test
    void asDeployedAReceiverOn127001IsNeverReached() {
        this.client = client(false, false);

        assertThatExceptionOfType(RefusedUrlException.class).isThrownBy(() -> get(url("127.0.0.1", "/keys")))
            .withMessageContaining("https");
        assertThatExceptionOfType(RefusedUrlException.class).isThrownBy(() -> post(url("127.0.0.1", "/keys")));
        assertThat(this.requests).hasValue(0);
    }

    @Test
    void withPlainHttpAllowedAnAddressInsideIsStillRefused() {
        this.client = client(false, true);

        assertThatExceptionOfType(RefusedUrlException.class).isThrownBy(() -> get(url("127.0.0.1", "/keys")))
            .withMessageContaining("127.0.0.1, which is not a public address");
        assertThatExceptionOfType(RefusedUrlException.class).isThrownBy(() -> post(url("[::1]", "/keys")))
            .withMessageContaining("not a public address");
        assertThatExceptionOfType(RefusedUrlException.class)
            .isThrownBy(() -> get(url("[::ffff:127.0.0.1]", "/keys")))
            .withMessageContaining("127.0.0.1, which is not a public address");
        assertThat(this.requests).hasValue(0);
    }

    @Test
    void aNameThatResolvesToLoopbackIsRefusedWhenConnecting() {
        this.client = client(false, true);

        assertThatExceptionOfType(RefusedAddressException.class).isThrownBy(() -> get(url("localhost", "/keys")))
            .withMessageStartingWith("localhost resolves to ");
        assertThatExceptionOfType(RefusedAddressException.class).isThrownBy(() -> post(url("localhost", "/keys")));
        assertThat(this.requests).hasValue(0);
    }

    @Test
    void withPrivateAddressesAndHttpAllowedTheReceiverIsReached() throws IOException {
        this.client = client(true, true);

        EgressClient.Reply reply = this.client.get(url("127.0.0.1", "/keys"), "application/json", 1024);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo(KEYS);
        assertThat(post(url("localhost", "/keys"))).isEqualTo(200);
        assertThat(post(url("[::ffff:127.0.0.1]", "/keys"))).isEqualTo(200);
        assertThat(this.requests).hasValue(3);
    }

    @Test
    void withPrivateAddressesAllowedHttpsIsStillRequired() {
        this.client = client(true, false);

        assertThatExceptionOfType(RefusedUrlException.class).isThrownBy(() -> post(url("127.0.0.1", "/keys")))
            .withMessageContaining("https");
        assertThat(this.requests).hasValue(0);
    }

    @Test
    void aRedirectIsAnsweredAsItCameAndNotFollowed() throws IOException {
        this.client = client(true, true);

        assertThat(this.client.get(url("127.0.0.1", "/moved"), "application/json", 1024).status()).isEqualTo(302);
        assertThat(post(url("127.0.0.1", "/moved"))).isEqualTo(302);
        assertThat(this.requests).hasValue(2);
        assertThat(this.redirected).hasValue(0);
    }

    @Test
    void aBodyThatTricklesIsCutOffAtTheDeadline() {
        this.client = client(true, true);

        long start = System.nanoTime();
        assertThatExceptionOfType(SocketTimeoutException.class).as("the fetch failed at its deadline")
            .isThrownBy(() -> get(url("127.0.0.1", "/trickle")))
            .withMessageContaining("within " + DEADLINE.toMillis() + " ms");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isGreaterThanOrEqualTo(DEADLINE.minusMillis(50)).isLessThan(CUT_WITHIN);
        assertThat(this.requests).hasValue(1);

        start = System.nanoTime();
        assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> post(url("127.0.0.1", "/trickle")));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CUT_WITHIN);
    }

    @Test
    void headersThatTrickleAreCutOffAtTheDeadline() throws Exception {
        this.client = client(true, true);
        try (ServerSocket slow = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> trickleHeaders(slow));

            long start = System.nanoTime();
            assertThatExceptionOfType(SocketTimeoutException.class)
                .isThrownBy(() -> get("http://127.0.0.1:" + slow.getLocalPort() + "/keys"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(CUT_WITHIN);
        }
    }

    @Test
    void aKeySetLargerThanTheLimitIsRefused() {
        this.client = client(true, true);

        assertThatExceptionOfType(IOException.class).isThrownBy(() -> get(url("127.0.0.1", "/large")))
            .withMessageContaining("longer than 65536 bytes");
        assertThat(this.requests).hasValue(1);
    }

    private EgressClient client(boolean allowPrivate, boolean allowHttp) {
        return new EgressClient(new EgressProperties(allowPrivate, allowHttp), DEADLINE, "test");
    }

    private String url(String host, String path) {
        return "http://" + host + ":" + this.server.getAddress().getPort() + path;
    }

    private EgressClient.Reply get(String url) throws IOException {
        return this.client.get(url, "application/json", 64 * 1024);
    }

    private int post(String url) throws IOException {
        return this.client.post(url, "{}".getBytes(StandardCharsets.UTF_8), Map.of("User-Agent", "test"));
    }

    /** Takes one connection and answers its status line and headers a byte every 50 ms, for about a minute. */
    private static void trickleHeaders(ServerSocket server) {
        try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
            byte[] head = ("HTTP/1.1 200 OK\r\n" + "X-Slow: " + "a".repeat(1_200) + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
            for (byte b : head) {
                out.write(b);
                out.flush();
                Thread.sleep(50);
            }
        }
        catch (IOException | InterruptedException ex) {
            // the client went away
        }
    }
}
