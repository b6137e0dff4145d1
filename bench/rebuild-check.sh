#!/usr/bin/env bash
# The time to rebuild a line of 1,000,000 waiting people after Redis loses everything, and the replay's pace
# (docs/RELIABILITY.md, "Rebuild time"). Runs against a stack of its own Redis, started by ./run.sh:
#
#   ./run.sh stop; rm -rf .storage/local/kafka .local/redis   # a fresh topic: the replay reads all of it
#   REDIS_PORT=6380 QUEUEGATE_INGEST_NOOP_ENDPOINT=true ./run.sh --detach --no-build --no-demo
#   REDIS_PORT=6380 bench/rebuild-check.sh
#
# The benchmark's drain scenario puts 1,000,000 people in one product's line through the entries topic (and deletes
# the product's keys when it ends); then the stack's Redis is killed with SIGKILL and started empty on the same port,
# and the writer's watch finds the lines' id gone and replays the topic. The figure is the time from the kill until
# the line holds 1,000,000 again, in log order. Never point it at a Redis that holds anything else: it kills it.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
answer_help "$@"
cd "$ROOT"

PORT="${REDIS_PORT:-}"
[ -n "$PORT" ] || die "set REDIS_PORT to the port of the stack's own Redis (not the shared 6379)"
[ "$PORT" != 6379 ] || die "REDIS_PORT=6379 is the machine's shared Redis; start the stack on its own (e.g. 6380)"
cli() { redis-cli -p "$PORT" "$@"; }
now() { date +%s.%N; }

REDIS_PORT="$PORT" ./bench.sh --no-build --only=drain --label=rebuild-check
product=$(grep -o 'waiting:{[0-9]*}' bench/results/tmp/rebuild-check.md | head -n 1 | tr -dc '0-9')
[ -n "$product" ] || die "the drain's product is not in bench/results/tmp/rebuild-check.md"
line="waiting:{$product}"

pid=$(cli INFO server | tr -d '\r' | sed -n 's/^process_id://p')
dir=$(cli CONFIG GET dir | sed -n 2p)
log "killing the Redis on :$PORT (pid $pid) and starting it empty"
kill -9 "$pid"
killed=$(now)
while cli PING >/dev/null 2>&1; do sleep 0.01; done
redis-server --daemonize yes --bind 127.0.0.1 --port "$PORT" --save "" --appendonly no --dir "$dir" \
    --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
first=""
while true; do
    n=$(cli ZCARD "$line" 2>/dev/null || echo 0)
    if [ -z "$first" ] && [ "${n:-0}" -gt 0 ]; then first=$(now); fi
    if [ "${n:-0}" -ge 1000000 ]; then break; fi
    if awk -v k="$killed" -v t="$(now)" 'BEGIN { exit !(t - k > 600) }'; then die "not rebuilt in 600 s ($n)"; fi
    sleep 0.05
done
done_at=$(now)
head=$(cli ZRANGE "$line" 0 0)
tail=$(cli ZRANGE "$line" -1 -1)
awk -v k="$killed" -v f="$first" -v d="$done_at" -v h="$head" -v t="$tail" 'BEGIN {
    printf "[queuegate] 1,000,000 waiting again %.2f s after the kill; the first was placed after %.2f s; replay %.0f people/s; head %s, last %s\n",
        d - k, f - k, 1000000 / (d - f), h, t }'
