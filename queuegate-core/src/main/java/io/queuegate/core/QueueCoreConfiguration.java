package io.queuegate.core;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.Keyspace;
import io.queuegate.core.queue.Leaving;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.RedisKeyProperties;
import io.queuegate.core.queue.RegistryProperties;
import io.queuegate.core.queue.ScriptTimer;
import io.queuegate.core.queue.TokenStatusReader;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.secret.SecretPolicy;
import io.queuegate.core.admission.AdmissionKeys;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The beans every service builds from the core: the token codec and the queue's script wrappers. The wrappers are
 * imported as they are: each has one constructor, of the connection, the script timer and the keyspace.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ TokenProperties.class, RegistryProperties.class, RedisKeyProperties.class })
@Import({ WaitingLine.class, Admission.class, TokenStatusReader.class, Leaving.class })
public class QueueCoreConfiguration {

    @Bean
    TokenCodec tokenCodec(TokenProperties properties, Environment environment) {
        SecretPolicy.require("QUEUE_TOKEN_SECRET", properties.secret(), environment);
        return new TokenCodec(properties.secret());
    }

    @Bean
    AdmissionKeys admissionKeys(TokenProperties properties) {
        return AdmissionKeys.of(properties.signingKeys(), properties.secret());
    }

    @Bean
    ScriptTimer scriptTimer(ObjectProvider<MeterRegistry> registry) {
        return new ScriptTimer(registry.getIfAvailable(() -> Metrics.globalRegistry));
    }

    /** Every Redis key name of this deployment, after {@code queuegate.redis.key-prefix}. */
    @Bean
    Keyspace keyspace(RedisKeyProperties properties) {
        return properties.keyspace();
    }

    @Bean
    QueueStore queueStore(StringRedisTemplate redis, Keyspace keyspace, RegistryProperties properties) {
        return new QueueStore(redis, keyspace, properties.registry());
    }
}
