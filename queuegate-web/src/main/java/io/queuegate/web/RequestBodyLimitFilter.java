package io.queuegate.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a body larger than the API ever needs with 413: at once when its declared length is too large, and
 * while it is read when it comes chunked without a length (the reader fails with {@link BodyTooLargeException},
 * which {@link ApiProblemHandler} answers as 413). Requests whose path carries {@code ;} parameters are refused
 * with 400: Spring would strip them, and {@code /queues/42;x=1} must not reach queue 42.
 */
public class RequestBodyLimitFilter extends OncePerRequestFilter {

    private final long maxBytes;

    public RequestBodyLimitFilter(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getRequestURI().indexOf(';') >= 0) {
            refuse(response, ApiException.pathParameters());
            return;
        }
        if (request.getContentLengthLong() > this.maxBytes) {
            refuse(response, ApiException.bodyTooLarge(this.maxBytes));
            return;
        }
        chain.doFilter(new LimitedRequest(request, this.maxBytes), response);
    }

    private static void refuse(HttpServletResponse response, ApiException refusal) throws IOException {
        HttpStatus status = refusal.status();
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"" + status.getReasonPhrase()
                + "\",\"status\":" + status.value() + ",\"detail\":\"" + refusal.getMessage() + "\",\"code\":\""
                + refusal.code() + "\"}");
    }

    /** Thrown while reading a body past the limit. */
    public static class BodyTooLargeException extends IOException {

        BodyTooLargeException(long maxBytes) {
            super("The request body is larger than " + maxBytes + " bytes.");
        }
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {

        private final long maxBytes;

        private ServletInputStream stream;

        LimitedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (this.stream == null) {
                this.stream = new LimitedInputStream(super.getInputStream(), this.maxBytes);
            }
            return this.stream;
        }
    }

    private static final class LimitedInputStream extends ServletInputStream {

        private final ServletInputStream delegate;

        private final long maxBytes;

        private long read;

        LimitedInputStream(ServletInputStream delegate, long maxBytes) {
            this.delegate = delegate;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = this.delegate.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = this.delegate.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws IOException {
            this.read += n;
            if (this.read > this.maxBytes) {
                throw new BodyTooLargeException(this.maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return this.delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return this.delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            this.delegate.setReadListener(listener);
        }
    }
}
