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
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * A deadline for a request's line and headers: from the first byte of a request to the end of its headers, at most
 * {@code timeout}. A client that sends them slowly (slowloris) is answered 408 and closed when it passes; the wait
 * between requests of a kept-alive connection is the idle timeout's, and the body's the request timeout's.
 *
 * <p>Two handlers share one connection's state: {@link #bytes()} before the HTTP codec sees the raw bytes that start
 * a request, {@link #requests()} after it sees the request that ends its headers and the end of its body.
 */
final class HeaderDeadline {

    private static final byte[] TIMED_OUT = timedOut();

    private final long timeoutNanos;

    private ScheduledFuture<?> deadline;

    /** Between the end of a request's headers and the end of its body: the body's deadline applies, not this one. */
    private boolean inBody;

    HeaderDeadline(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** Before the codec: the first raw bytes of a request start the deadline. */
    ChannelHandler bytes() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext context, Object message) {
                if (message instanceof ByteBuf && HeaderDeadline.this.deadline == null
                        && !HeaderDeadline.this.inBody) {
                    HeaderDeadline.this.deadline = context.executor()
                        .schedule(() -> expire(context), HeaderDeadline.this.timeoutNanos, TimeUnit.NANOSECONDS);
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

    /** After the codec: a decoded request ends the wait for its headers; the end of its body readies the next. */
    ChannelHandler requests() {
        return new ChannelDuplexHandler() {
            @Override
            public void channelRead(ChannelHandlerContext context, Object message) {
                if (message instanceof HttpRequest) {
                    cancel();
                    HeaderDeadline.this.inBody = true;
                }
                if (message instanceof LastHttpContent) {
                    HeaderDeadline.this.inBody = false;
                }
                context.fireChannelRead(message);
            }
        };
    }

    private void cancel() {
        if (this.deadline != null) {
            this.deadline.cancel(false);
            this.deadline = null;
        }
    }

    /** Answers 408 below the codec (no request was decoded to answer) and closes the connection. */
    private void expire(ChannelHandlerContext context) {
        this.deadline = null;
        if (context.channel().isActive()) {
            context.writeAndFlush(Unpooled.wrappedBuffer(TIMED_OUT)).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static byte[] timedOut() {
        String body = "{\"detail\":\"The request's headers did not arrive in time.\",\"status\":408,"
                + "\"title\":\"Request Timeout\",\"code\":\"request_timeout\"}";
        return ("HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
    }
}
