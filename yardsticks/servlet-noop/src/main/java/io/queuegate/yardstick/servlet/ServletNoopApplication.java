package io.queuegate.yardstick.servlet;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * The plain no-op yardstick's two answers from one servlet: the same Spring Boot, Tomcat and virtual threads, but no
 * Spring MVC (no dispatcher, handler mapping, argument resolvers or message converters). Beside the plain no-op it
 * tells what Spring MVC costs per request; see {@code bench/http-stacks.sh}.
 */
@SpringBootApplication
public class ServletNoopApplication {

    @Bean
    ServletRegistrationBean<NoopServlet> noopServlet() {
        return new ServletRegistrationBean<>(new NoopServlet(), "/api/v1/queues/*");
    }

    public static void main(String[] args) {
        SpringApplication.run(ServletNoopApplication.class, args);
    }
}
