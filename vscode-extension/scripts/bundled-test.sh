#!/usr/bin/env bash
# The .vsix as a user gets it: test/bundled/ in a real VS Code (code-server) with the extension
# unpacked from acp-editor.vsix (what installing it puts in the extensions folder), a fresh
# profile, no acp-editor on PATH and no acp-editor.path setting, so the sidecar the .vsix carries
# is installed on first run and used, on the server side (a workspace extension, as in VS Code
# Remote: test/bundled/index.js's last test). Needs scripts/build-and-test.sh first (it makes the .vsix)
# and the harness's dependencies (scripts/vscode-test-deps in the repository).
#   bash scripts/bundled-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
EXT=$(pwd)
VSIX=$EXT/acp-editor.vsix
[ -f "$VSIX" ] || { echo "bundled-test: no $VSIX (run scripts/build-and-test.sh)" >&2; exit 1; }
SCRATCH=$(mktemp -d)
KEEP=0
trap '[ "$KEEP" = 1 ] || rm -rf "$SCRATCH"' EXIT
mkdir -p "$SCRATCH/workspace" "$SCRATCH/shots" "$SCRATCH/vsix"
printf 'print("hello")\n' >"$SCRATCH/workspace/hello.py"
(cd "$SCRATCH/vsix" && unzip -q "$VSIX")
[ -f "$SCRATCH/vsix/extension/bundled/pure.txt" ] || { echo "bundled-test: the .vsix carries no sidecar" >&2; exit 1; }
echo '{ "workbench.startupEditor": "none" }' >"$SCRATCH/settings.json"
# PATH without any acp-editor: every folder that has one is left out (a Python stays).
CLEAN=""
IFS=: read -ra DIRS <<<"$PATH"
for dir in "${DIRS[@]}"; do
  [ -n "$dir" ] && [ ! -e "$dir/acp-editor" ] && CLEAN=${CLEAN:+$CLEAN:}$dir
done
if PATH=$CLEAN command -v acp-editor >/dev/null; then echo "bundled-test: acp-editor still on PATH" >&2; exit 1; fi
status=0
PATH=$CLEAN node "$EXT/test-harness/run.mjs" --extension "$SCRATCH/vsix/extension" --tests "$EXT/test/bundled" \
  --workspace "$SCRATCH/workspace" --screenshots "$SCRATCH/shots" --settings "$SCRATCH/settings.json" \
  --timeout 300 | tee "$SCRATCH/output.txt" || status=$?
closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$SCRATCH/output.txt" | tail -1 || true)
if [ "$status" -ne 0 ] || [ -z "$closing" ]; then
  KEEP=1
  echo "bundled-test: FAILED (harness exit $status); screenshots and workbench.log kept in $SCRATCH/shots" >&2
  exit $(( status == 0 ? 1 : status ))
fi
echo "$closing"
