#!/usr/bin/env bash
# The extension's whole check, on a fresh machine: install (npm ci, from package-lock.json),
# format check (prettier), typecheck, lint (eslint), bundle, unit tests (node --test), package the
# .vsix. Prints each step's time. `npm run format` and `npm run lint:fix` repair what those two find.
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
step "format" npm run --silent format:check
step "typecheck" npx tsc --noEmit -p .
step "lint" npm run --silent lint
step "bundle" node esbuild.mjs --production
step "unit tests" npm test --silent
# The .vsix comes from the very `npx @vscode/vsce package` line README.md's "Install" gives users,
# read from there and run as written, so the documented build cannot drift from the tested one.
package_cmd=$(awk '/^## /{install = ($0 == "## Install"); next} install && /^npx @vscode\/vsce package /' README.md)
if [ "$(grep -c . <<<"$package_cmd")" != 1 ]; then
  echo "build-and-test: README.md's Install section must give one 'npx @vscode/vsce package' line" >&2
  exit 1
fi
step "package" bash -c "$package_cmd"

echo "== timings"
printf '%s\n' "${timings[@]}"
printf '%-10s %7s s\n' "total" "$(seconds $(( $(ms) - total_start )))"
