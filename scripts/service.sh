#!/usr/bin/env bash
# One Queuegate service in the foreground (the script becomes the JVM: its pid is the service's pid).
#   scripts/service.sh MODULE [--train]    MODULE is ingest-service, admission-worker or booking-service; --train
#                                          writes the service's AOT cache when it stops (scripts/lib.sh, aot_paths)
# run.sh starts each service with it, and the fault runner (faults/stack.py) every service it starts and kills.
# Environment: SERVER_PORT, MANAGEMENT_SERVER_PORT (both required), ADMIN_TOKEN (required), KAFKA_PORT (default
#              9092: the one broker on 127.0.0.1), KAFKA_BOOTSTRAP_SERVERS (a cluster's brokers instead, host:port
#              comma-separated, e.g. those of scripts/kafka.sh cluster-start), KAFKA_SASL_USERNAME and
#              KAFKA_SASL_PASSWORD (both set: the service signs in to Kafka as that user with SCRAM-SHA-512, e.g. its
#              own user on the broker of KAFKA_SECURITY=scram scripts/kafka.sh start), REDIS_PORT (default 6379),
#              SPRING_DATA_REDIS_SENTINEL_MASTER and SPRING_DATA_REDIS_SENTINEL_NODES (both set: the service follows
#              the master those Sentinels name, and REDIS_PORT is not used), QUEUE_TOKEN_SECRET (unset: the caller
#              chooses a profile with a secret, e.g. SPRING_PROFILES_ACTIVE=dev), SERVICE_JAR (default
#              MODULE/target/MODULE-VERSION-exec.jar), QG_JAVA_OPTS (extra JVM options). Every other variable, e.g.
#              a queuegate.* setting such as QUEUEGATE_ADMISSION_TICK_INTERVAL, reaches the service as it is.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"

module="${1:-}"
train=0
case "${2:-}" in
    "") ;;
    --train) train=1 ;;
    *) refuse_argument "unknown option: $2" ;;
esac
case "$module" in
    ingest-service | admission-worker | booking-service) ;;
    *) echo "usage: $0 ingest-service|admission-worker|booking-service" >&2; exit 2 ;;
esac
: "${SERVER_PORT:?SERVER_PORT is required}" "${MANAGEMENT_SERVER_PORT:?MANAGEMENT_SERVER_PORT is required}"
: "${ADMIN_TOKEN:?ADMIN_TOKEN is required}"
jar="${SERVICE_JAR:-$ROOT/$module/target/$module-$QG_VERSION-exec.jar}"
[ -f "$jar" ] || die "$jar not found; build first"
use_java25

# A cluster is given as a list of its brokers: the clients find the cluster through any of them that answers, so a
# service starts while one broker is down.
export SPRING_KAFKA_BOOTSTRAP_SERVERS="${KAFKA_BOOTSTRAP_SERVERS:-127.0.0.1:${KAFKA_PORT:-9092}}"
# Signed in to Kafka: Spring Boot gives spring.kafka.properties.* to every Kafka client of the service (producers,
# consumers, the admin that creates the topics, the warm-up's and the health check's), so these three are all it takes.
if [ -n "${KAFKA_SASL_USERNAME:-}" ]; then
    : "${KAFKA_SASL_PASSWORD:?KAFKA_SASL_PASSWORD is required with KAFKA_SASL_USERNAME}"
    export SPRING_KAFKA_PROPERTIES_SECURITY_PROTOCOL=SASL_PLAINTEXT SPRING_KAFKA_PROPERTIES_SASL_MECHANISM=SCRAM-SHA-512
    export SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$KAFKA_SASL_USERNAME\" password=\"$KAFKA_SASL_PASSWORD\";"
    unset KAFKA_SASL_PASSWORD
fi
# With Sentinels given, Spring Boot connects through them and ignores the host and port below.
export SPRING_DATA_REDIS_HOST=127.0.0.1
export SPRING_DATA_REDIS_PORT="${REDIS_PORT:-6379}"
# Both the names the README documents (ADMIN_TOKEN, QUEUE_TOKEN_SECRET) and Spring's relaxed-binding names of the
# same properties are passed, so either way of mapping them in application.yml works.
export ADMIN_TOKEN QUEUEGATE_ADMIN_TOKEN="$ADMIN_TOKEN"
if [ -n "${QUEUE_TOKEN_SECRET:-}" ]; then
    export QUEUE_TOKEN_SECRET QUEUEGATE_TOKEN_SECRET="$QUEUE_TOKEN_SECRET"
fi
# With the AOT cache of this build (scripts/lib.sh, aot_paths), from the jar extracted beside it; --train runs the
# training run that writes it when the JVM exits (run.sh trains once per build); only with QG_AOT_CACHE=on.
launch=(-jar "$jar")
if [ "${QG_AOT_CACHE:-off}" = on ]; then
    aot_paths "$module" "$jar"
    if [ "$train" = 1 ]; then
        if [ ! -f "$AOT_APP" ]; then
            rm -rf "$LOCAL_DIR/aot/$module"
            java -Djarmode=tools -jar "$jar" extract --destination "$(dirname "$AOT_APP")" >/dev/null
        fi
        rm -f "$AOT_CACHE"
        launch=(-XX:AOTCacheOutput="$AOT_CACHE" -jar "$AOT_APP")
    elif [ -s "$AOT_CACHE" ]; then
        launch=(-XX:AOTCache="$AOT_CACHE" -jar "$AOT_APP")
    fi
fi
# shellcheck disable=SC2046 # service_jvm_options (scripts/lib.sh) prints several options
exec java $(service_jvm_options "$module") "${launch[@]}"
