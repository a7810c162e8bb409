"""Set-up (a), the limit: the agent's stdout read directly, one ``json.loads`` per line.

No sidecar, no framework and no event loop: blocking reads and a dict lookup for the stamp. No
real client can do less per update, so every other set-up is compared with this one.
"""

from __future__ import annotations

import json
import subprocess
import time
from typing import IO, Any

from measure import Tally, own_cpu_s, own_peak_rss_mb
from stamps import from_acp_update
from workload import Workload


def _send(stdin: IO[bytes], req_id: int, method: str, params: dict[str, Any]) -> None:
    message = {"jsonrpc": "2.0", "id": req_id, "method": method, "params": params}
    stdin.write(json.dumps(message).encode() + b"\n")
    stdin.flush()


def _answer(stdout: IO[bytes], req_id: int) -> Any:
    for line in stdout:
        message = json.loads(line)
        if message.get("id") == req_id and "method" not in message:
            if "error" in message:
                raise RuntimeError(f"the agent answered request {req_id} with {message['error']}")
            return message.get("result")
    raise RuntimeError(f"the agent closed its output before answering request {req_id}")


def run(work: Workload) -> dict[str, Any]:
    proc = subprocess.Popen(
        work.agent_argv(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=work.workspace
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    try:
        _send(stdin, 1, "initialize", {"protocolVersion": work.protocol_version})
        _answer(stdout, 1)
        _send(stdin, 2, "session/new", {"cwd": work.workspace, "mcpServers": []})
        session_id = _answer(stdout, 2)["sessionId"]
        tally = Tally(work.n)
        cpu = own_cpu_s()
        prompt = [{"type": "text", "text": "flood"}]
        _send(stdin, 3, "session/prompt", {"sessionId": session_id, "prompt": prompt})
        clock, record = time.monotonic_ns, tally.record
        stop_reason = None
        for line in stdout:
            message = json.loads(line)
            now = clock()
            if message.get("method") == "session/update":
                stamp = from_acp_update(message["params"]["update"])
                if stamp is not None:
                    record(stamp[0], stamp[1], now)
            elif message.get("id") == 3:
                stop_reason = (message.get("result") or {}).get("stopReason")
                break
        cpu = own_cpu_s() - cpu
    finally:
        stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return {
        **tally.summary(),
        "cpu_s": cpu,
        "rss_mb": own_peak_rss_mb(),
        "stop_reason": stop_reason,
    }
