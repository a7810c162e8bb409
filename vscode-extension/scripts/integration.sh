#!/usr/bin/env bash
# Runs test/integration/ (a smoke suite) in a real VS Code through ../test-harness (which needs
# its dependencies installed first: scripts/vscode-test-deps in the repository).
#   bash scripts/integration.sh [--update-screenshots]
# --update-screenshots copies the run's screenshots to media/screenshot-*.png (the README's).
# acp-editor: $ACP_EDITOR, else the repository's .venv, else PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
EXT=$(pwd)
REPO=$(cd .. && pwd)
HARNESS=$EXT/test-harness/run.mjs
[ -f "$HARNESS" ] || { echo "integration: no harness at $HARNESS" >&2; exit 1; }
ACP=${ACP_EDITOR:-}
[ -n "$ACP" ] || { [ -x "$REPO/.venv/bin/acp-editor" ] && ACP=$REPO/.venv/bin/acp-editor; } || true
[ -n "$ACP" ] || ACP=$(command -v acp-editor || true)
[ -n "$ACP" ] || { echo "integration: acp-editor not found (pip install -e . in the repository)" >&2; exit 1; }
PY=$(dirname "$ACP")/python

SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
mkdir -p "$SCRATCH/workspace" "$SCRATCH/shots"
printf 'print("hello")\nx = 1\ny = 2\nz = 3\n' >"$SCRATCH/workspace/hello.py"
cat >"$SCRATCH/settings.json" <<JSON
{
  "acp-editor.path": "$ACP",
  "acp-editor.agents": [{ "name": "demo", "command": "$PY", "args": ["-m", "acp_editor.demo.agent", "--fast"] }],
  "workbench.startupEditor": "none"
}
JSON

node esbuild.mjs >/dev/null
node "$HARNESS" --extension "$EXT" --tests "$EXT/test/integration" --workspace "$SCRATCH/workspace" \
  --screenshots "$SCRATCH/shots" --settings "$SCRATCH/settings.json" --timeout 150
if [ "${1:-}" = "--update-screenshots" ]; then
  for name in chat diff permission; do cp "$SCRATCH/shots/$name.png" "media/screenshot-$name.png"; done
  echo "integration: media/screenshot-{chat,diff,permission}.png updated"
fi
