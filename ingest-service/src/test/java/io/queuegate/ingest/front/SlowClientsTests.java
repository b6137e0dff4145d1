package io.queuegate.ingest.front;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that send slowly, or never, meet deadlines at once and cannot starve anyone else: headers dribbled a byte
 * at a time, a declared body that never comes (on the fast path and on a request handed to WebFlux), and
 * 300 such bodies at once while a well-behaved client is answered beside them.
 */
@TestPropertySource(properties = { "queuegate.ingest.front.header-timeout=1s", "queuegate.ingest.front.body-timeout=1s" })
class SlowClientsTests extends IngestHttpTestSupport {

    static final Duration DEADLINE_KEPT = Duration.ofMillis(2500);

    long product;

    @BeforeEach
    void openQueue() {
        this.product = newOpenQueue(1, 1);
    }

    @Test
    void headersSentTooSlowlyAreAnswered408AndTheConnectionClosed() throws IOException {
        try (Socket socket = connect()) {
            long started = System.nanoTime();
            // a byte every 300 ms: each read is recent, but the headers never end in time
            String request = "GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: ";
            String answer = null;
            for (int i = 0; i < 20 && answer == null; i++) {
                try {
                    socket.getOutputStream().write(i == 0 ? request.getBytes(StandardCharsets.ISO_8859_1)
                            : new byte[] { 'a' });
                    socket.setSoTimeout(300);
                    answer = readAll(socket.getInputStream());
                }
                catch (java.net.SocketTimeoutException ex) {
                    // nothing answered yet: send the next byte
                }
                catch (IOException ex) {
                    break;
                }
            }
            assertThat(answer).startsWith("HTTP/1.1 408").contains("Connection: close").contains("request_timeout");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE_KEPT);
        }
    }

    @Test
    void aDeclaredBodyThatNeverComesIsAnswered408OnEveryPath() throws IOException {
        String enter = "POST /api/v1/queues/" + this.product + "/entries HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"userId\":";
        String chunked = "POST /api/v1/queues/" + this.product + "/entries HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"use\r\n";
        for (String request : List.of(enter, chunked)) {
            try (Socket socket = connect()) {
                long started = System.nanoTime();
                socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                String answer = readAll(socket.getInputStream());
                assertThat(answer).as(request).startsWith("HTTP/1.1 408");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(DEADLINE_KEPT);
            }
        }
    }

    @Test
    void threeHundredBodiesThatNeverComeStarveNobody() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<String> paths = List.of("/livez", "/readyz", "/queues/" + this.product, "/api/v1/page-settings");
        // once before, so that what is timed below is the wait behind the silent sockets, not a first call
        for (String path : paths) {
            get(client, path);
        }
        List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                Socket socket = connect();
                // chunked: handed to WebFlux, the route that 300 such sockets closed when a pool of connections stood before it
                socket.getOutputStream().write(("POST /api/v1/queues/" + this.product + "/entries HTTP/1.1\r\n"
                        + "Host: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\n{\"use\r\n").getBytes(StandardCharsets.ISO_8859_1));
                silent.add(socket);
            }
            for (String path : paths) {
                long started = System.nanoTime();
                HttpResponse<String> answer = get(client, path);
                assertThat(answer.statusCode()).as(path).isEqualTo(200);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(path).isLessThan(Duration.ofSeconds(1));
            }
        }
        finally {
            for (Socket socket : silent) {
                socket.close();
            }
        }
    }

    private HttpResponse<String> get(HttpClient client, String path) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static String readAll(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
}
