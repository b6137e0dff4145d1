package io.queuegate.web.openapi;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.queuegate.web.ProblemCodes;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;

/** The {@code Problem} schema component: RFC 9457 problem details with the {@code code} member clients switch on. */
final class ProblemSchema {

    static final String NAME = "Problem";

    static final String MEDIA_TYPE = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

    private ProblemSchema() {
    }

    static Schema<?> schema() {
        StringSchema code = new StringSchema();
        codes().forEach(code::addEnumItem);
        return new ObjectSchema()
            .description("An RFC 9457 problem. Clients switch on `code`, which never changes meaning; "
                    + "`title` and `detail` are for people.")
            // Spring leaves out a type of about:blank, which RFC 9457 takes as the value of an absent one
            .addProperty("type", new StringSchema().format("uri-reference")._default("about:blank")
                .description("about:blank, or absent (the same): the status and the code say what happened"))
            .addProperty("title", new StringSchema().description("The status's reason phrase"))
            .addProperty("status", new IntegerSchema().description("The HTTP status of the answer"))
            .addProperty("detail", new StringSchema().description("What was wrong, in a sentence"))
            .addProperty("instance", new StringSchema().format("uri-reference").description("The request's path"))
            .addProperty("code", code.description("What was wrong, for programs"))
            .required(List.of("title", "status", "code"));
    }

    /** The answer's body as a reference to the component. */
    static Content content() {
        return new Content().addMediaType(MEDIA_TYPE,
                new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + NAME)));
    }

    /**
     * Every constant of {@link ProblemCodes}, read from the class so that a code added there is in the description
     * without a second list to keep; sorted, so the description does not depend on reflection's order.
     */
    static Set<String> codes() {
        Set<String> codes = new TreeSet<>();
        for (Field field : ProblemCodes.class.getFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers) && field.getType() == String.class) {
                try {
                    codes.add((String) field.get(null));
                }
                catch (IllegalAccessException ex) {
                    throw new IllegalStateException(ex);
                }
            }
        }
        return codes;
    }
}
