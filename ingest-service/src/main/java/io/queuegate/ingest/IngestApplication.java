package io.queuegate.ingest;

import io.queuegate.core.QueueCoreConfiguration;
import io.queuegate.web.ops.OpsConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Takes enter requests, publishes them to Kafka and answers status polls. */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import({ QueueCoreConfiguration.class, OpsConfiguration.class })
public class IngestApplication {

    /** The services share one classpath in system tests, so each reads its own file instead of application.yml. */
    public static final String CONFIG_NAME = "ingest-service";

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(IngestApplication.class);
        application.setDefaultProperties(java.util.Map.of("spring.config.name", CONFIG_NAME));
        application.run(args);
    }
}
