#!/usr/bin/env bash
# Queuegate quickstart: build, then run Redis, a local Kafka broker and the three services.
#
#   ./run.sh              build, start everything, stay in the foreground; Ctrl-C stops what it started
#   ./run.sh --detach     return once everything is healthy and leave it running
#   ./run.sh stop         stop what a previous run started (by the pid files under .local/)
#   ./run.sh status       show what is running
#   ./run.sh train        build, make the JDK's AOT cache of each service for this build if it has none, then stop
#                         (used with QG_AOT_CACHE=on)
# Options: --no-build (skip the Maven build), --no-demo (skip creating demo queue 1), --edge (also start nginx on
#          127.0.0.1:8070 in front of a tiny demo origin, protected by demo queue 1: ops/edge/edge.sh; needs nginx).
# Environment: ADMIN_TOKEN (default: generated once, kept in .local/admin-token),
#              QUEUE_TOKEN_SECRET (default: generated once, kept in .local/token-secret; the services refuse a
#              secret under 32 bytes or one written in the repository), ENTER_KEY (the key a shop's backend enters
#              its users with in queues of identity "trusted"; default: generated once, kept in .local/enter-key), QG_JAVA_OPTS (extra JVM options),
#              QG_AOT_CACHE=on (start with the JDK's AOT cache, trained once per build: see train_aot_caches),
#              HEALTH_TIMEOUT (seconds, default 240), REDIS_PORT (default 6379: the Redis on 127.0.0.1 the
#              services use, started by scripts/redis.sh when none answers there),
#              SPRING_DATA_REDIS_SENTINEL_MASTER and SPRING_DATA_REDIS_SENTINEL_NODES (both set: the services follow
#              the master those Sentinels name instead, e.g. those of scripts/redis.sh sentinel-start, and no
#              Redis is started here), KAFKA_BOOTSTRAP_SERVERS (a Kafka cluster's brokers, host:port comma-separated,
#              e.g. 127.0.0.1:29092,127.0.0.1:29093,127.0.0.1:29094 of scripts/kafka.sh cluster-start: the services
#              use it and no broker is started here), KAFKA_SECURITY=scram (the broker started here takes only
#              clients signed in with SCRAM, each service as its own user allowed only what kafka/acls.txt grants it:
#              scripts/kafka.sh; the passwords are made once and kept in .local/kafka-users/).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"
cd "$ROOT"

SERVICES=(ingest-service admission-worker booking-service)
declare -A PORT=([ingest-service]=8080 [admission-worker]=8081 [booking-service]=8082)
# Actuator (health, metrics, Prometheus) of each service, on loopback only
declare -A MANAGEMENT_PORT=([ingest-service]=18080 [admission-worker]=18081 [booking-service]=18082)
VERSION="$QG_VERSION"
PID_DIR="$LOCAL_DIR/pids"
LOG_DIR="$LOCAL_DIR/logs"
KAFKA_MARKER="$LOCAL_DIR/kafka.started"
ADMIN_TOKEN_FILE="$LOCAL_DIR/admin-token"
TOKEN_SECRET_FILE="$LOCAL_DIR/token-secret"
ENTER_KEY_FILE="$LOCAL_DIR/enter-key"
HEALTH_TIMEOUT="${HEALTH_TIMEOUT:-240}"
EDGE_DIR="$LOCAL_DIR/edge"
export KAFKA_SECURITY="${KAFKA_SECURITY:-none}"
export REDIS_PORT="${REDIS_PORT:-6379}"

usage() {
    usage_of_script
}

jar_of() { printf '%s/%s/target/%s-%s-exec.jar' "$ROOT" "$1" "$1" "$VERSION"; }
pid_of() { if [ -f "$PID_DIR/$1.pid" ]; then tr -dc '0-9' <"$PID_DIR/$1.pid"; fi; }
# scripts/service.sh becomes the service's JVM; until it does, its command line names the module, not the jar
service_running() { pid_matches "$(pid_of "$1")" "$1"; }

# Stops the services (in parallel), then Kafka and Redis if a run of this script started them.
stop_all() {
    local svc stoppers=()
    for svc in "${SERVICES[@]}"; do
        if [ -f "$PID_DIR/$svc.pid" ]; then
            stop_pid "$(pid_of "$svc")" "$svc" "$svc" 35 &
            stoppers+=("$!")
        fi
    done
    if [ "${#stoppers[@]}" -gt 0 ]; then
        wait "${stoppers[@]}" || true
    fi
    for svc in "${SERVICES[@]}"; do
        rm -f "$PID_DIR/$svc.pid"
    done
    if [ -f "$KAFKA_MARKER" ]; then
        "$ROOT/scripts/kafka.sh" stop || true
        rm -f "$KAFKA_MARKER"
    fi
    "$ROOT/scripts/redis.sh" stop || true
    if [ -f "$EDGE_DIR/nginx.pid" ]; then
        "$ROOT/ops/edge/edge.sh" nginx-stop "$EDGE_DIR" || true
        echo "stopped: the demo edge (nginx)"
    fi
}

show_status() {
    local svc pid
    for svc in "${SERVICES[@]}"; do
        pid="$(pid_of "$svc")"
        if service_running "$svc"; then
            echo "running: $svc on :${PORT[$svc]} (pid $pid)"
        else
            echo "stopped: $svc"
        fi
    done
    "$ROOT/scripts/kafka.sh" status || true
    "$ROOT/scripts/redis.sh" status || true
}

# A secret: the caller's ($1, when set), else the one kept in file $2, else 32 random bytes made once and kept there
# (readable by this user only), so that restarts keep the tokens already issued valid.
secret_of() {
    local given="$1" file="$2"
    if [ -n "$given" ]; then
        printf '%s' "$given"
    elif [ -s "$file" ]; then
        tr -d '[:space:]' <"$file"
    else
        local secret
        secret="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')"
        mkdir -p "$(dirname "$file")"
        (umask 077 && printf '%s\n' "$secret" >"$file")
        printf '%s' "$secret"
    fi
}

# start_service MODULE [--train]: --train is the AOT cache's training run (train_aot_caches)
start_service() {
    local svc="$1" train="${2:-}" log
    log="$LOG_DIR/$svc${train:+-training}.log"
    log "starting $svc${train:+ for its training run} on :${PORT[$svc]} (log: ${log#"$ROOT"/})"
    local extra=()
    # the worker's port is its admin API: on loopback unless QUEUEGATE_ADMIN_ADDRESS says otherwise
    [ "$svc" = admission-worker ] && extra=(QUEUEGATE_ADMIN_ADDRESS="${QUEUEGATE_ADMIN_ADDRESS:-127.0.0.1}")
    # ingest's limits per client address are for people on their own addresses; on this machine every client (the
    # page, curl, a load test) is 127.0.0.1, so the local stack gives that one address the room of many people
    # (a flood from here still meets 429). Set these variables, or QUEUEGATE_INGEST_PER_CLIENT_ENABLED, to change it.
    [ "$svc" = ingest-service ] && extra=(
        QUEUEGATE_INGEST_PER_CLIENT_ENTER_BURST="${QUEUEGATE_INGEST_PER_CLIENT_ENTER_BURST:-2000}"
        QUEUEGATE_INGEST_PER_CLIENT_ENTERS_PER_MINUTE="${QUEUEGATE_INGEST_PER_CLIENT_ENTERS_PER_MINUTE:-6000}"
        QUEUEGATE_INGEST_PER_CLIENT_POLL_BURST="${QUEUEGATE_INGEST_PER_CLIENT_POLL_BURST:-4000}"
        QUEUEGATE_INGEST_PER_CLIENT_POLLS_PER_SECOND="${QUEUEGATE_INGEST_PER_CLIENT_POLLS_PER_SECOND:-2000}")
    # on a broker with SCRAM, each service signs in as its own user (scripts/service.sh)
    [ "$KAFKA_SECURITY" = scram ] && extra+=(KAFKA_SASL_USERNAME="$(kafka_user_of "$svc")"
        KAFKA_SASL_PASSWORD="$(kafka_password "$(kafka_user_of "$svc")")")
    env SERVER_PORT="${PORT[$svc]}" \
        MANAGEMENT_SERVER_PORT="${MANAGEMENT_PORT[$svc]}" \
        "${extra[@]}" \
        KAFKA_PORT=9092 \
        ADMIN_TOKEN="$ADMIN_TOKEN" \
        "${SECRET_ENV[@]}" \
        nohup "$ROOT/scripts/service.sh" "$svc" ${train:+"$train"} >"$log" 2>&1 </dev/null &
    echo "$!" >"$PID_DIR/$svc.pid"
}

# The JDK's AOT cache of each service (scripts/lib.sh, aot_paths), made once per build: each service without one
# starts for a training run, warms up (its warm-up is the training: the enter, poll, append and admission paths),
# and stops, writing the cache as its JVM exits. Later starts load it: a start of seconds instead of half a minute,
# and the hot paths compiled from the method profiles of the training (docs/BENCHMARKS.md, "A burst right after a
# start"): there, it cut Spring's start from 22 to 13 s but neither the whole start, which the warm-up's wait for a
# quiet JIT sets, nor the first seconds of a burst after it. So it is made only with QG_AOT_CACHE=on or ./run.sh train.
train_aot_caches() {
    local svc todo=() stoppers=()
    [ "${QG_AOT_CACHE:-off}" = on ] || [ "$MODE" = train ] || return 0
    for svc in "${SERVICES[@]}"; do
        aot_cache_ready "$svc" "$(jar_of "$svc")" || todo+=("$svc")
    done
    [ "${#todo[@]}" -gt 0 ] || return 0
    log "training the AOT cache of ${todo[*]} for this build (once, about two minutes)"
    for svc in "${todo[@]}"; do
        start_service "$svc" --train
    done
    wait_healthy "${todo[@]}"
    for svc in "${todo[@]}"; do
        # writing the cache takes the exiting JVM up to half a minute on two busy cores
        stop_pid "$(pid_of "$svc")" "$svc" "$svc's training run" 180 &
        stoppers+=("$!")
    done
    wait "${stoppers[@]}" || true
    for svc in "${todo[@]}"; do
        rm -f "$PID_DIR/$svc.pid"
        aot_cache_ready "$svc" "$(jar_of "$svc")" || warn "$svc wrote no AOT cache (see ${LOG_DIR#"$ROOT"/}/$svc-training.log); it starts without one"
    done
}

http_status() {
    curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$@" 2>/dev/null || true
}

fail_service() {
    local svc="$1" why="$2"
    echo "----- last 40 lines of ${LOG_DIR#"$ROOT"/}/$svc.log -----" >&2
    tail -n 40 "$LOG_DIR/$svc.log" >&2 || true
    echo "-----" >&2
    die "$svc $why"
}

# wait_healthy [MODULE...]: every service unless named
wait_healthy() {
    local deadline=$((SECONDS + HEALTH_TIMEOUT)) svc pending
    local -A healthy=()
    local services=("$@")
    [ $# -gt 0 ] || services=("${SERVICES[@]}")
    log "waiting for ${services[*]} to answer 200 on /actuator/health (up to ${HEALTH_TIMEOUT}s)"
    while :; do
        pending=0
        for svc in "${services[@]}"; do
            [ -n "${healthy[$svc]:-}" ] && continue
            # alive, not service_running: while scripts/service.sh execs the JVM its command line can read empty for a
            # moment, which failed a healthy start now and then; a pid is not reused within a start-up
            if ! kill -0 "$(pid_of "$svc")" 2>/dev/null; then
                fail_service "$svc" "exited during start-up"
            fi
            if [ "$(http_status "http://127.0.0.1:${MANAGEMENT_PORT[$svc]}/actuator/health")" = "200" ]; then
                healthy[$svc]=1
                log "$svc is healthy"
            else
                pending=$((pending + 1))
            fi
        done
        [ "$pending" -eq 0 ] && return 0
        if ((SECONDS >= deadline)); then
            for svc in "${services[@]}"; do
                [ -n "${healthy[$svc]:-}" ] || fail_service "$svc" "did not become healthy within ${HEALTH_TIMEOUT}s"
            done
        fi
        sleep 1
    done
}

create_demo() {
    local body code i
    body='{"maxActive":100,"admitPerSecond":10,"entryTtlSeconds":300,"open":true}'
    if [ "$EDGE" = 1 ]; then
        # the waiting page sends people back to the demo edge only
        body='{"maxActive":100,"admitPerSecond":10,"entryTtlSeconds":300,"open":true,"returnHosts":["127.0.0.1:8070"]}'
    fi
    for i in 1 2 3 4 5; do
        code="$(http_status -X PUT "http://127.0.0.1:8081/api/v1/queues/1" \
            -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d "$body")"
        case "$code" in 2??) break ;; esac
        sleep 1
    done
    case "$code" in
        2??) log "demo queue 1 configured: $body" ;;
        *) die "creating demo queue 1 failed (PUT :8081/api/v1/queues/1 answered HTTP $code); see ${LOG_DIR#"$ROOT"/}/admission-worker.log, or start with --no-demo" ;;
    esac
    code="$(http_status -X PUT "http://127.0.0.1:8082/api/v1/products/1/stock" \
        -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"available":1000}')"
    case "$code" in
        2??) log "demo product 1 stock set to 1000" ;;
        *) warn "setting the stock of product 1 answered HTTP $code (ignored)" ;;
    esac
}

# Where the services find Redis: a master named by Sentinels when both sentinel variables are set (Spring Boot then
# takes them over spring.data.redis.host and port), else the one Redis on REDIS_PORT.
sentinels_given() { [ -n "${SPRING_DATA_REDIS_SENTINEL_MASTER:-}" ] && [ -n "${SPRING_DATA_REDIS_SENTINEL_NODES:-}" ]; }
redis_in_use() {
    if sentinels_given; then
        printf 'master %s of the Sentinels %s' "$SPRING_DATA_REDIS_SENTINEL_MASTER" "$SPRING_DATA_REDIS_SENTINEL_NODES"
    else
        printf '127.0.0.1:%s' "$REDIS_PORT"
    fi
}

kafka_in_use() {
    if [ -n "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
        printf '%s' "$KAFKA_BOOTSTRAP_SERVERS"
    elif [ "$KAFKA_SECURITY" = scram ]; then
        printf '127.0.0.1:9092 (SCRAM: each service its own user, passwords in .local/kafka-users/; tools sign in\n'
        printf '                    as the admin with --command-config .local/kafka/admin.properties)'
    else
        printf '127.0.0.1:9092'
    fi
}

print_banner() {
    local token_note=" (tokens signed with the secret in ${TOKEN_SECRET_FILE#"$ROOT"/})"
    cat <<EOF

Queuegate is running$token_note
  waiting page      http://127.0.0.1:8080/          (the demo queue, product 1; any product: /queues/<id>)
  operator view     http://127.0.0.1:8081/admin     (asks for the ADMIN_TOKEN below)
  ingest (public)   http://127.0.0.1:8080   Swagger UI http://127.0.0.1:8080/swagger-ui.html
  admin (admission) http://127.0.0.1:8081   Swagger UI http://127.0.0.1:8081/swagger-ui.html
  booking           http://127.0.0.1:8082   Swagger UI http://127.0.0.1:8082/swagger-ui.html
  Actuator (health, metrics, Prometheus) on loopback: http://127.0.0.1:18080, :18081, :18082 /actuator
  Kafka $(kafka_in_use), Redis $(redis_in_use), logs in .local/logs/

  ADMIN_TOKEN=$ADMIN_TOKEN
  ENTER_KEY=$ENTER_KEY   (a shop's backend enters its users with it, in queues of identity "trusted")

Try it:
  # enter the waiting room of product 1 as a visitor (answers 202 with a token and the user id the server made)
  curl -s -X POST http://127.0.0.1:8080/api/v1/queues/1/entries -H 'Content-Type: application/json' -d '{}'
  # enter again with the token: the same place
  curl -s -X POST http://127.0.0.1:8080/api/v1/queues/1/entries -H 'Content-Type: application/json' -d '{"token":"<token>"}'
  # poll the entry's status (WAITING with a position, then AVAILABLE)
  curl -s http://127.0.0.1:8080/api/v1/queues/1/entries/<token>
  # book once AVAILABLE
  curl -s -X POST http://127.0.0.1:8082/api/v1/bookings -H 'Content-Type: application/json' -d '{"productId":1,"token":"<token>","quantity":1}'
  # queue settings and counts (admin)
  curl -s http://127.0.0.1:8081/api/v1/queues/1 -H "Authorization: Bearer $ADMIN_TOKEN"
  # leave the queue
  curl -s -X DELETE http://127.0.0.1:8080/api/v1/queues/1/entries/<token>

EOF
}

# In the foreground: wait until Ctrl-C; report services that exit on their own.
watch_services() {
    local svc alive
    local -A reported=()
    log "press Ctrl-C to stop everything this run started"
    while :; do
        alive=0
        for svc in "${SERVICES[@]}"; do
            if service_running "$svc"; then
                alive=$((alive + 1))
            elif [ -z "${reported[$svc]:-}" ]; then
                reported[$svc]=1
                warn "$svc exited; last lines of ${LOG_DIR#"$ROOT"/}/$svc.log:"
                tail -n 20 "$LOG_DIR/$svc.log" >&2 || true
            fi
        done
        if [ "$alive" -eq 0 ]; then
            die "all services have exited"
        fi
        sleep 2 &
        wait $! || true
    done
}

# ---------------------------------------------------------------------------------------------------
MODE=foreground
BUILD=1
DEMO=1
EDGE=0
for arg in "$@"; do
    case "$arg" in
        stop) MODE=stop ;;
        status) MODE=status ;;
        train) MODE=train ;;
        --detach | -d) MODE=detach ;;
        --no-build) BUILD=0 ;;
        --no-demo) DEMO=0 ;;
        --edge) EDGE=1 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; echo "[queuegate] ERROR: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

mkdir -p "$PID_DIR" "$LOG_DIR"
case "$KAFKA_SECURITY" in
    none | scram) ;;
    *) usage >&2; echo "[queuegate] ERROR: KAFKA_SECURITY is neither none nor scram: $KAFKA_SECURITY" >&2; exit 2 ;;
esac

case "$MODE" in
    stop) stop_all; log "stopped"; exit 0 ;;
    status) show_status; exit 0 ;;
esac

command -v curl >/dev/null 2>&1 || die "curl is needed (apt-get install -y curl)"
if [ "$EDGE" = 1 ]; then
    command -v nginx >/dev/null 2>&1 || die "--edge needs nginx (apt-get install -y nginx)"
    for port in 8070 8071; do
        if port_open "$port"; then
            die "port $port (the demo edge) is already in use"
        fi
    done
fi
for svc in "${SERVICES[@]}"; do
    for port in "${PORT[$svc]}" "${MANAGEMENT_PORT[$svc]}"; do
        if port_open "$port"; then
            die "port $port ($svc) is already in use; stop whatever listens there first (./run.sh stop if it is an earlier detached run)"
        fi
    done
done

use_java25
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"

if [ "$BUILD" = 1 ]; then
    log "building (mvn -q -B -DskipTests package)"
    "$(maven_cmd)" -q -B -DskipTests package
fi
for svc in "${SERVICES[@]}"; do
    [ -f "$(jar_of "$svc")" ] || die "$(jar_of "$svc") not found; build first (./run.sh without --no-build)"
done

ADMIN_TOKEN="$(secret_of "${ADMIN_TOKEN:-}" "$ADMIN_TOKEN_FILE")"
QUEUE_TOKEN_SECRET="$(secret_of "${QUEUE_TOKEN_SECRET:-}" "$TOKEN_SECRET_FILE")"
ENTER_KEY="$(secret_of "${ENTER_KEY:-}" "$ENTER_KEY_FILE")"
[ "$ENTER_KEY" != "$ADMIN_TOKEN" ] || die "ENTER_KEY must not be the ADMIN_TOKEN: the enter key lives in a shop's backend"
SECRET_ENV=(QUEUE_TOKEN_SECRET="$QUEUE_TOKEN_SECRET" QUEUEGATE_TOKEN_SECRET="$QUEUE_TOKEN_SECRET"
    ENTER_KEY="$ENTER_KEY")

# From here on, leaving early (failure, Ctrl-C) stops what this run started.
CLEANUP=1
on_exit() {
    local rc=$?
    trap '' INT TERM
    if [ "$CLEANUP" = 1 ]; then
        CLEANUP=0
        echo >&2
        log "stopping what this run started"
        stop_all
    fi
    exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

sentinels_given || "$ROOT/scripts/redis.sh" ensure
if [ -n "${KAFKA_BOOTSTRAP_SERVERS:-}" ]; then
    [ "$KAFKA_SECURITY" = none ] || die "KAFKA_SECURITY=scram is for the broker started here; a cluster of your own takes each service's spring.kafka.properties.* (docs/OPERATIONS.md, \"Kafka users and ACLs\")"
    # scripts/service.sh passes it to every service; the cluster is the caller's to start and stop
    log "Kafka: the brokers of KAFKA_BOOTSTRAP_SERVERS ($KAFKA_BOOTSTRAP_SERVERS); no broker started here"
else
    if ! port_open 9092; then
        # marked before starting, so an interrupted start is still cleaned up
        : >"$KAFKA_MARKER"
    fi
    "$ROOT/scripts/kafka.sh" start
fi

train_aot_caches
if [ "$MODE" = train ]; then
    log "the AOT caches of this build are under ${LOCAL_DIR#"$ROOT"/}/aot/"
    exit 0
fi
for svc in "${SERVICES[@]}"; do
    start_service "$svc"
done
wait_healthy
if [ "$DEMO" = 1 ]; then
    create_demo
fi
if [ "$EDGE" = 1 ]; then
    PORT=8070 ORIGIN_PORT=8071 PRODUCT=1 "$ROOT/ops/edge/edge.sh" nginx-start "$EDGE_DIR" >/dev/null
fi
print_banner
if [ "$EDGE" = 1 ]; then
    cat <<EOF
  protected site    http://127.0.0.1:8070/          (nginx in front of a demo origin, protected by queue 1: an
                                                   empty line lets you straight in; once people wait, you wait
                                                   with them and come back; its configuration: .local/edge/)
EOF
fi

if [ "$MODE" = detach ]; then
    CLEANUP=0
    log "detached; stop everything with ./run.sh stop"
    exit 0
fi
watch_services
