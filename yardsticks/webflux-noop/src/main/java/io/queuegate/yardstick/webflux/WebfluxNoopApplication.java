package io.queuegate.yardstick.webflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The plain no-op yardstick's answers on Spring WebFlux and Reactor Netty instead of Spring MVC and Tomcat: whether
 * Spring's reactive stack answers a request for less CPU on this machine; see {@code bench/http-stacks.sh}.
 */
@SpringBootApplication
public class WebfluxNoopApplication {

    public static void main(String[] args) {
        SpringApplication.run(WebfluxNoopApplication.class, args);
    }
}
