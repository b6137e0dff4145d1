#!/usr/bin/env bash
# What `WAIT 1 <ms>` after the booking gate's consume step costs (docs/RELIABILITY.md, "A booking and the replica"):
# calls per second of consume_admission.lua on one connection, alone and each followed by WAIT for one replica, against
# a master and its replica of a Sentinel group of this script's own (scripts/redis.sh sentinel-start on the ports
# below), on admitted users of a product of its own, stopped afterwards.
#   bench/replica-acks.sh [CALLS]     CALLS per round (default 20000); three rounds of each, alternated
# Environment: REDIS_SENTINEL_MASTER_PORT (default 6393), REDIS_SENTINEL_REPLICA_PORT (6394), REDIS_SENTINEL_PORTS
#              ("26394 26395 26396"), WAIT_MS (the WAIT's timeout, default 100). Needs python3 with redis-py.
set -euo pipefail
# shellcheck source=../scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
answer_help "$@"
cd "$ROOT"

calls="${1:-20000}"
case "$calls" in *[!0-9]* | "") refuse_argument "CALLS must be a number: $calls" ;; esac
[ $# -le 1 ] || refuse_argument "unknown argument: $2"
export REDIS_SENTINEL_MASTER_PORT="${REDIS_SENTINEL_MASTER_PORT:-6393}"
export REDIS_SENTINEL_REPLICA_PORT="${REDIS_SENTINEL_REPLICA_PORT:-6394}"
export REDIS_SENTINEL_PORTS="${REDIS_SENTINEL_PORTS:-26394 26395 26396}"
/usr/bin/python3 -c 'import redis' 2>/dev/null || die "needs python3 with redis-py (apt-get install -y python3-redis)"

export QG_LOCAL_DIR="$LOCAL_DIR/replica-acks"
scripts/redis.sh sentinel-start
trap 'scripts/redis.sh sentinel-stop >/dev/null' EXIT

/usr/bin/python3 - "$calls" "${WAIT_MS:-100}" <<'EOF'
import os
import random
import sys
import time

import redis

calls, wait_ms = int(sys.argv[1]), int(sys.argv[2])
core = "queuegate-core/src/main/resources/META-INF/scripts/"
gate = "queuegate-gate-spring-boot-starter/src/main/resources/META-INF/scripts/consume_admission.lua"
# as QueueScripts runs it: the shared prelude after the #!lua line
prelude = "".join(open(core + f"lib/{name}.lua").read() for name in ("clock", "fair_start", "process"))
text = open(gate).read()
first = text.index("\n") + 1
script = text[:first] + prelude + text[first:]

master = redis.Redis(port=int(os.environ["REDIS_SENTINEL_MASTER_PORT"]), decode_responses=True)
sha = master.script_load(script)
p = random.randint(10**9, 9 * 10**9)
keys = [f"{name}:{{{p}}}" for name in ("entry", "stock", "bookings", "stats", "audit", "reservations", "gone",
                                          "reserved-at")]


def round_of(with_wait):
    """calls consumes of fresh admissions, one after another on one connection; returns calls/s and WAIT times."""
    users = [f"u{random.getrandbits(64):x}" for _ in range(calls)]
    until = int(time.time() * 1000) + 3_600_000
    for i in range(0, calls, 1000):
        master.zadd(keys[0], {u: until for u in users[i:i + 1000]})
    master.set(keys[1], calls * 10)
    waits, short = [], 0
    t0 = time.perf_counter()
    for u in users:
        reply = master.evalsha(sha, len(keys), *keys, u, 1, 0, f"{p}-{u}", '{"quantity":1}')
        assert reply[0] == "RESERVED", reply
        if with_wait:
            w0 = time.perf_counter()
            short += master.execute_command("WAIT", 1, wait_ms) < 1
            waits.append(time.perf_counter() - w0)
    took = time.perf_counter() - t0
    master.delete(*keys)
    return calls / took, waits, short


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else 0


results = {False: [], True: []}
waits, short = [], 0
for _ in range(3):
    for with_wait in (False, True):
        rate, w, s = round_of(with_wait)
        results[with_wait].append(rate)
        waits += w
        short += s
print(f"consume_admission.lua alone:          {' / '.join(f'{r:,.0f}' for r in results[False])} calls/s")
print(f"followed by WAIT 1 {wait_ms}:         {' / '.join(f'{r:,.0f}' for r in results[True])} calls/s")
print(f"WAIT: p50 {pct(waits, 0.5):.2f} ms, p99 {pct(waits, 0.99):.2f} ms, max {pct(waits, 1):.2f} ms; "
      f"{short} of {len(waits)} without the replica's acknowledgement in time")
EOF
