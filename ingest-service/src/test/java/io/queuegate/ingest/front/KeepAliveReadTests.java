package io.queuegate.ingest.front;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.queuegate.core.token.TokenCodec;
import io.queuegate.ingest.IngestHttpTestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kept-alive connection goes on being read after a request that was answered at once: the poll that hung for 20 s
 * in CI. Reactor Netty 1.3.6 buffers a request that arrives before the previous request's operations have
 * terminated; when the buffered one is answered re-entrantly, nothing asks the channel to read again
 * (reactor/reactor-netty#4361, #4347) and the next request on the connection waits until the client gives up. Two
 * requests in one write (a poll read from Redis, then one refused at once) make that happen every time; the third
 * must still be answered. And an HTTP/1.0 client that asks to keep its connection gets it kept.
 */
class KeepAliveReadTests extends IngestHttpTestSupport {

    long product;

    @BeforeEach
    void openQueue() {
        this.product = newOpenQueue(1, 1);
    }

    @RepeatedTest(5)
    void theRequestAfterAPipelinedPairThatEndedAtOnceIsAnswered() throws IOException {
        String token = new TokenCodec(TOKEN_SECRET).issue(this.product, "keep-alive").value();
        String read = "GET /api/v1/queues/" + this.product + "/entries/" + token + " HTTP/1.1\r\nHost: x\r\n\r\n";
        String refused = "GET /api/v1/queues/" + this.product + "/entries/not-a-token HTTP/1.1\r\nHost: x\r\n\r\n";
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
            socket.setSoTimeout(3_000);
            write(socket, read + refused);
            List<Integer> statuses = new ArrayList<>();
            statuses.add(readStatus(socket.getInputStream()));
            statuses.add(readStatus(socket.getInputStream()));
            assertThat(statuses).containsExactly(200, 400);

            write(socket, read);
            assertThat(readStatus(socket.getInputStream())).as("the third request on the connection").isEqualTo(200);
        }
    }

    @Test
    void anHttp10ConnectionAskedToBeKeptAliveIsKeptForTheFastPathsAndWebFlux() throws IOException {
        String poll = "GET /api/v1/queues/" + this.product + "/entries/not-a-token HTTP/1.0\r\n"
                + "Connection: keep-alive\r\n\r\n";
        String settings = "GET /api/v1/page-settings HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
            socket.setSoTimeout(3_000);
            List<Integer> statuses = new ArrayList<>();
            for (String request : List.of(poll, settings, poll, settings)) {
                write(socket, request);
                statuses.add(readStatus(socket.getInputStream()));
            }
            assertThat(statuses).containsExactly(400, 200, 400, 200);
        }
    }

    private static void write(Socket socket, String requests) throws IOException {
        socket.getOutputStream().write(requests.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** Reads one response (headers, then Content-Length bytes of body) and answers its status code. */
    private static int readStatus(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int next = in.read();
                if (next < 0) {
                    throw new IOException("closed after " + head);
                }
                head.write(next);
            }
        }
        catch (SocketTimeoutException ex) {
            throw new AssertionError("no answer within 3 s on the kept-alive connection; read so far: " + head, ex);
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        int length = 0;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(headers.split(" ")[1]);
    }
}
