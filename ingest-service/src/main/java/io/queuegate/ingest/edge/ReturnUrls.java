package io.queuegate.ingest.edge;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.regex.Pattern;

import io.queuegate.core.queue.QueueSettings;

/**
 * Where people are sent back to, and what a URL looks like once the admission is out of it. A return URL is taken only
 * when it is an absolute {@code http} or {@code https} URL without user information whose host (and port) is one of
 * the queue's {@code returnHosts}, compared exactly: {@code javascript:}, {@code //evil}, {@code https://shop@evil},
 * a backslash or a control character, and any other host are refused, so that neither the waiting page nor the edge
 * can be made an open redirect (which would hand the admission to whoever asked).
 */
final class ReturnUrls {

    /** The one query parameter the edge reads an admission from when a person comes back from the line. */
    static final String ADMISSION_PARAMETER = "qg_admission";

    /** The longest URL sent back to: longer ones are refused rather than cut. */
    static final int MAX_LENGTH = 2048;

    private static final Pattern HOST = Pattern.compile(QueueSettings.RETURN_HOST);

    /** Characters no URL we send anyone to may hold: controls, spaces, backslashes, quotes and angle brackets. */
    private static final Pattern UNSAFE = Pattern.compile("[\\x00-\\x20\\x7f\\\\\"'<>`]");

    private ReturnUrls() {
    }

    /**
     * The URL the waiting page may send a person back to, without any admission it carried; empty when the queue does
     * not return people there.
     */
    static Optional<String> allowed(String url, QueueSettings settings) {
        if (url == null || url.isEmpty() || url.length() > MAX_LENGTH || UNSAFE.matcher(url).find()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(url);
        }
        catch (URISyntaxException ex) {
            return Optional.empty();
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getRawUserInfo() != null
                || uri.getHost() == null || uri.isOpaque()) {
            return Optional.empty();
        }
        String authority = uri.getRawAuthority().toLowerCase(Locale.ROOT);
        if (!settings.returnsTo(authority)) {
            return Optional.empty();
        }
        Request parts = Request.of(uri.getRawPath(), uri.getRawQuery());
        String fragment = uri.getRawFragment() == null ? "" : "#" + uri.getRawFragment();
        return Optional.of(scheme + "://" + authority + parts.target() + fragment);
    }

    /** A host header's value as a return host is compared: lower case; null when it is not a host and port. */
    static String host(String header) {
        if (header == null) {
            return null;
        }
        String host = header.trim().toLowerCase(Locale.ROOT);
        return HOST.matcher(host).matches() ? host : null;
    }

    /** Percent-encodes a URL for a query parameter's value: everything but unreserved characters. */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * The request a proxy asks about: its path and query with the admission parameter taken out, and that parameter's
     * value, if any.
     *
     * @param target the path and query without the admission parameter: always one leading slash, so that as a
     *        {@code Location} it can only name a path of the site itself (never {@code //other.host})
     * @param admission the {@code qg_admission} parameter's value; null without one
     */
    record Request(String target, String admission) {

        /**
         * From the request target as the proxy saw it (nginx's {@code $request_uri}); null when it is not one: not a
         * path, too long, or holding characters no request line holds.
         */
        static Request parse(String requestUri) {
            if (requestUri == null || !requestUri.startsWith("/") || requestUri.length() > MAX_LENGTH
                    || UNSAFE.matcher(requestUri).find()) {
                return null;
            }
            int fragment = requestUri.indexOf('#');
            String target = fragment < 0 ? requestUri : requestUri.substring(0, fragment);
            int question = target.indexOf('?');
            return of(question < 0 ? target : target.substring(0, question),
                    question < 0 ? null : target.substring(question + 1));
        }

        static Request of(String rawPath, String rawQuery) {
            // "//evil.example/x" as a Location is another host: a path keeps one leading slash
            String path = "/" + (rawPath == null ? "" : rawPath.replaceFirst("^/+", ""));
            if (rawQuery == null) {
                return new Request(path, null);
            }
            StringJoiner kept = new StringJoiner("&");
            String admission = null;
            for (String parameter : rawQuery.split("&", -1)) {
                int equals = parameter.indexOf('=');
                String name = equals < 0 ? parameter : parameter.substring(0, equals);
                if (name.equals(ADMISSION_PARAMETER)) {
                    admission = equals < 0 ? "" : decode(parameter.substring(equals + 1));
                }
                else if (!parameter.isEmpty()) {
                    kept.add(parameter);
                }
            }
            String query = kept.toString();
            return new Request(query.isEmpty() && admission != null ? path
                    : path + "?" + query, admission);
        }

        private static String decode(String value) {
            try {
                return URLDecoder.decode(value, StandardCharsets.UTF_8);
            }
            catch (IllegalArgumentException ex) {
                return "";
            }
        }
    }
}
