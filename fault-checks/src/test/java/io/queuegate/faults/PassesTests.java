package io.queuegate.faults;

import java.util.List;
import java.util.Map;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import io.queuegate.core.pass.PassVerifier;
import io.queuegate.core.token.Lane;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PassesTests {

    @Test
    void aPassTheShopSignedVerifiesWithItsPublicKeyForItsUserProductAndLane() throws Exception {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID(Passes.KID).generate();
        PassVerifier verifier = PassVerifier.of(List.of(Map.copyOf(shop.toPublicJWK().toJSONObject())));

        assertThat(verifier.verify(Passes.sign(shop, 42, "alice", "priority"), 42))
            .contains(new PassVerifier.Holder("alice", Lane.PRIORITY));
        assertThat(verifier.verify(Passes.sign(shop, 42, "bob", null), 42))
            .contains(new PassVerifier.Holder("bob", Lane.GENERAL));
        assertThat(verifier.verify(Passes.sign(shop, 42, "alice", null), 43)).isEmpty();
    }

    @Test
    void aPassAStrangerSignedUnderTheShopsKidIsRefused() throws Exception {
        ECKey shop = new ECKeyGenerator(Curve.P_256).keyID(Passes.KID).generate();
        ECKey stranger = new ECKeyGenerator(Curve.P_256).keyID(Passes.KID).generate();
        PassVerifier verifier = PassVerifier.of(List.of(Map.copyOf(shop.toPublicJWK().toJSONObject())));

        assertThat(verifier.verify(Passes.sign(stranger, 42, "alice", "priority"), 42)).isEmpty();
    }
}
