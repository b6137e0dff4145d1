#!/usr/bin/env bash
# Queuegate under faults, races and hostile input: builds the service jars and the fault checks' jar (fault-checks/)
# when they are missing, then runs faults/run.py (every scenario, or those named: faults/run.sh consumer-crash
# redis-down). Redis, the Kafka broker and the services are started by scripts/redis.sh, scripts/kafka.sh and
# scripts/service.sh, with their state in .local/faults/.
# Needs python3 with redis-py in the range faults/requirements.txt gives (Debian's python3-redis, or
# `python3 -m pip install -r faults/requirements.txt`), redis-server, and the Kafka broker jars scripts/kafka.sh
# resolves.
# Environment: FAULTS_PYTHON (the python3 to run with), FAULTS_SCALE (default 1), FAULTS_FORGERY_HTTP,
#              FAULTS_PORT_BASE, FAULTS_REDIS_PORT, FAULTS_KAFKA_PORT, FAULTS_KAFKA_CONTROLLER_PORT,
#              FAULTS_KAFKA_CLUSTER_PORT, FAULTS_SENTINEL_MASTER_PORT, FAULTS_SENTINEL_REPLICA_PORT,
#              FAULTS_SENTINEL_PORT; see faults/run.py.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$ROOT"

use_java25
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
# The python3 whose redis-py is in the range faults/requirements.txt gives (faults/versions.py): FAULTS_PYTHON if set,
# else the first python3 on PATH, else the system's (Debian's python3-redis is seen by /usr/bin/python3 only, not by
# one a version manager put first on PATH).
PYTHON=""
refused=()
candidates=(python3 /usr/bin/python3)
[ -n "${FAULTS_PYTHON:-}" ] && candidates=("$FAULTS_PYTHON")
for candidate in "${candidates[@]}"; do
    command -v "$candidate" >/dev/null 2>&1 || continue
    status=0
    said="$("$candidate" "$ROOT/faults/versions.py" 2>&1)" || status=$?
    if [ "$status" = 0 ]; then
        PYTHON="$candidate"
        break
    fi
    refused+=("$status $said")
done
for said in "${refused[@]}"; do
    # without a usable one, every reason; with one, only a version out of range is worth a word
    if [ -z "$PYTHON" ]; then echo "${said#* }" >&2; elif [ "${said%% *}" = 3 ]; then log "not with: ${said#* }"; fi
done
[ -n "$PYTHON" ] || die "no python3 with a redis-py the fault runner is tested with (faults/requirements.txt)"
command -v redis-server >/dev/null 2>&1 || die "redis-server is needed (apt-get install -y redis-server)"

# an unknown scenario is refused (exit 2, with the list) before anything is built
"$PYTHON" "$ROOT/faults/run.py" --check-names "$@"

missing=0
for jar in ingest-service admission-worker booking-service; do
    [ -f "$jar/target/$jar-$QG_VERSION-exec.jar" ] || missing=1
done
[ -f "fault-checks/target/queuegate-fault-checks-$QG_VERSION-exec.jar" ] || missing=1
# A missing jar is built (not for --help, which faults/run.py answers); fault-checks is tooling, in the build only
# with the profile `tooling` (pom.xml).
if [ "$missing" = 1 ] && [ "${1:-}" != -h ] && [ "${1:-}" != --help ]; then
    log "building the service jars and the fault checks (mvn -q -B -Ptooling -DskipTests package -pl ...,fault-checks -am)"
    "$(maven_cmd)" -q -B -Ptooling -DskipTests package -pl ingest-service,admission-worker,booking-service,fault-checks -am
fi

exec "$PYTHON" "$ROOT/faults/run.py" "$@"
