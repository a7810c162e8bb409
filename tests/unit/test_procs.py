"""Child processes in groups of their own: registered with the reaper, and ended by the ladder
(SIGTERM, then SIGKILL) with every member of the group, even after the leader is gone."""

from __future__ import annotations

from acp_editor import procs


async def test_spawn_registers_with_a_reaper_in_a_session_of_its_own() -> None:
    proc = await procs.spawn(["sleep", "1000"], cwd=None, env=None)
    try:
        pid = procs.reaper_pid()
        assert pid is not None
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        assert int(fields[3]) == pid  # session id: a signal to our group never reaches it
    finally:
        await procs.terminate_group(proc)
    assert procs.group_members(proc.pid) == []
    assert proc.pid not in procs._spawned  # released: the reaper forgets it too


async def test_a_group_that_ignores_sigterm_is_killed_children_and_all() -> None:
    # An ignored signal stays ignored across exec: the shell and its sleeping child both
    # shrug SIGTERM off.
    script = "trap '' TERM; sleep 1000 & echo ready; wait"
    proc = await procs.spawn(["sh", "-c", script], cwd=None, env=None)
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b"ready\n"
    assert await procs.terminate_group(proc, term_grace=0.2) == -9
    assert procs.group_members(proc.pid) == []


async def test_children_left_behind_by_a_leader_that_exited_are_ended_too() -> None:
    # The child lets go of the pipes, so the leader's exit is seen while the child lives on.
    script = "sleep 1000 </dev/null >/dev/null 2>&1 & echo started"
    proc = await procs.spawn(["sh", "-c", script], cwd=None, env=None)
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b"started\n"
    assert await proc.wait() == 0
    assert procs.group_alive(proc.pid)  # the sleeping child lives on in the group
    assert await procs.terminate_group(proc) == 0
    assert procs.group_members(proc.pid) == []
