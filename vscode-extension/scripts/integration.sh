#!/usr/bin/env bash
# Runs test/integration/ (the smoke suite) in a real VS Code through ../test-harness (which needs
# its dependencies installed first: scripts/vscode-test-deps in the repository).
#   bash scripts/integration.sh [--update-screenshots[=NAME,...]] [--only REGEX]
# Exits non-zero when any test fails (or the harness times out or crashes), and ends with the
# harness's closing `N passed, N failed` line. --update-screenshots copies the run's screenshots
# to media/screenshot-{chat,diff,permission,review,group,walkthrough,status,prompt,queue,sessions,subagent,signin}.png (the README's),
# only after a passing run; =NAME,... copies only those. --only REGEX runs only the tests whose
# names it matches (the others count as skipped; each test the filter picks must stand alone).
# On a failure the run's screenshots and workbench.log are kept (the path is printed).
# acp-editor: $ACP_EDITOR, else the repository's .venv, else PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
EXT=$(pwd)
REPO=$(cd .. && pwd)
HARNESS=$EXT/test-harness/run.mjs
SHOTS="chat diff permission review group walkthrough status prompt queue sessions subagent signin"
UPDATE=0
usage() { echo "usage: bash scripts/integration.sh [--update-screenshots[=NAME,...]] [--only REGEX]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --update-screenshots) UPDATE=1 ;;
    --update-screenshots=*) UPDATE=1; SHOTS=$(echo "${1#*=}" | tr ',' ' ') ;;
    --only) [ $# -ge 2 ] || usage; export HARNESS_ONLY=$2; shift ;;
    *) usage ;;
  esac
  shift
done
[ -f "$HARNESS" ] || { echo "integration: no harness at $HARNESS" >&2; exit 1; }
ACP=${ACP_EDITOR:-}
[ -n "$ACP" ] || { [ -x "$REPO/.venv/bin/acp-editor" ] && ACP=$REPO/.venv/bin/acp-editor; } || true
[ -n "$ACP" ] || ACP=$(command -v acp-editor || true)
[ -n "$ACP" ] || { echo "integration: acp-editor not found (pip install -e . in the repository)" >&2; exit 1; }
PY=$(dirname "$ACP")/python

# claude-agent-acp for the editor-context test (tests/agents/claude_offline.py runs it offline).
(cd "$REPO" && "$PY" -c 'from tests.support.npm import CLAUDE_AGENT_ACP, ensure_npm_package; ensure_npm_package(CLAUDE_AGENT_ACP)') \
  || { echo "integration: could not install claude-agent-acp from npm" >&2; exit 1; }
export ACP_EDITOR_REPO=$REPO

SCRATCH=$(mktemp -d)
KEEP=0
trap '[ "$KEEP" = 1 ] || rm -rf "$SCRATCH"' EXIT
mkdir -p "$SCRATCH/workspace" "$SCRATCH/shots"
printf 'print("hello")\nx = 1\ny = 2\nz = 3\n' >"$SCRATCH/workspace/hello.py"
# The product's demo agent, as a user runs it: its text streams word by word (20 ms apart), as
# the streaming test needs (only the tests' agent, tests/agents/scripted.py, has --fast).
cat >"$SCRATCH/settings.json" <<JSON
{
  "acp-editor.path": "$ACP",
  "acp-editor.agents": [{ "name": "demo", "command": "$PY", "args": ["-m", "acp_editor.demo_agent"] }],
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false
}
JSON

node esbuild.mjs >/dev/null 2>&1 || { node esbuild.mjs; exit 1; }
status=0
# --timeout is for the whole run: about 2.5 minutes on 2 cores, with room to spare.
node "$HARNESS" --extension "$EXT" --tests "$EXT/test/integration" --workspace "$SCRATCH/workspace" \
  --screenshots "$SCRATCH/shots" --settings "$SCRATCH/settings.json" --timeout 300 \
  | tee "$SCRATCH/output.txt" || status=$?
closing=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$SCRATCH/output.txt" | tail -1 || true)
if [ "$status" -ne 0 ] || [ -z "$closing" ]; then
  KEEP=1
  echo "integration: FAILED (harness exit $status); screenshots and workbench.log kept in $SCRATCH/shots" >&2
  echo "${closing:-0 passed, 1 failed}"
  exit $(( status == 0 ? 1 : status ))
fi
if [ "$UPDATE" = 1 ]; then
  for name in $SHOTS; do
    [ -f "$SCRATCH/shots/$name.png" ] || { echo "integration: no $name.png in this run" >&2; exit 1; }
    cp "$SCRATCH/shots/$name.png" "media/screenshot-$name.png"
    echo "integration: media/screenshot-$name.png updated"
  done
fi
echo "$closing"
