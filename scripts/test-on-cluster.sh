#!/usr/bin/env bash
# Runs the suites that touch Redis the most against a three-master Redis Cluster on loopback, chosen by
# configuration only (SPRING_DATA_REDIS_CLUSTER_NODES): the Lua script suites of core (admission races and key
# prefixes included), the admission worker's (the line writer, two racing workers) and the pipeline, booking, audit
# system tests, the key prefix ones and two of every service at once (ManyInstancesSystemTests).
# A script that touched keys of two slots would fail here with CROSSSLOT. .ci/run calls it after ./test.sh.
#   scripts/test-on-cluster.sh [extra Maven arguments]
set -uo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
answer_help "$@"
cd "$ROOT" || exit 1
use_maven

"$ROOT/scripts/redis-cluster.sh" stop >/dev/null 2>&1 || true
"$ROOT/scripts/redis-cluster.sh" start || exit 1
trap '"$ROOT/scripts/redis-cluster.sh" stop' EXIT

SPRING_DATA_REDIS_CLUSTER_NODES="$("$ROOT/scripts/redis-cluster.sh" nodes)"
export SPRING_DATA_REDIS_CLUSTER_NODES
export QUEUEGATE_TEST_INFRA=embedded
log "running the Redis suites on the cluster $SPRING_DATA_REDIS_CLUSTER_NODES"
"$(maven_cmd)" -B -pl queuegate-core,admission-worker,system-tests -am verify -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtest='*ScriptTests,Admission*Tests,LineWriterTests,TwoWorkersRaceTests,PipelineSystemTests,BookingSystemTests,AuditSystemTests,KeyPrefixSystemTests,ManyInstancesSystemTests' \
    "$@"
status=$?
log "the suites on Redis Cluster exited with $status"
exit "$status"
