"""What codex-acp 2.6 sends behind acp-editor's schema 1.25 opt-ins (issue 34), through the real
sidecar, offline against our fake OpenAI API: in Codex's plan mode (its ``/plan`` command) the
plan it proposes is a plan by id (``plan`` opt-in: ``plan_update``, markdown), and its plan
review a question; its ``/compact`` a compaction entry (``session.compaction``; Codex gives no
summary); its warning about a model it has no metadata for a notice (``session.notices``).
Every message the sidecar sends the agent is checked against the schema (``schema_1_25.Tap``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from acp_editor.protocol import editor as proto
from tests.agents.codex import codex_agent
from tests.agents.fake_openai import running_fake_openai
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.schema_1_25 import Tap, schemas
from tests.support.lsp import session_mirror
from tests.support.npm import CODEX_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm
__all__ = ["schemas"]

PLAN = "# Fix the greeting\n\n1. Read hello.py\n2. Fix the typo\n"
ANSWER = f"Here is my plan.\n\n<proposed_plan>\n{PLAN}</proposed_plan>\n"
"""What the model answers: in plan mode Codex takes the block out as the plan it proposes."""


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CODEX_ACP)


async def test_codex_plan_by_id_compaction_and_notice(
    agent_installed: Path,
    editor_factory: StartEditor,
    workspace: Path,
    tmp_path: Path,
    schemas: Any,
) -> None:
    tap = Tap(tmp_path / "acp.jsonl", schemas)
    with running_fake_openai([]) as server:
        server.final_text = ANSWER
        argv, env = codex_agent(server.base_url, tmp_path / "home")
        editor = await editor_factory(
            agent=tap.wrap(argv),
            env={**os.environ, **env},
            features=["stream", "permissions"],
        )
        sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
        turns = [
            await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": text})
            for text in ("/plan", "Plan how to fix hello.py.", "/compact")
        ]
        assert [t["stopReason"] for t in turns] == ["end_turn"] * 3, turns
    snapshot = (await editor.request(proto.ACP_SNAPSHOT, {}))["sessions"][0]

    # The proposed plan: a plan by id, markdown, held by id and as the plan updated last.
    ((plan_id, plan),) = snapshot["plans"].items()
    assert plan == {"type": "markdown", "planId": plan_id, "content": PLAN}, plan
    assert snapshot["plan"] == plan
    # Codex then asks whether to implement it (the editor said yes).
    (review,) = editor.asked
    assert review["sessionId"] == sid and review["toolCall"]["kind"] == "switch_mode", review
    assert review["toolCall"]["rawInput"] == {"plan": PLAN}

    # /compact: a compaction entry, finished (Codex sends no summary).
    (compaction,) = [e for e in snapshot["entries"] if e.get("role") == "compaction"]
    (started, *_) = tap.updates("compaction_update")
    assert compaction["messageId"] == started["compactionId"]
    assert (compaction["status"], compaction["content"]) == ("completed", []), compaction

    # Codex's warning that it knows nothing of the fake model is a notice (one per turn).
    notices = [e for e in snapshot["entries"] if e.get("kind") == "notice"]
    assert notices and all(n["severity"] == "warning" for n in notices), notices
    assert "fake-model" in notices[0]["title"]

    # What the editor was streamed holds the same.
    mirror = session_mirror(editor.of(proto.ACP_SESSION_CHANGED), sid)
    for field in ("entries", "plans", "plan"):
        assert mirror[field] == snapshot[field], field
    tap.check()
