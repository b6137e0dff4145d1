#!/usr/bin/env bash
# Redis for local runs and tests.
#   scripts/redis.sh ensure   do nothing when Redis answers PONG on 127.0.0.1:$REDIS_PORT; otherwise start one
#                             (no persistence) and record it in .local/redis.started
#   scripts/redis.sh stop     stop Redis only if this script started it (per .local/redis.started)
#   scripts/redis.sh status
#   scripts/redis.sh sentinel-start    a master, a replica of it and three Sentinels watching them (master name
#                                      queuegate, quorum 2) on loopback, without persistence; returns once the
#                                      Sentinels know the replica and each other
#   scripts/redis.sh sentinel-stop     stop them, whichever still run, and remove their data
#   scripts/redis.sh sentinel-status   the master the Sentinels name, and SPRING_DATA_REDIS_SENTINEL_NODES for them
# Environment: REDIS_PORT (default 6379), QG_LOCAL_DIR (default .local: the server's dir, pid file and log go to
#              its redis/; a 'SHUTDOWN SAVE' there leaves the dump.rdb the next 'ensure' loads).
#              For the Sentinel group (each node's dir, config, pid file and log in redis-sentinel/PORT/):
#              REDIS_SENTINEL_MASTER_PORT (default 6385), REDIS_SENTINEL_REPLICA_PORT (6386), REDIS_SENTINEL_PORTS
#              ("26385 26386 26387"), REDIS_SENTINEL_MASTER (the master's name, queuegate),
#              REDIS_SENTINEL_DOWN_AFTER_MS (1000: how long the master may not answer before a failover starts).
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

SENTINEL_MASTER_PORT="${REDIS_SENTINEL_MASTER_PORT:-6385}"
SENTINEL_REPLICA_PORT="${REDIS_SENTINEL_REPLICA_PORT:-6386}"
read -r -a SENTINEL_PORTS <<<"${REDIS_SENTINEL_PORTS:-26385 26386 26387}"
SENTINEL_MASTER="${REDIS_SENTINEL_MASTER:-queuegate}"
SENTINEL_DIR="$LOCAL_DIR/redis-sentinel"

sentinel_nodes() { loopback_nodes "${SENTINEL_PORTS[@]}"; }

# start_node PORT [SETTING...]: a daemonized redis-server in SENTINEL_DIR/PORT/ from a config file of its own (a
# Sentinel writes its state to it, and rewrites a promoted replica's), each setting one line of it.
start_node() {
    local port="$1" dir="$SENTINEL_DIR/$1" setting
    shift
    mkdir -p "$dir"
    {
        printf '%s\n' "port $port" "bind 127.0.0.1" "daemonize yes" "dir $dir" "pidfile $dir/redis.pid" \
            "logfile $dir/redis.log" 'save ""' "appendonly no"
        for setting in "$@"; do printf '%s\n' "$setting"; done
    } >"$dir/redis.conf"
}

# sentinel_field PORT FIELD: a field of what the Sentinel on PORT knows of the master (SENTINEL MASTER)
sentinel_field() {
    redis-cli -p "$1" sentinel master "$SENTINEL_MASTER" 2>/dev/null | sed -n "/^$2\$/{n;p;q}"
}

cmd_sentinel_start() {
    command -v redis-server >/dev/null 2>&1 || die "redis-server not found (apt-get install -y redis-server)"
    local port i
    for port in "$SENTINEL_MASTER_PORT" "$SENTINEL_REPLICA_PORT" "${SENTINEL_PORTS[@]}"; do
        if port_open "$port"; then
            die "port $port is taken; stop it first (scripts/redis.sh sentinel-stop) or set the REDIS_SENTINEL_* ports"
        fi
    done
    rm -rf "$SENTINEL_DIR"
    start_node "$SENTINEL_MASTER_PORT"
    start_node "$SENTINEL_REPLICA_PORT" "replicaof 127.0.0.1 $SENTINEL_MASTER_PORT"
    for port in "$SENTINEL_MASTER_PORT" "$SENTINEL_REPLICA_PORT"; do
        redis-server "$SENTINEL_DIR/$port/redis.conf"
    done
    for ((i = 0; i < 100; i++)); do
        redis-cli -p "$SENTINEL_REPLICA_PORT" info replication 2>/dev/null | grep -q '^master_link_status:up' && break
        sleep 0.1
    done
    [ "$i" -lt 100 ] || die "the replica on :$SENTINEL_REPLICA_PORT did not sync with the master on :$SENTINEL_MASTER_PORT"
    # Quorum 2 of 3: two Sentinels must agree the master is down, and a majority elects the one that fails it over.
    # A short failover-timeout lets a failover that stalled be tried again soon.
    for port in "${SENTINEL_PORTS[@]}"; do
        start_node "$port" "sentinel monitor $SENTINEL_MASTER 127.0.0.1 $SENTINEL_MASTER_PORT 2" \
            "sentinel down-after-milliseconds $SENTINEL_MASTER ${REDIS_SENTINEL_DOWN_AFTER_MS:-1000}" \
            "sentinel failover-timeout $SENTINEL_MASTER 3000" "sentinel parallel-syncs $SENTINEL_MASTER 1"
        redis-server "$SENTINEL_DIR/$port/redis.conf" --sentinel
    done
    # A Sentinel that does not know the replica, or the other Sentinels, cannot promote it or win an election.
    for ((i = 0; i < 150; i++)); do
        local ready=0
        for port in "${SENTINEL_PORTS[@]}"; do
            [ "$(sentinel_field "$port" num-slaves)" = 1 ] \
                && [ "$(sentinel_field "$port" num-other-sentinels)" = "$((${#SENTINEL_PORTS[@]} - 1))" ] \
                && ready=$((ready + 1))
        done
        if [ "$ready" = "${#SENTINEL_PORTS[@]}" ]; then
            log "Redis master :$SENTINEL_MASTER_PORT, replica :$SENTINEL_REPLICA_PORT, Sentinels $(sentinel_nodes) (master name $SENTINEL_MASTER)"
            return 0
        fi
        sleep 0.2
    done
    die "the Sentinels did not find the replica and each other within 30 s (logs in $SENTINEL_DIR/*/redis.log)"
}

cmd_sentinel_stop() {
    local port pid
    # the Sentinels first, so that stopping the master starts no failover
    for port in "${SENTINEL_PORTS[@]}" "$SENTINEL_REPLICA_PORT" "$SENTINEL_MASTER_PORT"; do
        pid="$(tr -dc '0-9' <"$SENTINEL_DIR/$port/redis.pid" 2>/dev/null || true)"
        if [ -n "$pid" ]; then
            kill -CONT "$pid" 2>/dev/null || true
            stop_pid "$pid" redis-server "redis-server :$port" 10
        fi
    done
    rm -rf "$SENTINEL_DIR"
}

cmd_sentinel_status() {
    local port answered=0 master
    for port in "${SENTINEL_PORTS[@]}"; do
        master="$(redis-cli -p "$port" sentinel get-master-addr-by-name "$SENTINEL_MASTER" 2>/dev/null | paste -sd: -)"
        if [ -n "$master" ]; then
            echo "running: Sentinel 127.0.0.1:$port names master $SENTINEL_MASTER at $master"
            answered=1
        else
            echo "stopped: no Sentinel answers on 127.0.0.1:$port"
        fi
    done
    for port in "$SENTINEL_MASTER_PORT" "$SENTINEL_REPLICA_PORT"; do
        if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; then
            echo "running: Redis 127.0.0.1:$port, $(redis-cli -p "$port" info replication | tr -d '\r' | grep '^role:')"
        else
            echo "stopped: no PONG from 127.0.0.1:$port"
        fi
    done
    echo "SPRING_DATA_REDIS_SENTINEL_MASTER=$SENTINEL_MASTER SPRING_DATA_REDIS_SENTINEL_NODES=$(sentinel_nodes)"
    [ "$answered" = 1 ] || return 3
}

case "${1:-}" in
    ensure) cmd_ensure ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    sentinel-start) cmd_sentinel_start ;;
    sentinel-stop) cmd_sentinel_stop ;;
    sentinel-status) cmd_sentinel_status ;;
    *) echo "usage: $0 ensure|stop|status|sentinel-start|sentinel-stop|sentinel-status" >&2; exit 2 ;;
esac
