"""Serving the agent's ``terminal/*`` requests: commands run in their own process group.

Each terminal's stdout and stderr share one pipe that the event loop reads for as long as it is
open, so a command printing megabytes never blocks on a full pipe; only the last
``outputByteLimit`` bytes are kept. The whole process group is killed on ``terminal/kill``,
``terminal/release``, the end of the session and shutdown, so a command's background children
never outlive it.

"Exited" means the command's own process (the group leader) exited and its output was drained:
the pipe closed, or a short grace passed because a background child still holds it open.

An agent elsewhere (a sandbox, a container, another machine) has its commands run where it is
(``Elsewhere``): a command prefix of the user's runs the command line there, in the agent's
path of the folder.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import secrets
import shlex
import signal
from asyncio.subprocess import DEVNULL
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp_editor import procs
from acp_editor.errors import InvalidParams
from acp_editor.log import get_logger
from acp_editor.protocol.acp import obj, optional_uint, require_str

if TYPE_CHECKING:
    from acp_editor.services.paths import PathPolicy

log = get_logger(__name__)

DEFAULT_OUTPUT_LIMIT = 1 << 20
MAX_OUTPUT_LIMIT = 64 << 20
"""A cap on ``outputByteLimit`` whatever the agent asks: the output is held in memory."""
EXIT_DRAIN_GRACE = 0.25
"""Seconds to wait for output still in the pipe after the command's process exits."""
KILL_TIMEOUT = 5.0

OutputHook = Callable[[str, str, str], None]
"""``(session_id, terminal_id, text)``: a chunk of live output, decoded."""
ExitHook = Callable[[str, str, dict[str, Any]], None]
"""``(session_id, terminal_id, exit_status)``: called once, when the command has exited."""
_Utf8Decoder = codecs.getincrementaldecoder("utf-8")


def _exit_status(returncode: int | None) -> dict[str, Any]:
    """asyncio's negative return code means "killed by that signal"; ACP wants its name."""
    if returncode is None or returncode >= 0:
        return {"exitCode": returncode, "signal": None}
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"SIG{-returncode}"
    return {"exitCode": None, "signal": name}


class _Output:
    """The retained tail of a terminal's output, cut from the front at a character boundary."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.truncated = False
        self._buf = bytearray()

    def append(self, data: bytes) -> None:
        self._buf += data
        cut = len(self._buf) - self.limit
        if cut <= 0:
            return
        self.truncated = True
        # Skip the continuation bytes of a character split by the cut (at most 3 in UTF-8, so
        # binary junk cannot make us drop more).
        for _ in range(3):
            if cut < len(self._buf) and self._buf[cut] & 0xC0 == 0x80:
                cut += 1
        del self._buf[:cut]  # O(1) amortized for a bytearray's front

    def text(self, *, final: bool) -> str:
        """The text; unless ``final``, an incomplete character at the end waits for its rest."""
        return _Utf8Decoder("replace").decode(bytes(self._buf), final)


class _Terminal:
    def __init__(
        self, terminal_id: str, session_id: str, proc: asyncio.subprocess.Process, limit: int
    ) -> None:
        self.id = terminal_id
        self.session_id = session_id
        self.proc = proc
        self.output = _Output(limit)
        self.decoder = _Utf8Decoder("replace")  # for the live stream, independent of truncation
        self.pipe_closed = asyncio.Event()
        self.exited = asyncio.Event()
        self.exit_status: dict[str, Any] | None = None
        self.transport: asyncio.BaseTransport | None = None
        self.watcher: asyncio.Task[None] | None = None


class _Pipe(asyncio.Protocol):
    def __init__(self, manager: TerminalManager, term: _Terminal) -> None:
        self._manager = manager
        self._term = term

    def data_received(self, data: bytes) -> None:
        self._manager._on_data(self._term, data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._manager._on_pipe_closed(self._term)


@dataclass(frozen=True)
class Elsewhere:
    """Where an agent that is not on this machine's file system runs its commands: ``prefix``
    runs the shell line given as its last argument there (``["ssh", "host"]``, ``["docker",
    "exec", "-i", "ctr", "sh", "-c"]``, ``["bwrap", ..., "sh", "-c"]``); ``agent_path`` is the
    agent's path of a folder of ours (None: it has none)."""

    prefix: list[str]
    agent_path: Callable[[str], str | None]

    def argv(self, command: list[str], line: bool, added: dict[str, str], cwd: str) -> list[str]:
        """What runs here: the prefix, and a line that enters the agent's path of ``cwd``, sets
        the variables the agent asked for, and runs ``command`` (``line``: a whole command
        line, as the agent gave it, else a program and its arguments)."""
        where = self.agent_path(cwd)
        if where is None:
            raise InvalidParams(f"cwd {cwd} has no path where the agent runs")
        parts = [f"cd {shlex.quote(where)}"]
        parts += [f"export {name}={shlex.quote(value)}" for name, value in added.items()]
        parts.append(command[-1] if line else shlex.join(command))
        return [*self.prefix, " && ".join(parts)]


class TerminalManager:
    """Every terminal of every session, by id. Ids are unguessable and scoped to the session
    that created them: an agent never reaches another session's (or an invented) terminal."""

    def __init__(
        self,
        policy: PathPolicy,
        *,
        shell: str | None = None,
        default_output_limit: int = DEFAULT_OUTPUT_LIMIT,
        env: Mapping[str, str] | None = None,
        on_output: OutputHook | None = None,
        on_exit: ExitHook | None = None,
        elsewhere: Elsewhere | None = None,
    ) -> None:
        self.policy = policy
        self._elsewhere = elsewhere
        self._env = dict(env) if env is not None else None
        self._shell = shell or (os.environ if env is None else env).get("SHELL") or "/bin/sh"
        self._default_limit = default_output_limit
        self.on_output = on_output
        self.on_exit = on_exit
        self._terminals: dict[str, _Terminal] = {}

    async def create(self, params: Any, *, default_cwd: str) -> dict[str, Any]:
        """``terminal/create`` → ``{"terminalId"}`` as soon as the command has started.
        ``default_cwd`` is the session's directory, chosen by us, so only ``cwd`` is policed."""
        p = obj(params)
        session_id = require_str(p, "sessionId")
        argv = self._argv(require_str(p, "command"), p.get("args"))
        env = self._command_env(p.get("env"))
        limit = optional_uint(p, "outputByteLimit")
        limit = min(self._default_limit if limit is None else limit, MAX_OUTPUT_LIMIT)
        cwd = await asyncio.to_thread(self._cwd, p.get("cwd"), default_cwd, session_id)
        if self._elsewhere is not None:
            line = p.get("args") is None or argv[:2] == [self._shell, "-c"]
            added = {k: v for k, v in env.items() if self._base_env().get(k) != v}
            argv = self._elsewhere.argv(argv, line, added, cwd)
        r, w = os.pipe()  # stdout and stderr share it, interleaved as a terminal shows them
        try:
            proc = await procs.spawn(argv, cwd=cwd, env=env, stdin=DEVNULL, stdout=w, stderr=w)
        except BaseException as exc:
            os.close(r)
            if not isinstance(exc, OSError | ValueError):  # cancelled: just don't leak the fd
                raise
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise InvalidParams(f"cannot run {argv[0]!r}: {reason}") from None
        finally:
            os.close(w)  # the child has its copy; EOF comes when the last holder exits
        term = _Terminal(f"term_{secrets.token_hex(8)}", session_id, proc, limit)
        try:
            pipe = os.fdopen(r, "rb", buffering=0)
            term.transport, _ = await asyncio.get_running_loop().connect_read_pipe(
                lambda: _Pipe(self, term), pipe
            )
        except BaseException:
            procs.signal_group(proc.pid, signal.SIGKILL)
            raise
        term.watcher = asyncio.create_task(self._watch(term), name=f"terminal {term.id}")
        self._terminals[term.id] = term
        log.debug("terminal %s started pid %d: %s", term.id, proc.pid, argv)
        return {"terminalId": term.id}

    async def output(self, params: Any) -> dict[str, Any]:
        """``terminal/output`` → ``{"output", "truncated"}``, plus ``exitStatus`` once exited."""
        term = self._lookup(params)
        text = term.output.text(final=term.pipe_closed.is_set())
        result: dict[str, Any] = {"output": text, "truncated": term.output.truncated}
        if term.exit_status is not None:
            result["exitStatus"] = dict(term.exit_status)
        return result

    async def wait_for_exit(self, params: Any) -> dict[str, Any]:
        """``terminal/wait_for_exit`` → ``{"exitCode", "signal"}``. No deadline of its own: the
        agent bounds it (``terminal/kill`` or cancelling the request)."""
        term = self._lookup(params)
        await term.exited.wait()
        assert term.exit_status is not None
        return dict(term.exit_status)

    async def kill(self, params: Any) -> dict[str, Any]:
        """``terminal/kill`` → ``{}``; the id stays valid for ``output`` and ``wait_for_exit``."""
        await self._kill(self._lookup(params))
        return {}

    async def release(self, params: Any) -> dict[str, Any]:
        """``terminal/release`` → ``{}``: kill if running, then forget the id."""
        await self._close(self._lookup(params))
        return {}

    async def close_session(self, session_id: str) -> None:
        """Kill and forget the session's terminals (the session ended or was closed)."""
        terms = [t for t in self._terminals.values() if t.session_id == session_id]
        await asyncio.gather(*(self._close(t) for t in terms))

    async def close_all(self) -> None:
        """Kill and forget every terminal (sidecar shutdown)."""
        await asyncio.gather(*(self._close(t) for t in list(self._terminals.values())))

    def _lookup(self, params: Any) -> _Terminal:
        p = obj(params)
        session_id = require_str(p, "sessionId")
        terminal_id = require_str(p, "terminalId")
        term = self._terminals.get(terminal_id)
        if term is None:
            raise InvalidParams(f"unknown terminal: {terminal_id!r}", {"terminalId": terminal_id})
        if term.session_id != session_id:
            raise InvalidParams(f"terminal {terminal_id!r} belongs to another session")
        return term

    def _argv(self, command: str, args: Any) -> list[str]:
        """Without ``args`` real agents send a whole command line, so it goes to the shell; so
        does ``args: []`` with a command that holds whitespace (no executable is named so)."""
        if not command or "\x00" in command:
            raise InvalidParams(f"command must be a non-empty string without NUL: {command!r}")
        if args is None or (args == [] and any(c.isspace() for c in command)):
            return [self._shell, "-c", command]
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise InvalidParams("'args' must be an array of strings")
        if any("\x00" in a for a in args):
            raise InvalidParams("'args' must not contain NUL bytes")
        return [command, *args]

    def _base_env(self) -> Mapping[str, str]:
        return os.environ if self._env is None else self._env

    def _command_env(self, raw: Any) -> dict[str, str]:
        env = dict(self._base_env())
        if raw is None:
            return env
        if not isinstance(raw, list):
            raise InvalidParams("'env' must be an array of {name, value}")
        for i, item in enumerate(raw):
            name = item.get("name") if isinstance(item, dict) else None
            value = item.get("value") if isinstance(item, dict) else None
            if not isinstance(name, str) or not isinstance(value, str):
                raise InvalidParams(f"env[{i}] must be an object with string 'name' and 'value'")
            if not name or "=" in name or "\x00" in name or "\x00" in value:
                raise InvalidParams(f"env[{i}] is not a valid variable: {name!r}")
            env[name] = value
        return env

    def _cwd(self, raw: Any, default_cwd: str, session_id: str) -> str:  # in a worker thread
        if raw is None:
            path = Path(default_cwd)
        else:
            path = self.policy.check(raw, what="cwd", session=session_id)
        if not path.is_dir():
            raise InvalidParams(f"cwd is not a directory: {path}")
        return str(path)

    def _on_data(self, term: _Terminal, data: bytes) -> None:
        term.output.append(data)
        self._emit(term, term.decoder.decode(data))

    def _on_pipe_closed(self, term: _Terminal) -> None:
        self._emit(term, term.decoder.decode(b"", True))
        term.pipe_closed.set()

    def _emit(self, term: _Terminal, text: str) -> None:
        if text and self.on_output is not None:
            try:
                self.on_output(term.session_id, term.id, text)
            except Exception:  # a display bug must not stop the output being kept
                log.exception("on_output hook failed for terminal %s", term.id)

    async def _watch(self, term: _Terminal) -> None:
        try:
            await term.proc.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(term.pipe_closed.wait(), EXIT_DRAIN_GRACE)
        finally:  # even when cancelled, so no wait_for_exit is left hanging
            term.exit_status = _exit_status(term.proc.returncode)
            term.exited.set()
        log.debug("terminal %s exited: %s", term.id, term.exit_status)
        if self.on_exit is not None:
            try:
                self.on_exit(term.session_id, term.id, dict(term.exit_status))
            except Exception:
                log.exception("on_exit hook failed for terminal %s", term.id)

    async def _kill(self, term: _Terminal) -> None:
        """SIGKILL the group (also after the leader exited: its background children may live
        on), then wait until the exit is recorded."""
        pgid = term.proc.pid  # the leader of its own group (procs.spawn)
        if term.proc.returncode is None or procs.group_alive(pgid):
            procs.signal_group(pgid, signal.SIGKILL)
        try:
            await asyncio.wait_for(term.exited.wait(), KILL_TIMEOUT)
        except TimeoutError:
            log.warning("terminal %s: process %d did not die after SIGKILL", term.id, pgid)
        procs.release_if_gone(pgid)

    async def _close(self, term: _Terminal) -> None:
        self._terminals.pop(term.id, None)  # first: a concurrent request now sees "unknown"
        await self._kill(term)
        if term.transport is not None:
            term.transport.close()
        if term.watcher is not None and not term.watcher.done():
            term.watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await term.watcher
