#!/usr/bin/env bash
# Local single-node KRaft Kafka broker from Maven Central jars (no Docker needed).
#   scripts/kafka.sh start    resolve jars once, format storage once, start in the background, wait until ready
#   scripts/kafka.sh stop     stop the broker this script started (SIGTERM, then SIGKILL)
#   scripts/kafka.sh status   tell whether a broker answers
# Three KRaft brokers on loopback, each a broker and a controller (a quorum of three voters), from the same jars:
#   scripts/kafka.sh cluster-start    format each node's storage once, start the nodes not running, wait until all
#                                     three are ready (a node that was killed is started again on its data)
#   scripts/kafka.sh cluster-stop     stop the nodes this script started (SIGTERM to all three, then SIGKILL)
#   scripts/kafka.sh cluster-status   tell which nodes answer (exit 3 unless all three do)
#   scripts/kafka.sh acl-check  try the ACLs of the broker started with KAFKA_SECURITY=scram: as each service's user,
#                               writes to the topics other services own, a read and a consumer group it has no
#                               business in; and a client without a sign-in, and one with a wrong password. Exits 1
#                               unless every one is refused as it should be and no topic's end moved
# Environment: KAFKA_SECURITY (default none: anyone who reaches the port may read and write every topic; scram: the
#              single broker takes only clients signed in with SCRAM-SHA-512, as one user per service and an admin,
#              each service's user allowed only what kafka/acls.txt grants; docs/OPERATIONS.md, "Kafka users and
#              ACLs"). With scram the passwords are made once, 32 random bytes each, and kept in
#              $QG_LOCAL_DIR/kafka-users/<user>.password (readable by you only), the credentials are written when the
#              storage is formatted (.storage/local/kafka-scram/, apart from the open broker's), the ACLs granted at
#              every start, and $QG_LOCAL_DIR/kafka/admin.properties signs Kafka's tools in as the admin
#              (--command-config). The cluster of three is always open.
#              KAFKA_PORT (default 9092), KAFKA_CONTROLLER_PORT (default 9093),
#              KAFKA_HEAP_OPTS (default "-Xms512m -Xmx512m"), KAFKA_START_TIMEOUT (seconds, default 90).
#              KAFKA_CLUSTER_PORT (default 29092): the cluster's brokers listen on it and the next two ports
#              (29092-29094), their controllers on the three above (29095-29097);
#              KAFKA_CLUSTER_HEAP_OPTS (default "-Xms256m -Xmx256m", per node).
#              QG_LOCAL_DIR (default .local, see scripts/lib.sh).
# State lives in $QG_LOCAL_DIR/kafka/: server.properties, kafka.pid, kafka.log; the cluster's in
# $QG_LOCAL_DIR/kafka-cluster/: cluster.id and node-1/ to node-3/, each with the same three. The topics (log.dirs) live
# apart, in .storage/ (scripts/lib.sh, STORAGE_DIR): kafka/ and kafka-cluster/node-1/ to node-3/. The jars are resolved
# once into .local/kafka/libs/, whatever the state directory. Services reach the cluster with
# KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:29092,127.0.0.1:29093,127.0.0.1:29094 (scripts/service.sh, ./run.sh).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms512m -Xmx512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"

KAFKA_SECURITY="${KAFKA_SECURITY:-none}"
case "$KAFKA_SECURITY" in
    none | scram) ;;
    *) refuse_argument "KAFKA_SECURITY is neither none nor scram: $KAFKA_SECURITY" ;;
esac

KAFKA_DIR="$LOCAL_DIR/kafka"
LIBS="$KAFKA_LIBS"
PROPS="$KAFKA_DIR/server.properties"
PID_FILE="$KAFKA_DIR/kafka.pid"
LOG_FILE="$KAFKA_DIR/kafka.log"
# what the broker of PID_FILE was started with: none or scram
SECURITY_FILE="$KAFKA_DIR/security"
MAIN_CLASS="kafka.Kafka"
# The broker with SCRAM keeps its topics apart from the open one's: its metadata holds the users' credentials, and a
# log written by anyone (the open broker's) is not one to restore from as if only the services had written it.
if [ "$KAFKA_SECURITY" = scram ]; then
    DATA="$STORAGE_DIR/kafka-scram"
    TEMPLATE="$ROOT/kafka/server-scram.properties.template"
else
    DATA="$STORAGE_DIR/kafka"
    TEMPLATE="$ROOT/kafka/server.properties.template"
fi
ADMIN_PROPS="$KAFKA_DIR/admin.properties"
ACLS="$ROOT/kafka/acls.txt"

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
    local admin_password="" user
    if [ "$KAFKA_SECURITY" = scram ] && [ -f "$DATA/meta.properties" ]; then
        for user in "$KAFKA_ADMIN_USER" "${KAFKA_SERVICE_USERS[@]}"; do
            [ -s "$KAFKA_USERS_DIR/$user.password" ] \
                || die "${DATA#"$ROOT"/} was formatted with a password of $user that is gone from ${KAFKA_USERS_DIR#"$ROOT"/}; remove ${DATA#"$ROOT"/} to start afresh"
        done
    fi
    mkdir -p "$DATA"
    [ "$KAFKA_SECURITY" = scram ] && admin_password="$(kafka_password "$KAFKA_ADMIN_USER")"
    # with scram it holds the admin's password: readable by its owner only
    (umask 077 && rm -f "$PROPS" && sed -e "s|@LOG_DIRS@|$DATA|g" \
        -e "s|@KAFKA_PORT@|$KAFKA_PORT|g" \
        -e "s|@CONTROLLER_PORT@|$KAFKA_CONTROLLER_PORT|g" \
        -e "s|@ADMIN_USER@|$KAFKA_ADMIN_USER|g" \
        -e "s|@ADMIN_PASSWORD@|$admin_password|g" \
        "$TEMPLATE" >"$PROPS")
    if [ "$KAFKA_SECURITY" = scram ]; then
        (umask 077 && kafka_client_properties "$KAFKA_ADMIN_USER" >"$ADMIN_PROPS")
    fi
}

# With scram: every user's SCRAM credential, made from the passwords in KAFKA_USERS_DIR (scripts/lib.sh), goes into the
# metadata log as the storage is formatted, so no client is ever let in without one.
scram_arguments() {
    local user
    [ "$KAFKA_SECURITY" = scram ] || return 0
    for user in "$KAFKA_ADMIN_USER" "${KAFKA_SERVICE_USERS[@]}"; do
        printf '%s\n' --add-scram "SCRAM-SHA-512=[name=$user,password=$(kafka_password "$user")]"
    done
}

format_storage() {
    [ -f "$DATA/meta.properties" ] && return 0
    local cluster_id scram=()
    cluster_id="$(java -cp "$LIBS/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
    [ -n "$cluster_id" ] || die "kafka.tools.StorageTool random-uuid printed nothing"
    mapfile -t scram < <(scram_arguments)
    log "formatting Kafka storage in ${DATA#"$ROOT"/} (cluster id $cluster_id${scram[*]:+, SCRAM users $KAFKA_ADMIN_USER ${KAFKA_SERVICE_USERS[*]}})"
    kafka_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$PROPS" "${scram[@]}" \
        >>"$KAFKA_DIR/format.log" 2>&1 \
        || { tail -n 30 "$KAFKA_DIR/format.log" >&2; die "formatting the Kafka storage failed"; }
}

# With scram: grants what kafka/acls.txt says, as the admin, at every start (granting again changes nothing), so that the
# services find their rights before they start and an edit of the file takes effect at the next start.
apply_acls() {
    [ "$KAFKA_SECURITY" = scram ] || return 0
    use_java25
    kafka_tool "$ROOT/kafka/KafkaAcls.java" apply "127.0.0.1:$KAFKA_PORT" "$KAFKA_USERS_DIR" "$ACLS" \
        >"$KAFKA_DIR/acls.log" 2>&1 \
        || { tail -n 30 "$KAFKA_DIR/acls.log" >&2; die "granting the ACLs of ${ACLS#"$ROOT"/} failed"; }
    log "$(tail -n 1 "$KAFKA_DIR/acls.log")"
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

# The security the broker of PID_FILE was started with, when it runs.
running_security() {
    pid_matches "$(read_pid)" "$MAIN_CLASS" && [ -f "$SECURITY_FILE" ] && cat "$SECURITY_FILE"
}

cmd_start() {
    local pid running
    running="$(running_security || true)"
    if [ -n "$running" ] && [ "$running" != "$KAFKA_SECURITY" ]; then
        die "the broker started by scripts/kafka.sh runs with KAFKA_SECURITY=$running, not $KAFKA_SECURITY; stop it first (scripts/kafka.sh stop)"
    fi
    if port_open "$KAFKA_PORT"; then
        [ "$KAFKA_SECURITY" = none ] || [ -n "$running" ] \
            || die "a Kafka broker not started by scripts/kafka.sh answers on 127.0.0.1:$KAFKA_PORT; KAFKA_SECURITY=$KAFKA_SECURITY needs this script's own"
        log "a Kafka broker already answers on 127.0.0.1:$KAFKA_PORT; not starting another"
        return 0
    fi
    mkdir -p "$KAFKA_DIR"
    pid="$(read_pid)"
    if pid_matches "$pid" "$MAIN_CLASS"; then
        log "Kafka broker (pid $pid) is starting; waiting for it"
        wait_ready "$pid"
        apply_acls
        return 0
    fi
    rm -f "$PID_FILE"
    use_java25
    resolve_libs
    write_properties
    format_storage
    echo "$KAFKA_SECURITY" >"$SECURITY_FILE"
    local how=""
    [ "$KAFKA_SECURITY" = scram ] && how=", clients signed in with SCRAM, ACLs of ${ACLS#"$ROOT"/}"
    log "starting Kafka broker on 127.0.0.1:$KAFKA_PORT$how (log: ${LOG_FILE#"$ROOT"/})"
    # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS holds several options
    nohup java --sun-misc-unsafe-memory-access=allow $KAFKA_HEAP_OPTS -XX:+UseG1GC \
        -Djava.awt.headless=true \
        -Dlog4j2.configurationFile="$ROOT/kafka/log4j2.yaml" \
        -cp "$LIBS/*" "$MAIN_CLASS" "$PROPS" >"$LOG_FILE" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$PID_FILE"
    wait_ready "$pid"
    apply_acls
    log "Kafka broker ready on 127.0.0.1:$KAFKA_PORT (pid $pid)"
}

cmd_acl_check() {
    [ "$(running_security || true)" = scram ] \
        || die "no broker started by scripts/kafka.sh with KAFKA_SECURITY=scram runs on 127.0.0.1:$KAFKA_PORT"
    use_java25
    # the clients' own warnings about each refusal go to the log; the verdicts are printed
    local status=0
    kafka_tool "$ROOT/kafka/KafkaAcls.java" check "127.0.0.1:$KAFKA_PORT" "$KAFKA_USERS_DIR" \
        "127.0.0.1:$KAFKA_CONTROLLER_PORT" \
        >"$KAFKA_DIR/acl-check.log" 2>&1 || status=$?
    grep -E '^(PASS|FAIL|kafka ACLs)' "$KAFKA_DIR/acl-check.log" || true
    [ "$status" = 0 ] || { tail -n 20 "$KAFKA_DIR/acl-check.log" >&2; die "the ACL check failed (log: ${KAFKA_DIR#"$ROOT"/}/acl-check.log)"; }
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
    rm -f "$PID_FILE" "$SECURITY_FILE"
}

cmd_status() {
    local pid
    pid="$(read_pid)"
    if port_open "$KAFKA_PORT"; then
        if pid_matches "$pid" "$MAIN_CLASS"; then
            echo "running: Kafka broker on 127.0.0.1:$KAFKA_PORT (pid $pid, started by scripts/kafka.sh, KAFKA_SECURITY=$(cat "$SECURITY_FILE" 2>/dev/null || echo none))"
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

# --- three brokers ------------------------------------------------------------------------------------------------

KAFKA_CLUSTER_PORT="${KAFKA_CLUSTER_PORT:-29092}"
KAFKA_CLUSTER_HEAP_OPTS="${KAFKA_CLUSTER_HEAP_OPTS:--Xms256m -Xmx256m}"
CLUSTER_DIR="$LOCAL_DIR/kafka-cluster"
CLUSTER_NODES=(1 2 3)

node_dir() { printf '%s' "$CLUSTER_DIR/node-$1"; }
node_data() { printf '%s' "$STORAGE_DIR/kafka-cluster/node-$1"; }
node_port() { printf '%s' "$((KAFKA_CLUSTER_PORT + $1 - 1))"; }
node_controller_port() { printf '%s' "$((KAFKA_CLUSTER_PORT + 2 + $1))"; }
node_pid() { if [ -f "$(node_dir "$1")/kafka.pid" ]; then tr -dc '0-9' <"$(node_dir "$1")/kafka.pid"; fi; }
# A node's process is told from the other nodes' (and the single broker's) by its own properties file.
node_pattern() { printf '%s' "$(node_dir "$1")/server.properties"; }

cluster_voters() {
    local n voters=""
    for n in "${CLUSTER_NODES[@]}"; do
        voters="${voters:+$voters,}$n@127.0.0.1:$(node_controller_port "$n")"
    done
    printf '%s' "$voters"
}

# Formats every node's storage with one cluster id, once; a node formatted already keeps its data.
format_cluster() {
    local n dir cluster_id
    mkdir -p "$CLUSTER_DIR"
    if [ ! -s "$CLUSTER_DIR/cluster.id" ]; then
        cluster_id="$(java -cp "$LIBS/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
        [ -n "$cluster_id" ] || die "kafka.tools.StorageTool random-uuid printed nothing"
        echo "$cluster_id" >"$CLUSTER_DIR/cluster.id"
    fi
    cluster_id="$(cat "$CLUSTER_DIR/cluster.id")"
    for n in "${CLUSTER_NODES[@]}"; do
        dir="$(node_dir "$n")"
        mkdir -p "$dir" "$(node_data "$n")"
        sed -e "s|@NODE_ID@|$n|g" \
            -e "s|@QUORUM_VOTERS@|$(cluster_voters)|g" \
            -e "s|@LOG_DIRS@|$(node_data "$n")|g" \
            -e "s|@KAFKA_PORT@|$(node_port "$n")|g" \
            -e "s|@CONTROLLER_PORT@|$(node_controller_port "$n")|g" \
            "$ROOT/kafka/cluster.properties.template" >"$dir/server.properties"
        [ -f "$(node_data "$n")/meta.properties" ] && continue
        log "formatting Kafka node $n in ${dir#"$ROOT"/} (cluster id $cluster_id)"
        kafka_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$dir/server.properties" \
            >>"$dir/format.log" 2>&1 \
            || { tail -n 30 "$dir/format.log" >&2; die "formatting Kafka node $n failed"; }
    done
}

# Waits until every node says it started and its broker port answers. A node cannot finish starting before a
# majority of the quorum runs, so all three are started before this waits on any.
wait_cluster_ready() {
    local n pid log_file deadline=$((SECONDS + KAFKA_START_TIMEOUT)) ready
    while ((SECONDS < deadline)); do
        ready=0
        for n in "${CLUSTER_NODES[@]}"; do
            pid="$(node_pid "$n")"
            log_file="$(node_dir "$n")/kafka.log"
            if ! pid_matches "$pid" "$(node_pattern "$n")"; then
                tail -n 40 "$log_file" >&2 || true
                die "Kafka node $n exited during start-up (log: ${log_file#"$ROOT"/})"
            fi
            if grep -q "Kafka Server started" "$log_file" 2>/dev/null && port_open "$(node_port "$n")"; then
                ready=$((ready + 1))
            fi
        done
        [ "$ready" -eq "${#CLUSTER_NODES[@]}" ] && return 0
        sleep 0.5
    done
    die "the Kafka cluster did not become ready within ${KAFKA_START_TIMEOUT}s (logs: ${CLUSTER_DIR#"$ROOT"/}/node-*/kafka.log)"
}

cmd_cluster_start() {
    local n pid dir started=0
    use_java25
    resolve_libs
    format_cluster
    for n in "${CLUSTER_NODES[@]}"; do
        dir="$(node_dir "$n")"
        pid="$(node_pid "$n")"
        if pid_matches "$pid" "$(node_pattern "$n")"; then
            continue
        fi
        if port_open "$(node_port "$n")" || port_open "$(node_controller_port "$n")"; then
            die "port $(node_port "$n") or $(node_controller_port "$n") is taken by something else; set KAFKA_CLUSTER_PORT"
        fi
        log "starting Kafka node $n on 127.0.0.1:$(node_port "$n") (log: ${dir#"$ROOT"/}/kafka.log)"
        # a restarted node's log starts afresh, so that "Kafka Server started" means this start
        # shellcheck disable=SC2086 # KAFKA_CLUSTER_HEAP_OPTS holds several options
        nohup java --sun-misc-unsafe-memory-access=allow $KAFKA_CLUSTER_HEAP_OPTS -XX:+UseG1GC \
            -Djava.awt.headless=true \
            -Dlog4j2.configurationFile="$ROOT/kafka/log4j2.yaml" \
            -cp "$LIBS/*" "$MAIN_CLASS" "$dir/server.properties" >"$dir/kafka.log" 2>&1 </dev/null &
        echo "$!" >"$dir/kafka.pid"
        started=$((started + 1))
    done
    wait_cluster_ready
    log "Kafka cluster ready on 127.0.0.1:$(node_port 1)-$(node_port 3) ($started node(s) started)"
}

any_alive() {
    local pid
    for pid in "$@"; do
        kill -0 "$pid" 2>/dev/null && return 0
    done
    return 1
}

cmd_cluster_stop() {
    local n pid pids=() i
    for n in "${CLUSTER_NODES[@]}"; do
        pid="$(node_pid "$n")"
        if pid_matches "$pid" "$(node_pattern "$n")"; then
            # a frozen node (SIGSTOP) would never see the SIGTERM
            kill -CONT "$pid" 2>/dev/null || true
            kill -TERM "$pid" 2>/dev/null || true
            pids+=("$pid")
            log "stopping Kafka node $n (pid $pid)"
        fi
        rm -f "$(node_dir "$n")/kafka.pid"
    done
    # All at once: a broker stopping alone waits for the quorum to let it go, and the last two would wait for each other.
    for ((i = 0; i < 300; i++)); do
        any_alive "${pids[@]}" || return 0
        sleep 0.1
    done
    for pid in "${pids[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            warn "Kafka node (pid $pid) did not stop within 30s; sending SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
}

cmd_cluster_status() {
    local n pid up=0
    for n in "${CLUSTER_NODES[@]}"; do
        pid="$(node_pid "$n")"
        if port_open "$(node_port "$n")"; then
            if pid_matches "$pid" "$(node_pattern "$n")"; then
                echo "running: Kafka node $n on 127.0.0.1:$(node_port "$n") (pid $pid, started by scripts/kafka.sh)"
            else
                echo "running: a broker answers on 127.0.0.1:$(node_port "$n") (not started by scripts/kafka.sh)"
            fi
            up=$((up + 1))
        elif pid_matches "$pid" "$(node_pattern "$n")"; then
            echo "not answering: Kafka node $n pid $pid (starting, or frozen), port $(node_port "$n") not open"
        else
            echo "stopped: nothing answers on 127.0.0.1:$(node_port "$n")"
        fi
    done
    [ "$up" -eq "${#CLUSTER_NODES[@]}" ] || return 3
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    cluster-start) cmd_cluster_start ;;
    cluster-stop) cmd_cluster_stop ;;
    cluster-status) cmd_cluster_status ;;
    acl-check) cmd_acl_check ;;
    *) echo "usage: $0 start|stop|status|cluster-start|cluster-stop|cluster-status|acl-check" >&2; exit 2 ;;
esac
