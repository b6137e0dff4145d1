#!/usr/bin/env bash
# Lints the committed API descriptions (docs/openapi/*.json) with Redocly's recommended rules and fails on any error
# or warning. Installs the pinned @redocly/cli into .local/node/ on first use (needs Node 20+ and npm).
#
#   scripts/openapi-lint.sh
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
no_arguments "$@"

REDOCLY_VERSION="2.77.0"
NODE_DIR="$LOCAL_DIR/node"
REDOCLY="$NODE_DIR/node_modules/.bin/redocly"

command -v npm >/dev/null 2>&1 || die "npm not found; install Node.js 20 or later"
if [ ! -x "$REDOCLY" ] || [ "$("$REDOCLY" --version 2>/dev/null | tail -n 1)" != "$REDOCLY_VERSION" ]; then
    log "installing @redocly/cli@$REDOCLY_VERSION into ${NODE_DIR#"$ROOT"/}"
    mkdir -p "$NODE_DIR"
    npm install --prefix "$NODE_DIR" --no-audit --no-fund --no-save --loglevel=error "@redocly/cli@$REDOCLY_VERSION"
fi

cd "$ROOT/docs/openapi"
shopt -s nullglob
files=(*.json)
[ "${#files[@]}" -gt 0 ] || die "no API descriptions in docs/openapi; run scripts/openapi.sh"
# --max-problems keeps every finding in the output; a warning fails too, since warnings are what drift looks like
output="$("$REDOCLY" lint --max-problems=1000 --format=stylish "${files[@]}" 2>&1)" || { printf '%s\n' "$output"; die "the API descriptions do not lint clean"; }
printf '%s\n' "$output" | grep -v '^\s*$' | grep -vE '[║╔╚═]' || true
if printf '%s\n' "$output" | grep -qE '^\s*[0-9]+:[0-9]+\s+warning'; then
    die "the API descriptions have lint warnings"
fi
log "docs/openapi: ${#files[@]} descriptions, 0 errors, 0 warnings"
