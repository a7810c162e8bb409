"""terminal/* served with real processes: output, limits, exit, kill, release, no orphans."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.services.paths import PathPolicy
from acp_editor.services.terminals import TerminalManager

SID = "sess_1"
PY = sys.executable
OK = {"exitCode": 0, "signal": None}
KILLED = {"exitCode": None, "signal": "SIGKILL"}


class Recorder:
    def __init__(self) -> None:
        self.chunks: dict[str, list[str]] = {}
        self.exits: list[tuple[str, str, dict[str, Any]]] = []

    def output(self, session_id: str, terminal_id: str, text: str) -> None:
        self.chunks.setdefault(terminal_id, []).append(text)

    def exit(self, session_id: str, terminal_id: str, status: dict[str, Any]) -> None:
        self.exits.append((session_id, terminal_id, status))


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
async def terms(tmp_path: Path, rec: Recorder) -> AsyncIterator[TerminalManager]:
    manager = TerminalManager(
        PathPolicy([tmp_path]), shell="/bin/sh", on_output=rec.output, on_exit=rec.exit
    )
    yield manager
    await manager.close_all()


class Term:
    """One terminal, with the ids filled in for each request."""

    def __init__(self, manager: TerminalManager, terminal_id: str, session_id: str) -> None:
        self.m, self.id = manager, terminal_id
        self.p = {"sessionId": session_id, "terminalId": terminal_id}

    async def output(self) -> dict[str, Any]:
        return await self.m.output(self.p)

    async def wait(self) -> dict[str, Any]:
        async with asyncio.timeout(5):
            return await self.m.wait_for_exit(self.p)

    async def kill(self) -> dict[str, Any]:
        return await self.m.kill(self.p)

    async def release(self) -> dict[str, Any]:
        return await self.m.release(self.p)


async def start(
    manager: TerminalManager, command: str, args: list[str] | None = None, **extra: Any
) -> Term:
    session_id = extra.pop("sessionId", SID)
    default_cwd = extra.pop("default_cwd", "/")
    params: dict[str, Any] = {"sessionId": session_id, "command": command, **extra}
    if args is not None:
        params["args"] = args
    result = await manager.create(params, default_cwd=default_cwd)
    assert set(result) == {"terminalId"}
    return Term(manager, result["terminalId"], session_id)


async def until(check: Callable[[], Any], timeout: float = 5.0) -> None:
    """Poll ``check`` (test-only: a process's death has no event to wait on)."""
    async with asyncio.timeout(timeout):
        while True:
            if check():
                return
            await asyncio.sleep(0.01)


def alive(pid: int) -> bool:
    """Running, not merely a zombie waiting for a reaper (PID 1 may never reap one here)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def test_args_run_directly(terms: TerminalManager) -> None:
    t = await start(terms, "printf", ["%s|", "a b", "$HOME", "c"])
    assert await t.wait() == OK
    assert await t.output() == {"output": "a b|$HOME|c|", "truncated": False, "exitStatus": OK}


async def test_command_line_without_args_goes_through_the_shell(terms: TerminalManager) -> None:
    t = await start(terms, "echo hi && echo there >&2; exit 3")
    assert await t.wait() == {"exitCode": 3, "signal": None}
    assert (await t.output())["output"] == "hi\nthere\n"  # stderr merged
    t2 = await start(terms, "echo via shell | tr a-z A-Z", [])  # args [] with a command line
    await t2.wait()
    assert (await t2.output())["output"] == "VIA SHELL\n"


async def test_user_shell_comes_from_shell_env(tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"], "SHELL": "/bin/bash"}
    manager = TerminalManager(PathPolicy([tmp_path]), env=env)
    t = await start(manager, 'echo "bash=${BASH_VERSION:+yes}"')
    await t.wait()
    assert (await t.output())["output"] == "bash=yes\n"
    await manager.close_all()


async def test_env_over_base_env_and_cwd(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    manager = TerminalManager(PathPolicy([tmp_path]), env={"PATH": os.environ["PATH"], "B": "1"})
    env = [{"name": "FOO", "value": "bar baz"}, {"name": "B", "value": "2"}]
    cmd = 'echo "$FOO|$B|${HOME:-nohome}"; pwd'
    t = await start(manager, cmd, env=env, cwd=str(tmp_path / "sub"))
    await t.wait()
    assert (await t.output())["output"] == f"bar baz|2|nohome\n{(tmp_path / 'sub').resolve()}\n"
    t2 = await start(manager, "pwd", default_cwd=str(tmp_path))
    await t2.wait()
    assert (await t2.output())["output"] == f"{tmp_path}\n"
    await manager.close_all()


async def test_stdin_is_devnull(terms: TerminalManager) -> None:
    t = await start(terms, "cat", [])
    assert await t.wait() == OK


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"command": "definitely-not-a-command-xyz", "args": []}, "cannot run"),
        ({"command": "/nonexistent/bin/tool", "args": ["x"]}, "No such file"),
        ({"command": ""}, "non-empty"),
        ({"args": ["x"]}, "missing required field 'command'"),
        ({"command": "ls", "args": "-l"}, "'args' must be an array"),
        ({"command": "ls", "args": ["a\x00b"]}, "NUL"),
        ({"command": "ls", "env": {"A": "1"}}, "'env' must be an array"),
        ({"command": "ls", "env": [{"name": "A"}]}, r"env\[0\]"),
        ({"command": "ls", "env": [{"name": "A=B", "value": "1"}]}, "not a valid variable"),
        ({"command": "ls", "cwd": "relative"}, "cwd must be absolute"),
        ({"command": "ls", "cwd": "/etc"}, "outside the allowed roots"),
        ({"command": "ls", "cwd": "@missing"}, "cwd is not a directory"),
        ({"command": "ls", "outputByteLimit": -1}, "'outputByteLimit' must be a non-negative"),
    ],
)
async def test_create_bad_params(
    terms: TerminalManager, tmp_path: Path, extra: dict[str, Any], message: str
) -> None:
    if extra.get("cwd") == "@missing":
        extra["cwd"] = str(tmp_path / "missing")
    with pytest.raises(InvalidParams, match=message):
        await terms.create({"sessionId": SID, **extra}, default_cwd=str(tmp_path))


async def test_output_limit_cuts_at_a_character_boundary(terms: TerminalManager) -> None:
    for limit, kept in [(5, "éé"), (6, "ééé"), (7, "ééé"), (0, "")]:
        t = await start(terms, "printf", ["é" * 10], outputByteLimit=limit)
        await t.wait()
        out = await t.output()
        assert (out["output"], out["truncated"]) == (kept, True)
    t = await start(terms, "printf", ["€😀" * 3], outputByteLimit=9)  # 3- and 4-byte characters
    await t.wait()
    assert (await t.output())["output"] == "€😀"
    t = await start(terms, "printf", ["é" * 10], outputByteLimit=20)
    await t.wait()
    assert await t.output() == {"output": "é" * 10, "truncated": False, "exitStatus": OK}


async def test_character_split_across_reads_is_not_mangled(
    terms: TerminalManager, rec: Recorder
) -> None:
    script = "import os,time; os.write(1,b'a\\xc3'); time.sleep(0.1); os.write(1,b'\\xa9b')"
    t = await start(terms, PY, ["-c", script])
    await t.wait()
    assert (await t.output())["output"] == "aéb"
    assert "".join(rec.chunks[t.id]) == "aéb"
    assert len(rec.chunks[t.id]) == 2  # really arrived in two reads


async def test_exit_status_only_after_exit_then_kill(terms: TerminalManager, rec: Recorder) -> None:
    t = await start(terms, "echo started; sleep 30")
    await until(lambda: rec.chunks.get(t.id))
    assert await t.output() == {"output": "started\n", "truncated": False}
    assert rec.exits == []
    assert await t.kill() == {}
    assert await t.wait() == KILLED
    assert await t.output() == {"output": "started\n", "truncated": False, "exitStatus": KILLED}
    assert await t.kill() == {}  # killing again is harmless
    assert rec.exits == [(SID, t.id, KILLED)]


async def test_release_forgets_the_id(terms: TerminalManager) -> None:
    t = await start(terms, "sleep", ["30"])
    waiter = asyncio.create_task(t.wait())
    # One loop turn and the wait request is being served (it looks the terminal up and waits on
    # its exit, with nothing to await before): release arrives while it waits.
    await asyncio.sleep(0)
    assert not waiter.done()
    assert await t.release() == {}
    assert await waiter == KILLED  # a pending wait is answered
    for call in (t.output, t.wait, t.kill, t.release):
        with pytest.raises(InvalidParams, match=f"unknown terminal: '{t.id}'"):
            await call()


async def test_unknown_and_foreign_ids(terms: TerminalManager) -> None:
    with pytest.raises(InvalidParams, match="unknown terminal: 'term_made_up'"):
        await terms.output({"sessionId": SID, "terminalId": "term_made_up"})
    with pytest.raises(InvalidParams, match="missing required field 'terminalId'"):
        await terms.output({"sessionId": SID})
    t = await start(terms, "sleep", ["30"])
    other = Term(terms, t.id, "sess_other")
    for call in (other.output, other.wait, other.kill, other.release):
        with pytest.raises(InvalidParams, match="another session"):
            await call()
    assert "exitStatus" not in await t.output()  # still running, untouched


async def test_megabytes_of_output_do_not_stall(terms: TerminalManager, rec: Recorder) -> None:
    t = await start(terms, "head -c 5000000 /dev/zero | tr '\\0' x")
    assert await t.wait() == OK
    out = await t.output()
    assert out["truncated"] is True
    assert out["output"] == "x" * (1 << 20)  # the default limit keeps the last MiB
    assert sum(len(c) for c in rec.chunks[t.id]) == 5_000_000


async def test_leader_exit_with_background_child_holding_the_pipe(
    terms: TerminalManager,
) -> None:
    t = await start(terms, "sh", ["-c", "sleep 30 & echo $!"])
    assert await t.wait() == OK  # does not wait for the background child
    pid = int((await t.output())["output"])
    assert alive(pid)
    await t.release()
    await until(lambda: not alive(pid), 2)


SPAWN_FAMILY = "sleep 30 & echo $!; sleep 30 & echo $!; echo $$; wait"


async def start_family(manager: TerminalManager, session_id: str = SID) -> tuple[Term, list[int]]:
    """A shell with two background sleepers, once all three have printed their pids."""
    t = await start(manager, "sh", ["-c", SPAWN_FAMILY], sessionId=session_id)
    pids: list[int] = []
    async with asyncio.timeout(5):
        while len(pids) < 3:  # each pid is one whole line (one write)
            pids = [int(x) for x in (await t.output())["output"].split()]
            await asyncio.sleep(0.01)
    assert all(alive(pid) for pid in pids)
    return t, pids


@pytest.mark.parametrize("how", ["kill", "release", "close_session", "close_all"])
async def test_no_process_is_left_behind(terms: TerminalManager, how: str) -> None:
    t, pids = await start_family(terms)
    bystander, bystander_pids = await start_family(terms, "sess_other")
    if how == "kill":
        await t.kill()
        assert (await t.output())["exitStatus"] == KILLED
    elif how == "release":
        await t.release()
    elif how == "close_session":
        await terms.close_session(SID)
        with pytest.raises(InvalidParams, match="unknown terminal"):
            await t.output()
    else:
        await terms.close_all()
    await until(lambda: not any(alive(pid) for pid in pids), 2)
    if how == "close_all":
        await until(lambda: not any(alive(pid) for pid in bystander_pids), 2)
    else:
        assert all(alive(pid) for pid in bystander_pids)
        assert "exitStatus" not in await bystander.output()


async def test_hooks_that_raise_do_not_break_terminals(tmp_path: Path) -> None:
    def boom(*args: Any) -> None:
        raise RuntimeError("display bug")

    manager = TerminalManager(PathPolicy([tmp_path]), on_output=boom, on_exit=boom)
    t = await start(manager, "echo", ["fine"])
    assert await t.wait() == OK
    assert (await t.output())["output"] == "fine\n"
    await manager.close_all()
