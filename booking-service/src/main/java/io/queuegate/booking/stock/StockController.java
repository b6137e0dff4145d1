package io.queuegate.booking.stock;

import io.queuegate.gate.StockLedger;
import io.queuegate.web.DurableWrite;
import io.queuegate.web.ProductIds;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Sets and reads a product's stock. Needs the admin bearer token. */
@RestController
@RequestMapping(path = "/api/v1/products/{productId}/stock", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "stock", description = "Stock administration (Authorization: Bearer <admin token>)")
@SecurityRequirement(name = "admin")
record StockController(StockLedger stock, StockSetting setting) {

    @PutMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(operationId = "setStock", summary = "Set the units left to sell")
    @ApiResponse(responseCode = "200", description = "The stock")
    @ApiResponse(responseCode = "503", description = "unavailable: not stored in Kafka; set it again")
    Stock put(@PathVariable("productId") String productIdText, @Valid @RequestBody StockRequest request) {
        long productId = ProductIds.parse(productIdText);
        DurableWrite.orUnavailable(() -> this.setting.set(productId, request.available()),
                "The stock could not be stored durably; set it again.", DurableWrite.OPERATOR_RETRY_AFTER);
        return new Stock(productId, request.available());
    }

    @GetMapping
    @Operation(operationId = "readStock", summary = "Read the units left to sell")
    @ApiResponse(responseCode = "200", description = "The stock; 0 for a product whose stock was never set")
    Stock get(@PathVariable("productId") String productIdText) {
        long productId = ProductIds.parse(productIdText);
        return new Stock(productId, this.stock.available(productId));
    }

    record StockRequest(@Schema(example = "500") @NotNull @Min(0) @Max(1_000_000_000) Long available) {
    }

    record Stock(long productId, long available) {
    }
}
