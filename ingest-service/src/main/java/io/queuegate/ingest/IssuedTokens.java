package io.queuegate.ingest;

import io.queuegate.core.token.Token;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.ProductIds;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/** The check a poll, a stream and a leave share: the token was issued here, for the product in the path. */
@Component
public class IssuedTokens {

    /** What {@link #verify(String, String)} refuses, as the API description of an operation that calls it says. */
    public static final String REFUSALS = "invalid_token: not issued here, or for another product; "
            + "invalid_request: a malformed productId";

    private final TokenCodec tokens;

    IssuedTokens(TokenCodec tokens) {
        this.tokens = tokens;
    }

    /** Refuses, before any Redis access, a token this deployment did not issue for this product. */
    public Token verify(long productId, String token) {
        return this.tokens.verify(token, productId)
            .orElseThrow(() -> new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.INVALID_TOKEN,
                    "The token was not issued by this queue for product " + productId + "."));
    }

    /** The same, for the product id as a path gives it: a malformed one is refused as {@code invalid_request}. */
    public Token verify(String productId, String token) {
        return verify(ProductIds.parse(productId), token);
    }
}
