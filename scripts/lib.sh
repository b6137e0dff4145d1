# shellcheck shell=bash
# Shared helpers for run.sh, test.sh, .ci/run and scripts/*.sh. Source it; it sets ROOT and JAVA_HOME.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Where the scripts keep their state (pid files, logs, Redis and Kafka data): .local/, or QG_LOCAL_DIR for a stack of
# its own beside it (the fault runner's, in .local/faults/).
# shellcheck disable=SC2034 # used by the scripts that source this file
LOCAL_DIR="${QG_LOCAL_DIR:-$ROOT/.local}"
# shellcheck disable=SC2034
QG_VERSION="0.1.0-SNAPSHOT"
# Where scripts/kafka.sh resolves the broker's jars, shared by every stack (downloaded once); Kafka's own tools come
# from the same jars.
KAFKA_LIBS="$ROOT/.local/kafka/libs"
# Where Kafka keeps its topics: apart from the state directory, because a topic's segment files are named *.log and
# hold every event (tokens among them), and whatever collects or scans the logs there (a log shipper, a check for
# secrets) must find logs only. .storage/local/ for .local/, .storage/faults/ for the fault runner's .local/faults/.
# shellcheck disable=SC2034
STORAGE_DIR="${QG_STORAGE_DIR:-$ROOT/.storage/$(basename "$LOCAL_DIR" | sed 's/^\.//')}"

# The Kafka users of a broker with SCRAM and ACLs (scripts/kafka.sh, KAFKA_SECURITY=scram): one per service, each
# allowed what kafka/acls.txt grants it, and an admin for the tooling. Their passwords are made once and kept here.
# shellcheck disable=SC2034
KAFKA_USERS_DIR="$LOCAL_DIR/kafka-users"
# shellcheck disable=SC2034
KAFKA_ADMIN_USER=queuegate-admin
# shellcheck disable=SC2034
KAFKA_SERVICE_USERS=(queuegate-ingest queuegate-admission queuegate-booking)

# The Kafka user of a service module.
kafka_user_of() {
    case "$1" in
        ingest-service) printf 'queuegate-ingest' ;;
        admission-worker) printf 'queuegate-admission' ;;
        booking-service) printf 'queuegate-booking' ;;
        *) die "kafka_user_of: no Kafka user for $1" ;;
    esac
}

# A Kafka user's password: the one kept in KAFKA_USERS_DIR, else 32 random bytes made once and kept there (readable
# by this user only).
kafka_password() {
    local file="$KAFKA_USERS_DIR/$1.password"
    if [ ! -s "$file" ]; then
        (umask 077 && mkdir -p "$KAFKA_USERS_DIR")
        (umask 077 && od -An -N32 -tx1 /dev/urandom | tr -d ' \n' >"$file.tmp" && echo >>"$file.tmp" \
            && mv "$file.tmp" "$file")
    fi
    tr -d '[:space:]' <"$file"
}

# A Kafka client's settings signing in as user $1 with SCRAM-SHA-512 (for Kafka's tools: --command-config and the like).
kafka_client_properties() {
    printf '%s\n' "security.protocol=SASL_PLAINTEXT" "sasl.mechanism=SCRAM-SHA-512" \
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"$1\" password=\"$(kafka_password "$1")\";"
}

log()  { printf '[queuegate] %s\n' "$*"; }
warn() { printf '[queuegate] WARNING: %s\n' "$*" >&2; }
die()  { printf '[queuegate] ERROR: %s\n' "$*" >&2; exit 1; }

# The calling script's usage: its header comment, from the line after the shebang to the first line that is not one.
usage_of_script() { sed -n '2,/^[^#]/p' "$0" | sed '/^[^#]/d; s/^# \{0,1\}//'; }

# Answers -h or --help with the script's usage, and exits 0.
answer_help() {
    case "${1:-}" in
        -h | --help) usage_of_script; exit 0 ;;
    esac
}

# Refuses an argument the script does not know: the usage and the reason on stderr, exit 2.
refuse_argument() {
    usage_of_script >&2
    printf '[queuegate] ERROR: %s\n' "$*" >&2
    exit 2
}

# For a script that takes no arguments: answers -h/--help, and refuses anything else with the usage and exit 2.
no_arguments() {
    answer_help "$@"
    [ $# -eq 0 ] || refuse_argument "unknown argument: $1"
}

# Takes the options a script declares, each with its default, into its variable, and refuses the rest (the usage,
# exit 2); answers -h/--help. "max-number=100" sets MAX_NUMBER=100 unless --max-number=N says otherwise; a switch
# "no-build" sets BUILD=1, and --no-build sets it to 0.
#   take_options "rounds=5 window=5 no-build" "$@"
take_options() {
    local declared arg name value
    declare -A known
    for declared in $1; do
        case "$declared" in
            *=*) name="${declared%%=*}"; value="${declared#*=}" ;;
            no-*) name="$declared"; value=1 ;;
            *) die "take_options: $declared is neither name=default nor no-name" ;;
        esac
        known[$name]=1
        _take_option "$name" "$value"
    done
    shift
    answer_help "$@"
    for arg in "$@"; do
        case "$arg" in
            --no-*=*) name="" ;;
            --*=*) name="${arg%%=*}"; value="${arg#*=}" ;;
            --no-*) name="$arg"; value=0 ;;
            *) name="" ;;
        esac
        name="${name#--}"
        [[ -n "$name" && -n "${known[$name]:-}" ]] || refuse_argument "unknown option: $arg"
        _take_option "$name" "$value"
    done
}

# max-number -> MAX_NUMBER, no-build -> BUILD
_take_option() {
    local variable="${1#no-}"
    variable="${variable//-/_}"
    printf -v "${variable^^}" '%s' "$2"
}

# Dies unless each command is installed, naming the Debian package of the same name.
require_commands() {
    local command
    for command in "$@"; do
        command -v "$command" >/dev/null || die "$command is not installed (apt-get install $command)"
    done
}

# Major version of the java binary at $1/bin/java, or empty.
java_major() {
    local v
    v="$("$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)"
    printf '%s' "${v%%.*}"
}

# Export JAVA_HOME pointing at a JDK 25+ (the Temurin 25 JDK on our machines) and put it first on PATH.
# The default java of the machine is 17, which cannot build or run the project.
use_java25() {
    local candidate major
    for candidate in "${QG_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk* /usr/lib/jvm/*-25-* /usr/lib/jvm/*25*; do
        if [ -z "$candidate" ] || [ ! -x "$candidate/bin/java" ] || [ ! -x "$candidate/bin/javac" ]; then
            continue
        fi
        major="$(java_major "$candidate")"
        if [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null; then
            export JAVA_HOME="$candidate"
            export PATH="$JAVA_HOME/bin:$PATH"
            return 0
        fi
    done
    die "no JDK 25 found (looked at \$JAVA_HOME and /usr/lib/jvm/temurin-25-jdk-amd64); install a Temurin 25 JDK or set QG_JAVA_HOME"
}

# Java 25 for a Maven build (use_java25), with MAVEN_OPTS (unless the caller set its own) that let Maven's libraries
# use sun.misc.Unsafe's memory access without JDK 25 warning about it on every build.
use_maven() {
    use_java25
    export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
}

# The JVM options a service starts with (run.sh; service_jvm_options MODULE), and the benchmark's yardstick apps when
# no service runs to copy them from (no MODULE: the HTTP services' options): G1 unless QG_JAVA_OPTS picks a collector
# itself (the JVM refuses two). The admission worker gets a fixed 1 GiB heap: its writer holds a fetch of up to 8 MiB
# per partition and the enters parsed from it, and in 256 MiB G1 ran a concurrent cycle about every second of a burst
# (the fetch buffers are humongous objects): 30 % of the worker's CPU went to collection, and a backlog drained at
# 0.7 of the pace it reaches with 1 GiB (docs/BENCHMARKS.md, "Tuning").
service_jvm_options() {
    local gc="-XX:+UseG1GC" heap="-Xms256m -Xmx512m"
    case " ${QG_JAVA_OPTS:-} " in *" -XX:+Use"*GC" "*) gc="" ;; esac
    [ "${1:-}" = admission-worker ] && heap="-Xms1g -Xmx1g"
    printf '%s' "--sun-misc-unsafe-memory-access=allow${gc:+ $gc} $heap -XX:+ExitOnOutOfMemoryError${QG_JAVA_OPTS:+ ${QG_JAVA_OPTS}}"
}

# The JDK's ahead-of-time cache of a service (JDK 25: JEP 483, 514, 515): the classes its start loads and links, and
# the method profiles of a training run (scripts/service.sh --train), so that a start loads less and the JIT compiles
# the hot paths from the first requests instead of after a minute of load. A cache belongs to one build of the jar:
# it is kept under .local/aot/MODULE/CHECKSUM/, beside the jar extracted there (a cache holds classes of the class
# path only, not of Spring Boot's nested jars). aot_paths MODULE JAR sets AOT_APP (the extracted jar to launch) and
# AOT_CACHE (the cache file).
aot_paths() {
    local module="$1" jar="$2" stamp
    stamp="$(cksum <"$jar" | cut -d' ' -f1)"
    AOT_APP="$LOCAL_DIR/aot/$module/$stamp/$(basename "$jar")"
    AOT_CACHE="$LOCAL_DIR/aot/$module/$stamp/$module.aot"
}

# True when the service's jar of this build has its AOT cache (aot_paths).
aot_cache_ready() {
    aot_paths "$1" "$2"
    [ -s "$AOT_CACHE" ]
}

# loopback_nodes PORT...: "127.0.0.1:PORT,..." as Spring Boot's *.nodes properties take them.
loopback_nodes() {
    local port list=()
    for port in "$@"; do list+=("127.0.0.1:$port"); done
    (IFS=,; printf '%s' "${list[*]}")
}

# True when something accepts TCP connections on 127.0.0.1:$1.
port_open() {
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# True when pid $1 is alive and its command line contains $2 (guards against a recycled pid).
pid_matches() {
    local pid="$1" pattern="$2"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    [ -r "/proc/$pid/cmdline" ] || return 0
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$pattern"
}

# stop_pid PID PATTERN NAME [GRACE_SECONDS]: SIGTERM, wait, then SIGKILL.
stop_pid() {
    local pid="$1" pattern="$2" name="$3" grace="${4:-20}" i
    pid_matches "$pid" "$pattern" || return 0
    log "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < grace * 10; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    warn "$name (pid $pid) did not stop within ${grace}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
}

# The Maven launcher: the wrapper when the project has one.
maven_cmd() {
    if [ -x "$ROOT/mvnw" ]; then
        printf '%s' "$ROOT/mvnw"
    else
        command -v mvn >/dev/null 2>&1 || die "mvn not found on PATH"
        printf '%s' mvn
    fi
}

# Runs a class from the Kafka jars (the broker's tools), logging as the broker does.
kafka_tool() {
    java --sun-misc-unsafe-memory-access=allow -Dlog4j2.configurationFile="$ROOT/kafka/log4j2.yaml" \
        -cp "$KAFKA_LIBS/*" "$@"
}
