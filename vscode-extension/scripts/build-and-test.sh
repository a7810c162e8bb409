#!/usr/bin/env bash
# The extension's whole check, on a fresh machine: install (npm ci, from package-lock.json),
# typecheck, bundle, unit tests (node --test), package the .vsix. Prints each step's time.
# Nothing here downloads a browser or VS Code.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

ms() { echo $(( $(date +%s%N) / 1000000 )); }
seconds() { printf '%d.%02d' $(( $1 / 1000 )) $(( $1 % 1000 / 10 )); }
total_start=$(ms)
timings=()
step() {
  local name=$1
  shift
  echo "== $name"
  local start
  start=$(ms)
  "$@"
  timings+=("$(printf '%-10s %7s s' "$name" "$(seconds $(( $(ms) - start )))")")
}

step "npm ci" npm ci --no-audit --no-fund --loglevel=error
step "typecheck" npx tsc --noEmit -p .
step "bundle" node esbuild.mjs --production
step "unit tests" npm test --silent
step "package" npx vsce package --no-dependencies --allow-missing-repository --no-rewrite-relative-links --out acp-editor.vsix

echo "== timings"
printf '%s\n' "${timings[@]}"
printf '%-10s %7s s\n' "total" "$(seconds $(( $(ms) - total_start )))"
