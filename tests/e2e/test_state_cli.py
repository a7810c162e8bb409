"""``acp-editor state`` and ``state clean`` as a user runs them: a real subprocess over a state
directory of real checkpoint stores (one root a repository, one gone with review pending)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from acp_editor.review.queue.persist import store_path
from acp_editor.services.git.checkpoints import store_for
from tests.support.kept import repository, take_turns, watch


def state(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "acp_editor", "state", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def listed(env: dict[str, str]) -> dict[str, dict[str, Any]]:
    done = state(env, "--json")
    assert done.returncode == 0, done.stderr
    return {entry["root"]: entry for entry in json.loads(done.stdout)}


async def test_state_lists_and_cleans_what_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "state"))
    env = dict(os.environ)
    kept, gone = (tmp_path / "kept").resolve(), (tmp_path / "gone").resolve()
    for root in (kept, gone):
        root.mkdir()
        (root / "a.txt").write_text("start\n")
    repository(kept, commit=False)  # its store names it (the objects it borrows)
    turns = watch()
    await take_turns(turns, kept, "s1", 2)
    await take_turns(turns, kept, "s2", 1)
    await take_turns(turns, gone, "s3", 1)
    store_path(gone).parent.mkdir(parents=True)
    store_path(gone).write_text(json.dumps({"root": str(gone), "hunks": [{}, {}]}))
    shutil.rmtree(gone)

    found = listed(env)
    assert {k: (v["exists"], v["turns"], v["sessions"]) for k, v in found.items()} == {
        str(kept): (True, 3, ["s1", "s2"]),
        str(gone): (False, 1, ["s3"]),
    }
    assert found[str(gone)]["pendingReview"] == 2 and found[str(kept)]["bytes"] > 0
    text = state(env).stdout
    assert f"\n{gone}\n  folder gone; " in text and "2 pending review hunks" in text

    dry = state(env, "clean", "--all-missing", "--dry-run")
    assert dry.stdout.startswith(f"would remove {gone}: everything (its folder is gone): 1 turn")
    assert set(listed(env)) == {str(kept), str(gone)}

    done = state(env, "clean", "--all-missing")
    assert done.returncode == 0 and done.stdout.startswith(f"removed {gone}: everything")
    assert set(listed(env)) == {str(kept)} and not store_for(gone).exists()

    done = state(env, "clean", "--session", "s1")
    assert done.stdout.splitlines()[0] == f"removed {kept}: 2 turns of 1 session"
    assert listed(env)[str(kept)]["sessions"] == ["s2"]

    assert state(env, "clean", "--prune").returncode == 0
    unknown = state(env, "clean", "--root", str(tmp_path / "never"))
    assert unknown.returncode == 1 and "nothing is kept for" in unknown.stderr
    assert state(env, "clean").returncode == 2  # say what

    done = state(env, "clean", "--root", str(kept))
    assert done.stdout.startswith(f"removed {kept}: everything (asked): 1 turn of 1 session")
    assert listed(env) == {}
    assert (kept / ".git" / "HEAD").exists()  # the user's repository stays
