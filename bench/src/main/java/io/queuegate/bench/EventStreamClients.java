package io.queuegate.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Many Server-Sent Event streams held open at once by one selector thread, as the buyers' browsers would hold them:
 * each stream is one connection that sends its GET and then only reads. A client knows only what the benchmark asks
 * of it: whether the stream answered 200 and told its first event, when it told AVAILABLE, and whether it was told to
 * poll instead, failed or ended. Connections come from many loopback addresses ({@code 127.0.0.2} on), a few hundred
 * each, as buyers come from many addresses: the service's limit per client address holds, and no address runs out of
 * ephemeral ports.
 */
final class EventStreamClients implements AutoCloseable {

    /** One buyer's stream. */
    static final class Stream {

        final String userId;

        final String path;

        volatile boolean answered200;

        /** Epoch milliseconds of the first event, 0 before. */
        volatile long firstEventAt;

        /** Epoch milliseconds the AVAILABLE event arrived, 0 before. */
        volatile long availableAt;

        volatile boolean toldToPoll;

        volatile boolean ended;

        volatile long events;

        /** The unfinished last line of the previous read, so a line split across two reads is still read whole. */
        private String tail = "";

        private boolean headersRead;

        private void event(String name, long now) {
            this.events++;
            if (this.firstEventAt == 0) {
                this.firstEventAt = now;
            }
            if (name.equals("AVAILABLE") && this.availableAt == 0) {
                this.availableAt = now;
            }
            else if (name.equals("poll") || name.equals("problem")) {
                this.toldToPoll = true;
            }
        }

        Stream(String userId, String path) {
            this.userId = userId;
            this.path = path;
        }

        void read(String text, long now) {
            String seen = this.tail + text;
            if (!this.headersRead) {
                int end = seen.indexOf("\r\n\r\n");
                if (end < 0) {
                    this.tail = seen;
                    return;
                }
                this.answered200 = seen.startsWith("HTTP/1.1 200");
                this.headersRead = true;
                seen = seen.substring(end + 4);
            }
            // whole lines only: the last, unfinished one waits for the next bytes
            int from = 0;
            for (int end = seen.indexOf('\n'); end >= 0; from = end + 1, end = seen.indexOf('\n', from)) {
                if (seen.startsWith("event:", from)) {
                    event(seen.substring(from + 6, end).strip(), now);
                }
            }
            this.tail = seen.substring(from);
        }
    }

    private final Selector selector;

    private final Thread loop;

    private final String host;

    private final int port;

    private final int perAddress;

    private final Queue<Stream> toOpen = new ConcurrentLinkedQueue<>();

    private final List<Stream> streams = new ArrayList<>();

    private int opened;

    private volatile boolean closing;

    EventStreamClients(String host, int port, int perAddress) throws IOException {
        this.host = host;
        this.port = port;
        this.perAddress = perAddress;
        this.selector = Selector.open();
        this.loop = Thread.ofPlatform().name("event-streams").daemon(true).start(this::run);
    }

    /** Opens the stream on the selector thread; returns at once. */
    Stream open(String userId, String path) {
        Stream stream = new Stream(userId, path);
        synchronized (this.streams) {
            this.streams.add(stream);
        }
        this.toOpen.add(stream);
        this.selector.wakeup();
        return stream;
    }

    List<Stream> streams() {
        synchronized (this.streams) {
            return List.copyOf(this.streams);
        }
    }

    private void run() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        byte[] bytes = new byte[buffer.capacity()];
        while (!this.closing) {
            try {
                for (Stream next; (next = this.toOpen.poll()) != null;) {
                    connect(next);
                }
                this.selector.select(20);
                long now = System.currentTimeMillis();
                for (SelectionKey key : this.selector.selectedKeys()) {
                    Stream stream = (Stream) key.attachment();
                    SocketChannel channel = (SocketChannel) key.channel();
                    try {
                        if (key.isConnectable()) {
                            channel.finishConnect();
                            channel.write(ByteBuffer.wrap(("GET " + stream.path + " HTTP/1.1\r\nHost: " + this.host
                                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
                            key.interestOps(SelectionKey.OP_READ);
                        }
                        else if (key.isReadable()) {
                            buffer.clear();
                            int read = channel.read(buffer);
                            if (read < 0) {
                                end(stream, key);
                                continue;
                            }
                            buffer.flip();
                            buffer.get(bytes, 0, read);
                            stream.read(new String(bytes, 0, read, StandardCharsets.ISO_8859_1), now);
                        }
                    }
                    catch (IOException ex) {
                        end(stream, key);
                    }
                }
                this.selector.selectedKeys().clear();
            }
            catch (IOException | RuntimeException ex) {
                if (!this.closing) {
                    System.err.println("[bench] event streams: " + ex);
                }
            }
        }
    }

    private void connect(Stream stream) throws IOException {
        int address = 2 + this.opened++ / this.perAddress;
        SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.bind(new InetSocketAddress("127.0." + (address / 250) + "." + (address % 250 + 1), 0));
            channel.connect(new InetSocketAddress(this.host, this.port));
            channel.register(this.selector, SelectionKey.OP_CONNECT, stream);
        }
        catch (IOException ex) {
            channel.close();
            stream.ended = true;
        }
    }

    private static void end(Stream stream, SelectionKey key) {
        stream.ended = true;
        key.cancel();
        try {
            key.channel().close();
        }
        catch (IOException ex) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        this.closing = true;
        this.selector.wakeup();
        try {
            this.loop.join(5_000);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        for (SelectionKey key : this.selector.keys()) {
            key.channel().close();
        }
        this.selector.close();
    }
}
