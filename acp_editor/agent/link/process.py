"""The agent's process: spawn, stderr drain, and the shutdown ladder.

stderr is read continuously into the log and a short tail is kept, so a chatty agent never blocks
on a full pipe and, when it dies, the user can be shown why.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
from collections.abc import Mapping, Sequence

from acp_editor import procs
from acp_editor.errors import AgentError
from acp_editor.log import get_logger

log = get_logger(f"{__name__}.stderr")  # the agent's own stderr lines

STDERR_TAIL_LINES = 40


class AgentProcess:
    """A running agent. Create with ``await AgentProcess.start(...)``."""

    def __init__(self, argv: Sequence[str], proc: asyncio.subprocess.Process) -> None:
        self.argv = list(argv)
        self.proc = proc
        self._tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())
        self.stopping = False
        """Set once we asked the agent to stop, so its exit is not reported as a crash."""

    @classmethod
    async def start(
        cls,
        argv: Sequence[str],
        *,
        cwd: str,
        extra_env: Mapping[str, str] | None = None,
        base_env: Mapping[str, str] | None = None,
    ) -> AgentProcess:
        if not argv:
            raise AgentError("no agent command given")
        env = dict(os.environ if base_env is None else base_env)
        env.update(extra_env or {})
        try:
            proc = await procs.spawn(argv, cwd=cwd, env=env)
        except FileNotFoundError as exc:
            raise AgentError(
                f"agent command not found: {argv[0]!r} (is it installed and on PATH?)"
            ) from exc
        except OSError as exc:
            raise AgentError(f"could not start the agent {argv[0]!r}: {exc}") from exc
        return cls(argv, proc)

    @property
    def stdout(self) -> asyncio.StreamReader:
        assert self.proc.stdout is not None
        return self.proc.stdout

    @property
    def stdin(self) -> asyncio.StreamWriter:
        assert self.proc.stdin is not None
        return self.proc.stdin

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def stderr_tail(self) -> str:
        return "\n".join(self._tail)

    async def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        if stream is None:
            return
        pending = b""
        while chunk := await stream.read(1 << 16):
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                self._log_line(line)
            if len(pending) > 8192:  # a huge line without newline: log it in pieces
                self._log_line(pending)
                pending = b""
        if pending:
            self._log_line(pending)

    def _log_line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace").rstrip("\r")
        if len(text) > 2000:
            text = f"{text[:2000]}... ({len(text)} chars)"
        self._tail.append(text)
        log.debug("%s", text)

    async def wait(self) -> int:
        code = await self.proc.wait()
        # Let the stderr reader finish so the tail holds the agent's last words.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._stderr_task), 1.0)
        return code

    async def shutdown(self, grace: float = 0.0, term_grace: float = 0.5) -> int | None:
        """Close stdin, wait ``grace``, SIGTERM the group, wait ``term_grace``, SIGKILL the
        group (``procs.terminate_group``)."""
        self.stopping = True
        with contextlib.suppress(Exception):
            self.stdin.close()
        code = await procs.terminate_group(self.proc, grace=grace, term_grace=term_grace)
        self._stderr_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._stderr_task
        return code
