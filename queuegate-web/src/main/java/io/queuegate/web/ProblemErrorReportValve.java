package io.queuegate.web;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * Tomcat refuses some requests before Spring sees them (a malformed or encoded path, a header too large)
 * and would answer with an HTML page. This valve answers those, like everything else, as
 * {@code application/problem+json} with a {@code code}, and never echoes the request.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        if (status == HttpStatus.NOT_IMPLEMENTED.value() || status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED.value()) {
            // A method, transfer coding or HTTP version no client of this API sends: the client's fault, and a
            // 5xx would page whoever runs the sale for traffic that is nobody's outage.
            status = HttpStatus.BAD_REQUEST.value();
            response.setStatus(status);
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String code = ProblemCodes.forStatus(known == null ? HttpStatus.BAD_REQUEST : known);
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"The request could not be read.\",\"code\":\"" + code + "\"}");
                response.finishResponse();
            }
        }
        catch (IOException | IllegalStateException ex) {
            // the client is gone or the response is committed; nothing more to say
        }
    }
}
