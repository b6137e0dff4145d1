package io.queuegate.ingest.enter;

import java.util.List;

import io.queuegate.core.secret.SecretPolicy;
import io.queuegate.ingest.IngestProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class EnterKeysTests {

    private static final String KEY = "k".repeat(40);

    private static final String NEXT_KEY = "n".repeat(40);

    @Test
    void acceptsEachKeyAsABearerTokenAndNothingElse() {
        EnterKeys keys = keys(new MockEnvironment(), KEY, NEXT_KEY);

        assertThat(keys.accepts("Bearer " + KEY)).isTrue();
        assertThat(keys.accepts("bearer " + NEXT_KEY)).as("the scheme in any case, and the key being rotated in")
            .isTrue();
        assertThat(keys.accepts(KEY)).as("without the scheme").isFalse();
        assertThat(keys.accepts("Bearer " + KEY.substring(1))).isFalse();
        assertThat(keys.accepts("Bearer " + KEY + "x")).isFalse();
        assertThat(keys.accepts("Basic " + KEY)).isFalse();
        assertThat(keys.accepts("Bearer ")).isFalse();
        assertThat(keys.accepts(null)).isFalse();
    }

    @Test
    void noKeysAcceptNothing() {
        EnterKeys keys = keys(new MockEnvironment());

        assertThat(keys.accepts("Bearer ")).isFalse();
        assertThat(keys.accepts("Bearer " + KEY)).isFalse();
    }

    @Test
    void aKeyThatIsTheAdminTokenStopsTheServiceAtStart() {
        MockEnvironment environment = new MockEnvironment().withProperty("queuegate.admin.token", KEY);
        assertThatIllegalStateException().isThrownBy(() -> keys(environment, NEXT_KEY, KEY))
            .withMessageContaining("admin token");
        MockEnvironment fromTheVariable = new MockEnvironment().withProperty("ADMIN_TOKEN", KEY);
        assertThatIllegalStateException().isThrownBy(() -> keys(fromTheVariable, KEY));
    }

    @Test
    void aKeyIsHeldToTheSecretsPolicy() {
        assertThatIllegalStateException().isThrownBy(() -> keys(new MockEnvironment(), "short-key"))
            .withMessageContaining("ENTER_KEY");
        MockEnvironment dev = new MockEnvironment();
        dev.setActiveProfiles(SecretPolicy.DEV_PROFILE);
        assertThat(keys(dev, "short-key").accepts("Bearer short-key")).isTrue();
    }

    private static EnterKeys keys(MockEnvironment environment, String... keys) {
        MapConfigurationPropertySource source = new MapConfigurationPropertySource();
        source.put("queuegate.ingest.enter-keys", String.join(",", keys));
        IngestProperties properties = new Binder(source)
            .bindOrCreate("queuegate.ingest", Bindable.of(IngestProperties.class));
        assertThat(properties.enterKeys()).hasSize(List.of(keys).size());
        return new EnterKeys(properties, environment);
    }
}
