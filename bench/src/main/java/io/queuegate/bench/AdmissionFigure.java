package io.queuegate.bench;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Figure 4 as a run's JSON holds it: one admission step of {@code batch} tokens against the bare script. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record AdmissionFigure(String error, Long batch, Long admitted, Double tickMs, Long tokensPerSecond, Double bareMs,
        Long bareTokensPerSecond, Double ratio, List<Double> allTickMs, List<Double> allBareMs) {

    boolean measured() {
        return this.error == null;
    }
}
