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
 * AVAILABLE status answer with them alone, in any language, without the queue's secret.
 */
@RestController
@Tag(name = "keys", description = "The keys that verify admissions")
public class JwksController {

    private final AdmissionKeys keys;

    public JwksController(AdmissionKeys keys) {
        this.keys = keys;
    }

    @GetMapping(path = "/.well-known/jwks.json", produces = "application/jwk-set+json")
    @Operation(summary = "The admission keys (JWK set)", description = """
            Public P-256 keys (ES256), the signing one first; during a rotation the previous key too. Cache for up to \
            five minutes.""")
    @ApiResponse(responseCode = "200", description = "The key set")
    public ResponseEntity<Map<String, Object>> keys() {
        return ResponseEntity.ok().cacheControl(CacheControl.maxAge(java.time.Duration.ofMinutes(5)).cachePublic())
            .body(this.keys.published().toJSONObject(true));
    }
}
