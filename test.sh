#!/usr/bin/env bash
# Builds the product and runs every test of it: ./test.sh [extra Maven arguments], e.g. ./test.sh -pl queuegate-core -am
# The tooling (benchmark, fault checks, yardstick apps) is left out unless the profile is on: ./test.sh -Ptooling.
# Needs Redis on 127.0.0.1:6379 (started here when it is not running). The Kafka tests run an embedded
# KRaft broker of their own, so no Kafka process is needed.
set -uo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"
answer_help "$@"
cd "$ROOT" || exit 1

use_maven

"$ROOT/scripts/redis.sh" ensure || exit 1

log "JAVA_HOME=$JAVA_HOME; running $(maven_cmd) -B verify $*"
"$(maven_cmd)" -B verify "$@"
status=$?
log "mvn verify exited with $status"
exit "$status"
