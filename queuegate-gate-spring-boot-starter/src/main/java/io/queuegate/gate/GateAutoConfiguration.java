package io.queuegate.gate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.RedisKeyProperties;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.secret.SecretPolicy;
import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.admission.AdmissionVerifier;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Gives a Spring Boot service an {@link AdmissionGate}, a {@link StockLedger} and a {@link BookingLookup} once it has
 * Redis: add the starter, set {@code queuegate.token.secret} to the queue's secret, or {@code queuegate.gate.jwks-uri}
 * to the queue's published keys (then only admissions are taken, and no secret is needed; their issuer must be the
 * deployment's {@code queuegate.token.issuer}, set here alike), and call
 * {@code gate.reserve(...)} where a booking starts.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration" })
@ConditionalOnBean(StringRedisTemplate.class)
@EnableConfigurationProperties({ GateProperties.class, TokenProperties.class, RedisKeyProperties.class })
public class GateAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @Conditional(SecretOrNoJwks.class)
    TokenCodec tokenCodec(TokenProperties properties, Environment environment) {
        SecretPolicy.require("QUEUE_TOKEN_SECRET", properties.secret(), environment);
        return new TokenCodec(properties.secret());
    }

    /** The queue's key names: set {@code queuegate.redis.key-prefix} to the queue's own when it has one. */
    @Bean
    @ConditionalOnMissingBean
    Keyspace keyspace(RedisKeyProperties properties) {
        return properties.keyspace();
    }

    /** The keys this service publishes at {@code /.well-known/jwks.json}, as every service of the queue does. */
    @Bean
    @ConditionalOnMissingBean
    @Conditional(SecretOrNoJwks.class)
    AdmissionKeys admissionKeys(TokenProperties properties) {
        return AdmissionKeys.of(properties.signingKeys(), properties.secret());
    }

    @Bean
    @ConditionalOnMissingBean
    AdmissionGate entryGate(StringRedisTemplate redis, ObjectProvider<TokenCodec> tokens, ObjectProvider<JsonMapper> json,
            GateProperties properties, TokenProperties tokenProperties, ObjectProvider<MeterRegistry> metrics,
            Keyspace keyspace) {
        AdmissionVerifier admissions = properties.jwksUri() == null || properties.jwksUri().isBlank() ? null
                : AdmissionVerifier.fromJwksUri(properties.jwksUri(), tokenProperties.issuer());
        return new AdmissionGate(redis, tokens.getIfAvailable(), json.getIfAvailable(JsonMapper::shared), properties,
                new ScriptTimer(metrics.getIfAvailable(() -> Metrics.globalRegistry)), keyspace, admissions);
    }

    @Bean
    @ConditionalOnMissingBean
    StockLedger stockLedger(StringRedisTemplate redis, Keyspace keyspace) {
        return new StockLedger(redis, keyspace);
    }

    @Bean
    @ConditionalOnMissingBean
    BookingLookup bookingLookup(StringRedisTemplate redis, ObjectProvider<JsonMapper> json, Keyspace keyspace) {
        return new BookingLookup(redis, json.getIfAvailable(JsonMapper::shared), keyspace);
    }

    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnMissingBean
    GateRejectionHandler gateRejectionHandler() {
        return new GateRejectionHandler();
    }

    /**
     * The queue's secret is needed unless the gate verifies admissions by the published keys and is given no secret:
     * a shop outside the deployment then runs the gate with the JWKS URL alone.
     */
    static final class SecretOrNoJwks implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Environment environment = context.getEnvironment();
            return !environment.getProperty("queuegate.token.secret", "").isBlank()
                    || environment.getProperty("queuegate.gate.jwks-uri", "").isBlank();
        }
    }
}
