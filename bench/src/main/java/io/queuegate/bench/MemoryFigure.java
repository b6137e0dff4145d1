package io.queuegate.bench;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/** Figure 7 as a run's JSON holds it: Redis bytes per waiting user after the drain, against a bare ZSet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record MemoryFigure(String error, Long waiting, Map<String, Long> bytesByKey, Double bytesPerWaitingUser,
        Double usedMemoryDeltaPerUser, Double bareZsetBytesPerMember, Double ratio) {

    boolean measured() {
        return this.error == null;
    }
}
