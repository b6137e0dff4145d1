package io.queuegate.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Lets a request through only with {@code Authorization: Bearer <admin token>}. The comparison takes the same
 * time whatever the presented token, so response times reveal nothing about the real one.
 */
public class AdminTokenInterceptor implements HandlerInterceptor {

    private static final String BEARER = "Bearer ";

    private final byte[] expected;

    public AdminTokenInterceptor(String adminToken) {
        this.expected = digest(adminToken);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        String presented = header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? header.substring(BEARER.length()).trim() : "";
        // Digests have one length, so isEqual's time depends on neither token's length nor content.
        if (!MessageDigest.isEqual(this.expected, digest(presented))) {
            throw new ApiException(HttpStatus.UNAUTHORIZED, ProblemCodes.UNAUTHORIZED,
                    "This endpoint needs Authorization: Bearer <admin token>.");
        }
        return true;
    }

    private static byte[] digest(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        }
        catch (java.security.NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
