package io.queuegate.admission.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a webhook's body as Stripe signs its events: {@code Queuegate-Signature: t=<unix seconds>,v1=<hex>}, where the
 * hex is the HMAC-SHA256, keyed with the queue's {@code webhookSecret}, of {@code "<t>.<body>"}. The time is inside
 * what is signed, so a receiver that refuses old timestamps cannot be made to take a recorded event again later.
 */
final class WebhookSigner {

    /** The header the signature travels in. */
    static final String HEADER = "Queuegate-Signature";

    private WebhookSigner() {
    }

    /** The header's value for this body, sent at {@code epochSeconds}. */
    static String sign(String secret, long epochSeconds, byte[] body) {
        return "t=" + epochSeconds + ",v1=" + HexFormat.of().formatHex(mac(secret, epochSeconds, body));
    }

    /**
     * What a receiver does: whether the header is this body's signature with this secret, made at most
     * {@code toleranceSeconds} from {@code nowSeconds}. Compares in constant time.
     */
    static boolean verify(String secret, String header, byte[] body, long nowSeconds, long toleranceSeconds) {
        Long t = null;
        byte[] given = null;
        for (String part : header == null ? new String[0] : header.split(",")) {
            try {
                if (part.startsWith("t=")) {
                    t = Long.parseLong(part.substring(2));
                }
                else if (part.startsWith("v1=")) {
                    given = HexFormat.of().parseHex(part.substring(3));
                }
            }
            catch (IllegalArgumentException ex) {
                return false;
            }
        }
        return t != null && given != null && Math.abs(nowSeconds - t) <= toleranceSeconds
                && MessageDigest.isEqual(mac(secret, t, body), given);
    }

    private static byte[] mac(String secret, long epochSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((epochSeconds + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        }
        catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
        }
    }
}
