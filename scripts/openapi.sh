#!/usr/bin/env bash
# Rewrites docs/openapi/*.json from the services' own /v3/api-docs: starts the three services in one JVM (the system
# tests' stack, on free ports, against the embedded Kafka broker and the Redis on 127.0.0.1:6379) and writes what each
# serves, keys sorted. Run it after changing an endpoint or its description, and commit the files with the change;
# ApiDescriptionSystemTests fails while they differ. Installs the current modules first.
#
#   scripts/openapi.sh
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
use_java25
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"

"$ROOT/scripts/redis.sh" ensure
"$(maven_cmd)" -B -q install -DskipTests -pl system-tests -am
"$(maven_cmd)" -B -q -pl system-tests test -Dtest='ApiDescriptionSystemTests#theCommittedDescriptionsAreTheServedOnes' \
    -Dopenapi.write=true
log "wrote $(cd "$ROOT" && ls docs/openapi/*.json | tr '\n' ' ')"
git -C "$ROOT" status --short -- docs/openapi
