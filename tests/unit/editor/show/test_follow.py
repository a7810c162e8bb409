"""Follow-along policy: rate limit with the latest winning, never backwards within a stream."""

from __future__ import annotations

from typing import Any

from acp_editor.editor.show.follow import FURTHEST_KEPT, FollowPolicy, Jump


class FakeLoop:
    """A clock we move by hand, with ``call_at`` timers fired by ``advance``."""

    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[tuple[float, Any]] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Any, *args: Any) -> Any:
        timer = Timer(when, lambda: callback(*args))
        self.timers.append((when, timer))
        return timer

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [t for when, t in self.timers if when <= self.now and not t.cancelled]
        self.timers = [(w, t) for w, t in self.timers if t not in due]
        for timer in due:
            timer.callback()


class Timer:
    def __init__(self, when: float, callback: Any) -> None:
        self.when, self.callback, self.cancelled = when, callback, False

    def cancel(self) -> None:
        self.cancelled = True


def policy(**kwargs: Any) -> tuple[FollowPolicy, list[Jump], FakeLoop]:
    sent: list[Jump] = []
    loop = FakeLoop()
    return FollowPolicy(sent.append, loop=loop, min_interval=0.25, **kwargs), sent, loop  # type: ignore[arg-type]


def jump(line: int | None, path: str = "/w/a.py", call: str | None = "c1") -> Jump:
    return Jump("s", path, line, "location", call)


def test_first_jump_goes_out_at_once() -> None:
    follow, sent, _ = policy()
    follow.offer(jump(3))
    assert sent == [jump(3)]


def test_a_burst_is_rate_limited_and_the_latest_wins() -> None:
    follow, sent, loop = policy()
    follow.offer(jump(1))
    for line in range(2, 10):
        follow.offer(jump(line, call=None))
    assert sent == [jump(1)]
    loop.advance(0.25)
    assert sent == [jump(1), jump(9, call=None)]
    loop.advance(1.0)
    assert len(sent) == 2  # nothing left over


def test_no_jumping_backwards_within_one_tool_call_and_file() -> None:
    follow, sent, loop = policy()
    follow.offer(jump(10))
    loop.advance(1)
    follow.offer(jump(4))  # a stale update of the same edit stream
    loop.advance(1)
    follow.offer(jump(4, path="/w/b.py"))  # another file: fine
    loop.advance(1)
    follow.offer(jump(2, call="c2"))  # another tool call: fine
    assert [(j.path, j.line) for j in sent] == [("/w/a.py", 10), ("/w/b.py", 4), ("/w/a.py", 2)]


def test_jumps_without_a_line_are_never_backwards() -> None:
    follow, sent, loop = policy()
    follow.offer(jump(10))
    loop.advance(1)
    follow.offer(jump(None))
    assert len(sent) == 2


def test_switched_off_sends_nothing_and_drops_the_pending_jump() -> None:
    follow, sent, loop = policy()
    follow.offer(jump(1))
    follow.offer(jump(2))
    follow.set_enabled(False)
    loop.advance(1)
    follow.offer(jump(3))
    assert sent == [jump(1)]
    follow.set_enabled(True)
    follow.offer(jump(5))
    assert sent[-1] == jump(5)


def test_only_the_latest_tool_calls_are_remembered_but_they_still_never_go_backwards() -> None:
    follow, sent, loop = policy()
    follow.offer(jump(10, call="first"))
    for n in range(FURTHEST_KEPT):  # a flood of other tool calls
        follow.offer(jump(50, call=f"c{n}"))
    loop.advance(1)
    latest = jump(50, call=f"c{FURTHEST_KEPT - 1}")
    assert sent == [jump(10, call="first"), latest]
    follow.offer(jump(4, call=latest.tool_call_id))  # remembered: not backwards
    loop.advance(1)
    assert sent[-1] == latest
    follow.offer(jump(4, call="first"))  # forgotten: shown (the memory stays bounded)
    assert sent[-1] == jump(4, call="first")


def test_only_the_session_in_front_is_followed_unless_all_are() -> None:
    front: list[str | None] = ["s1"]
    follow, sent, loop = policy(front=lambda: front[0])
    follow.offer(Jump("s2", "/w/b.py", 3, "location", "c2"))  # in the background: not followed
    assert sent == []
    follow.offer(Jump("s1", "/w/a.py", 1, "location", "c1"))
    assert [j.session_id for j in sent] == ["s1"]
    front[0] = "s2"  # the user brings s2 to the front
    loop.advance(1)
    follow.offer(Jump("s2", "/w/b.py", 4, "location", "c2"))
    assert [j.session_id for j in sent] == ["s1", "s2"]
    follow.all_sessions = True  # every session's agent, each jump naming its session
    loop.advance(1)
    follow.offer(Jump("s1", "/w/a.py", 2, "location", "c1"))
    assert [j.session_id for j in sent] == ["s1", "s2", "s1"]
    front[0] = None  # no session in front yet: any session's
    follow.all_sessions = False
    loop.advance(1)
    follow.offer(Jump("s3", "/w/c.py", 1, "location", "c3"))
    assert sent[-1].session_id == "s3"


def test_with_every_session_followed_a_busy_one_never_holds_back_another() -> None:
    follow, sent, loop = policy()
    follow.all_sessions = True
    busy = [Jump("busy", "/w/b.py", n, "location", "c9") for n in range(1, 6)]
    follow.offer(busy[0])
    follow.offer(Jump("front", "/w/a.py", 3, "location", "c1"))  # its own lane: at once
    for jump in busy[1:]:
        follow.offer(jump)  # the busy one's latest waits for its own interval
    assert [(j.session_id, j.line) for j in sent] == [("busy", 1), ("front", 3)]
    loop.advance(0.25)
    assert [(j.session_id, j.line) for j in sent][-1] == ("busy", 5)


def test_a_subagents_work_is_followed_as_its_parents() -> None:
    parents = {"child": "s1"}
    follow, sent, loop = policy(root_of=lambda sid: parents.get(sid, sid), front=lambda: "s1")
    follow.offer(Jump("child", "/w/a.py", 3, "location", "c9"))  # the front session's child
    assert [j.session_id for j in sent] == ["child"]
    follow.offer(Jump("s1", "/w/b.py", 1, "location", "c1"))  # shares the parent's rate limit
    assert len(sent) == 1
    loop.advance(1)
    assert [j.session_id for j in sent] == ["child", "s1"]
