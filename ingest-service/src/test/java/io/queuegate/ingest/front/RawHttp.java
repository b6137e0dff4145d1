package io.queuegate.ingest.front;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Requests as bytes, exactly as written, for what an HTTP client library would refuse to send. */
final class RawHttp {

    private RawHttp() {
    }

    /** Sends the request on a new connection and returns everything answered until the server closes it. */
    static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                answer.write(buffer, 0, read);
            }
            return answer.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
