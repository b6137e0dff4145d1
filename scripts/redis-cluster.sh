#!/usr/bin/env bash
# A three-master Redis Cluster on loopback, for running the tests against a cluster (no replicas: the point is
# slots, hash tags and scripts, not failover).
#   scripts/redis-cluster.sh start    start the three nodes, create the cluster, wait until every slot is served
#   scripts/redis-cluster.sh stop     stop them and remove their data
#   scripts/redis-cluster.sh nodes    print the value for SPRING_DATA_REDIS_CLUSTER_NODES
# Environment: REDIS_CLUSTER_PORTS (default "7001 7002 7003").
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"

read -r -a PORTS <<<"${REDIS_CLUSTER_PORTS:-7001 7002 7003}"
DIR="$LOCAL_DIR/redis-cluster"

nodes() { loopback_nodes "${PORTS[@]}"; echo; }

cmd_start() {
    command -v redis-server >/dev/null 2>&1 || die "redis-server not found (apt-get install -y redis-server)"
    local port
    for port in "${PORTS[@]}"; do
        if port_open "$port"; then
            die "port $port is taken; stop it first (scripts/redis-cluster.sh stop) or set REDIS_CLUSTER_PORTS"
        fi
    done
    rm -rf "$DIR"
    for port in "${PORTS[@]}"; do
        mkdir -p "$DIR/$port"
        redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --cluster-enabled yes \
            --cluster-config-file "$DIR/$port/nodes.conf" --cluster-node-timeout 5000 --save "" --appendonly no \
            --dir "$DIR/$port" --pidfile "$DIR/$port/redis.pid" --logfile "$DIR/$port/redis.log"
    done
    for port in "${PORTS[@]}"; do
        for _ in $(seq 1 50); do
            [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && break
            sleep 0.1
        done
    done
    # shellcheck disable=SC2046 # one argument per node
    redis-cli --cluster create $(nodes | tr ',' ' ') --cluster-replicas 0 --cluster-yes >"$DIR/create.log" 2>&1 \
        || { cat "$DIR/create.log" >&2; die "redis-cli --cluster create failed"; }
    for _ in $(seq 1 100); do
        if redis-cli -p "${PORTS[0]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'; then
            log "Redis Cluster of ${#PORTS[@]} masters is up: $(nodes)"
            return 0
        fi
        sleep 0.2
    done
    die "the cluster did not reach cluster_state:ok"
}

cmd_stop() {
    local port pid
    for port in "${PORTS[@]}"; do
        pid="$(cat "$DIR/$port/redis.pid" 2>/dev/null || true)"
        if [ -n "$pid" ] && pid_matches "$pid" redis-server; then
            redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$DIR"
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    nodes) nodes ;;
    *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
