"""claude-agent-acp offline for a test outside Python (the VS Code integration suite): serves a
scripted fake Anthropic server and says, as one JSON line on stdout, the command and environment
that run the agent against it; records every tool result the agent sends back.

    python -m tests.agents.claude_offline STEPS.json RECORD.json HOME

STEPS.json: ``[{"text": "...", "call": "diagnostics", "input": {...}}, {"text": "Done."}]`` (a
step without ``call`` ends the turn). RECORD.json is rewritten after each request: the tool
results so far, ``[{"toolUseId", "isError", "text"}]``. HOME gets settings that let the agent use
the ``editor`` MCP server's tools without asking. Serves until stdin closes.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import (
    MessagesRequest,
    Step,
    StepScript,
    call,
    running_fake_anthropic,
    say,
)


@dataclass
class Recording:
    script: StepScript
    record: Path

    def next_step(self, request: MessagesRequest) -> Step:
        seen = {r.tool_use_id: r for r in request.tool_results()}
        rows = [{"toolUseId": k, "isError": r.is_error, "text": r.text} for k, r in seen.items()]
        self.record.write_text(json.dumps(rows), encoding="utf-8")
        return self.script.next_step(request)


def steps_of(raw: list[dict[str, Any]]) -> list[Step]:
    return [
        call(s["call"], s.get("text", ""), **s.get("input", {})) if "call" in s else say(s["text"])
        for s in raw
    ]


def main(steps_file: str, record: str, home: str) -> None:
    steps = steps_of(json.loads(Path(steps_file).read_text(encoding="utf-8")))
    with running_fake_anthropic(Recording(StepScript(steps), Path(record))) as server:
        argv, env = claude_agent(server.base_url, Path(home), allow=["mcp__editor"])
        print(json.dumps({"command": argv, "env": env}), flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main(*sys.argv[1:4])
