package io.queuegate.gate;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Answers a refused gate as {@code application/problem+json} with a {@code code}, and touches nothing else. */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class GateRejectionHandler {

    @ExceptionHandler(GateRejectedException.class)
    ResponseEntity<ProblemDetail> handle(GateRejectedException ex) {
        return ex.toResponse();
    }
}
