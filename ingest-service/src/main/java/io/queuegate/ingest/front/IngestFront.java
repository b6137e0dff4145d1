package io.queuegate.ingest.front;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.EventLoop;
import io.queuegate.web.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.http.server.HttpServerRoutes;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.util.unit.DataSize;

/**
 * Reactor Netty on the service port ({@code server.port}, {@code server.address}). Enters and polls, the two requests
 * a burst is made of, are answered by their {@link FastPath}s on the front's event loops; everything else goes to the
 * servlet stack, which Spring Boot starts as usual but on a loopback port of its own ({@link ServletBackend}).
 *
 * <p>Why: on two cores Reactor Netty alone answers a request for half the CPU of Spring MVC on Tomcat, and the waits
 * for Kafka's acknowledgement and for Redis cost a future each instead of a parked thread (docs/BENCHMARKS.md, "The
 * HTTP stack").
 *
 * <p>Started after the servlet stack and stopped before it, so it never hands a request to a stack that is not there;
 * a stop lets the requests in flight finish. Once bound, {@code local.server.port} is the front's port, as it is the
 * port the service answers on; {@code local.servlet-backend.port} is the servlet stack's.
 */
public final class IngestFront implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(IngestFront.class);

    /** After the web server's start and graceful shutdown phases: started after it, stopped before it. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    /** The probes, answered past every cap. */
    private static final Set<String> PROBES = Set.of("/livez", "/readyz");

    private final ApplicationContext context;

    private final ConfigurableEnvironment environment;

    private final FrontProperties properties;

    private final List<FastPath> paths;

    private final FrontReplies replies;

    private final long maxBodyBytes;

    /**
     * Runs a request's handler in a task of its own on the connection's event loop, never inside the call that
     * dispatched it. Reactor Netty 1.3.6 (and 1.3.7) buffers a kept-alive request that arrives before the previous
     * one's end; when it then dispatches that request and the answer ends within the same call, nothing asks the
     * channel to read again (reactor/reactor-netty#4361, #4347) and the connection's next request sits unread until
     * the client gives up: the status poll that hung for 20 s in CI. Answered a task later, the request's end finds
     * the buffer drained and asks for the next read, as it does for every answer that waited for Redis or Kafka.
     */
    private final Map<EventLoop, Scheduler> laterOnTheLoop = new ConcurrentHashMap<>();

    private final ConnectionLimits limits;

    private final AtomicInteger inFlight = new AtomicInteger();

    private volatile DisposableServer server;

    private LoopResources loops;

    private ConnectionProvider backendConnections;

    IngestFront(ApplicationContext context, ConfigurableEnvironment environment, FrontProperties properties,
            List<FastPath> paths, FrontReplies replies, long maxBodyBytes) {
        this.context = context;
        this.environment = environment;
        this.properties = properties;
        this.paths = paths;
        this.replies = replies;
        this.maxBodyBytes = maxBodyBytes;
        this.limits = new ConnectionLimits(properties.maxConnections(), properties.maxConnectionsPerClient(),
                properties.trustedProxies());
    }

    @Override
    public void start() {
        int backendPort = ((WebServerApplicationContext) this.context).getWebServer().getPort();
        int threads = this.properties.ioThreads() > 0 ? this.properties.ioThreads()
                : Runtime.getRuntime().availableProcessors();
        this.loops = LoopResources.create("ingest-front", threads, true);
        this.backendConnections = ConnectionProvider.builder("servlet-backend")
            .maxConnections(this.properties.backendConnections())
            // below Tomcat's keep-alive timeout, so a connection is never reused as Tomcat closes it
            .maxIdleTime(Duration.ofSeconds(10))
            .build();
        ServletBackend backend = new ServletBackend(HttpClient.create(this.backendConnections)
            .runOn(this.loops)
            .host("127.0.0.1")
            .port(backendPort), this.replies, this.maxBodyBytes);
        HttpServerRoutes routes = HttpServerRoutes.newRoutes();
        for (FastPath path : this.paths) {
            path.addTo(routes, backend);
        }
        routes.route((request) -> true, backend::forward);
        DataSize maxHeaders = this.environment.getProperty("server.max-http-request-header-size", DataSize.class,
                DataSize.ofKilobytes(8));
        this.server = HttpServer.create()
            .runOn(this.loops)
            .host(this.environment.getProperty("server.address", "0.0.0.0"))
            .port(this.environment.getProperty("server.port", Integer.class, 8080))
            .idleTimeout(this.properties.idleTimeout())
            .httpRequestDecoder((decoder) -> decoder.maxHeaderSize((int) maxHeaders.toBytes()))
            .doOnChannelInit((observer, channel, remote) -> {
                this.limits.opened(channel);
                RequestDeadlines deadlines = new RequestDeadlines(this.properties.headerTimeout().toNanos(),
                        this.properties.bodyTimeout().toNanos());
                channel.pipeline().addFirst(RequestDeadlines.BYTES, deadlines.bytes());
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, RequestDeadlines.REQUESTS, deadlines.requests());
            })
            .handle((request, response) -> Mono.defer(() -> answer(routes, request, response))
                .subscribeOn(laterOn(request)))
            .bindNow();
        setPort("local.server.port", this.server.port());
        setPort("local.servlet-backend.port", backendPort);
        log.info("Front answering on port {} ({} fast paths), the servlet stack behind it on 127.0.0.1:{}",
                this.server.port(), this.paths.size(), backendPort);
    }

    /**
     * Routes the request unless a limit says no: a connection past the connection caps, or a request past the
     * in-flight cap, is answered 503 with Retry-After (and such a connection closed), except the probes, which an
     * orchestrator must get answers to whatever strangers do.
     */
    private Mono<Void> answer(HttpServerRoutes routes, HttpServerRequest request, HttpServerResponse response) {
        ApiException refusal = RequestGate.refusal(request, this.maxBodyBytes);
        if (refusal != null) {
            return RequestGate.swallow(request)
                .then(this.replies.problem(request, response, FrontReplies.requestId(request), refusal));
        }
        if (PROBES.contains(FrontReplies.pathOf(request.uri()))) {
            return Mono.from(routes.apply(request, response));
        }
        boolean[] excess = new boolean[1];
        request.withConnection((connection) -> excess[0] = ConnectionLimits.excess(connection.channel()));
        if (excess[0]) {
            response.keepAlive(false);
            return RequestGate.swallow(request).then(this.replies.problem(request, response,
                    FrontReplies.requestId(request), ApiException.unavailable(
                            "Too many connections at once; try again shortly.", this.properties.retryAfter())));
        }
        if (this.inFlight.incrementAndGet() > this.properties.maxInFlight()) {
            this.inFlight.decrementAndGet();
            return RequestGate.swallow(request).then(this.replies.problem(request, response,
                    FrontReplies.requestId(request), ApiException.unavailable(
                            "Too many requests at once; try again shortly.", this.properties.retryAfter())));
        }
        return Mono.from(routes.apply(request, response)).doFinally((signal) -> this.inFlight.decrementAndGet());
    }

    /** A scheduler that runs a task later on the request's own event loop (see {@link #laterOnTheLoop}). */
    private Scheduler laterOn(HttpServerRequest request) {
        EventLoop[] loop = new EventLoop[1];
        request.withConnection((connection) -> loop[0] = connection.channel().eventLoop());
        return this.laterOnTheLoop.computeIfAbsent(loop[0], Schedulers::fromExecutor);
    }

    @Override
    public void stop() {
        DisposableServer running = this.server;
        if (running == null) {
            return;
        }
        this.server = null;
        running.disposeNow(this.environment.getProperty("spring.lifecycle.timeout-per-shutdown-phase",
                Duration.class, Duration.ofSeconds(30)));
        this.backendConnections.dispose();
        this.loops.dispose();
    }

    @Override
    public boolean isRunning() {
        return this.server != null;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** The port the front answers on. */
    public int port() {
        DisposableServer running = this.server;
        if (running == null) {
            throw new IllegalStateException("the front is not running");
        }
        return running.port();
    }

    /** As Spring Boot records the web server's port, in the same property source. */
    @SuppressWarnings("unchecked")
    private void setPort(String property, int port) {
        MutablePropertySources sources = this.environment.getPropertySources();
        if (!(sources.get("server.ports") instanceof MapPropertySource ports)) {
            Map<String, Object> map = new HashMap<>();
            sources.addFirst(new MapPropertySource("server.ports", map));
            map.put(property, port);
            return;
        }
        ((Map<String, Object>) ports.getSource()).put(property, port);
    }
}
