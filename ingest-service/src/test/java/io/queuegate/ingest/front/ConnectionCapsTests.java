package io.queuegate.ingest.front;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Past the caps on connections from one address and on requests in flight a request is answered 503 with
 * Retry-After at once, and the probes are answered all the same. A trusted proxy (127.0.0.2 here) is not held to
 * the cap per address, and no header makes anyone else one.
 */
@TestPropertySource(properties = { "queuegate.ingest.front.max-connections-per-client=20",
        "queuegate.ingest.trusted-proxies=127.0.0.2",
        "queuegate.ingest.front.max-in-flight=3", "queuegate.ingest.front.body-timeout=5s" })
class ConnectionCapsTests extends IngestHttpTestSupport {

    long product;

    @BeforeEach
    void openQueue() {
        this.product = newOpenQueue(1, 1);
    }

    @Test
    void aConnectionPastTheCapFromOneAddressIsRefusedButForProbes() throws IOException {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                held.add(answeredAndKept(InetAddress.getLoopbackAddress()));
            }
            try (Socket extra = connect()) {
                String answer = exchange(extra, "GET /api/v1/page-settings HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(answer).startsWith("HTTP/1.1 503").containsIgnoringCase("retry-after: 1")
                    .contains("\"code\":\"unavailable\"").containsIgnoringCase("connection: close");
            }
            try (Socket probe = connect()) {
                assertThat(exchange(probe, "GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
                    .startsWith("HTTP/1.1 200");
            }
        }
        finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        // the held connections are gone, and with them the cap's count
        try (Socket again = connect()) {
            assertThat(exchange(again, "GET /api/v1/page-settings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void aTrustedProxyIsNotHeldToTheCapPerAddressAndAForwardedHeaderMakesNobodyOne() throws IOException {
        InetAddress proxy = InetAddress.getByName("127.0.0.2");
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 25; i++) {
                held.add(answeredAndKept(proxy));
            }
            for (int i = 0; i < 20; i++) {
                held.add(answeredAndKept(InetAddress.getLoopbackAddress()));
            }
            try (Socket extra = connect()) {
                // claiming to come through the proxy changes nothing: the socket's address is the one counted
                String answer = exchange(extra, "GET /api/v1/page-settings HTTP/1.1\r\nHost: x\r\n"
                        + "X-Forwarded-For: 203.0.113.9, 127.0.0.2\r\nForwarded: for=127.0.0.2\r\n\r\n");
                assertThat(answer).startsWith("HTTP/1.1 503").contains("\"code\":\"unavailable\"");
            }
        }
        finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aRequestPastTheInFlightCapIsAnswered503AtOnceButProbesAreNot() throws IOException {
        List<Socket> slow = new ArrayList<>();
        try {
            // three enters in flight: their bodies are declared and do not come (for up to the body deadline)
            for (int i = 0; i < 3; i++) {
                Socket socket = connect();
                socket.getOutputStream().write(("POST /api/v1/queues/" + this.product + "/entries HTTP/1.1\r\n"
                        + "Host: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{")
                    .getBytes(StandardCharsets.ISO_8859_1));
                slow.add(socket);
            }
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).untilAsserted(() -> {
                try (Socket next = connect()) {
                    assertThat(exchange(next, "GET /api/v1/page-settings HTTP/1.1\r\nHost: x\r\n"
                            + "Connection: close\r\n\r\n")).startsWith("HTTP/1.1 503")
                        .containsIgnoringCase("retry-after: 1");
                }
            });
            try (Socket probe = connect()) {
                assertThat(exchange(probe, "GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
                    .startsWith("HTTP/1.1 200").contains("{\"status\":\"UP\"}").doesNotContain("components");
            }
        }
        finally {
            for (Socket socket : slow) {
                socket.close();
            }
        }
    }

    /**
     * A connection from {@code from} whose first request was answered 200 and that is kept open: answered on a
     * kept-alive connection, it is counted before the next one opens.
     */
    private Socket answeredAndKept(InetAddress from) throws IOException {
        Socket socket = connect(from);
        socket.getOutputStream().write("GET /api/v1/page-settings HTTP/1.1\r\nHost: x\r\n\r\n"
            .getBytes(StandardCharsets.ISO_8859_1));
        assertThat(readOne(socket.getInputStream())).as("a kept-alive connection from %s", from)
            .startsWith("HTTP/1.1 200");
        return socket;
    }

    /** One response with a Content-Length, read without waiting for the connection to close. */
    private static String readOne(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            head.write(in.read());
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        String length = headers.lines().filter((line) -> line.toLowerCase(java.util.Locale.ROOT)
            .startsWith("content-length:")).findFirst().orElseThrow();
        in.readNBytes(Integer.parseInt(length.substring(length.indexOf(':') + 1).trim()));
        return headers;
    }

    private Socket connect() throws IOException {
        return connect(InetAddress.getLoopbackAddress());
    }

    private Socket connect(InetAddress from) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port, from, 0);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static String exchange(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = socket.getInputStream();
        java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
        try {
            for (int b = in.read(); b >= 0; b = in.read()) {
                got.write(b);
            }
        }
        catch (java.net.SocketTimeoutException ex) {
            throw new AssertionError("not closed after: " + got.toString(StandardCharsets.ISO_8859_1), ex);
        }
        return got.toString(StandardCharsets.ISO_8859_1);
    }
}
