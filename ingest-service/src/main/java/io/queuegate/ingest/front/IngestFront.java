package io.queuegate.ingest.front;

import java.net.InetSocketAddress;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpVersion;
import io.queuegate.web.ApiException;
import io.queuegate.web.Redaction;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;
import reactor.netty.http.server.logging.AccessLog;
import reactor.netty.http.server.logging.AccessLogArgProvider;


/**
 * What ingest's one HTTP server (Reactor Netty, built by Spring Boot's {@code NettyReactiveWebServerFactory}) does
 * before and besides Spring WebFlux: the limits every client meets ({@link RequestDeadlines}, {@link ConnectionLimits},
 * {@link PerClientLimits}, the cap on requests in flight, idle keep-alive), the {@link FastPath}s that answer enters and polls on the event
 * loops, and the hand-off of every other request to WebFlux on the same connection ({@link WebFluxStack}).
 *
 * <p>Why: on two cores Reactor Netty alone answers a request for half the CPU of a plain Spring Boot application, and
 * the waits for Kafka's acknowledgement and for Redis cost a future each instead of a parked thread
 * (docs/BENCHMARKS.md, "The HTTP stack"). Boot still starts, ports and gracefully stops the server.
 */
public final class IngestFront {

    /**
     * Whether Reactor Netty's access log is on: off unless the JVM is started with
     * {@code -Dreactor.netty.http.server.accessLogEnabled=true}. On, its lines are {@link #accessLogEntry}'s.
     */
    private static final boolean ACCESS_LOG = Boolean.getBoolean("reactor.netty.http.server.accessLogEnabled");

    private final FrontProperties properties;

    /** The fast paths by the kind of request each answers. */
    private final Map<DoorRoute.Kind, FastPath> paths = new EnumMap<>(DoorRoute.Kind.class);

    private final WebFluxStack webFlux;

    private final FrontReplies replies;

    private final long maxBodyBytes;

    private final FrontLoops loops;

    /**
     * Runs a request's handler in a task of its own on the connection's event loop, never inside the call that
     * dispatched it. Reactor Netty 1.3.6 (and 1.3.7) buffers a kept-alive request that arrives before the previous
     * one's end; when it then dispatches that request and the answer ends within the same call, nothing asks the
     * channel to read again (reactor/reactor-netty#4361, #4347) and the connection's next request sits unread until
     * the client gives up: the status poll that hung for 20 s in CI. Answered a task later, the request's end finds
     * the buffer drained and asks for the next read, as it does for every answer that waited for Redis or Kafka.
     */
    private final Map<EventLoop, Scheduler> laterOnTheLoop = new ConcurrentHashMap<>();

    private final ConnectionLimits connections;

    private final DoorLimits limits;

    private final AtomicInteger inFlight = new AtomicInteger();

    IngestFront(FrontProperties properties, List<FastPath> paths, WebFluxStack webFlux, FrontReplies replies,
            long maxBodyBytes, ClientAddresses clients, PerClientLimits perClient, FrontLoops loops) {
        this.properties = properties;
        for (FastPath path : paths) {
            path.kinds().forEach((kind) -> this.paths.put(kind, path));
        }
        this.webFlux = webFlux;
        this.replies = replies;
        this.maxBodyBytes = maxBodyBytes;
        this.connections = new ConnectionLimits(properties.maxConnections(), properties.maxConnectionsPerClient(),
                clients);
        this.limits = new DoorLimits(clients, perClient, properties.retryAfter());
        this.loops = loops;
    }

    /**
     * The server's settings: its event loops ({@link FrontLoops}), the idle timeout, the access log's lines when it
     * is on ({@link #accessLogEntry}), and on each new connection its caps and deadlines.
     */
    HttpServer configure(HttpServer server) {
        return server.runOn(this.loops.loops())
            .idleTimeout(this.properties.idleTimeout())
            .accessLog(ACCESS_LOG, IngestFront::accessLogEntry)
            .doOnChannelInit((observer, channel, remote) -> {
                this.connections.opened(channel);
                RequestDeadlines deadlines = new RequestDeadlines(this.properties.headerTimeout().toNanos(),
                        this.properties.bodyTimeout().toNanos());
                channel.pipeline().addFirst(RequestDeadlines.BYTES, deadlines.bytes());
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, RequestDeadlines.REQUESTS, deadlines.requests());
            });
    }

    /**
     * The server's one route: every request, decided once ({@link DoorRoute}), past the limits, to the fast path of its
     * kind or else to WebFlux. Spring Boot's own route to WebFlux, which it adds after this one, is never reached.
     */
    HttpServerRoutes route(HttpServerRoutes server) {
        return server.route((request) -> true, (request, response) -> Mono.defer(() -> answer(request, response))
            .subscribeOn(laterOn(request)));
    }

    /**
     * Dispatches the request unless a limit says no: a connection past the connection caps, or a request past the
     * in-flight cap, is answered 503 with Retry-After (and such a connection closed), except the probes, which an
     * orchestrator must get answers to whatever strangers do.
     */
    private Mono<Void> answer(HttpServerRequest request, HttpServerResponse response) {
        if (request.version() == HttpVersion.HTTP_1_0 && request.isKeepAlive()) {
            // an HTTP/1.0 connection stays open only when the answer says so, which Reactor Netty leaves unsaid (its
            // keepAlive(true) speaks HTTP/1.1, where keeping is the default) and then closes the connection
            response.header(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        DoorRoute route = DoorRoute.of(request);
        DoorRoute.Kind kind = route.kind();
        ApiException refusal = RequestGate.refusal(request, this.maxBodyBytes);
        if (refusal == null && kind != DoorRoute.Kind.PROBE) {
            refusal = this.limits.refusal(request, response, route);
        }
        if (refusal == null && kind.inFlight() && this.inFlight.incrementAndGet() > this.properties.maxInFlight()) {
            this.inFlight.decrementAndGet();
            refusal = ApiException.unavailable("Too many requests at once; try again shortly.",
                    this.properties.retryAfter());
        }
        if (refusal != null) {
            return RequestGate.refuse(request, response, this.replies, refusal);
        }
        FastPath path = this.paths.get(kind);
        Mono<Void> answer = path != null ? path.answer(request, response, route, this.webFlux)
                : this.webFlux.handle(request, response, route);
        return kind.inFlight() ? answer.doFinally((signal) -> this.inFlight.decrementAndGet()) : answer;
    }

    /**
     * A line of the access log, in Reactor Netty's own format but with the path as {@link Redaction#path} gives it: a
     * poll's or a stream's token replaced, the query left off.
     */
    static AccessLog accessLogEntry(AccessLogArgProvider entry) {
        String client = entry.remoteAddress() instanceof InetSocketAddress address ? address.getHostString() : "-";
        return AccessLog.create("{} - {} [{}] \"{} {} {}\" {} {} {}", client,
                entry.user() != null ? entry.user() : "-", entry.zonedDateTime(), entry.method(),
                Redaction.path(String.valueOf(entry.uri())), entry.protocol(), entry.status(),
                entry.contentLength() > -1 ? entry.contentLength() : "-", entry.duration());
    }

    /** A scheduler that runs a task later on the request's own event loop (see {@link #laterOnTheLoop}). */
    private Scheduler laterOn(HttpServerRequest request) {
        EventLoop[] loop = new EventLoop[1];
        request.withConnection((connection) -> loop[0] = connection.channel().eventLoop());
        return this.laterOnTheLoop.computeIfAbsent(loop[0], Schedulers::fromExecutor);
    }
}
