#!/usr/bin/env bash
# Proves the harness end to end with the sample extension (README.md): a passing run with a
# screenshot, then a run made to fail (HARNESS_SAMPLE_FAIL=1) that must exit non-zero and say so.
# Needs scripts/vscode-test-deps first. Artifacts land in $ARTIFACTS (default .cache/harness-selftest).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ARTIFACTS=${ARTIFACTS:-$ROOT/.cache/harness-selftest}
rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"

passed=0
failed=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then
    passed=$((passed + 1))
    echo "selftest: ok   $1"
  else
    failed=$((failed + 1))
    echo "selftest: FAIL $1"
  fi
}
is_png() { [ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

run() { # run NAME [ENV=VALUE...]: one harness run of the sample, its output in $ARTIFACTS/NAME.log
  local name=$1
  shift
  env "$@" node "$HERE/run.mjs" --extension "$HERE/sample" --tests "$HERE/sample/test" \
    --workspace "$HERE/sample/workspace" --screenshots "$ARTIFACTS/$name" --timeout 120 \
    >"$ARTIFACTS/$name.log" 2>&1
  local rc=$?
  sed "s/^/  [$name] /" "$ARTIFACTS/$name.log"
  return $rc
}

start=$(date +%s)
run pass
pass_rc=$?
check "passing run exits 0" test "$pass_rc" -eq 0
check "passing run closes with '2 passed, 0 failed'" test "$(tail -1 "$ARTIFACTS/pass.log")" = "2 passed, 0 failed"
check "passing run saved a PNG screenshot" is_png "$ARTIFACTS/pass/sample-workbench.png"

run fail HARNESS_SAMPLE_FAIL=1
fail_rc=$?
check "failing run exits non-zero" test "$fail_rc" -ne 0
check "failing run closes with '1 passed, 1 failed'" test "$(tail -1 "$ARTIFACTS/fail.log")" = "1 passed, 1 failed"

leftovers=$(pgrep -f "$ROOT/.cache/code-server/" || true)
check "no code-server process left behind" test -z "$leftovers"

echo "selftest: two harness runs took $(($(date +%s) - start)) s; screenshots in $ARTIFACTS"
echo "selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
