package io.queuegate.admission.admin;

import io.queuegate.admission.line.WriterHold;
import io.queuegate.admission.line.WriterHold.WriterState;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Holds and releases this worker's line writer (see {@link WriterHold}). Needs the admin bearer token. */
@RestController
@RequestMapping(path = "/api/v1/writer", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "writer", description = "The line writer of this worker (Authorization: Bearer <admin token>)")
@SecurityRequirement(name = "admin")
record WriterAdminController(WriterHold hold) {

    @GetMapping
    @Operation(operationId = "getWriter", summary = "Whether this worker's line writer is held")
    @ApiResponse(responseCode = "200", description = "held, paused (it stopped reading) and running")
    WriterState get() {
        return this.hold.state();
    }

    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "holdWriter", summary = "Hold or release this worker's line writer",
            description = """
                    Held, the writer reads nothing more from the log: enters are still taken and kept in the log, and \
                    the lines stop growing until the release, when the backlog drains in log order. Only this worker's \
                    partitions; a restart releases it.""")
    @ApiResponse(responseCode = "200", description = """
            The writer's state; paused turns true once a batch under way is finished""")
    @ApiResponse(responseCode = "400", description = "invalid_request: held is missing or not a boolean")
    WriterState put(@Valid @RequestBody HoldRequest request) {
        return this.hold.hold(request.held());
    }

    /** @param held true to hold the writer, false to release it */
    record HoldRequest(@NotNull Boolean held) {
    }
}
