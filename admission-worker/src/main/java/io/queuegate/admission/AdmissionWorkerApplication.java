package io.queuegate.admission;

import java.util.Map;

import io.queuegate.core.QueueCoreConfiguration;
import io.queuegate.web.ops.OpsConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Writes the log into the line, admits its head within capacity and rate, and serves queue administration. */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import({ QueueCoreConfiguration.class, OpsConfiguration.class })
public class AdmissionWorkerApplication {

    /** The services share one classpath in system tests, so each reads its own file instead of application.yml. */
    public static final String CONFIG_NAME = "admission-worker";

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(AdmissionWorkerApplication.class);
        application.setDefaultProperties(Map.of("spring.config.name", CONFIG_NAME));
        application.run(args);
    }
}
