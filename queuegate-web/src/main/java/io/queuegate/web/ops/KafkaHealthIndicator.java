package io.queuegate.web.ops;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Kafka's health, which Spring Boot does not provide: UP when the cluster answers a describe within the
 * timeout, with its id and broker count. Part of readiness: a service that cannot reach the log should not
 * get traffic.
 */
public class KafkaHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final AdminClient admin;

    public KafkaHealthIndicator(KafkaAdmin kafkaAdmin) {
        super("Kafka health check failed");
        Map<String, Object> config = new java.util.HashMap<>(kafkaAdmin.getConfigurationProperties());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        this.admin = AdminClient.create(config);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) throws Exception {
        DescribeClusterResult cluster = this.admin
            .describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis()));
        String clusterId = cluster.clusterId().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        int brokers = cluster.nodes().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).size();
        builder.up().withDetail("clusterId", clusterId).withDetail("brokers", brokers);
    }

    @Override
    public void destroy() {
        this.admin.close(Duration.ofSeconds(1));
    }
}
