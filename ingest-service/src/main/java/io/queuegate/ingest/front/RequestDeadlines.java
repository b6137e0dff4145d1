package io.queuegate.ingest.front;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.queuegate.web.ProblemCodes;

/**
 * Deadlines a client meets while it sends one request: from the request's first byte to the end of its headers
 * ({@code header-timeout}), and from there to the end of its body ({@code body-timeout}). A client that is slower
 * (slowloris on headers, a declared body that never comes) is answered 408 {@code request_timeout} and closed when
 * one passes, so it holds a socket for that long at most. The wait between the requests of a kept-alive connection is
 * the idle timeout's.
 *
 * <p>Two handlers share one connection's state: {@link #bytes()} before the HTTP codec sees the raw bytes that start
 * a request, and writes the 408 itself when no request was decoded yet; {@link #requests()} after the codec sees the
 * request that ends the headers, the end of its body, and whether an answer was begun (then the connection is only
 * closed: a 408 after it would corrupt the answer).
 */
final class RequestDeadlines {

    static final String BYTES = "queuegate.deadlines.bytes";

    static final String REQUESTS = "queuegate.deadlines.requests";

    private static final byte[] HEADERS_TIMED_OUT = timedOut("The request's headers did not arrive in time.");

    private static final byte[] BODY_TIMED_OUT = timedOut("The request's body did not arrive in time.");

    private final long headerNanos;

    private final long bodyNanos;

    private ScheduledFuture<?> deadline;

    /** Between the end of a request's headers and the end of its body. */
    private boolean inBody;

    /** Whether the answer to the request being read was begun. */
    private boolean answering;

    RequestDeadlines(long headerNanos, long bodyNanos) {
        this.headerNanos = headerNanos;
        this.bodyNanos = bodyNanos;
    }

    /** Before the codec: the first raw bytes of a request start the header deadline. */
    ChannelHandler bytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext context, Object message) {
                if (message instanceof ByteBuf && RequestDeadlines.this.deadline == null
                        && !RequestDeadlines.this.inBody) {
                    start(context, RequestDeadlines.this.headerNanos, HEADERS_TIMED_OUT);
                }
                context.fireChannelRead(message);
            }

            @Override
            public void channelInactive(ChannelHandlerContext context) {
                cancel();
                context.fireChannelInactive();
            }
        };
    }

    /** After the codec: a decoded request ends the header deadline and starts the body's, its last content ends it. */
    ChannelHandler requests() {
        return new ChannelDuplexHandler() {
            private ChannelHandlerContext below;

            @Override
            public void handlerAdded(ChannelHandlerContext context) {
                this.below = context.pipeline().context(BYTES);
            }

            @Override
            public void channelRead(ChannelHandlerContext context, Object message) {
                if (message instanceof HttpRequest) {
                    cancel();
                    RequestDeadlines.this.answering = false;
                    RequestDeadlines.this.inBody = !(message instanceof LastHttpContent);
                    if (RequestDeadlines.this.inBody) {
                        start(this.below, RequestDeadlines.this.bodyNanos, BODY_TIMED_OUT);
                    }
                }
                else if (message instanceof LastHttpContent && RequestDeadlines.this.inBody) {
                    cancel();
                    RequestDeadlines.this.inBody = false;
                }
                context.fireChannelRead(message);
            }

            @Override
            public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) {
                if (message instanceof HttpResponse) {
                    RequestDeadlines.this.answering = true;
                }
                context.write(message, promise);
            }
        };
    }

    private void start(ChannelHandlerContext below, long nanos, byte[] answer) {
        this.deadline = below.executor().schedule(() -> expire(below, answer), nanos, TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        if (this.deadline != null) {
            this.deadline.cancel(false);
            this.deadline = null;
        }
    }

    /** Answers 408 below the codec, unless an answer was begun, and closes the connection. */
    private void expire(ChannelHandlerContext below, byte[] answer) {
        this.deadline = null;
        if (!below.channel().isActive()) {
            return;
        }
        if (this.answering) {
            below.close();
            return;
        }
        below.writeAndFlush(Unpooled.wrappedBuffer(answer)).addListener(ChannelFutureListener.CLOSE);
    }

    private static byte[] timedOut(String detail) {
        String body = "{\"detail\":\"" + detail + "\",\"status\":408,\"title\":\"Request Timeout\","
                + "\"code\":\"" + ProblemCodes.REQUEST_TIMEOUT + "\"}";
        return ("HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
    }
}
