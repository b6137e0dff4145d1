package io.queuegate.ingest.page;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The waiting page people see: one page for every product, which reads the product from its own path and talks to
 * the public API through {@code queuegate.js}, in the language the page's switch or the browser asks for
 * ({@link WaitingPageTexts}). Its scripts and styles are static resources.
 */
@Controller
@Tag(name = "page", description = "The waiting page and what it needs to know")
class WaitingPageController {

    private final PageProperties properties;

    private final WaitingPageTexts texts;

    private final String contentSecurityPolicy;

    WaitingPageController(PageProperties properties, WaitingPageTexts texts) {
        this.properties = properties;
        this.texts = texts;
        this.contentSecurityPolicy = contentSecurityPolicy(properties.bookingUrl());
    }

    @Hidden
    @GetMapping("/")
    ResponseEntity<Void> home() {
        return ResponseEntity.status(302).location(URI.create("/queues/" + this.properties.demoProduct())).build();
    }

    @Hidden
    @GetMapping(path = "/queues/{productId}", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<byte[]> page(@PathVariable("productId") String productIdText,
            @RequestParam(name = "lang", required = false) String lang, ServerHttpRequest request) {
        ProductIds.parse(productIdText);
        Locale language = this.texts.choose(lang, acceptedLanguages(request));
        return ResponseEntity.ok()
            .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
            // the page is small and changes with a release; a stale copy would talk to a changed API
            .cacheControl(CacheControl.noCache())
            .header(HttpHeaders.CONTENT_LANGUAGE, language.toLanguageTag())
            .header(HttpHeaders.VARY, HttpHeaders.ACCEPT_LANGUAGE)
            .header("Content-Security-Policy", this.contentSecurityPolicy)
            .header("X-Content-Type-Options", "nosniff")
            .header("Referrer-Policy", "no-referrer")
            .body(this.texts.page(language));
    }

    /** The client's Accept-Language; none when it cannot be read, which is answered in English. */
    private static List<Locale.LanguageRange> acceptedLanguages(ServerHttpRequest request) {
        try {
            return request.getHeaders().getAcceptLanguage();
        }
        catch (IllegalArgumentException unreadable) {
            return List.of();
        }
    }

    @GetMapping(path = "/api/v1/page-settings", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    @Operation(summary = "What the waiting page needs to know", description = """
            Where it books (booking-service's base URL as the browser reaches it, empty for this origin) and the demo \
            product of /.""")
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
