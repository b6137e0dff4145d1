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
#              ENTRIES_TOPIC (default queuegate.entries), KAFKA_CLIENT_CONFIG (a Kafka client properties file to sign
#              in with; default: the admin's, $QG_LOCAL_DIR/kafka/admin.properties, when scripts/kafka.sh started the
#              broker with KAFKA_SECURITY=scram).
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
# On the broker with SCRAM and ACLs only the admin may read the dead letters and put them back on the entries topic.
CLIENT_CONFIG="${KAFKA_CLIENT_CONFIG:-}"
if [ -z "$CLIENT_CONFIG" ] && [ "$(cat "$LOCAL_DIR/kafka/security" 2>/dev/null)" = scram ]; then
    CLIENT_CONFIG="$LOCAL_DIR/kafka/admin.properties"
fi

# Reads the whole topic once and stops when nothing more arrives for 5 s (which the tool reports as an error, on
# stdout: those lines are left out).
read_dead_letters() {
    kafka_tool org.apache.kafka.tools.consumer.ConsoleConsumer --bootstrap-server "$BOOTSTRAP" --topic "$DLT_TOPIC" \
        --from-beginning --timeout-ms 5000 ${CLIENT_CONFIG:+--consumer.config "$CLIENT_CONFIG"} "$@" 2>/dev/null \
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
                ${CLIENT_CONFIG:+--producer.config "$CLIENT_CONFIG"} \
                --property parse.key=true --property key.separator=$'\t' --producer-property acks=all
        log "replayed $DLT_TOPIC onto $ENTRIES_TOPIC"
        ;;
esac
