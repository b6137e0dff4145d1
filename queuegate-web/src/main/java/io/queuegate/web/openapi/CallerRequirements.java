package io.queuegate.web.openapi;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * Says who may call each operation. A controller marks its admin operations with
 * {@code @SecurityRequirement(name = "admin")}; every other operation is public and says so with an explicit empty
 * {@code security}, so that a reader (and a linter) can tell "anyone" from "forgotten". The admin scheme is declared
 * only in a description that has admin operations, and each of them answers 401 ({@code AdminTokenInterceptor}).
 */
final class CallerRequirements implements OpenApiCustomizer {

    /** The scheme name the controllers' {@code @SecurityRequirement} annotations use. */
    static final String ADMIN = "admin";

    @Override
    public void customise(OpenAPI openApi) {
        boolean admin = false;
        if (openApi.getPaths() != null) {
            for (PathItem path : openApi.getPaths().values()) {
                for (Operation operation : path.readOperations()) {
                    admin |= describe(operation);
                }
            }
        }
        Components components = openApi.getComponents();
        if (components != null && components.getSecuritySchemes() != null) {
            components.getSecuritySchemes().remove(ADMIN);
        }
        if (admin) {
            if (components == null) {
                components = new Components();
                openApi.setComponents(components);
            }
            components.addSecuritySchemes(ADMIN, new SecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("bearer")
                .description("The deployment's admin token (ADMIN_TOKEN), as Authorization: Bearer <admin token>"));
        }
    }

    /** True when the operation needs the admin token. */
    private static boolean describe(Operation operation) {
        List<SecurityRequirement> security = operation.getSecurity();
        if (security == null || security.isEmpty()) {
            operation.setSecurity(new ArrayList<>());
            return false;
        }
        boolean admin = security.stream().anyMatch(requirement -> requirement.containsKey(ADMIN));
        if (admin) {
            if (operation.getResponses() == null) {
                operation.setResponses(new ApiResponses());
            }
            operation.getResponses().computeIfAbsent("401", status -> new ApiResponse()
                .description("unauthorized: no Authorization: Bearer <admin token>, or another token"));
        }
        return admin;
    }
}
