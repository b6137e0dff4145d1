package io.queuegate.ingest;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The API's {@code entries} resource, a token's place, which the enter, status and leave controllers share: one
 * path, JSON answers and one tag in the API description.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@RestController
@RequestMapping(path = EntriesPaths.ENTRIES, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "entries", description = "Enter a product's line, poll your place, leave")
public @interface EntriesResource {
}
