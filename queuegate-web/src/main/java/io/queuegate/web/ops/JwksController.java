package io.queuegate.web.ops;

import java.util.Map;

import io.queuegate.core.admission.AdmissionKeys;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The public keys admissions are signed with, on every service's public port: a shop verifies the admission of an
 * AVAILABLE status answer with them alone, in any language, without the queue's secret. Served as
 * {@code application/jwk-set+json} (RFC 7517), and as {@code application/json} to a client that asks only for that,
 * as some JOSE clients do.
 */
@RestController
@Tag(name = "keys", description = "The keys that verify admissions")
public class JwksController {

    private final AdmissionKeys keys;

    public JwksController(AdmissionKeys keys) {
        this.keys = keys;
    }

    /** The key set's own media type, answered unless the client accepts only {@link #JSON}. */
    static final String JWK_SET = "application/jwk-set+json";

    static final String JSON = "application/json";

    @GetMapping(path = "/.well-known/jwks.json", produces = { JWK_SET, JSON })
    @Operation(summary = "The admission keys (JWK set)", description = """
            Public P-256 keys (ES256), the signing one first; during a rotation the previous key too. Cache for up to \
            five minutes. As application/jwk-set+json, or application/json to a client that accepts only that.""")
    @ApiResponse(responseCode = "200", description = "The key set")
    public ResponseEntity<Map<String, Object>> keys() {
        return ResponseEntity.ok().cacheControl(CacheControl.maxAge(java.time.Duration.ofMinutes(5)).cachePublic())
            .body(this.keys.published().toJSONObject(true));
    }
}
