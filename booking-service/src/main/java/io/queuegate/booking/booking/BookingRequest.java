package io.queuegate.booking.booking;

import io.swagger.v3.oas.annotations.media.Schema;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

/**
 * @param productId the product to book
 * @param token the entry token of an admitted user
 * @param quantity units to book, 1 when absent; at most {@code queuegate.gate.max-quantity}
 */
record BookingRequest(
        @Schema(example = "1") @NotNull @Positive Long productId,
        @Schema(description = "The entry token, or, where the gate verifies admissions by keys "
                + "(queuegate.gate.jwks-uri), the admission of the AVAILABLE status answer")
        @NotBlank @Size(max = 1024) String token,
        @Schema(example = "1", defaultValue = "1") @Min(1) @Max(1000) Integer quantity) {

    int quantityOrDefault() {
        return this.quantity == null ? 1 : this.quantity;
    }
}
