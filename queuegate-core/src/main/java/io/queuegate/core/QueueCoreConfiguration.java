package io.queuegate.core;

import java.util.Arrays;

import io.queuegate.core.queue.Admission;
import io.queuegate.core.queue.EntryRemover;
import io.queuegate.core.queue.EntryStatusReader;
import io.queuegate.core.queue.QueueStore;
import io.queuegate.core.queue.WaitingLine;
import io.queuegate.core.token.TokenCodec;
import io.queuegate.core.token.TokenProperties;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The beans every service builds from the core: the token codec and the queue's script wrappers. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TokenProperties.class)
public class QueueCoreConfiguration {

    public static final String DEV_PROFILE = "dev";

    @Bean
    TokenCodec tokenCodec(TokenProperties properties, Environment environment) {
        requireRealSecret(properties.secret(), TokenProperties.DEV_SECRET, "QUEUE_TOKEN_SECRET", environment);
        return new TokenCodec(properties.secret());
    }

    @Bean
    QueueStore queueStore(StringRedisTemplate redis) {
        return new QueueStore(redis);
    }

    @Bean
    WaitingLine waitingLine(StringRedisTemplate redis) {
        return new WaitingLine(redis);
    }

    @Bean
    Admission admission(StringRedisTemplate redis) {
        return new Admission(redis);
    }

    @Bean
    EntryStatusReader entryStatusReader(StringRedisTemplate redis) {
        return new EntryStatusReader(redis);
    }

    @Bean
    EntryRemover entryRemover(StringRedisTemplate redis) {
        return new EntryRemover(redis);
    }

    /**
     * Refuses to start with a missing or well-known secret unless the {@code dev} profile is active: a
     * deployment that forgot its secret would hand out tokens anyone can forge.
     */
    public static void requireRealSecret(String value, String devDefault, String variable, Environment environment) {
        boolean dev = Arrays.asList(environment.getActiveProfiles()).contains(DEV_PROFILE);
        if (!dev && (value == null || value.isBlank() || value.equals(devDefault))) {
            throw new IllegalStateException(variable + " must be set to a private value outside the '"
                    + DEV_PROFILE + "' profile");
        }
    }
}
