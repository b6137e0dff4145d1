package io.queuegate.web;

import io.queuegate.core.secret.SecretPolicy;

import org.springframework.core.env.Environment;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Puts a service's admin endpoints behind {@code Authorization: Bearer <admin token>}. Declared as a bean with
 * the paths to guard; refuses to start with a token {@link SecretPolicy} refuses.
 */
public class AdminAccess implements WebMvcConfigurer {

    private final AdminTokenInterceptor interceptor;

    private final String[] paths;

    public AdminAccess(AdminProperties properties, Environment environment, String... paths) {
        SecretPolicy.require("ADMIN_TOKEN", properties.token(), environment);
        this.interceptor = new AdminTokenInterceptor(properties.token());
        this.paths = paths;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this.interceptor).addPathPatterns(this.paths);
    }
}
