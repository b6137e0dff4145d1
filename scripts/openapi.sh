#!/usr/bin/env bash
# Rewrites docs/openapi/*.json from the services' own /v3/api-docs: starts the three services in one JVM (the system
# tests' stack, on free ports, against the embedded Kafka broker and the Redis on 127.0.0.1:6379) and writes what each
# serves, keys sorted. Run it after changing an endpoint or its description, and commit the files with the change;
# ApiDescriptionSystemTests fails while they differ.
#
#   scripts/openapi.sh
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"
cd "$ROOT"
use_maven

"$ROOT/scripts/redis.sh" ensure
mkdir -p "$LOCAL_DIR"
output="$LOCAL_DIR/openapi.log"
# -am: the services come from this tree's reactor, not from whatever another checkout last installed in ~/.m2
"$(maven_cmd)" -B -pl system-tests -am test -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtest='ApiDescriptionSystemTests#theCommittedDescriptionsAreTheServedOnes' -Dopenapi.write=true >"$output" 2>&1 || { tail -n 60 "$output"; die "the services did not describe themselves; see ${output#"$ROOT"/}"; }
log "wrote $(cd "$ROOT" && ls docs/openapi/*.json | tr '\n' ' ')"
git -C "$ROOT" status --short -- docs/openapi
