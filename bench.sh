#!/usr/bin/env bash
# Queuegate burst benchmark: builds, starts the local stack (or reuses a running one), runs the scenarios with a
# progress bar, and writes docs/BENCHMARKS.md plus bench/results/benchmarks.json and benchmarks.png.
#
#   ./bench.sh                       full run, about 10 minutes; rewrites the figures in docs/BENCHMARKS.md
#   ./bench.sh --quick               smoke run, about 2 minutes after start-up; writes bench/results/tmp/quick.*
#   ./bench.sh --only=ingest,status  some scenarios: admission, drain, status, ingest, booking, e2e, streams
#                                    (partial runs write to bench/results/tmp/, never the report)
#   ./bench.sh --only=yardsticks     no stack: start the two yardstick apps, drive each briefly, stop them
#   ./bench.sh --only=cold           a burst right after a cold start, beside the yardsticks started cold
#                                    (bench/cold-start.sh, about 15 minutes; its options: --runs=N --windows=N
#                                    --yardstick-windows=N --window=S --no-yardsticks; the stack must be stopped)
#   ./bench.sh --only=door           what the limits per client and proof of work cost an enter (bench/door.sh,
#                                    about 8 minutes; --rounds=N --window=S --max-number=N; the stack must be stopped)
# The rate figures (status, ingest) start two yardstick apps of module yardsticks/ for their duration, with the
# services' JVM options: a plain no-op Spring Boot app on :8090 and the seed's synchronous Redis design on :8091.
# Options of this script:
#   --no-build       use the jars already built
#   --restart        restart a running stack with the benchmark's settings (the no-op endpoint must be on)
#   --keep-running   leave the stack running when this script started it
#   --wait-quiet[=S] before measuring, wait up to S seconds (default 600) until the machine is nearly idle
#   --renice=N       on a machine shared with other work: run the stack (services, Kafka, Redis) and the load
#                    generator at nice N (e.g. -10, needs root) so that other work gets the CPU only when they wait;
#                    the report says so
# Options of the load generator (also as BENCH_<NAME> environment variables):
#   --driver=auto|wrk|java  --warmup=S --duration=S --rounds=N --connections=N --wrk-threads=N --label=NAME
#   --drain-events=N --admission-batch=N --booking-stock=N --e2e-users=N --e2e-window=S
#   --e2e-admit-per-second=N --e2e-stock=N --e2e-max-active=N --e2e-timeout=S
#   --streams=N --streams-admit-per-second=N --streams-admit-seconds=S
#   --from-json=FILE        measure nothing: rewrite the chart and the report from a saved run's JSON
# Environment: BENCH_SERVICE_ENV="NAME=value ..." extra settings for the services when this script starts them
#   (e.g. SPRING_KAFKA_PRODUCER_PROPERTIES_LINGER_MS=0); QG_JAVA_OPTS extra JVM options for the services (and
#   so for the yardstick apps); BENCH_JAVA_OPTS JVM options of the load generator; ADMIN_TOKEN, QUEUE_TOKEN_SECRET
#   as for ./run.sh.
# The load generator shares the machine's cores with the services, Kafka and Redis; the report says how much it took.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"
cd "$ROOT"

VERSION="0.1.0-SNAPSHOT"
BENCH_JAR="$ROOT/bench/target/queuegate-bench-$VERSION-exec.jar"
PORTS=(8080 8081 8082)
YARDSTICK_MODULES="yardsticks/plain-noop,yardsticks/seed-design"

usage() { sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'; }

BUILD=1
RESTART=0
KEEP=0
QUIET=0
RENICE=""
DRIVER="${BENCH_DRIVER:-auto}"
PASS=()
FROM_JSON=0
ONLY_YARDSTICKS=0
ONLY_COLD=0
ONLY_DOOR=0
for arg in "$@"; do
    case "$arg" in
        --no-build) BUILD=0 ;;
        --restart) RESTART=1 ;;
        --keep-running) KEEP=1 ;;
        --wait-quiet) QUIET=600 ;;
        --wait-quiet=*) QUIET="${arg#--wait-quiet=}" ;;
        --renice=*) RENICE="${arg#--renice=}"; PASS+=("$arg") ;;
        -h | --help) usage; exit 0 ;;
        --driver=*) DRIVER="${arg#--driver=}"; PASS+=("$arg") ;;
        --from-json=*) FROM_JSON=1; PASS+=("$arg") ;;
        --only=yardsticks) ONLY_YARDSTICKS=1; PASS+=("$arg") ;;
        --only=cold) ONLY_COLD=1 ;;
        --only=door) ONLY_DOOR=1 ;;
        --only=*)
            # refused here, before a stack is started for nothing (the bench refuses them too)
            IFS=',' read -ra names <<< "${arg#--only=}"
            for name in "${names[@]}"; do
                case "$name" in
                    admission | drain | status | ingest | booking | e2e | streams) ;;
                    *) usage >&2; echo "[queuegate] ERROR: unknown scenario: $name" >&2; exit 2 ;;
                esac
            done
            PASS+=("$arg") ;;
        --*) PASS+=("$arg") ;;
        *) usage >&2; echo "[queuegate] ERROR: unknown argument: $arg" >&2; exit 2 ;;
    esac
done

use_maven

if [ "$ONLY_COLD" = 1 ]; then
    [ "$BUILD" = 1 ] || PASS+=(--no-build)
    exec "$ROOT/bench/cold-start.sh" "${PASS[@]}"
fi

if [ "$ONLY_DOOR" = 1 ]; then
    [ "$BUILD" = 1 ] || PASS+=(--no-build)
    exec "$ROOT/bench/door.sh" "${PASS[@]}"
fi

if [ "$FROM_JSON" = 1 ]; then
    if [ "$BUILD" = 1 ]; then
        "$(maven_cmd)" -q -B -Ptooling -DskipTests -pl bench -am package
    fi
    exec java -Djava.awt.headless=true -Dbench.root="$ROOT" -jar "$BENCH_JAR" "${PASS[@]}"
fi

# wrk drives the rate figures when it is there: a C event loop takes the least of the shared cores.
if [ "$DRIVER" != java ] && ! command -v wrk >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        log "installing wrk (apt-get install -y wrk) for the rate figures"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends wrk >/dev/null 2>&1; } \
            || warn "could not install wrk; the rate figures use the bench module's Java client instead"
    else
        warn "wrk is not installed; the rate figures use the bench module's Java client instead"
    fi
fi

# Stops the yardstick apps a run started and could not stop (its JVM was killed): the generator writes their pids
# under .local/pids/, and stop_pid checks each pid's command line before it signals anything.
stop_yardsticks() {
    local file
    for file in "$LOCAL_DIR"/pids/yardstick-*.pid; do
        [ -f "$file" ] || continue
        stop_pid "$(tr -dc '0-9' <"$file")" "queuegate-yardstick-" "$(basename "$file" .pid)" 20
        rm -f "$file"
    done
}

# The load generator; it starts and stops the yardstick apps itself. NICE is set by --renice below.
NICE=()
run_generator() {
    # shellcheck disable=SC2086 # BENCH_JAVA_OPTS holds several options
    "${NICE[@]}" java --sun-misc-unsafe-memory-access=allow -Xms1g -Xmx2g -Djava.awt.headless=true ${BENCH_JAVA_OPTS:-} \
        -Dbench.root="$ROOT" -jar "$BENCH_JAR" "${PASS[@]}" --service-jvm-options="$(service_jvm_options)" \
        --command="./bench.sh${*:+ $*}"
}

if [ "$ONLY_YARDSTICKS" = 1 ]; then
    if [ "$BUILD" = 1 ]; then
        log "building the benchmark and the yardstick apps (mvn -q -B -Ptooling -DskipTests -pl bench,$YARDSTICK_MODULES -am package)"
        "$(maven_cmd)" -q -B -Ptooling -DskipTests -pl "bench,$YARDSTICK_MODULES" -am package
    fi
    [ -f "$BENCH_JAR" ] || die "$BENCH_JAR not found; build first (./bench.sh without --no-build)"
    stop_yardsticks
    trap stop_yardsticks EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    run_generator "$@"
    exit 0
fi

command -v redis-benchmark >/dev/null 2>&1 || warn "redis-benchmark is not installed; the burst drain has no yardstick (apt-get install -y redis-tools)"

open_count=0
for port in "${PORTS[@]}"; do
    if port_open "$port"; then open_count=$((open_count + 1)); fi
done

noop_on() {
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -X POST http://127.0.0.1:8080/bench/noop/1/entries \
        -H 'Content-Type: application/json' -d '{}' 2>/dev/null || true)" = 202 ]
}

START=0
if [ "$open_count" -eq 3 ] && [ "$RESTART" = 1 ]; then
    log "restarting the running stack with the benchmark's settings (--restart)"
    "$ROOT/run.sh" stop
    START=1
elif [ "$open_count" -eq 3 ]; then
    # only the rate figures (status, ingest; a full run has them) are set against the in-app no-op
    needs_noop=1
    for arg in "${PASS[@]}"; do
        case "$arg" in --only=*) [[ ",${arg#--only=}," == *,status,* || ",${arg#--only=}," == *,ingest,* ]] \
            || needs_noop=0 ;; esac
    done
    [ "$needs_noop" = 0 ] || noop_on || die "the running stack has the no-op yardstick endpoint off; rerun with --restart (restarts it with QUEUEGATE_INGEST_NOOP_ENDPOINT=true) or stop it first (./run.sh stop)"
    log "reusing the running stack"
elif [ "$open_count" -eq 0 ]; then
    START=1
else
    die "only some of the ports 8080-8082 answer; stop the half-running stack first (./run.sh stop)"
fi

if [ "$BUILD" = 1 ]; then
    if [ "$START" = 1 ]; then
        log "building the services, the benchmark and the yardstick apps (mvn -q -B -Ptooling -DskipTests package)"
        "$(maven_cmd)" -q -B -Ptooling -DskipTests package
    else
        log "building the benchmark and the yardstick apps (mvn -q -B -Ptooling -DskipTests -pl bench,$YARDSTICK_MODULES -am package)"
        "$(maven_cmd)" -q -B -Ptooling -DskipTests -pl "bench,$YARDSTICK_MODULES" -am package
    fi
fi
[ -f "$BENCH_JAR" ] || die "$BENCH_JAR not found; build first (./bench.sh without --no-build)"

STARTED=0
stop_yardsticks
cleanup() {
    local rc=$?
    stop_yardsticks
    if [ "$STARTED" = 1 ] && [ "$KEEP" = 0 ]; then
        log "stopping the stack this run started"
        "$ROOT/run.sh" stop || true
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$START" = 1 ]; then
    export QUEUEGATE_INGEST_NOOP_ENDPOINT=true
    # the load comes from one address, 127.0.0.1; the limits per client are measured on their own (bench/door.sh)
    export QUEUEGATE_INGEST_PER_CLIENT_ENABLED="${QUEUEGATE_INGEST_PER_CLIENT_ENABLED:-false}"
    if [ -n "${BENCH_SERVICE_ENV:-}" ]; then
        read -r -a pairs <<<"$BENCH_SERVICE_ENV"
        for pair in "${pairs[@]}"; do
            case "$pair" in
                *=*) export "${pair?}" ;;
                *) die "BENCH_SERVICE_ENV holds '$pair', expected NAME=value" ;;
            esac
        done
        log "service settings for this run: $BENCH_SERVICE_ENV"
    fi
    STARTED=1
    log "starting the stack (./run.sh --detach --no-build --no-demo)"
    "$ROOT/run.sh" --detach --no-build --no-demo >/dev/null
    noop_on || die "the no-op endpoint does not answer 202 after start-up"
fi

# Busy share of all cores over two seconds, in percent, from /proc/stat.
busy_percent() {
    local a b
    read -r -a a < <(head -n 1 /proc/stat)
    sleep 2
    read -r -a b < <(head -n 1 /proc/stat)
    local busy=$(((b[1] + b[2] + b[3] + b[6] + b[7] + b[8]) - (a[1] + a[2] + a[3] + a[6] + a[7] + a[8])))
    local idle=$(((b[4] + b[5]) - (a[4] + a[5])))
    echo $((100 * busy / (busy + idle + 1)))
}

if [ "$QUIET" -gt 0 ]; then
    deadline=$((SECONDS + QUIET))
    while :; do
        busy="$(busy_percent)"
        [ "$busy" -le 15 ] && { log "machine is quiet (${busy}% busy)"; break; }
        if ((SECONDS >= deadline)); then
            warn "the machine is still ${busy}% busy after ${QUIET}s; measuring anyway (the report shows the background load)"
            break
        fi
        log "waiting for a quiet machine: ${busy}% of the CPU is busy with other work"
        sleep 8
    done
fi

if [ -n "$RENICE" ]; then
    pids=()
    for f in "$LOCAL_DIR"/pids/*.pid "$LOCAL_DIR/kafka/kafka.pid"; do
        [ -f "$f" ] && pids+=("$(tr -dc '0-9' <"$f" 2>/dev/null)")
    done
    redis_pid="$(redis-cli -h 127.0.0.1 -p "${REDIS_PORT:-6379}" info server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p')"
    [ -n "$redis_pid" ] && pids+=("$redis_pid")
    for pid in "${pids[@]}"; do
        # every thread of the process: renice on a pid changes only its main thread
        for task in /proc/"$pid"/task/*; do
            renice -n "$RENICE" -p "${task##*/}" >/dev/null 2>&1 || true
        done
    done
    log "stack processes ${pids[*]} reniced to $RENICE"
    NICE=(nice -n "$RENICE")
fi

run_generator "$@"
