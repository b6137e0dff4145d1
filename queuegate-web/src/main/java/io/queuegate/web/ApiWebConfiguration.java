package io.queuegate.web;

import org.apache.catalina.core.StandardHost;

import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;

/**
 * What every Queuegate service on the servlet stack shares: strict JSON, request ids, and problem answers from Spring
 * MVC and from Tomcat itself. {@link io.queuegate.web.reactive.ReactiveApiWebConfiguration} is its reactive twin.
 */
@Configuration(proxyBeanMethods = false)
@Import({ StrictJsonConfiguration.class, ApiProblemHandler.class })
public class ApiWebConfiguration {

    @Bean
    FilterRegistrationBean<RequestIdFilter> requestIdFilter() {
        FilterRegistrationBean<RequestIdFilter> registration = new FilterRegistrationBean<>(new RequestIdFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
        return factory -> factory.addContextCustomizers((TomcatContextCustomizer) context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
            }
        });
    }
}
