package io.queuegate.admission;

import java.util.Arrays;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Leaves the audit relay out of a test's worker. Redis is shared with other runs, and the relay walks every
 * registered queue: a test worker would take the lease of other runs' products and relay (then delete) their
 * audit trail into this test's own embedded broker. These tests do not look at the audit trail.
 */
class WithoutAuditRelay implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    private static final String RELAY_CLASS = "io.queuegate.admission.audit.AuditRelay";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.addBeanFactoryPostProcessor(removeRelay());
    }

    /** Whether a started context has a relay after all. */
    static boolean hasRelay(ConfigurableApplicationContext context) {
        return Arrays.stream(context.getBeanDefinitionNames())
            .map(context::getType)
            .anyMatch((type) -> type != null && RELAY_CLASS.equals(type.getName()));
    }

    private static BeanFactoryPostProcessor removeRelay() {
        return (beanFactory) -> {
            BeanDefinitionRegistry registry = (BeanDefinitionRegistry) beanFactory;
            Arrays.stream(registry.getBeanDefinitionNames())
                .filter((name) -> RELAY_CLASS.equals(registry.getBeanDefinition(name).getBeanClassName()))
                .forEach(registry::removeBeanDefinition);
        };
    }
}
