package io.queuegate.loopback;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;

/**
 * A deliberately small HTTP/1.1 client: a bounded pool of keep-alive connections to one loopback server, blocking
 * sockets on the caller's (virtual) thread, requests written as one buffer. It exists because the generator shares
 * two cores with the services: {@code java.net.http} spends several hand-offs per request, this spends none.
 * The benchmark's generator and the fault runner's forgery check both send through it.
 * It understands exactly what the services answer: Content-Length or chunked bodies, and {@code Connection: close}.
 */
public final class HttpPool implements AutoCloseable {

    public record Response(int status, String body) {
    }

    private final String host;

    private final int port;

    private final Semaphore permits;

    private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();

    private final String hostHeader;

    public HttpPool(String host, int port, int maxConnections) {
        this.host = host;
        this.port = port;
        this.permits = new Semaphore(maxConnections);
        this.hostHeader = "Host: " + host + ":" + port + "\r\n";
    }

    /**
     * Opens {@code count} connections one after the other before the load starts. Hundreds of simultaneous connects
     * overflow Tomcat's accept backlog (100), and a handshake the server dropped is retried by the kernel with
     * exponential back-off: whole seconds in which the generator measures nothing but its own connects.
     */
    public HttpPool warm(int count) throws IOException {
        for (int i = 0; i < count; i++) {
            this.idle.offer(new Connection(this.host, this.port));
        }
        return this;
    }

    public Response get(String path) throws IOException {
        return exchange(("GET " + path + " HTTP/1.1\r\n" + this.hostHeader + "Accept: application/json\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    }

    public Response post(String path, String json) throws IOException {
        return send("POST", path, json, null);
    }

    public Response put(String path, String json, String bearer) throws IOException {
        return send("PUT", path, json, bearer);
    }

    private Response send(String method, String path, String json, String bearer) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + path + " HTTP/1.1\r\n" + this.hostHeader
                + "Content-Type: application/json\r\nAccept: application/json\r\n"
                + (bearer == null ? "" : "Authorization: Bearer " + bearer + "\r\n")
                + "Content-Length: " + body.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        return exchange(request);
    }

    /**
     * Sends one request. A pooled connection the server closed while idle (Tomcat closes after its keep-alive limit or
     * timeout) fails before any answer byte arrives; then the request goes once more on a fresh connection.
     */
    private Response exchange(byte[] request) throws IOException {
        this.permits.acquireUninterruptibly();
        try {
            while (true) {
                Connection connection = this.idle.poll();
                boolean fresh = connection == null;
                if (fresh) {
                    connection = new Connection(this.host, this.port);
                }
                try {
                    Response response = connection.exchange(request);
                    if (connection.reusable) {
                        this.idle.offer(connection);
                    }
                    else {
                        connection.close();
                    }
                    return response;
                }
                catch (IOException ex) {
                    connection.close();
                    if (fresh || connection.answered) {
                        throw ex;
                    }
                }
            }
        }
        finally {
            this.permits.release();
        }
    }

    @Override
    public void close() {
        Connection connection;
        while ((connection = this.idle.poll()) != null) {
            connection.close();
        }
    }

    private static final class Connection {

        private final Socket socket;

        private final InputStream in;

        private final OutputStream out;

        private final byte[] buffer = new byte[16 * 1024];

        private int position;

        private int limit;

        boolean reusable;

        boolean answered;

        Connection(String host, int port) throws IOException {
            this.socket = new Socket();
            this.socket.setTcpNoDelay(true);
            this.socket.connect(new InetSocketAddress(host, port), 5_000);
            this.socket.setSoTimeout(30_000);
            this.in = this.socket.getInputStream();
            this.out = this.socket.getOutputStream();
        }

        Response exchange(byte[] request) throws IOException {
            this.answered = false;
            this.reusable = false;
            this.out.write(request);
            this.out.flush();
            String statusLine = line();
            this.answered = true;
            if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP answer: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            int length = -1;
            boolean chunked = false;
            boolean keepAlive = true;
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Integer.parseInt(value);
                }
                else if (name.equalsIgnoreCase("Transfer-Encoding") && value.equalsIgnoreCase("chunked")) {
                    chunked = true;
                }
                else if (name.equalsIgnoreCase("Connection") && value.equalsIgnoreCase("close")) {
                    keepAlive = false;
                }
            }
            String body;
            if (chunked) {
                StringBuilder text = new StringBuilder();
                for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
                        size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
                    text.append(new String(bytes(size), StandardCharsets.UTF_8));
                    line();
                }
                for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                    // trailers are not used by the services
                }
                body = text.toString();
            }
            else if (length >= 0) {
                body = length == 0 ? "" : new String(bytes(length), StandardCharsets.UTF_8);
            }
            else if (status == 204 || status == 304) {
                body = "";
            }
            else {
                keepAlive = false;
                body = "";
            }
            this.reusable = keepAlive;
            return new Response(status, body);
        }

        private int fill() throws IOException {
            if (this.position < this.limit) {
                return this.limit - this.position;
            }
            int read = this.in.read(this.buffer);
            if (read < 0) {
                throw new EOFException("connection closed by the server");
            }
            this.position = 0;
            this.limit = read;
            return read;
        }

        private String line() throws IOException {
            StringBuilder text = null;
            while (true) {
                fill();
                for (int i = this.position; i < this.limit; i++) {
                    if (this.buffer[i] == '\n') {
                        int end = i > this.position && this.buffer[i - 1] == '\r' ? i - 1 : i;
                        String part = new String(this.buffer, this.position, end - this.position,
                                StandardCharsets.ISO_8859_1);
                        this.position = i + 1;
                        if (text == null) {
                            return part;
                        }
                        text.append(part);
                        int last = text.length() - 1;
                        if (last >= 0 && text.charAt(last) == '\r') {
                            text.setLength(last);
                        }
                        return text.toString();
                    }
                }
                if (text == null) {
                    text = new StringBuilder();
                }
                text.append(new String(this.buffer, this.position, this.limit - this.position,
                        StandardCharsets.ISO_8859_1));
                this.position = this.limit;
            }
        }

        private byte[] bytes(int count) throws IOException {
            byte[] out = new byte[count];
            int copied = 0;
            while (copied < count) {
                int available = fill();
                int n = Math.min(available, count - copied);
                System.arraycopy(this.buffer, this.position, out, copied, n);
                this.position += n;
                copied += n;
            }
            return out;
        }

        void close() {
            try {
                this.socket.close();
            }
            catch (IOException ignored) {
                // closing a loopback socket has nothing to report
            }
        }
    }
}
