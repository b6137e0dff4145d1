#!/usr/bin/env bash
# Figure 2 (burst drain ÷ redis-benchmark ZADD -P 64) and figure 7 (bytes per waiting user) on a private Redis,
# Kafka broker and admission worker, so that they can be measured while a stack runs on the usual ports.
#
#   bench/drain-check.sh [EVENTS] [ROUNDS]      # default 1,000,000 events, 2 rounds of burst and backlog
#
# Ports: DRAIN_REDIS_PORT (6391), DRAIN_KAFKA_PORT (19193), DRAIN_KAFKA_CONTROLLER_PORT (19194), DRAIN_WORKER_PORT
# (18191); DRAIN_WORKER_JAR runs another build of the worker. Builds admission-worker and bench with `mvn package` (nothing is installed), stops what it started.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
answer_help "$@"
cd "$ROOT"
use_maven

EVENTS="${1:-1000000}"
ROUNDS="${2:-2}"
REDIS_PORT="${DRAIN_REDIS_PORT:-6391}"
KPORT="${DRAIN_KAFKA_PORT:-19193}"
KCPORT="${DRAIN_KAFKA_CONTROLLER_PORT:-19194}"
WPORT="${DRAIN_WORKER_PORT:-18191}"
WORK="$ROOT/.local/drain-check"
# A topic of its own per run: the broker's data outlives the run, and a worker on this run's empty Redis would
# otherwise first rebuild the lines of every earlier run's events from the log (LineRebuild) before timing anything.
TOPIC="drain.entries.$(date +%s)"
SECRET="drain-check-token-secret-0123456789"
mkdir -p "$WORK"

if [ "${DRAIN_NO_BUILD:-}" = "" ]; then
    log "building admission-worker and bench (mvn package, tests skipped)"
    "$(maven_cmd)" -q -o -B -Ptooling package -DskipTests -pl admission-worker,bench -am
fi
WORKER_JAR="${DRAIN_WORKER_JAR:-$(ls admission-worker/target/admission-worker-*-exec.jar)}"
BENCH_JAR="$(ls bench/target/queuegate-bench-*-exec.jar)"
drain() {
    java --sun-misc-unsafe-memory-access=allow -Xmx3g -Dloader.main=io.queuegate.bench.DrainCheck -cp "$BENCH_JAR" \
        org.springframework.boot.loader.launch.PropertiesLauncher "$@"
}

WORKER_PID=""
cleanup() {
    [ -n "$WORKER_PID" ] && kill "$WORKER_PID" 2>/dev/null && wait "$WORKER_PID" 2>/dev/null || true
    KAFKA_PORT="$KPORT" KAFKA_CONTROLLER_PORT="$KCPORT" scripts/kafka.sh stop >/dev/null 2>&1 || true
    redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
}
trap cleanup EXIT

redis-server --port "$REDIS_PORT" --save '' --appendonly no --daemonize yes --dir "$WORK" \
    --logfile "$WORK/redis.log" --pidfile "$WORK/redis.pid"
KAFKA_PORT="$KPORT" KAFKA_CONTROLLER_PORT="$KCPORT" scripts/kafka.sh start

start_worker() {
    # shellcheck disable=SC2046 # service_jvm_options (scripts/lib.sh) prints several options
    SERVER_PORT="$WPORT" MANAGEMENT_SERVER_PORT="$((WPORT + 500))" SPRING_PROFILES_ACTIVE=dev SPRING_DATA_REDIS_PORT="$REDIS_PORT" \
    SPRING_KAFKA_BOOTSTRAP_SERVERS="127.0.0.1:$KPORT" QUEUEGATE_ADMISSION_TOPIC="$TOPIC" \
    QUEUEGATE_ADMISSION_AUDITTOPIC=drain.audit QUEUEGATE_TOKEN_SECRET="$SECRET" \
    java $(service_jvm_options admission-worker) ${DRAIN_WORKER_OPTS:-} \
        -jar "$WORKER_JAR" >>"$WORK/worker.log" 2>&1 &
    WORKER_PID=$!
    for _ in $(seq 1 120); do
        curl -fs "http://127.0.0.1:$((WPORT + 500))/actuator/health" >/dev/null 2>&1 && return 0
        sleep 1
    done
    die "the worker did not answer on :$WPORT (see $WORK/worker.log)"
}
# Holds the writer (true) until it has stopped reading, or releases it (false): PUT /api/v1/writer
hold() {
    local state
    for _ in $(seq 1 100); do
        state="$(curl -fsS -X PUT -H "Authorization: Bearer dev-admin-token" -H 'Content-Type: application/json' \
            -d "{\"held\":$1}" "http://127.0.0.1:$WPORT/api/v1/writer")"
        case "$1:$state" in
            true:*'"paused":true'*|false:*'"held":false'*) return 0 ;;
        esac
        sleep 0.1
    done
    die "the writer did not answer held=$1 ($state)"
}

yardstick() {
    local key="drain-check:zadd:{$$}"
    redis-benchmark -p "$REDIS_PORT" -c 50 -P 64 -r 1000000 -n 2000000 --csv ZADD "$key" __rand_int__ __rand_int__ \
        | awk -F'","' '/ZADD/ { gsub(/"/, "", $2); printf "yardstick: redis-benchmark ZADD -c 50 -P 64: %.0f ops/s\n", $2 }'
    redis-cli -p "$REDIS_PORT" unlink "$key" >/dev/null
}

# CPU seconds a process has used so far (user + system)
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
cpu_report() {
    local what="$1" w0="$2" r0="$3" k0="$4"
    awk -v w="$(cpu "$WORKER_PID")" -v r="$(cpu "$(cat "$WORK/redis.pid")")" -v k="$(cpu "$(cat .local/kafka/kafka.pid)")" \
        -v w0="$w0" -v r0="$r0" -v k0="$k0" -v n="$EVENTS" -v what="$what" \
        'BEGIN { printf "%s CPU per event: worker %.1f µs, redis %.1f µs, kafka %.1f µs\n", what, (w-w0)*1e6/n, (r-r0)*1e6/n, (k-k0)*1e6/n }'
}

start_worker
for round in $(seq 1 "$ROUNDS"); do
    log "round $round"
    yardstick
    drain burst "127.0.0.1:$KPORT" "$TOPIC" "$REDIS_PORT" "$EVENTS" "$SECRET"
    # the backlog: produced while the writer is held, drained by the same warm writer once released
    hold true
    product="$(drain produce "127.0.0.1:$KPORT" "$TOPIC" "$REDIS_PORT" "$EVENTS" "$SECRET")"
    drain await "$product" "$REDIS_PORT" "$EVENTS" >"$WORK/await.out" &
    awaiting=$!
    until grep -q watching "$WORK/await.out"; do kill -0 "$awaiting" 2>/dev/null || die "the watcher stopped"; sleep 0.1; done
    w0="$(cpu "$WORKER_PID")" r0="$(cpu "$(cat "$WORK/redis.pid")")" k0="$(cpu "$(cat .local/kafka/kafka.pid)")"
    hold false
    wait "$awaiting"
    grep -v watching "$WORK/await.out"
    cpu_report backlog "$w0" "$r0" "$k0"
    yardstick
done
