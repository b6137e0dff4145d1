package io.queuegate.ingest.front;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import io.queuegate.ingest.IngestProperties;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.HttpHandler;

@Configuration(proxyBeanMethods = false)
class FrontConfiguration {

    @Bean
    FrontReplies frontReplies(JsonMapper json, MeterRegistry metrics) {
        return new FrontReplies(json, metrics);
    }

    /** The service's loops, or, in the warm-up's scratch copy, the service's loops given to it ({@link FrontLoops}). */
    @Bean
    @ConditionalOnMissingBean
    FrontLoops frontLoops(FrontProperties properties) {
        return new FrontLoops(properties.ioThreads() > 0 ? properties.ioThreads()
                : Runtime.getRuntime().availableProcessors());
    }

    @Bean
    IngestFront ingestFront(FrontProperties properties, ObjectProvider<FastPath> paths, ObjectProvider<HttpHandler> webFlux,
            FrontReplies replies, IngestProperties ingest, PerClientProperties perClient, MeterRegistry metrics,
            FrontLoops loops) {
        List<FastPath> fastPaths = properties.fastPaths() ? paths.orderedStream().toList() : List.of();
        return new IngestFront(properties, fastPaths, new WebFluxStack(webFlux::getObject, replies,
                ingest.maxBodyBytes()), replies, ingest.maxBodyBytes(), new ClientAddresses(ingest.trustedProxies()),
                perClient.enabled() ? new PerClientLimits(perClient, metrics) : null, loops);
    }

    /**
     * Spring Boot's Netty server with the front in it. The route and the settings are given to this factory alone, not
     * declared as beans: the management server, which Boot builds from a factory of the same class, stays plain.
     */
    @Bean
    NettyReactiveWebServerFactory nettyReactiveWebServerFactory(IngestFront front) {
        NettyReactiveWebServerFactory factory = new NettyReactiveWebServerFactory();
        factory.addServerCustomizers(front::configure);
        factory.addRouteProviders(front::route);
        return factory;
    }
}
