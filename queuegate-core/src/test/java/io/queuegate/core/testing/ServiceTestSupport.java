package io.queuegate.core.testing;

import java.util.ArrayList;
import java.util.List;

import io.queuegate.core.queue.QueueKeys;
import org.junit.jupiter.api.AfterEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What the Spring Boot tests of every service share: the service's context with this run's secrets, the real,
 * shared Redis, and products of the test's own, whose keys are deleted after it. A service's test support adds its
 * {@code @SpringBootTest} settings and its broker.
 */
public abstract class ServiceTestSupport {

    public static final String TOKEN_SECRET = TestSecrets.random("service-test-token-secret");

    public static final String ADMIN_TOKEN = TestSecrets.random("service-test-admin-token");

    /** The enter key of the shop's backend, for queues in identity "trusted". */
    public static final String ENTER_KEY = TestSecrets.random("service-test-enter-key");

    @DynamicPropertySource
    static void secrets(DynamicPropertyRegistry registry) {
        registry.add("queuegate.token.secret", () -> TOKEN_SECRET);
        registry.add("queuegate.admin.token", () -> ADMIN_TOKEN);
        registry.add("queuegate.ingest.enter-keys", () -> ENTER_KEY);
    }

    @Autowired
    protected StringRedisTemplate redis;

    private final List<Long> products = new ArrayList<>();

    /** A product id none of whose keys exist yet; its keys are deleted after the test. */
    protected long newProduct() {
        long product = TestRedis.unusedProduct(this.redis);
        this.products.add(product);
        return product;
    }

    /** Deletes the test's products, and takes them off the list of queues a test that set one up put them on. */
    @AfterEach
    void deleteProducts() {
        for (long product : this.products) {
            this.redis.opsForSet().remove(QueueKeys.REGISTRY, Long.toString(product));
            this.redis.delete(QueueKeys.of(product).all());
        }
        this.products.clear();
    }

    /**
     * The command line of another instance of the service, started by the test beside its own: named by
     * {@code configName}, on free ports, with this test's secrets; the caller adds what it runs against.
     */
    protected static List<String> anotherInstance(String configName) {
        return new ArrayList<>(List.of("--spring.config.name=" + configName, "--server.port=0",
                "--management.server.port=0", "--spring.main.banner-mode=off",
                "--queuegate.token.secret=" + TOKEN_SECRET, "--queuegate.admin.token=" + ADMIN_TOKEN,
                "--queuegate.ingest.enter-keys=" + ENTER_KEY));
    }

    /** The port another instance answers on. */
    public static int portOf(ConfigurableApplicationContext service) {
        return service.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }
}
