package io.queuegate.gate;

import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;

import org.springframework.http.HttpStatus;

/** The gate refused: the token was not admitted (403) or the stock is short (409). The token is unchanged. */
public class GateRejectedException extends ApiException {

    GateRejectedException(HttpStatus status, String code, String detail) {
        super(status, code, detail);
    }

    static GateRejectedException notAdmitted() {
        return new GateRejectedException(HttpStatus.FORBIDDEN, ProblemCodes.TOKEN_NOT_ADMITTED,
                "The token is not admitted for this product: not issued here, still waiting, expired or used.");
    }

    static GateRejectedException soldOut(long left) {
        return new GateRejectedException(HttpStatus.CONFLICT, ProblemCodes.SOLD_OUT,
                "Not enough stock left (" + left + "); the token stays usable.");
    }
}
