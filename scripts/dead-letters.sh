#!/usr/bin/env bash
# The enter records the admission worker set aside (queuegate.entries.DLT): unreadable ones, and ones with enters
# whose token this deployment did not issue. Uses Kafka's own console tools from the jars scripts/kafka.sh resolved.
#
#   scripts/dead-letters.sh show      print every dead letter: partition, offset, key (product), headers (where it
#                                     came from, kafka_dlt-original-*, and why, queuegate-dlt-reason and
#                                     kafka_dlt-exception-message) and the record as it was
#   scripts/dead-letters.sh replay    copy the dead letters, in order, back onto queuegate.entries once the cause is
#                                     fixed (e.g. after upgrading workers that could not read a newer event version).
#                                     Safe to repeat: the line skips anyone already placed, and a record that still
#                                     cannot be applied is set aside again
# Environment: KAFKA_BOOTSTRAP (default 127.0.0.1:9092), DLT_TOPIC (default queuegate.entries.DLT),
#              ENTRIES_TOPIC (default queuegate.entries).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"
case "${1:-}" in
    show | replay) ;;
    *) refuse_argument "unknown command: ${1:-(none)}" ;;
esac

BOOTSTRAP="${KAFKA_BOOTSTRAP:-127.0.0.1:9092}"
DLT_TOPIC="${DLT_TOPIC:-queuegate.entries.DLT}"
ENTRIES_TOPIC="${ENTRIES_TOPIC:-queuegate.entries}"

compgen -G "$KAFKA_LIBS/kafka-tools-*.jar" >/dev/null \
    || die "no Kafka tools in ${KAFKA_LIBS#"$ROOT"/}; run scripts/kafka.sh start once"
use_java25

# Reads the whole topic once and stops when nothing more arrives for 5 s (which the tool reports as an error, on
# stdout: those lines are left out).
read_dead_letters() {
    kafka_tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$DLT_TOPIC" \
        --from-beginning --timeout-ms 5000 "$@" 2>/dev/null \
        | grep -a -v '^org.apache.kafka.common.errors.TimeoutException$\|terminating consumer process\|^Processed a total' \
        || true
}

case "${1:-}" in
    show)
        read_dead_letters --property print.partition=true --property print.offset=true \
            --property print.key=true --property print.headers=true
        ;;
    replay)
        # key and value, tab-separated: enter records are single-line JSON and carry no tab
        read_dead_letters --property print.key=true --property key.separator=$'\t' \
            | kafka_tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server "$BOOTSTRAP" --topic "$ENTRIES_TOPIC" \
                --property parse.key=true --property key.separator=$'\t' --producer-property acks=all
        log "replayed $DLT_TOPIC onto $ENTRIES_TOPIC"
        ;;
esac
