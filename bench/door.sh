#!/usr/bin/env bash
# What the defences at ingest's door cost (./bench.sh --only=door runs it). Starts the stack (./run.sh --detach)
# with the limits per client on at the product's defaults and loopback as a trusted proxy, and beside it two more
# ingests: :8083 with the limits off, :8084 with them on, for proof of work. Every request names a client address
# of its own by X-Forwarded-For (131,072 addresses in turn), as a crowd behind a proxy would. Opens two queues, one
# asking for proof of work. Each comparison is between two instances that served the same traffic but for what is
# compared, each warmed up on its own paths first (warm-up windows, not counted). Then, in each round, back-to-back
# windows of wrk -t2 -c64:
#   limits-on    enters on :8080 (limits on), no proof asked
#   limits-off   the same enters on :8083 (limits off)
#   plain        enters without proof on :8084
#   proof        enters on :8084 carrying a solved proof (the challenges fetched from it and solved before the rounds)
#   challenge    challenge fetches on :8084
# and the CPU the answering ingest took in each window (from /proc). Prints a table of the ratios, per round and
# their median, and writes the windows to bench/results/tmp/door.json.
#
#   bench/door.sh [--rounds=N] [--window=S] [--max-number=N] [--no-build]   (defaults: 5 rounds, 5 s, 100;
#   about 12 minutes on two cores)
#
# The proof's maxnumber is small because the solving is the client's work; what the server does per proof (one
# SHA-256, one HMAC, the salt's fields, the used-proof cache) does not depend on it. The stack must not be running.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
take_options "rounds=5 window=5 max-number=100 no-build" "$@"
cd "$ROOT"
use_maven

require_commands wrk python3
for port in 8080 8081 8082 8083 8084 18083 18084; do
    port_open "$port" && die "port $port is in use: stop the stack (./run.sh stop) first"
done
if [ "$BUILD" = 1 ]; then
    log "building (mvn -q -B -DskipTests package)"
    "$(maven_cmd)" -q -B -DskipTests package -pl ingest-service,admission-worker,booking-service -am
fi

work=$(mktemp -d)
SECOND_PID="" THIRD_PID=""
cleanup() {
    [ -n "$SECOND_PID" ] && kill "$SECOND_PID" 2>/dev/null || true
    [ -n "$THIRD_PID" ] && kill "$THIRD_PID" 2>/dev/null || true
    "$ROOT/run.sh" stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
for script in enter challenge proof; do
    cat "$ROOT/bench/door/forwarded.lua" "$ROOT/bench/door/$script.lua" >"$work/$script.lua"
done

# the product's defaults, not run.sh's room for one local address
export QUEUEGATE_INGEST_TRUSTED_PROXIES=127.0.0.1/32 QUEUEGATE_INGEST_PER_CLIENT_ENABLED=true \
    QUEUEGATE_INGEST_PER_CLIENT_ENTER_BURST=30 QUEUEGATE_INGEST_PER_CLIENT_ENTERS_PER_MINUTE=30 \
    QUEUEGATE_INGEST_PER_CLIENT_POLL_BURST=60 QUEUEGATE_INGEST_PER_CLIENT_POLLS_PER_SECOND=10
log "starting the stack (limits per client on), an ingest on :8083 (limits off) and one on :8084 (limits on)"
"$ROOT/run.sh" --detach --no-build --no-demo >"$work/run.log" 2>&1 || { cat "$work/run.log" >&2; die "the stack did not start"; }
ADMIN_TOKEN=$(cat "$LOCAL_DIR/admin-token")
QUEUE_TOKEN_SECRET=$(cat "$LOCAL_DIR/token-secret")
# another_ingest PORT LIMITS: an ingest of the same deployment beside the stack's; prints its pid
another_ingest() {
    SERVER_PORT=$1 MANAGEMENT_SERVER_PORT=1$1 ADMIN_TOKEN="$ADMIN_TOKEN" QUEUE_TOKEN_SECRET="$QUEUE_TOKEN_SECRET" \
        QUEUEGATE_INGEST_PER_CLIENT_ENABLED=$2 SPRING_KAFKA_ADMIN_AUTO_CREATE=false \
        "$ROOT/scripts/service.sh" ingest-service >"$work/ingest-$1.log" 2>&1 &
    echo $!
}
await_ready() { # PORT PID
    for _ in $(seq 1 300); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/readyz" || true)" = 200 ] && return 0
        kill -0 "$2" 2>/dev/null || { tail -30 "$work/ingest-$1.log" >&2; die "the ingest on :$1 stopped"; }
        sleep 1
    done
    die "the ingest on :$1 is not ready"
}
# one after the other: their warm-ups share two cores
SECOND_PID=$(another_ingest 8083 false)
await_ready 8083 "$SECOND_PID"
THIRD_PID=$(another_ingest 8084 true)
await_ready 8084 "$THIRD_PID"
INGEST_PID=$(cat "$LOCAL_DIR/pids/ingest-service.pid" 2>/dev/null || pgrep -f 'ingest-service.*exec.jar' | grep -v "^$SECOND_PID\$" | head -1)

queue() { # PRODUCT JSON
    curl -sf -o /dev/null -X PUT "http://127.0.0.1:8081/api/v1/queues/$1" -H "Authorization: Bearer $ADMIN_TOKEN" \
        -H 'Content-Type: application/json' -d "$2" || die "could not open queue $1"
}
PLAIN=$((RANDOM * 32768 + RANDOM + 1000000000))
PROOF=$((PLAIN + 1))
queue "$PLAIN" '{"maxActive":1,"admitPerSecond":1,"entryTtlSeconds":300,"open":true}'
queue "$PROOF" "{\"maxActive\":1,\"admitPerSecond\":1,\"entryTtlSeconds\":300,\"open\":true,\"challengeMaxNumber\":$MAX_NUMBER}"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)

# window NAME PID SCRIPT URL ARGS...: one wrk window; prints "2xx_per_second cpu_microseconds_per_2xx"
window() {
    local name=$1 pid=$2 script=$3 url=$4 before after out total non2xx ok
    shift 4
    before=$(ticks "$pid")
    out=$(wrk -t2 -c64 -d"${WINDOW}s" -s "$work/$script.lua" "$url" -- "$@")
    after=$(ticks "$pid")
    total=$(echo "$out" | awk '/requests in/ {print $1}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
    ok=$((total - ${non2xx:-0}))
    echo "$((ok / WINDOW)) $(( ok > 0 ? (after - before) * 1000000 / HZ / ok : 0 ))"
}

log "warming the ingests' door paths (four windows each, not counted)"
for w in 1 2 3 4; do
    window warm "$INGEST_PID" enter "http://127.0.0.1:8080/api/v1/queues/$PLAIN/entries" "warm-a$w" >/dev/null
    window warm "$SECOND_PID" enter "http://127.0.0.1:8083/api/v1/queues/$PLAIN/entries" "warm-b$w" >/dev/null
    window warm "$THIRD_PID" enter "http://127.0.0.1:8084/api/v1/queues/$PLAIN/entries" "warm-c$w" >/dev/null
done

log "fetching challenges for the proof windows"
# twice what the rounds are likely to send, and a share to warm the proof path up: a round whose proofs run out
# counts refusals, not enters
for r in $(seq 1 $((2 * ROUNDS + 2))); do
    window challenge "$THIRD_PID" challenge "http://127.0.0.1:8084/api/v1/queues/$PROOF/challenge" "pre$r" "$work" >/dev/null
done
log "solving $(cat "$work"/challenges-*.txt | wc -l) challenges (maxnumber $MAX_NUMBER)"
python3 "$ROOT/bench/door/solve.py" "$work" >/dev/null
window warm "$THIRD_PID" proof "http://127.0.0.1:8084/api/v1/queues/$PROOF/entries" "$work" "$((ROUNDS + 1))" "$((ROUNDS + 1))" >/dev/null

rows=()
json=()
for r in $(seq 1 "$ROUNDS"); do
    read -r on on_cpu < <(window limits-on "$INGEST_PID" enter "http://127.0.0.1:8080/api/v1/queues/$PLAIN/entries" "r$r-a")
    read -r off off_cpu < <(window limits-off "$SECOND_PID" enter "http://127.0.0.1:8083/api/v1/queues/$PLAIN/entries" "r$r-b")
    read -r plain plain_cpu < <(window plain "$THIRD_PID" enter "http://127.0.0.1:8084/api/v1/queues/$PLAIN/entries" "r$r-c")
    read -r proof proof_cpu < <(window proof "$THIRD_PID" proof "http://127.0.0.1:8084/api/v1/queues/$PROOF/entries" "$work" "$r" "$((ROUNDS + 1))")
    read -r challenge challenge_cpu < <(window challenge "$THIRD_PID" challenge "http://127.0.0.1:8084/api/v1/queues/$PROOF/challenge" "r$r-d" "$work")
    log "round $r: enters with limits $on/s (${on_cpu} us CPU each), without $off/s (${off_cpu} us); enters $plain/s (${plain_cpu} us), with proof $proof/s (${proof_cpu} us), challenges $challenge/s (${challenge_cpu} us)"
    rows+=("$on $off $plain $proof $challenge $on_cpu $off_cpu $plain_cpu $proof_cpu $challenge_cpu")
    json+=("{\"round\": $r, \"entersLimitsOn\": $on, \"entersLimitsOff\": $off, \"enters\": $plain, \"entersWithProof\": $proof, \"challenges\": $challenge, \"cpuUs\": {\"enterLimitsOn\": $on_cpu, \"enterLimitsOff\": $off_cpu, \"enter\": $plain_cpu, \"enterWithProof\": $proof_cpu, \"challenge\": $challenge_cpu}}")
done

mkdir -p "$ROOT/bench/results/tmp"
(IFS=,; echo "{\"window\": $WINDOW, \"maxNumber\": $MAX_NUMBER, \"rounds\": [${json[*]}]}") >"$ROOT/bench/results/tmp/door.json"
printf '%s\n' "${rows[@]}" | python3 -c '
import statistics, sys
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
def line(name, values, unit=""):
    v = sorted(values)
    return f"| {name} | {statistics.median(v):.2f}{unit} | {v[0]:.2f}–{v[-1]:.2f}{unit} |"
print("| ratio, per round (%d rounds) | median | low–high |" % len(rows))
print("|---|---|---|")
print(line("enters, limits on ÷ limits off", [r[0] / r[1] for r in rows]))
print(line("enters with proof ÷ enters without", [r[3] / r[2] for r in rows]))
print(line("a user with proof (challenge + enter) ÷ a user without", [1 / (1 / r[3] + 1 / r[4]) / r[2] for r in rows]))
print(line("CPU per enter, limits on ÷ off", [r[5] / r[6] for r in rows]))
print(line("CPU per enter, with proof ÷ without", [r[8] / r[7] for r in rows]))
print(line("CPU per user, challenge + enter with proof ÷ enter without", [(r[8] + r[9]) / r[7] for r in rows]))
print()
print("| round | enters/s limits on / off | enters/s without / with proof | challenges/s | CPU µs per enter: limits on / off; without / with proof; per challenge |")
print("|---|---|---|---|---|")
for i, r in enumerate(rows, 1):
    print(f"| {i} | {r[0]:,.0f} / {r[1]:,.0f} | {r[2]:,.0f} / {r[3]:,.0f} | {r[4]:,.0f} | {r[5]:.0f} / {r[6]:.0f}; {r[7]:.0f} / {r[8]:.0f}; {r[9]:.0f} |")
'
