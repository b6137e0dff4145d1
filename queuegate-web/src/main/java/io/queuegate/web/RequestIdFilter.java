package io.queuegate.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.MDC;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives every request on the servlet stack its id ({@link RequestIds}): echoed in the response and put in the logging
 * context as {@code requestId}.
 */
public class RequestIdFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String requestId = RequestIds.idFor(request.getHeader(RequestIds.HEADER));
        response.setHeader(RequestIds.HEADER, requestId);
        MDC.put(RequestIds.KEY, requestId);
        try {
            chain.doFilter(request, response);
        }
        finally {
            MDC.remove(RequestIds.KEY);
        }
    }

    /** The current request's id, or a new one outside a request. */
    public static String current() {
        String requestId = MDC.get(RequestIds.KEY);
        return requestId != null ? requestId : RequestIds.newId();
    }
}
