package io.queuegate.ingest.edge;

import java.util.List;

import io.queuegate.web.ApiException;
import io.queuegate.web.ProblemCodes;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The edge's two questions over HTTP (the check is answered on the front by {@link EdgeCheckRoute}; this controller
 * describes it and answers what the front hands on): a proxy's check of a protected request ({@link EdgeCheck}), and the waiting
 * page's of the URL it is to send a person back to ({@link ReturnUrls}). Neither is counted by the limits per client
 * (a proxy asks for all its visitors from one address); the caps on connections and requests in flight hold.
 */
@RestController
@Tag(name = "edge", description = "A proxy in front of a shop's site asks whether a request may pass")
class EdgeCheckController {

    static final String ACTION = "Queuegate-Action";

    static final String LOCATION = "Queuegate-Location";

    static final String SET_COOKIE = "Queuegate-Set-Cookie";

    static final String ORIGINAL_URI = "X-Original-URI";

    private final EdgeCheck check;

    private final EdgeQueues queues;

    EdgeCheckController(EdgeCheck check, EdgeQueues queues) {
        this.check = check;
        this.queues = queues;
    }

    @GetMapping("/api/v1/queues/{productId}/edge-check")
    @Operation(summary = "May this request pass to the protected site?", description = """
            Asked by the proxy (nginx auth_request, or any proxy that can ask a URL) for each request to a path the \
            product protects, with the request's Cookie header, X-Original-URI (the path and query the visitor asked \
            for), X-Forwarded-Host and X-Forwarded-Proto. Answered from the admission's signature and the keys this \
            service signs with; a revoke by the operator is honoured within a second. The proxy's cookie is \
            qg_admission_<productId>; a person back from the line carries the admission in the one query parameter \
            qg_admission instead. A visitor without any admission, while nobody waits and the line has room and rate \
            to spare (identity visitor, no proof of work), is admitted on the spot: audited and counted like any \
            admission, and passed with the cookie to set. The answer is in headers the proxy copies: \
            Queuegate-Action (pass, return or wait), Queuegate-Location and Queuegate-Set-Cookie. A queue that does not \
            exist sends everyone to its waiting page, which says so.""")
    @Parameter(in = ParameterIn.HEADER, name = ORIGINAL_URI, example = "/tickets/42?seat=A1",
            schema = @Schema(type = "string"),
            description = "The path and query the visitor asked for (nginx: $request_uri)")
    @Parameter(in = ParameterIn.HEADER, name = "X-Forwarded-Host", example = "shop.example",
            schema = @Schema(type = "string"),
            description = "The site's host (and port) as the visitor asked for it; Host when left out")
    @Parameter(in = ParameterIn.HEADER, name = "X-Forwarded-Proto", example = "https",
            schema = @Schema(type = "string"),
            description = "https when the site is reached over https: the cookie is then Secure")
    @ApiResponse(responseCode = "204", description = "pass: proxy the request to the origin, with Set-Cookie when given",
            headers = { @Header(name = ACTION, schema = @Schema(type = "string"), description = "pass"),
                @Header(name = SET_COOKIE, schema = @Schema(type = "string"), description = """
                        Set only when the visitor was admitted on the spot: the cookie to send with the origin's \
                        answer""") })
    @ApiResponse(responseCode = "401", description = """
            return: set the cookie (Queuegate-Set-Cookie, when given) and redirect (302) to Queuegate-Location, the \
            path and query without qg_admission. wait: send the person to Queuegate-Location, the waiting page with \
            the URL they asked for as its return parameter (only for a host of the queue's returnHosts): 302 for a \
            page, 403 application/problem+json (code queue_required) for a request that asks for JSON""",
            headers = { @Header(name = ACTION, schema = @Schema(type = "string"), description = "return or wait"),
                @Header(name = LOCATION, schema = @Schema(type = "string"),
                        description = "Where the proxy redirects to"),
                @Header(name = SET_COOKIE, schema = @Schema(type = "string"),
                        description = "return: the cookie holding the admission") })
    @ApiResponse(responseCode = "400", description = "invalid_request: a malformed productId")
    Mono<ResponseEntity<Void>> check(@PathVariable("productId") String productIdText, ServerHttpRequest request) {
        long productId = ProductIds.parse(productIdText);
        HttpHeaders headers = request.getHeaders();
        return this.check.check(asked(productId, headers.getFirst("X-Forwarded-Proto"),
                headers.getFirst("X-Forwarded-Host"), headers.getFirst(HttpHeaders.HOST),
                headers.getFirst(ORIGINAL_URI), headers.get(HttpHeaders.COOKIE)))
            .map(EdgeCheckController::response);
    }

    /** What the proxy asks, from its headers (the front's {@link EdgeCheckRoute} reads them the same way). */
    static EdgeCheck.Asked asked(long productId, String proto, String forwardedHost, String host, String originalUri,
            List<String> cookies) {
        return new EdgeCheck.Asked(productId, "https".equalsIgnoreCase(proto),
                ReturnUrls.host(forwardedHost != null ? forwardedHost : host), ReturnUrls.Request.parse(originalUri),
                cookie(cookies, EdgeCheck.cookieName(productId)));
    }

    /**
     * The cookie's value as sent, read here rather than by the framework's strict decoder, which drops a cookie it
     * finds malformed: a forged or oversized admission must count as an admission that is not valid (the person goes
     * to the line, nothing is written), never as none (which could admit on the spot). Empty when present but empty.
     */
    static String cookie(List<String> headers, String name) {
        if (headers == null) {
            return null;
        }
        for (String header : headers) {
            for (String pair : header.split(";")) {
                String trimmed = pair.strip();
                if (trimmed.startsWith(name) && trimmed.length() > name.length()
                        && trimmed.charAt(name.length()) == '=') {
                    return trimmed.substring(name.length() + 1);
                }
            }
        }
        return null;
    }

    private static ResponseEntity<Void> response(EdgeAnswer answer) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status())
            .header(ACTION, answer.action())
            .header(HttpHeaders.CACHE_CONTROL, "no-store");
        if (answer.location() != null) {
            response.header(LOCATION, answer.location());
        }
        if (answer.cookie() != null) {
            response.header(SET_COOKIE, answer.cookie());
        }
        return response.build();
    }

    @GetMapping(path = "/api/v1/queues/{productId}/return-url", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "May the waiting page send a person back to this URL?", description = """
            Asked by the waiting page when it was opened with ?return=<url> (the edge sends people so): the URL is \
            answered back when it is an absolute http(s) URL, without user information, on a host of the queue's \
            returnHosts; the page then sends the person there with their admission in the qg_admission parameter \
            once their turn comes. Anything else is refused: another host, javascript:, //evil, a backslash.""")
    @ApiResponse(responseCode = "200", description = "The URL to send the person back to, without any qg_admission")
    @ApiResponse(responseCode = "400", description = """
            return_url_refused: not a URL this queue sends people back to; invalid_request: a malformed productId""")
    @ApiResponse(responseCode = "404", description = "queue_not_found")
    Mono<ReturnUrl> returnUrl(@PathVariable("productId") String productIdText,
            @RequestParam(name = "url", required = false) String url) {
        long productId = ProductIds.parse(productIdText);
        return this.queues.settings(productId).map((settings) -> {
            if (settings.isEmpty()) {
                throw ApiException.queueNotFound(productId);
            }
            return ReturnUrls.allowed(url, settings.get()).map(ReturnUrl::new)
                .orElseThrow(() -> new ApiException(HttpStatus.BAD_REQUEST, ProblemCodes.RETURN_URL_REFUSED,
                        "The waiting page of product " + productId + " sends nobody to that URL."));
        });
    }

    /** @param url where to send the person back to, without any admission */
    record ReturnUrl(String url) {
    }
}
