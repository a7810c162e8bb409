"""Set-up (c): acp-editor between the agent and a synthetic editor.

The editor is a minimal LSP client (Content-Length framing over the sidecar's stdio) that
declares the ``stream`` and ``follow`` features, creates a session with ``acp/newSession``, sends
``acp/prompt`` and stamps each ``acp/sessionChanged`` notification as it is parsed; every change in
it is matched back to the agent's send stamp. The sidecar buffers changes for one frame (about
16 ms) before it sends them, so this set-up's latency includes that wait by design.

After the prompt's answer the editor keeps reading for a moment: the last frame of changes may
still be on its way. CPU time and peak RSS (VmHWM) are the sidecar process's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from measure import Tally, percentile, proc_cpu_s, proc_peak_rss_mb
from stamps import from_change
from workload import Workload

SETUP_TIMEOUT_S = 30.0
PROMPT_TIMEOUT_S = 120.0
TAIL_S = 2.0
"""How long to wait, after the prompt's answer, for changes still in flight."""
FEATURES = ["stream", "follow"]
SIDECAR_ENV = "ACP_BENCH_SIDECAR"
"""Overrides how the sidecar is started (default ``python -m acp_editor``), e.g. to profile it."""


class LspClient:
    """Just enough of an LSP client: requests with futures, notifications to one callback, and
    an empty answer to any request the server sends."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        self._stdin = proc.stdin
        self._stdout = proc.stdout
        self._ids = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self.on_notification: Callable[[str, Any, int], None] | None = None
        self.on_response: Callable[[], None] | None = None
        self.server_requests: dict[str, int] = {}
        self.answer: Callable[[str, Any], Any] = lambda method, params: None
        """The answer to a request the server sends (default: null)."""

    async def initialize(self, root: Path, timeout: float) -> None:
        """``initialize`` (a rich editor declaring ``FEATURES``, ``root`` its one folder) and
        ``initialized``."""
        uri = root.as_uri()
        await self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri,
                "workspaceFolders": [{"uri": uri, "name": "bench"}],
                "capabilities": {},
                "initializationOptions": {"acp": {"features": FEATURES}},
            },
            timeout,
        )
        await self.notify("initialized", {})

    async def shutdown(self, proc: asyncio.subprocess.Process, timeout: float) -> None:
        """``shutdown`` and ``exit``, then the sidecar's own end."""
        await self.request("shutdown", None, timeout)
        await self.notify("exit", None)
        await asyncio.wait_for(proc.wait(), timeout)

    async def _write(self, message: dict[str, Any]) -> None:
        body = json.dumps(message, separators=(",", ":")).encode()
        self._stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await self._stdin.drain()

    async def request(self, method: str, params: Any, timeout: float) -> Any:
        self._ids += 1
        req_id = self._ids
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[req_id] = future
        await self._write({"jsonrpc": "2.0", "id": req_id, "method": method, "params": params})
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(req_id, None)

    async def notify(self, method: str, params: Any) -> None:
        await self._write({"jsonrpc": "2.0", "method": method, "params": params})

    async def read_loop(self) -> None:
        clock = time.monotonic_ns
        while True:
            try:
                header = await self._stdout.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            length = 0
            for line in header.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            message = json.loads(await self._stdout.readexactly(length))
            now = clock()
            method = message.get("method")
            if method is None:
                if self.on_response is not None:
                    self.on_response()
                future = self._pending.get(message.get("id"))
                if future is not None and not future.done():
                    if "error" in message:
                        future.set_exception(RuntimeError(f"server error: {message['error']}"))
                    else:
                        future.set_result(message.get("result"))
            elif "id" in message:
                self.server_requests[method] = self.server_requests.get(method, 0) + 1
                result = self.answer(method, message.get("params"))
                await self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif self.on_notification is not None:
                self.on_notification(method, message.get("params"), now)
        for future in self._pending.values():
            if not future.done():
                future.set_exception(RuntimeError("the sidecar closed its output"))


class Editor:
    """What the synthetic editor counts while the flood runs."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.prompting = False
        self.answered = False
        self.received_at_answer = 0
        self.late = 0
        """Updates that arrived after the prompt's answer."""
        self.notifications: dict[str, int] = {}
        self.changes = 0
        self.batch_tail_ns: list[int] = []
        """Per notification, the latency of its last stamped change: that update waited least
        in the sidecar's frame buffer, so this approximates the sidecar's cost without the
        coalescing wait (give or take one paced interval)."""
        self.all_in = asyncio.Event()

    def on_response(self) -> None:
        """Called as any response is read; while prompting, the only one due is the prompt's."""
        if self.prompting and not self.answered:
            self.answered = True
            self.received_at_answer = self.tally.received

    def on_notification(self, method: str, params: Any, now: int) -> None:
        self.notifications[method] = self.notifications.get(method, 0) + 1
        if method != "acp/sessionChanged":
            return
        record = self.tally.record
        last = None
        for change in params["changes"]:
            self.changes += 1
            stamp = from_change(change)
            if stamp is not None:
                record(stamp[0], stamp[1], now)
                last = stamp
                if self.answered:
                    self.late += 1
        if last is not None:
            self.batch_tail_ns.append(now - last[1])
        if self.tally.received + self.tally.duplicates >= self.tally.expected:
            self.all_in.set()


async def stopped(proc: asyncio.subprocess.Process, reader: asyncio.Future[Any]) -> None:
    """Whatever happened: no sidecar left running, its reader done."""
    if proc.returncode is None:
        proc.kill()
        await proc.wait()
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader


async def _run(work: Workload, stderr: IO[bytes]) -> dict[str, Any]:
    sidecar = shlex.split(os.environ.get(SIDECAR_ENV, "")) or [sys.executable, "-m", "acp_editor"]
    argv = [
        *sidecar,
        "--stdio",
        f"--protocol-version={work.protocol_version}",
        "--",
        *work.agent_argv(),
    ]
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=stderr,
        cwd=work.workspace,
        limit=1 << 24,
    )
    client = LspClient(proc)
    editor = Editor(Tally(work.n))
    client.on_notification = editor.on_notification
    client.on_response = editor.on_response
    reader = asyncio.ensure_future(client.read_loop())
    try:
        await client.initialize(Path(work.workspace), SETUP_TIMEOUT_S)
        await client.request("acp/newSession", {}, SETUP_TIMEOUT_S)
        cpu = proc_cpu_s(proc.pid)
        editor.prompting = True
        try:
            result = await client.request("acp/prompt", {"prompt": "flood"}, PROMPT_TIMEOUT_S)
        except TimeoutError:
            result = {"stopReason": f"no answer within {PROMPT_TIMEOUT_S:g} s"}
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(editor.all_in.wait(), TAIL_S)
        cpu = proc_cpu_s(proc.pid) - cpu
        rss = proc_peak_rss_mb(proc.pid)
        await client.shutdown(proc, SETUP_TIMEOUT_S)
    finally:
        await stopped(proc, reader)
    batches = editor.notifications.get("acp/sessionChanged", 0)
    tails = sorted(editor.batch_tail_ns)
    return {
        **editor.tally.summary(),
        "cpu_s": cpu,
        "rss_mb": rss,
        "stop_reason": (result or {}).get("stopReason"),
        "notifications": editor.notifications,
        "server_requests": client.server_requests,
        "changes": editor.changes,
        "changes_per_notification": editor.changes / batches if batches else 0.0,
        "batch_tail_p50_ms": percentile(tails, 50),
        "batch_tail_p99_ms": percentile(tails, 99),
        "received_at_answer": editor.received_at_answer,
        "late_after_answer": editor.late,
        "sidecar_exit": proc.returncode,
    }


def run(work: Workload) -> dict[str, Any]:
    stderr_path = Path(work.report).with_suffix(".sidecar-stderr.log")
    with open(stderr_path, "wb") as stderr:
        result = asyncio.run(_run(work, stderr))
    result["sidecar_stderr_tail"] = stderr_path.read_text(errors="replace").strip()[-600:]
    return result
