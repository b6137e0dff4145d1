#!/usr/bin/env bash
# What answering a request costs on four HTTP stacks of the JVM, on this machine (docs/BENCHMARKS.md, "The HTTP
# stack"). Four no-op apps of module yardsticks/ give the same constant answers to Queuegate's enter and status paths:
#
#   plain-noop    Spring Boot, Spring MVC, Tomcat, virtual threads (the yardstick of the rate figures)
#   servlet-noop  the same Spring Boot and Tomcat with one servlet instead of Spring MVC
#   webflux-noop  the plain no-op's controller on Spring WebFlux and Reactor Netty
#   netty-noop    Reactor Netty's HTTP server alone, no Spring
#
# Each gets the services' JVM options; wrk -t2 -c64 warms each, then drives them in alternating rounds (POST, then
# GET), and the table gives each app's median rate and CPU per request (utime + stime from /proc over a round) and
# their ratios to the plain no-op. Builds the four apps first; needs wrk; no stack, no Redis.
#
#   bench/http-stacks.sh [--no-build] [--rounds=N] [--duration=S] [--warmup=S]
set -euo pipefail
# shellcheck source=../scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
take_options "rounds=3 duration=10 warmup=15 no-build" "$@"
cd "$ROOT"
use_maven

require_commands wrk

APPS=(plain-noop servlet-noop webflux-noop netty-noop)
declare -A PORT=([plain-noop]=8090 [servlet-noop]=8092 [webflux-noop]=8093 [netty-noop]=8094)
declare -A PID
if [ "$BUILD" = 1 ]; then
    modules=$(printf 'yardsticks/%s,' "${APPS[@]}")
    log "building the four apps (mvn -q -B -Ptooling -DskipTests -pl ${modules%,} -am package)"
    "$(maven_cmd)" -q -B -Ptooling -DskipTests -pl "${modules%,}" -am package
fi
work=$(mktemp -d)
stop_all() {
    for app in "${APPS[@]}"; do
        [ -n "${PID[$app]:-}" ] && kill "${PID[$app]}" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap stop_all EXIT

read -r -a jvm <<<"$(service_jvm_options)"
for app in "${APPS[@]}"; do
    jar=$(ls yardsticks/"$app"/target/queuegate-yardstick-"$app"-*-exec.jar 2>/dev/null | head -n 1)
    [ -n "$jar" ] || die "yardsticks/$app is not built (run without --no-build)"
    port_open "${PORT[$app]}" && die "port ${PORT[$app]} is in use"
    java "${jvm[@]}" -jar "$jar" --server.port="${PORT[$app]}" >"$work/$app.log" 2>&1 &
    PID[$app]=$!
done
for app in "${APPS[@]}"; do
    for _ in $(seq 1 120); do port_open "${PORT[$app]}" && break; sleep 0.5; done
    port_open "${PORT[$app]}" || { cat "$work/$app.log" >&2; die "$app did not start"; }
done

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"userId":"u-1"}'
wrk.headers["Content-Type"] = "application/json"
LUA
drive() { # kind app seconds -> "requests cpu_ticks"
    local kind=$1 app=$2 seconds=$3 url="http://127.0.0.1:${PORT[$2]}/api/v1/queues/1/entries" before after out
    before=$(awk '{print $14 + $15}' "/proc/${PID[$app]}/stat")
    if [ "$kind" = POST ]; then
        out=$(wrk -t2 -c64 -d"${seconds}s" -s "$work/post.lua" "$url")
    else
        out=$(wrk -t2 -c64 -d"${seconds}s" "$url/t")
    fi
    after=$(awk '{print $14 + $15}' "/proc/${PID[$app]}/stat")
    echo "$(echo "$out" | awk '/requests in/ {print $1}') $((after - before))"
}

median() { # numbers separated by spaces on stdin -> their median
    tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

ticks=$(getconf CLK_TCK)
log "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); ${WARMUP}s warm-up, ${ROUNDS} x ${DURATION}s rounds"
printf '| Stack | Request | Requests/s (median) | ÷ plain no-op | CPU µs per request (median) | ÷ plain no-op |\n'
printf '|---|---|---|---|---|---|\n'
for kind in POST GET; do
    for app in "${APPS[@]}"; do drive "$kind" "$app" "$WARMUP" >/dev/null; done
    declare -A RATES=() CPUS=()
    for _ in $(seq 1 "$ROUNDS"); do
        for app in "${APPS[@]}"; do
            read -r requests cpu < <(drive "$kind" "$app" "$DURATION")
            RATES[$app]+="$(echo "$requests / $DURATION" | bc -l) "
            CPUS[$app]+="$(echo "$cpu * 1000000 / $ticks / $requests" | bc -l) "
        done
    done
    base_rate=$(echo "${RATES[plain-noop]}" | median)
    base_cpu=$(echo "${CPUS[plain-noop]}" | median)
    for app in "${APPS[@]}"; do
        rate=$(echo "${RATES[$app]}" | median)
        cpu=$(echo "${CPUS[$app]}" | median)
        printf '| %s | %s | %.0f | %.2f | %.1f | %.2f |\n' "$app" "$kind" "$rate" "$(echo "$rate / $base_rate" | bc -l)" \
            "$cpu" "$(echo "$cpu / $base_cpu" | bc -l)"
    done
done
