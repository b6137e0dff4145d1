package io.queuegate.yardstick.noop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The benchmark's plain no-op yardstick: a Spring Boot web app (Tomcat, virtual threads, Spring MVC) with none of
 * Queuegate's filters, no actuator and no work behind its two endpoints. Queuegate's enter and poll rates are divided
 * by its rates, measured in the same run on the same machine.
 */
@SpringBootApplication
public class PlainNoopApplication {

    public static void main(String[] args) {
        SpringApplication.run(PlainNoopApplication.class, args);
    }
}
