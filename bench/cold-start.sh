#!/usr/bin/env bash
# The burst that meets a fresh start (./bench.sh --only=cold runs it): starts the stack cold (./run.sh --detach:
# Kafka and the three services, as a deployment would), opens a queue, and drives enters with wrk -t2 -c64 in
# back-to-back windows, counting the 202s of each; then the same for the two yardstick apps, each started cold: the
# plain no-op Spring Boot app and the seed's synchronous Redis design. Repeats that for each run, then writes the
# runs to bench/results/tmp/cold-start.json, the chart beside it (cold-start.png) and the table (cold-start.md,
# also printed): each run's first 10 s and first 30 s as shares of its own warm rate.
#
#   bench/cold-start.sh [--runs=N] [--windows=N] [--yardstick-windows=N] [--window=S] [--no-yardsticks] [--no-build]
#                       (defaults: 3 runs; 18 windows of 5 s for the stack, 8 for each yardstick)
#
# The stack must not be running (./run.sh stop); Redis on 127.0.0.1:6379 is used as it is. A run takes about
# 4 to 5 minutes on two cores. QG_AOT_CACHE=on starts the services with their AOT caches (made first if this
# build has none), QUEUEGATE_INGEST_WARM_UP_DURATION=0 without ingest's warm-up.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
take_options "runs=3 windows=18 yardstick-windows=8 window=5 no-yardsticks no-build" "$@"
cd "$ROOT"
use_maven

require_commands wrk
for port in 8080 8081 8082 8090 8091; do
    port_open "$port" && die "port $port is in use: stop the stack (./run.sh stop) and any yardstick app first"
done
BENCH_JAR="$ROOT/bench/target/queuegate-bench-$QG_VERSION-exec.jar"
if [ "$BUILD" = 1 ]; then
    log "building the services, the benchmark and the yardstick apps (mvn -q -B -Ptooling -DskipTests package)"
    "$(maven_cmd)" -q -B -Ptooling -DskipTests package
fi
[ -f "$BENCH_JAR" ] || die "$BENCH_JAR not found; build first (without --no-build)"

work=$(mktemp -d)
YARDSTICK_PID=""
cleanup() {
    [ -n "$YARDSTICK_PID" ] && kill "$YARDSTICK_PID" 2>/dev/null || true
    "$ROOT/run.sh" stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
# the benchmark's own enter script: a new user per request ("<window>-<thread>-<n>"), wrk's threads numbered
cat bench/src/main/resources/wrk/post.lua bench/src/main/resources/wrk/shared.lua >"$work/post.lua"

# windows NAME URL COUNT: prints the 2xx answers per second of each of COUNT back-to-back windows, comma-separated
windows() {
    local name=$1 url=$2 count=$3 line="" w out total non2xx
    for w in $(seq 1 "$count"); do
        out=$(wrk -t2 -c64 -d"${WINDOW}s" -s "$work/post.lua" "$url" -- "$name-w$w")
        total=$(echo "$out" | awk '/requests in/ {print $1}')
        non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
        line+="${line:+,}$(( (total - ${non2xx:-0}) / WINDOW ))"
        log "$name: window $w of $count: $(( (total - ${non2xx:-0}) / WINDOW ))/s" >&2
    done
    echo "$line"
}

started_in() { # seconds since $1 (date +%s.%N), one decimal
    echo "$(date +%s.%N) - $1" | bc -l | xargs printf '%.1f'
}

# series NAME START WINDOWS: one series of a run's JSON
series() { printf '"%s": {"startSeconds": %s, "perSecond": [%s]}' "$1" "$2" "$3"; }

# the JDK's AOT cache of each service (run.sh train), made before the runs so that every run starts as a deployment of
# this build would, when QG_AOT_CACHE=on
if [ "${QG_AOT_CACHE:-off}" = on ]; then
    log "the services' AOT caches for this build (made once: ./run.sh train)"
    "$ROOT/run.sh" train --no-build >"$work/train.log" 2>&1 || { cat "$work/train.log" >&2; die "the training run failed"; }
fi
read -r -a jvm <<<"$(service_jvm_options)"
runs_json=()
for run in $(seq 1 "$RUNS"); do
    product=$((RANDOM * 32768 + RANDOM + 1000000000))
    log "run $run of $RUNS: Queuegate: starting the stack cold"
    t0=$(date +%s.%N)
    QUEUEGATE_INGEST_NOOP_ENDPOINT=true QUEUEGATE_INGEST_PER_CLIENT_ENABLED=false "$ROOT/run.sh" --detach --no-build --no-demo >"$work/run.log" 2>&1 \
        || { cat "$work/run.log" >&2; die "the stack did not start"; }
    queuegate_start=$(started_in "$t0")
    admin_token=$(cat "$LOCAL_DIR/admin-token")
    curl -sf -o /dev/null -X PUT "http://127.0.0.1:8081/api/v1/queues/$product" -H "Authorization: Bearer $admin_token" \
        -H 'Content-Type: application/json' -d '{"maxActive":1,"admitPerSecond":1,"entryTtlSeconds":300,"open":true}' \
        || die "could not open queue $product"
    run_json=$(series queuegate "$queuegate_start" \
        "$(windows queuegate "http://127.0.0.1:8080/api/v1/queues/$product/entries" "$WINDOWS")")
    "$ROOT/run.sh" stop >/dev/null 2>&1
    # the queue's keys share its hash tag; the registry lists it
    redis-cli -p "${REDIS_PORT:-6379}" --scan --pattern "*{$product}*" | xargs -r redis-cli -p "${REDIS_PORT:-6379}" unlink >/dev/null
    redis-cli -p "${REDIS_PORT:-6379}" srem queuegate:queues "$product" >/dev/null

    apps=(plain-noop seed-design)
    [ "$YARDSTICKS" = 1 ] || apps=()
    for app in "${apps[@]}"; do
        jar=$(ls yardsticks/"$app"/target/queuegate-yardstick-"$app"-*-exec.jar 2>/dev/null | head -n 1)
        [ -n "$jar" ] || die "yardsticks/$app is not built (run without --no-build)"
        port=8090 extra=()
        if [ "$app" = seed-design ]; then
            port=8091 extra=(--spring.data.redis.port="${REDIS_PORT:-6379}" --seed.key-prefix=bench-cold-seed:)
        fi
        log "run $run of $RUNS: $app: starting it cold"
        t0=$(date +%s.%N)
        java "${jvm[@]}" -jar "$jar" --server.port="$port" "${extra[@]}" >"$work/$app.log" 2>&1 &
        YARDSTICK_PID=$!
        for _ in $(seq 1 600); do
            [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/queues/0/entries/probe")" = 200 ] && break
            sleep 0.1
        done
        started=$(started_in "$t0")
        run_json+=", $(series "$app" "$started" \
            "$(windows "$app" "http://127.0.0.1:$port/api/v1/queues/$product/entries" "$YARDSTICK_WINDOWS")")"
        kill "$YARDSTICK_PID"; wait "$YARDSTICK_PID" 2>/dev/null || true; YARDSTICK_PID=""
        redis-cli -p "${REDIS_PORT:-6379}" --scan --pattern "bench-cold-seed:*" | xargs -r redis-cli -p "${REDIS_PORT:-6379}" unlink >/dev/null
    done
    runs_json+=("{$run_json}")
done

out="$ROOT/bench/results/tmp/cold-start.json"
mkdir -p "$(dirname "$out")"
{
    printf '{"windowSeconds": %s, "runs": [' "$WINDOW"
    (IFS=,; printf '%s' "${runs_json[*]}")
    printf ']}\n'
} >"$out"
log "$(nproc) cores; wrote ${out#"$ROOT"/} and, beside it, cold-start.png and cold-start.md"
java -Djava.awt.headless=true -jar "$BENCH_JAR" --cold-start="$out"
