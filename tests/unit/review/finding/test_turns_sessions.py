"""Turn checkpoints with several sessions' turns running at once: one look finds a change for
all of them, so it is recorded once, and given to the session that made it (a real git store
and a real review queue on disk)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp_editor.review.finding.looks import Looks
from acp_editor.review.finding.turn_names import turn_name
from acp_editor.review.finding.turns import TurnWatch
from acp_editor.review.queue import persist
from acp_editor.review.queue.groups import ReviewGroup
from acp_editor.session.state import SessionState
from tests.unit.review.finding.test_turns import watch, workspace


class Calls:
    """What ``review.finding.looks.SessionLooks`` says of a session's running tool calls."""

    def __init__(self, call: str | None, *named: str) -> None:
        self.call, self.names = call, frozenset(named)

    def current(self) -> str | None:
        return self.call

    def named(self, also: str | None) -> frozenset[str]:
        return self.names


async def two_turns(
    turns: TurnWatch, root: Path, a: Calls | None = None, b: Calls | None = None
) -> None:
    assert await turns.begin("a", [str(root)], claims=a or Calls("ta")) is not None
    assert await turns.begin("b", [str(root)], claims=b or Calls("tb")) is not None


async def test_a_change_found_by_both_sessions_looks_is_recorded_once(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await two_turns(turns, root, b=Calls("tb", "a.txt"))  # b's tool call names the file
    (root / "a.txt").write_text("one\nTWO\nthree\n")
    (found,) = await turns.look("a", "ta")  # a's look finds it first
    assert found.path == root / "a.txt"
    assert await turns.look("b", "tb") == []  # b's look: nothing new
    (hunk,) = queue.hunks.values()
    assert (hunk.session_id, hunk.tool_call_id, hunk.sessions) == ("b", "tb", ())


async def test_a_change_no_tool_call_names_is_either_session_s(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await two_turns(turns, root)
    (root / "made.txt").write_text("made\n")
    await turns.look("b", "tb")
    await turns.end("a")
    await turns.end("b")
    (hunk,) = queue.hunks.values()
    assert (hunk.session_id, hunk.tool_call_id, hunk.sessions) == ("b", "tb", ("a", "b"))
    assert hunk.view(None)["sessions"] == ["a", "b"]
    assert persist.from_json(persist.to_json(hunk))["sessions"] == ("a", "b")  # kept on disk too


async def test_what_changed_before_another_session_began_stays_the_first_one_s(
    tmp_path: Path,
) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    assert await turns.begin("a", [str(root)], claims=Calls("ta")) is not None
    (root / "a.txt").write_text("one\nTWO\nthree\n")  # a runs alone
    assert await turns.begin("b", [str(root)], claims=Calls("tb")) is not None
    (root / "gone.txt").unlink()  # both run: either's
    await turns.end("b")
    await turns.end("a")
    by_file = {Path(h.path).name: h for h in queue.hunks.values()}
    assert (by_file["a.txt"].session_id, by_file["a.txt"].sessions) == ("a", ())
    assert by_file["a.txt"].tool_call_id == "ta"
    assert by_file["gone.txt"].sessions == ("a", "b")
    # Each turn's checkpoint holds what came before it: b's turn began after a's change.
    b_base = await turns.store(root).named(turn_name("b", 1))
    assert b_base is not None
    assert await turns.store(root).read(b_base, root / "a.txt") == b"one\nTWO\nthree\n"


async def test_a_session_alone_again_gets_all_it_finds(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await two_turns(turns, root)
    await turns.end("b")
    (root / "a.txt").write_text("one\nTWO\nthree\n")
    await turns.end("a", "ta")
    (hunk,) = queue.hunks.values()
    assert (hunk.session_id, hunk.tool_call_id, hunk.sessions) == ("a", "ta", ())


async def test_the_paths_a_running_tool_call_names_come_from_its_session_s_updates(
    tmp_path: Path,
) -> None:
    """``SessionLooks`` says what each session's running tool calls name (locations, a
    diff's path, the raw input's path), and which call a change found now goes to."""
    root = workspace(tmp_path)
    turns, queue = watch(root)
    looks = Looks(turns, queue)
    states = {sid: SessionState(sid) for sid in ("a", "b")}

    def update(sid: str, **fields: Any) -> None:
        looks.observe(states[sid], states[sid].apply_update(fields))

    for sid in states:
        assert await turns.begin(sid, [str(root)], claims=looks.session(sid)) is not None
    edit = {"sessionUpdate": "tool_call", "status": "in_progress", "title": "edit"}
    update("a", **edit, toolCallId="ta", locations=[{"path": str(root / "a.txt")}])
    update("b", **edit, toolCallId="tb", kind="execute", rawInput={"path": "gone.txt"})
    assert looks.session("a").current() == "ta"
    assert looks.session("a").named(None) == {str(root / "a.txt")}
    assert looks.session("b").named(None) == {"gone.txt"}  # relative: read against each root

    (root / "a.txt").write_text("a's\n")
    (root / "gone.txt").unlink()
    (root / "new.txt").write_text("whose?\n")
    await turns.look("b", "tb")
    got = {
        Path(h.path).name: (h.session_id, h.tool_call_id, h.sessions) for h in queue.hunks.values()
    }
    assert got == {
        "a.txt": ("a", "ta", ()),
        "gone.txt": ("b", "tb", ()),
        "new.txt": ("b", "tb", ("a", "b")),
    }
    await looks.close()


async def test_a_burst_of_either_session_is_one_group_that_says_so(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    turns, queue = watch(root)
    await two_turns(turns, root)
    (root / "gen").mkdir()
    for n in range(30):
        (root / "gen" / f"f{n}.txt").write_text(f"{n}\n")
    await turns.look("a", "ta")
    await turns.end("a")
    await turns.end("b")
    (group,) = queue.bulk.groups.values()
    assert (group.session_id, group.tool_call_id, group.sessions) == ("b", "tb", ["a", "b"])
    assert group.view()["sessions"] == ["a", "b"] and len(group.files) == 30
    assert not queue.hunks
    assert ReviewGroup.from_json("g", group.to_json()).sessions == ["a", "b"]  # kept on disk too
