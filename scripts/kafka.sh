#!/usr/bin/env bash
# Local single-node KRaft Kafka broker from Maven Central jars (no Docker needed).
#   scripts/kafka.sh start    resolve jars once, format storage once, start in the background, wait until ready
#   scripts/kafka.sh stop     stop the broker this script started (SIGTERM, then SIGKILL)
#   scripts/kafka.sh status   tell whether a broker answers
# Environment: KAFKA_PORT (default 9092), KAFKA_CONTROLLER_PORT (default 9093),
#              KAFKA_HEAP_OPTS (default "-Xms512m -Xmx512m"), KAFKA_START_TIMEOUT (seconds, default 90).
#              QG_LOCAL_DIR (default .local, see scripts/lib.sh).
# State lives in $QG_LOCAL_DIR/kafka/: data/ (log.dirs), server.properties, kafka.pid, kafka.log. The jars are
# resolved once into .local/kafka/libs/, whatever the state directory.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms512m -Xmx512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"

KAFKA_DIR="$LOCAL_DIR/kafka"
LIBS="$KAFKA_LIBS"
DATA="$KAFKA_DIR/data"
PROPS="$KAFKA_DIR/server.properties"
PID_FILE="$KAFKA_DIR/kafka.pid"
LOG_FILE="$KAFKA_DIR/kafka.log"
MAIN_CLASS="kafka.Kafka"

read_pid() { if [ -f "$PID_FILE" ]; then tr -dc '0-9' <"$PID_FILE"; fi; }

resolve_libs() {
    if compgen -G "$LIBS/kafka_2.13-*.jar" >/dev/null && compgen -G "$LIBS/log4j-slf4j-impl-*.jar" >/dev/null; then
        return 0
    fi
    log "resolving Kafka broker jars into ${LIBS#"$ROOT"/} (once)"
    local tmp="$LIBS.tmp.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp" "$KAFKA_DIR"
    MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}" \
        "$(maven_cmd)" -q -B -f "$ROOT/kafka/pom.xml" dependency:copy-dependencies \
        -DoutputDirectory="$tmp" -DincludeScope=runtime >"$KAFKA_DIR/resolve.log" 2>&1 \
        || { tail -n 30 "$KAFKA_DIR/resolve.log" >&2; rm -rf "$tmp"
             die "could not resolve the Kafka jars (mvn -f kafka/pom.xml dependency:copy-dependencies)"; }
    rm -rf "$LIBS"
    mv "$tmp" "$LIBS"
}

write_properties() {
    mkdir -p "$DATA"
    sed -e "s|@LOG_DIRS@|$DATA|g" \
        -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" \
        -e "s|@CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
        "$ROOT/kafka/server.properties.template" >"$PROPS"
}

format_storage() {
    [ -f "$DATA/meta.properties" ] && return 0
    local cluster_id
    cluster_id="$(java -cp "$LIBS/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
    [ -n "$cluster_id" ] || die "kafka.tools.StorageTool random-uuid printed nothing"
    log "formatting Kafka storage in ${DATA#"$ROOT"/} (cluster id $cluster_id)"
    kafka_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$PROPS" >>"$KAFKA_DIR/format.log" 2>&1 \
        || { tail -n 30 "$KAFKA_DIR/format.log" >&2; die "formatting the Kafka storage failed"; }
}

wait_ready() {
    local pid="$1" deadline=$((SECONDS + KAFKA_START_TIMEOUT))
    while ((SECONDS < deadline)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            tail -n 40 "$LOG_FILE" >&2 || true
            rm -f "$PID_FILE"
            die "the Kafka broker exited during start-up (log: ${LOG_FILE#"$ROOT"/})"
        fi
        if grep -q "Kafka Server started" "$LOG_FILE" 2>/dev/null && port_open "$KAFKA_PORT"; then
            return 0
        fi
        sleep 0.5
    done
    tail -n 40 "$LOG_FILE" >&2 || true
    die "the Kafka broker did not become ready within ${KAFKA_START_TIMEOUT}s (log: ${LOG_FILE#"$ROOT"/})"
}

cmd_start() {
    if port_open "$KAFKA_PORT"; then
        log "a Kafka broker already answers on 127.0.0.1:$KAFKA_PORT; not starting another"
        return 0
    fi
    mkdir -p "$KAFKA_DIR"
    local pid
    pid="$(read_pid)"
    if pid_matches "$pid" "$MAIN_CLASS"; then
        log "Kafka broker (pid $pid) is starting; waiting for it"
        wait_ready "$pid"
        return 0
    fi
    rm -f "$PID_FILE"
    use_java25
    resolve_libs
    write_properties
    format_storage
    log "starting Kafka broker on 127.0.0.1:$KAFKA_PORT (log: ${LOG_FILE#"$ROOT"/})"
    # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS holds several options
    nohup java --sun-misc-unsafe-memory-access=allow $KAFKA_HEAP_OPTS -XX:+UseG1GC \
        -Djava.awt.headless=true \
        -Dlog4j2.configurationFile="$ROOT/kafka/log4j2.yaml" \
        -cp "$LIBS/*" "$MAIN_CLASS" "$PROPS" >"$LOG_FILE" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$PID_FILE"
    wait_ready "$pid"
    log "Kafka broker ready on 127.0.0.1:$KAFKA_PORT (pid $pid)"
}

cmd_stop() {
    local pid
    pid="$(read_pid)"
    if [ -z "$pid" ]; then
        log "no Kafka broker started by scripts/kafka.sh (no ${PID_FILE#"$ROOT"/})"
        return 0
    fi
    if pid_matches "$pid" "$MAIN_CLASS"; then
        stop_pid "$pid" "$MAIN_CLASS" "Kafka broker" 30
    else
        log "Kafka broker (pid $pid) is not running"
    fi
    rm -f "$PID_FILE"
}

cmd_status() {
    local pid
    pid="$(read_pid)"
    if port_open "$KAFKA_PORT"; then
        if pid_matches "$pid" "$MAIN_CLASS"; then
            echo "running: Kafka broker on 127.0.0.1:$KAFKA_PORT (pid $pid, started by scripts/kafka.sh)"
        else
            echo "running: a broker answers on 127.0.0.1:$KAFKA_PORT (not started by scripts/kafka.sh)"
        fi
        return 0
    fi
    if pid_matches "$pid" "$MAIN_CLASS"; then
        echo "starting: Kafka broker pid $pid, port $KAFKA_PORT not open yet"
        return 0
    fi
    echo "stopped: nothing answers on 127.0.0.1:$KAFKA_PORT"
    return 3
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
