#!/usr/bin/env bash
# Redis for local runs and tests.
#   scripts/redis.sh ensure   do nothing when Redis answers PONG on 127.0.0.1:$REDIS_PORT; otherwise start one
#                             (no persistence) and record it in .local/redis.started
#   scripts/redis.sh stop     stop Redis only if this script started it (per .local/redis.started)
#   scripts/redis.sh status
# Environment: REDIS_PORT (default 6379), QG_LOCAL_DIR (default .local: the server's dir, pid file and log go to
#              its redis/; a 'SHUTDOWN SAVE' there leaves the dump.rdb the next 'ensure' loads).
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"

REDIS_PORT="${REDIS_PORT:-6379}"
MARKER="$LOCAL_DIR/redis.started"
REDIS_DIR="$LOCAL_DIR/redis"

pong() { [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]; }

cmd_ensure() {
    command -v redis-cli >/dev/null 2>&1 || die "redis-cli not found (apt-get install -y redis-server)"
    if pong; then
        return 0
    fi
    command -v redis-server >/dev/null 2>&1 || die "redis-server not found (apt-get install -y redis-server)"
    mkdir -p "$REDIS_DIR"
    log "starting redis-server on 127.0.0.1:$REDIS_PORT (no persistence)"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
        --dir "$REDIS_DIR" --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log"
    local i j
    for ((i = 0; i < 100; i++)); do
        if pong; then
            # the pid file appears right after daemonizing; keep the pid so 'stop' touches only this server
            for ((j = 0; j < 20; j++)); do
                [ -s "$REDIS_DIR/redis.pid" ] && break
                sleep 0.1
            done
            tr -dc '0-9' <"$REDIS_DIR/redis.pid" >"$MARKER" 2>/dev/null || : >"$MARKER"
            return 0
        fi
        sleep 0.1
    done
    tail -n 20 "$REDIS_DIR/redis.log" >&2 2>/dev/null || true
    die "redis-server did not answer PING on 127.0.0.1:$REDIS_PORT"
}

cmd_stop() {
    if [ ! -f "$MARKER" ]; then
        return 0
    fi
    local pid
    pid="$(tr -dc '0-9' <"$MARKER")"
    if [ -n "$pid" ]; then
        stop_pid "$pid" "redis-server" "redis-server" 10
    fi
    rm -f "$MARKER"
}

cmd_status() {
    if pong; then
        if [ -f "$MARKER" ]; then
            echo "running: Redis on 127.0.0.1:$REDIS_PORT (started by scripts/redis.sh)"
        else
            echo "running: Redis on 127.0.0.1:$REDIS_PORT"
        fi
        return 0
    fi
    echo "stopped: no PONG from 127.0.0.1:$REDIS_PORT"
    return 3
}

case "${1:-}" in
    ensure) cmd_ensure ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    *) echo "usage: $0 ensure|stop|status" >&2; exit 2 ;;
esac
