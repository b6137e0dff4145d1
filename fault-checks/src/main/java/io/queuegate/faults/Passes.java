package io.queuegate.faults;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.queuegate.core.pass.PassVerifier;

/**
 * Passes for the impersonation scenario, signed as a shop's backend signs them:
 * {@code java -jar queuegate-fault-checks-exec.jar passes SPEC...}, each SPEC {@code PRODUCT:SUB} or
 * {@code PRODUCT:SUB:priority}.
 *
 * <p>Makes a P-256 key (the shop's), and a second one under the same {@code kid} that no queue holds (a stranger's).
 * Signs one pass (ES256: sub, product, exp an hour from now, the lane when given) per SPEC with the shop's key, or
 * with the stranger's when the SPEC starts with {@code !}. Prints one JSON line: {@code {"key": <the shop's public
 * JWK>, "passes": [...]}} in the order of the SPECs, for the queue's {@code passKeys} and the enters.
 */
final class Passes {

    static final String KID = "faults-shop";

    private Passes() {
    }

    static void run(String[] specs) throws JOSEException {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID(KID).generate();
        ECKey stranger = new ECKeyGenerator(Curve.P_256).keyID(KID).generate();
        List<String> passes = new ArrayList<>();
        for (String spec : specs) {
            boolean forged = spec.startsWith("!");
            String[] parts = (forged ? spec.substring(1) : spec).split(":");
            passes.add(sign(forged ? stranger : shop, Long.parseLong(parts[0]), parts[1],
                    parts.length > 2 ? parts[2] : null));
        }
        System.out.println("{\"key\": " + shop.toPublicJWK().toJSONString() + ", \"passes\": "
                + ForgeryCheck.quote(passes) + "}");
    }

    static String sign(ECKey key, long product, String subject, String lane) throws JOSEException {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject)
            .claim(PassVerifier.PRODUCT, product)
            .expirationTime(new Date(System.currentTimeMillis() + 3_600_000L));
        if (lane != null) {
            claims.claim(PassVerifier.LANE, lane);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(key.getKeyID()).build(),
                claims.build());
        jwt.sign(new ECDSASigner(key));
        return jwt.serialize();
    }
}
