#!/usr/bin/env bash
# Starts and stops the demo edge: nginx (with the demo origin) and HAProxy in front of Queuegate.
#
#   ops/edge/edge.sh nginx-start DIR     nginx on 127.0.0.1:$PORT (8070) protecting the demo origin (a static
#                                        directory, ops/edge/origin, served by the same nginx on $ORIGIN_PORT, 8071)
#   ops/edge/edge.sh nginx-stop DIR
#   ops/edge/edge.sh haproxy-start DIR   HAProxy on 127.0.0.1:$PORT (8072) protecting the origin at $ORIGIN_PORT (the
#                                        one nginx-start serves), verifying admissions offline with the keys of $JWKS
#   ops/edge/edge.sh haproxy-stop DIR
#
# DIR holds the generated configuration, the pid file and the logs. Environment: QUEUEGATE (ingest-service's
# host:port, 127.0.0.1:8080), WAITING_ROOM (the waiting page's origin as browsers reach it, http://$QUEUEGATE),
# PRODUCT (1), ORIGIN_PORT (8071), PORT, FAIL (HAProxy's choice while Queuegate does not answer: closed or open;
# nginx has both, / fail-closed and /open/ fail-open), JWKS ($WAITING_ROOM/.well-known/jwks.json).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
QUEUEGATE="${QUEUEGATE:-127.0.0.1:8080}"
WAITING_ROOM="${WAITING_ROOM:-http://$QUEUEGATE}"
PRODUCT="${PRODUCT:-1}"
ORIGIN_PORT="${ORIGIN_PORT:-8071}"
FAIL="${FAIL:-closed}"
JWKS="${JWKS:-$WAITING_ROOM/.well-known/jwks.json}"

usage() { sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

case "${1:-}" in -h | --help) usage; exit 0 ;; esac

# Copies a template with its @NAME@ filled in.
fill() {
    sed -e "s|@DIR@|$DIR|g" -e "s|@PORT@|$PORT|g" -e "s|@ORIGIN_PORT@|$ORIGIN_PORT|g" \
        -e "s|@ORIGIN_ROOT@|$HERE/origin|g" -e "s|@PRODUCT@|$PRODUCT|g" -e "s|@QUEUEGATE@|$QUEUEGATE|g" \
        -e "s|@WAITING_ROOM@|$WAITING_ROOM|g" -e "s|@FAIL@|$FAIL|g" "$1" >"$2"
}

[ $# -eq 2 ] || { usage >&2; exit 2; }
DIR="$(mkdir -p "$2" && cd "$2" && pwd)"
case "$1" in
    nginx-start)
        PORT="${PORT:-8070}"
        mkdir -p "$DIR/tmp"
        sed -e "s|server 127.0.0.1:8080;|server $QUEUEGATE;|" "$HERE/nginx/queuegate-http.conf" >"$DIR/queuegate-http.conf"
        cp "$HERE/nginx/queuegate-server.conf" "$HERE/nginx/queuegate-protect.conf" "$DIR/"
        fill "$HERE/nginx/demo.conf.template" "$DIR/nginx.conf"
        nginx -p "$DIR" -c "$DIR/nginx.conf" -t -q
        nginx -p "$DIR" -c "$DIR/nginx.conf"
        echo "nginx: http://127.0.0.1:$PORT/ protects the demo origin with product $PRODUCT (Queuegate at $QUEUEGATE)"
        ;;
    nginx-stop)
        if [ -f "$DIR/nginx.pid" ]; then
            nginx -p "$DIR" -c "$DIR/nginx.conf" -s quit || true
            for _ in $(seq 50); do [ -f "$DIR/nginx.pid" ] || break; sleep 0.1; done
        fi
        ;;
    haproxy-start)
        PORT="${PORT:-8072}"
        python3 "$HERE/haproxy/jwks-to-pem.py" "$JWKS" "$DIR" >/dev/null
        fill "$HERE/haproxy/queuegate.cfg.template" "$DIR/haproxy.cfg"
        haproxy -c -q -f "$DIR/haproxy.cfg"
        # in the foreground of a background job, so that its log (stderr: one line per request, "fail-open" in those
        # let through while Queuegate does not answer) goes to haproxy.log; daemonized, it would have no stderr
        nohup haproxy -f "$DIR/haproxy.cfg" >>"$DIR/haproxy.log" 2>&1 &
        echo "$!" >"$DIR/haproxy.pid"
        echo "haproxy: http://127.0.0.1:$PORT/ protects the origin at :$ORIGIN_PORT with product $PRODUCT ($FAIL while Queuegate does not answer)"
        ;;
    haproxy-stop)
        if [ -f "$DIR/haproxy.pid" ]; then
            pid="$(tr -dc '0-9' <"$DIR/haproxy.pid")"
            [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
            rm -f "$DIR/haproxy.pid"
        fi
        ;;
    *) usage >&2; exit 2 ;;
esac
