package io.queuegate.management;

import reactor.netty.resources.LoopResources;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Actuator's server (the management port, a child context of its own) runs on one event loop of its own. Left to
 * itself it would run on Reactor Netty's global loops, which any other Spring context in the same JVM disposes when it
 * closes, taking the management port down with them; and scrapes and probes there never take a turn on the loops
 * that answer the burst.
 *
 * <p>In a package of its own, outside {@code io.queuegate.ingest}: the application's component scan must not find it,
 * or its loop would be the main server's too. Actuator imports it into the management context alone
 * ({@code META-INF/spring/...ManagementContextConfiguration.imports}).
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.REACTIVE)
class ManagementServerLoops implements DisposableBean {

    private final LoopResources loops = LoopResources.create("ingest-management", 1, true);

    @Bean
    WebServerFactoryCustomizer<NettyReactiveWebServerFactory> managementServerOnItsOwnLoop() {
        return (factory) -> factory.addServerCustomizers((server) -> server.runOn(this.loops));
    }

    @Override
    public void destroy() {
        this.loops.disposeLater().block();
    }
}
