package io.queuegate.gate;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.testing.TestSecrets;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the starter contributes to a context, and what it refuses to start with. */
class GateAutoConfigurationTests {

    private static final String SECRET = TestSecrets.random("auto-config-test-secret");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GateAutoConfiguration.class));

    private final WebApplicationContextRunner webRunner = new WebApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(GateAutoConfiguration.class));

    @Test
    void withRedisAndASecretTheGateIsThere() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + SECRET)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context).hasSingleBean(AdmissionGate.class);
                assertThat(context).hasSingleBean(StockLedger.class);
                assertThat(context).hasSingleBean(BookingLookup.class);
                assertThat(context).hasSingleBean(TokenCodec.class);
                assertThat(context).hasSingleBean(GateProperties.class);
                // not a servlet web application: no MVC advice
                assertThat(context).doesNotHaveBean(GateRejectionHandler.class);
                assertThat(context.getBean(GateProperties.class).maxQuantity()).isEqualTo(4);
                // the codec is keyed with the configured secret
                String token = new TokenCodec(SECRET).issue(7, "u-1").value();
                assertThat(context.getBean(TokenCodec.class).verify(token)).isPresent();
                assertThat(context.getBean(TokenCodec.class).verify(
                        new TokenCodec("another-secret-0123456789").issue(7, "u-1").value())).isEmpty();
            });
    }

    @Test
    void withTheJwksUriAloneTheGateTakesAdmissionsAndNeedsNoSecret() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.gate.jwks-uri=http://127.0.0.1:9/.well-known/jwks.json")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context).hasSingleBean(AdmissionGate.class);
                assertThat(context).doesNotHaveBean(TokenCodec.class);
                // a bare token cannot be checked without the secret: refused before Redis is asked
                String token = new TokenCodec(SECRET).issue(7, "u-1").value();
                assertThatThrownBy(() -> context.getBean(AdmissionGate.class).reserve(7, token, 1))
                    .isInstanceOf(GateRejectedException.class);
            });
        // neither: the secret is still required
        this.runner.withUserConfiguration(RedisConfiguration.class).run((context) -> assertThat(context).hasFailed());
    }

    @Test
    void aServletWebApplicationAlsoGetsTheRejectionHandler() {
        this.webRunner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + SECRET)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context).hasSingleBean(AdmissionGate.class);
                assertThat(context).hasSingleBean(TokenCodec.class);
                assertThat(context).hasSingleBean(GateRejectionHandler.class);
            });
    }

    @Test
    void withoutRedisThereIsNoGate() {
        this.webRunner.withPropertyValues("queuegate.token.secret=" + SECRET).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(AdmissionGate.class);
            assertThat(context).doesNotHaveBean(TokenCodec.class);
            assertThat(context).doesNotHaveBean(GateRejectionHandler.class);
        });
    }

    @Test
    void theDevSecretIsRefusedOutsideTheDevProfile() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + TokenProperties.DEV_SECRET)
            .run((context) -> {
                assertThat(context).hasFailed();
                assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("QUEUE_TOKEN_SECRET");
            });
    }

    @Test
    void theDevSecretIsRefusedUnderAnotherProfile() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + TokenProperties.DEV_SECRET,
                    "spring.profiles.active=prod")
            .run((context) -> assertThat(context).hasFailed());
    }

    @Test
    void theDevSecretIsAcceptedInTheDevProfile() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + TokenProperties.DEV_SECRET, "spring.profiles.active=dev")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context).hasSingleBean(AdmissionGate.class);
                String token = new TokenCodec(TokenProperties.DEV_SECRET).issue(7, "u-1").value();
                assertThat(context.getBean(TokenCodec.class).verify(token)).isPresent();
            });
    }

    @Test
    void aMissingOrShortSecretIsRefused() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .run((context) -> assertThat(context).hasFailed());
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=too-short")
            .run((context) -> assertThat(context).hasFailed());
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=   ", "spring.profiles.active=dev")
            .run((context) -> assertThat(context).hasFailed());
    }

    @Test
    void maxQuantityBindsAndBoundsTheGate() {
        this.runner.withUserConfiguration(RedisConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + SECRET, "queuegate.gate.max-quantity=7")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(GateProperties.class).maxQuantity()).isEqualTo(7);
                AdmissionGate gate = context.getBean(AdmissionGate.class);
                // both checks run before Redis (whose connection factory here was never started)
                assertThatIllegalArgumentException().isThrownBy(() -> gate.reserve(1, "garbage", 8))
                    .withMessageContaining("1..7");
                assertThatExceptionOfType(GateRejectedException.class)
                    .isThrownBy(() -> gate.reserve(1, "garbage", 7));
            });
    }

    @Test
    void anOutOfRangeMaxQuantityIsRefused() {
        for (String value : new String[] { "0", "-1", "1001", "many" }) {
            this.runner.withUserConfiguration(RedisConfiguration.class)
                .withPropertyValues("queuegate.token.secret=" + SECRET, "queuegate.gate.max-quantity=" + value)
                .run((context) -> assertThat(context).as("max-quantity=%s", value).hasFailed());
        }
    }

    @Test
    void aGateOfTheApplicationsOwnWins() {
        this.runner.withUserConfiguration(RedisConfiguration.class, CustomGateConfiguration.class)
            .withPropertyValues("queuegate.token.secret=" + SECRET)
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertThat(context).hasSingleBean(AdmissionGate.class);
                assertThat(context).getBean(AdmissionGate.class).isSameAs(context.getBean("customGate"));
            });
    }

    @Configuration(proxyBeanMethods = false)
    static class RedisConfiguration {

        /** A template whose factory is never started: nothing here may reach Redis. */
        @Bean
        StringRedisTemplate stringRedisTemplate() {
            return new StringRedisTemplate(new LettuceConnectionFactory());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomGateConfiguration {

        @Bean
        AdmissionGate customGate(StringRedisTemplate redis) {
            return new AdmissionGate(redis, new TokenCodec(SECRET), tools.jackson.databind.json.JsonMapper.shared(),
                    new GateProperties(2, null, 0, Duration.ofMillis(100), 200_000),
                    new ScriptTimer(new SimpleMeterRegistry()));
        }
    }
}
