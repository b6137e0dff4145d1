#!/usr/bin/env bash
# The burst that meets a fresh start: starts the stack cold (./run.sh --detach: Kafka and the three services, as a
# deployment would), opens a queue, and drives enters with wrk -t2 -c64 in back-to-back windows, counting the 202s
# of each; then the same for the two yardstick apps, each started cold: the plain no-op Spring Boot app and the seed's
# synchronous Redis design. Prints the enters per second of each window, and the start-up time of each.
#
#   bench/cold-start.sh [--windows=N] [--window=S] [--no-yardsticks] [--no-build]   (defaults: 15 windows of 5 s)
#
# The stack must not be running (./run.sh stop); Redis on 127.0.0.1:6379 is used as it is. Takes about
# 3 × (start-up + N × S) seconds.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$ROOT"
use_java25
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"

WINDOWS=15 WINDOW=5 BUILD=1 YARDSTICKS=1
for arg in "$@"; do
    case "$arg" in
        --no-build) BUILD=0 ;;
        --no-yardsticks) YARDSTICKS=0 ;;
        --windows=*) WINDOWS="${arg#*=}" ;;
        --window=*) WINDOW="${arg#*=}" ;;
        -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $arg (--windows=N --window=S --no-yardsticks --no-build)" ;;
    esac
done
command -v wrk >/dev/null || die "wrk is not installed (apt-get install wrk)"
for port in 8080 8081 8082 8090 8091; do
    port_open "$port" && die "port $port is in use: stop the stack (./run.sh stop) and any yardstick app first"
done
if [ "$BUILD" = 1 ]; then
    log "building (mvn -q -B -DskipTests package)"
    "$(maven_cmd)" -q -B -DskipTests package
fi

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

# windows NAME URL: prints NAME and the 2xx answers per second of each back-to-back window
windows() {
    local name=$1 url=$2 line="" w out total non2xx
    for w in $(seq 1 "$WINDOWS"); do
        out=$(wrk -t2 -c64 -d"${WINDOW}s" -s "$work/post.lua" "$url" -- "$name-w$w")
        total=$(echo "$out" | awk '/requests in/ {print $1}')
        non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
        line+=" $(( (total - ${non2xx:-0}) / WINDOW ))"
    done
    echo "$name$line"
}

started_in() { # seconds since $1 (date +%s.%N), one decimal
    echo "$(date +%s.%N) - $1" | bc -l | xargs printf '%.1f'
}

product=$((RANDOM * 32768 + RANDOM + 1000000000))
log "Queuegate: starting the stack cold"
t0=$(date +%s.%N)
QUEUEGATE_INGEST_NOOP_ENDPOINT=true "$ROOT/run.sh" --detach --no-build --no-demo >"$work/run.log" 2>&1 \
    || { cat "$work/run.log" >&2; die "the stack did not start"; }
queuegate_start=$(started_in "$t0")
admin_token=$(cat "$LOCAL_DIR/admin-token")
curl -sf -o /dev/null -X PUT "http://127.0.0.1:8081/api/v1/queues/$product" -H "Authorization: Bearer $admin_token" \
    -H 'Content-Type: application/json' -d '{"maxActive":1,"admitPerSecond":1,"entryTtlSeconds":300,"open":true}' \
    || die "could not open queue $product"
results=("$(windows queuegate "http://127.0.0.1:8080/api/v1/queues/$product/entries")")
"$ROOT/run.sh" stop >/dev/null 2>&1
# the queue's keys share its hash tag; the registry lists it
redis-cli -p "${REDIS_PORT:-6379}" --scan --pattern "*{$product}*" | xargs -r redis-cli -p "${REDIS_PORT:-6379}" unlink >/dev/null
redis-cli -p "${REDIS_PORT:-6379}" srem queuegate:queues "$product" >/dev/null

read -r -a jvm <<<"$(service_jvm_options)"
declare -A STARTED=([plain-noop]=- [seed-design]=-)
apps=(plain-noop seed-design)
[ "$YARDSTICKS" = 1 ] || apps=()
for app in "${apps[@]}"; do
    jar=$(ls yardsticks/"$app"/target/queuegate-yardstick-"$app"-*-exec.jar 2>/dev/null | head -n 1)
    [ -n "$jar" ] || die "yardsticks/$app is not built (run without --no-build)"
    port=8090 extra=()
    if [ "$app" = seed-design ]; then
        port=8091 extra=(--spring.data.redis.port="${REDIS_PORT:-6379}" --seed.key-prefix=bench-cold-seed:)
    fi
    log "$app: starting it cold"
    t0=$(date +%s.%N)
    java "${jvm[@]}" -jar "$jar" --server.port="$port" "${extra[@]}" >"$work/$app.log" 2>&1 &
    YARDSTICK_PID=$!
    for _ in $(seq 1 600); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/v1/queues/0/entries/probe")" = 200 ] && break
        sleep 0.1
    done
    STARTED[$app]=$(started_in "$t0")
    results+=("$(windows "$app" "http://127.0.0.1:$port/api/v1/queues/$product/entries")")
    kill "$YARDSTICK_PID"; wait "$YARDSTICK_PID" 2>/dev/null || true; YARDSTICK_PID=""
done
redis-cli -p "${REDIS_PORT:-6379}" --scan --pattern "bench-cold-seed:*" | xargs -r redis-cli -p "${REDIS_PORT:-6379}" unlink >/dev/null

log "$(nproc) cores; windows of ${WINDOW} s from the moment each answered; start-up: Queuegate ${queuegate_start} s" \
    "(./run.sh --detach), plain no-op ${STARTED[plain-noop]} s, seed design ${STARTED[seed-design]} s"
header="| seconds after it answered |" rule="|---|"
for w in $(seq 1 "$WINDOWS"); do
    header+=" $(( (w - 1) * WINDOW ))–$(( w * WINDOW )) |"
    rule+="---|"
done
echo "$header"
echo "$rule"
for row in "${results[@]}"; do
    read -r -a cells <<<"$row"
    printf '| %s |' "${cells[0]}"
    printf ' %s |' "${cells[@]:1}"
    echo
done
