package io.queuegate.ingest.page;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The waiting page people see: one static page for every product, which reads the product from its own path
 * and talks to the public API through {@code queuegate.js}. Its scripts and styles are static resources beside it.
 */
@Controller
@Tag(name = "page", description = "The waiting page and what it needs to know")
class WaitingPageController {

    private static final Resource PAGE = new ClassPathResource("web/waiting-room/waiting-room.html");

    private final PageProperties properties;

    private final String contentSecurityPolicy;

    WaitingPageController(PageProperties properties) {
        this.properties = properties;
        this.contentSecurityPolicy = contentSecurityPolicy(properties.bookingUrl());
    }

    @Hidden
    @GetMapping("/")
    ResponseEntity<Void> home() {
        return ResponseEntity.status(302).location(URI.create("/queues/" + this.properties.demoProduct())).build();
    }

    @Hidden
    @GetMapping(path = "/queues/{productId}", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<Resource> page(@PathVariable("productId") String productIdText) {
        ProductIds.parse(productIdText);
        return ResponseEntity.ok()
            .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
            // the page is small and changes with a release; a stale copy would talk to a changed API
            .cacheControl(CacheControl.noCache())
            .header("Content-Security-Policy", this.contentSecurityPolicy)
            .header("X-Content-Type-Options", "nosniff")
            .header("Referrer-Policy", "no-referrer")
            .body(PAGE);
    }

    @GetMapping(path = "/api/v1/page-settings", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    @Operation(summary = "What the waiting page needs to know", description = "Where it books (booking-service's "
            + "base URL as the browser reaches it, empty for this origin) and the demo product of /.")
    PageSettings settings() {
        return new PageSettings(this.properties.bookingUrl(), this.properties.demoProduct());
    }

    /**
     * Scripts, styles and calls only from this origin and the booking service, and no framing: a waiting page in
     * someone else's frame could be used to make people click what they did not mean to.
     */
    private static String contentSecurityPolicy(String bookingUrl) {
        String booking = bookingUrl.isEmpty() ? "" : " " + origin(bookingUrl);
        return "default-src 'self'; connect-src 'self'" + booking + "; img-src 'self' data:; "
                + "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
    }

    private static String origin(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }

    /**
     * @param bookingUrl booking-service's base URL as the browser reaches it; empty for this page's own origin
     * @param demoProduct the product {@code /} opens
     */
    record PageSettings(String bookingUrl, long demoProduct) {
    }
}
