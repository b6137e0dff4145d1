package io.queuegate.booking;

import java.util.Map;

import io.queuegate.web.ops.OpsConfiguration;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Import;

/** Books a product for an admitted token through the Queuegate gate, like any customer's service would. */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import(OpsConfiguration.class)
public class BookingApplication {

    /** The services share one classpath in system tests, so each reads its own file instead of application.yml. */
    public static final String CONFIG_NAME = "booking-service";

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(BookingApplication.class);
        application.setDefaultProperties(Map.of("spring.config.name", CONFIG_NAME));
        application.run(args);
    }
}
