package io.queuegate.system;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code queuegate.*} setting is described in the configuration metadata the annotation processor writes, so
 * that an IDE completes and explains it: the settings each service's own file sets, and every one bound by a
 * {@code @ConfigurationProperties} type, with a description.
 */
class ConfigurationMetadataTests {

    private static final String[] SERVICE_FILES = { "ingest-service.yml", "admission-worker.yml",
            "booking-service.yml" };

    @Test
    void everyQueuegateSettingIsDescribed() throws IOException {
        Map<String, String> described = queuegateMetadata();

        assertThat(described).containsKeys("queuegate.token.secret", "queuegate.admin.token",
                "queuegate.ingest.publish-timeout", "queuegate.ingest.status.max-batch",
                "queuegate.admission.append-chunk", "queuegate.booking.publish-timeout", "queuegate.gate.max-quantity",
                "queuegate.ingest.noop-endpoint");
        assertThat(described).allSatisfy((name, description) -> assertThat(description).as(name).isNotBlank());
        assertThat(described.keySet()).containsAll(settingsOfTheServiceFiles());
    }

    private static Map<String, String> queuegateMetadata() throws IOException {
        Map<String, String> described = new TreeMap<>();
        for (URL url : Collections.list(ConfigurationMetadataTests.class.getClassLoader()
            .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode property : JsonMapper.shared().readTree(in).path("properties")) {
                    String name = property.path("name").asString();
                    if (name.startsWith("queuegate.")) {
                        described.put(name, property.path("description").asString(""));
                    }
                }
            }
        }
        return described;
    }

    private static Set<String> settingsOfTheServiceFiles() {
        Set<String> names = new TreeSet<>();
        for (String file : SERVICE_FILES) {
            YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
            yaml.setResources(new ClassPathResource(file));
            Properties properties = yaml.getObject();
            for (String name : properties.stringPropertyNames()) {
                if (name.startsWith("queuegate.")) {
                    // a list's items (name[0]) belong to the list's own entry
                    names.add(name.replaceAll("\\[\\d+]$", ""));
                }
            }
        }
        assertThat(names).as("the services' files set queuegate settings").isNotEmpty();
        return names;
    }
}
