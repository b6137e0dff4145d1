package io.queuegate.web.egress;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.io.ModalCloseable;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * Sends requests to the URLs queues' settings name, as {@link EgressProperties} allows: only to URLs
 * {@link EgressUrls} takes, connected only to public addresses ({@link PublicAddressResolver}), never following a
 * redirect (a 3xx is answered as it came), never retried here, and each within one deadline from its start to the
 * last byte of the answer's body: at the deadline the request is cancelled, whatever it was waiting for (a connection,
 * a TLS handshake, the headers, a body that trickles), and fails with a {@link SocketTimeoutException}.
 *
 * <p>One client per kind of request, with its deadline; closed with its owner.
 */
public final class EgressClient implements AutoCloseable {

    /** The most of an answer's body read where only its status matters; a longer body is cut off. */
    private static final int DISCARDED_BODY_LIMIT = 16 * 1024;

    /** What a POST carries, as the receivers have always been sent it. */
    private static final ContentType JSON = ContentType.create("application/json", (Charset) null);

    private final EgressUrls urls;

    private final Duration deadline;

    private final CloseableHttpClient http;

    private final ScheduledThreadPoolExecutor deadlines;

    /**
     * @param properties where requests may go
     * @param deadline how long a request may take, connecting and reading the whole answer included
     * @param name names the thread that cancels requests at their deadlines
     */
    public EgressClient(EgressProperties properties, Duration deadline, String name) {
        this.urls = new EgressUrls(properties);
        this.deadline = deadline;
        Timeout timeout = Timeout.ofMilliseconds(deadline.toMillis());
        this.http = HttpClients.custom()
            .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                .setDnsResolver(properties.allowPrivate() ? SystemDefaultDnsResolver.INSTANCE
                        : new PublicAddressResolver())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                    .setConnectTimeout(timeout)
                    .setSocketTimeout(timeout)
                    // a kept connection the server may have closed meanwhile is checked before it is used again
                    .setValidateAfterInactivity(TimeValue.ofSeconds(1))
                    .build())
                .setDefaultTlsConfig(TlsConfig.custom().setHandshakeTimeout(timeout).build())
                .setMaxConnPerRoute(64)
                .setMaxConnTotal(256)
                .build())
            .setDefaultRequestConfig(RequestConfig.custom()
                .setConnectionRequestTimeout(timeout)
                .setResponseTimeout(timeout)
                .setRedirectsEnabled(false)
                .setProtocolUpgradeEnabled(false)
                .build())
            .disableRedirectHandling()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableAuthCaching()
            .disableContentCompression()
            .build();
        this.deadlines = new ScheduledThreadPoolExecutor(1, (task) -> {
            Thread thread = new Thread(task, name + "-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        this.deadlines.setRemoveOnCancelPolicy(true);
    }

    /**
     * GETs {@code url}.
     *
     * @param accept the media types asked for
     * @param maxBytes the longest body taken: a longer one fails a 2xx answer
     * @return the status and the body (of another status, empty when longer than {@code maxBytes})
     * @throws IOException refused ({@link RefusedUrlException}, {@link RefusedAddressException}), failed, past the
     *         deadline ({@link SocketTimeoutException}) or longer than {@code maxBytes}
     */
    public Reply get(String url, String accept, int maxBytes) throws IOException {
        HttpGet request = new HttpGet(this.urls.check(url));
        request.setHeader("Accept", accept);
        Reply reply = send(request, maxBytes);
        if (reply.successful() && !reply.whole()) {
            throw new IOException("The answer of " + request.getAuthority() + " is longer than " + maxBytes
                    + " bytes.");
        }
        return reply;
    }

    /**
     * POSTs {@code json} to {@code url}, with {@code headers}; what the receiver answers beyond its status is read
     * only to free the connection, and cut off past a few kilobytes.
     *
     * @return the status
     * @throws IOException refused ({@link RefusedUrlException}, {@link RefusedAddressException}), failed or past the
     *         deadline ({@link SocketTimeoutException})
     */
    public int post(String url, byte[] json, Map<String, String> headers) throws IOException {
        HttpPost request = new HttpPost(this.urls.check(url));
        headers.forEach(request::setHeader);
        request.setEntity(new ByteArrayEntity(json, JSON));
        return send(request, DISCARDED_BODY_LIMIT).status();
    }

    private Reply send(HttpUriRequestBase request, int maxBytes) throws IOException {
        AtomicBoolean late = new AtomicBoolean();
        ScheduledFuture<?> cut = this.deadlines.schedule(() -> {
            late.set(true);
            request.cancel();
        }, this.deadline.toNanos(), TimeUnit.NANOSECONDS);
        try {
            return exchange(request, maxBytes);
        }
        catch (IOException ex) {
            if (late.get()) {
                SocketTimeoutException timeout = new SocketTimeoutException("No whole answer from "
                        + request.getAuthority() + " within " + this.deadline.toMillis() + " ms.");
                timeout.initCause(ex);
                throw timeout;
            }
            throw ex;
        }
        finally {
            cut.cancel(false);
        }
    }

    /** The answer, with its body read to the end and kept when it is no longer than {@code maxBytes}. */
    private Reply exchange(HttpUriRequestBase request, int maxBytes) throws IOException {
        ClassicHttpResponse response = this.http.executeOpen(null, request, null);
        boolean whole = false;
        try {
            byte[] body = read(response.getEntity(), maxBytes);
            whole = body != null;
            return new Reply(response.getCode(), whole ? body : new byte[0], whole);
        }
        finally {
            // a body read to its end leaves the connection for the next request; what is left of a longer one is
            // not waited for
            if (response instanceof ModalCloseable closeable) {
                closeable.close(whole ? CloseMode.GRACEFUL : CloseMode.IMMEDIATE);
            }
            else {
                response.close();
            }
        }
    }

    /** The body, read to its end; null, read no further, once it proves longer than {@code maxBytes}. */
    private static byte[] read(HttpEntity entity, int maxBytes) throws IOException {
        if (entity == null) {
            return new byte[0];
        }
        if (entity.getContentLength() > maxBytes) {
            return null;
        }
        InputStream in = entity.getContent();
        byte[] body = in.readNBytes(maxBytes + 1);
        return body.length <= maxBytes ? body : null;
    }

    @Override
    public void close() {
        this.http.close(CloseMode.IMMEDIATE);
        this.deadlines.shutdownNow();
    }

    /**
     * An answer.
     *
     * @param status its HTTP status, a 3xx included: no redirect is followed
     * @param body its body; empty when it was longer than the bytes asked for
     * @param whole whether the body was read to its end within the bytes asked for
     */
    public record Reply(int status, byte[] body, boolean whole) {

        /** Whether the status is 2xx. */
        public boolean successful() {
            return this.status >= 200 && this.status <= 299;
        }
    }
}
