package io.queuegate.yardstick.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** The plain no-op's constant answers to a POST (enter) and a GET (status); the request body is never read. */
class NoopServlet extends HttpServlet {

    private static final byte[] ENTERED = "{\"token\":\"noop\",\"status\":\"PENDING\"}"
        .getBytes(StandardCharsets.UTF_8);

    private static final byte[] WAITING = "{\"token\":\"noop\",\"status\":\"WAITING\",\"position\":1}"
        .getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_ACCEPTED);
        answer(response, ENTERED);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(response, WAITING);
    }

    private static void answer(HttpServletResponse response, byte[] body) throws IOException {
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
