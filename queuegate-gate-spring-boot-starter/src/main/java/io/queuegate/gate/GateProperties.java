package io.queuegate.gate;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** @param maxQuantity the most units one booking may take */
@Validated
@ConfigurationProperties("queuegate.gate")
public record GateProperties(@DefaultValue("4") @Min(1) @Max(1000) int maxQuantity) {
}
