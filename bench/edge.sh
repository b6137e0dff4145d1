#!/usr/bin/env bash
# What protecting a site at its edge costs. Needs the stack with the demo edge running (./run.sh --edge --detach;
# for the in-app yardstick, with the no-op endpoint on: QUEUEGATE_INGEST_NOOPENDPOINT=true ./run.sh --edge --detach)
# and demo queue 1 with nobody waiting, so that a first visit is admitted on the spot and hands out the cookie the
# windows send. Then, in each round, back-to-back windows of wrk -t2 -c64:
#   protected     the demo page through nginx with the valid cookie: auth_request asks ingest's edge check each time
#   cached        the same, with nginx keeping the check's "pass" for a second per cookie (/cached/)
#   unprotected   the same page through the same nginx without the check (/unprotected/)
#   check         the edge check itself, asked as nginx asks it (the cookie, X-Original-URI, X-Forwarded-Host)
#   noop          ingest's no-op yardstick (GET /bench/noop/1/entries/x), when it answers
# and the CPU ingest took per answer in each window (from /proc). Prints the windows and the ratios protected ÷
# unprotected and cached ÷ unprotected (target at least 0.8). On a machine shared with other work the figures move with it:
# say so with them.
#
#   bench/edge.sh [--rounds=N] [--window=S]   (defaults: 3 rounds of 5 s)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
take_options "rounds=3 window=5" "$@"
cd "$ROOT"
require_commands wrk curl

EDGE=http://127.0.0.1:8070
INGEST=http://127.0.0.1:8080
port_open 8070 || die "the demo edge does not answer on :8070: ./run.sh --edge --detach first"
INGEST_PID="$(tr -dc '0-9' <"$LOCAL_DIR/pids/ingest-service.pid")"
[ -n "$INGEST_PID" ] && [ -r "/proc/$INGEST_PID/stat" ] || die "ingest-service's pid is not in .local/pids"

COOKIE="$(curl -s -o /dev/null -D - "$EDGE/index.html" | sed -n 's/^[Ss]et-[Cc]ookie: \(qg_admission_1=[^;]*\);.*/\1/p' | tr -d '\r')"
[ -n "$COOKIE" ] || die "the first visit was not admitted on the spot (people wait in line 1, or it is full): no cookie to send"
curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $COOKIE" "$EDGE/index.html" | grep -q 200 \
    || die "the page with the cookie is not answered 200"
NOOP=1
[ "$(curl -s -o /dev/null -w '%{http_code}' "$INGEST/bench/noop/1/entries/x")" = 200 ] || NOOP=0

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)

# window URL HEADERS...: one wrk window; prints "2xx_per_second ingest_cpu_microseconds_per_2xx"
window() {
    local url=$1 before after out total non2xx ok args=()
    shift
    for header in "$@"; do args+=(-H "$header"); done
    before=$(ticks "$INGEST_PID")
    out=$(wrk -t2 -c64 -d"${WINDOW}s" "${args[@]}" "$url")
    after=$(ticks "$INGEST_PID")
    total=$(echo "$out" | awk '/requests in/ {print $1}')
    non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
    ok=$((total - ${non2xx:-0}))
    echo "$((ok / WINDOW)) $(( ok > 0 ? (after - before) * 1000000 / HZ / ok : 0 ))"
}

CHECK=("Cookie: $COOKIE" "X-Original-URI: /index.html" "X-Forwarded-Host: 127.0.0.1:8070")
log "warming (one window of each, not counted)"
window "$EDGE/index.html" "Cookie: $COOKIE" >/dev/null
window "$EDGE/cached/index.html" "Cookie: $COOKIE" >/dev/null
window "$EDGE/unprotected/index.html" >/dev/null
window "$INGEST/api/v1/queues/1/edge-check" "${CHECK[@]}" >/dev/null
[ "$NOOP" = 0 ] || window "$INGEST/bench/noop/1/entries/x" >/dev/null

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }
printf '%-6s %10s %10s %12s %6s %6s %10s %9s %10s %9s\n' round protected cached unprotected ratio cached "check/s" \
    "µs/check" "noop/s" "µs/noop"
for round in $(seq "$ROUNDS"); do
    read -r protected _ < <(window "$EDGE/index.html" "Cookie: $COOKIE")
    read -r cached _ < <(window "$EDGE/cached/index.html" "Cookie: $COOKIE")
    read -r unprotected _ < <(window "$EDGE/unprotected/index.html")
    read -r check check_cpu < <(window "$INGEST/api/v1/queues/1/edge-check" "${CHECK[@]}")
    noop=- noop_cpu=-
    [ "$NOOP" = 0 ] || read -r noop noop_cpu < <(window "$INGEST/bench/noop/1/entries/x")
    printf '%-6s %10s %10s %12s %6s %6s %10s %9s %10s %9s\n' "$round" "$protected" "$cached" "$unprotected" \
        "$(ratio "$protected" "$unprotected")" "$(ratio "$cached" "$unprotected")" "$check" "$check_cpu" "$noop" \
        "$noop_cpu"
done
log "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
