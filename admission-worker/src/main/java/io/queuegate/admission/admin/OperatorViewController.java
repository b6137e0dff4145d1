package io.queuegate.admission.admin;

import java.nio.charset.StandardCharsets;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The operator's live view. The page itself holds nothing about any queue, so it needs no token; it asks for
 * the admin token and only then calls the admin API with it, which refuses every call without.
 */
@Controller
@Hidden
class OperatorViewController {

    private static final Resource PAGE = new ClassPathResource("web/operator/admin.html");

    /** Only this origin's scripts, styles and calls, and never inside someone else's frame. */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    @GetMapping(path = "/admin", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<Resource> page() {
        return ResponseEntity.ok()
            .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
            .cacheControl(CacheControl.noStore())
            .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
            .header("X-Content-Type-Options", "nosniff")
            .header("Referrer-Policy", "no-referrer")
            .body(PAGE);
    }
}
