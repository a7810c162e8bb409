"""An ACP agent that misbehaves on purpose, one way per ``--mode``, for the hardening tests.

It speaks just enough ACP to get a session, then on ``session/prompt`` does its mode's mischief:

* ``garbage``: garbage lines, a 12 MB line, invalid UTF-8, JSON that is no message, a response
  to an id never sent, a notification for an unknown session; then a valid update and a normal
  answer, proving the session went on.
* ``flood``: ``--count`` message chunks and tool-call updates as fast as it can, then answers.
* ``probe``: requests the client must refuse (an unknown terminal, an unknown method, a read
  outside the workspace, two requests with the same id); the answers are written to ``--record``.
* ``crash``: asks for permission, then dies (exit 3) with a last word on stderr before any answer.
* ``hang``: never answers the prompt (and ignores ``session/cancel``).
* ``hang-init``: never answers ``initialize``.

Plain blocking stdio on purpose: a misbehaving agent should not need the project's own code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

OUT = sys.stdout.buffer


def send(message: dict[str, Any]) -> None:
    OUT.write(json.dumps(message).encode() + b"\n")
    OUT.flush()


def raw(data: bytes) -> None:
    OUT.write(data)
    OUT.flush()


def update(session: str, body: dict[str, Any]) -> None:
    send(
        {
            "jsonrpc": "2.0",
            "method": "session/update",
            "params": {"sessionId": session, "update": body},
        }
    )


def read_message() -> dict[str, Any] | None:
    line = sys.stdin.buffer.readline()
    if not line:
        return None
    return json.loads(line)


def wait_response(req_id: Any) -> dict[str, Any]:
    while True:
        message = read_message()
        if message is None:
            sys.exit(0)
        if message.get("id") == req_id and "method" not in message:
            return message


def mischief(mode: str, session: str, cwd: str, count: int, record: str | None) -> str:
    if mode == "garbage":
        raw(b"this is not json\n\n   \n")
        raw(
            b'{"jsonrpc": "2.0", "method": "session/update", "params": '
            + b"x" * (12 << 20)
            + b"}\n"
        )
        raw(b"\xff\xfe\x00 not utf-8 \xc3\x28\n")
        raw(b'[1, 2, 3]\n"just a string"\n{"jsonrpc": "2.0"}\n')
        send({"jsonrpc": "2.0", "id": 987654, "result": {"surprise": True}})
        update(
            "no-such-session",
            {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "lost"}},
        )
        update(
            session,
            {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": "still here"},
            },
        )
    elif mode == "flood":
        for i in range(count):
            if i % 10 == 9:
                update(
                    session,
                    {
                        "sessionUpdate": "tool_call",
                        "toolCallId": f"t{i}",
                        "title": f"step {i}",
                        "kind": "read",
                        "status": "completed",
                    },
                )
            else:
                update(
                    session,
                    {
                        "sessionUpdate": "agent_message_chunk",
                        "content": {"type": "text", "text": f"<{i}>"},
                    },
                )
    elif mode == "probe":
        answers = {}
        probes = {
            "unknown terminal": (
                "terminal/output",
                {"sessionId": session, "terminalId": "never-made"},
            ),
            "unknown method": ("no/such_method", {"sessionId": session}),
            "outside the workspace": (
                "fs/read_text_file",
                {"sessionId": session, "path": "/etc/passwd"},
            ),
            "relative path": ("fs/read_text_file", {"sessionId": session, "path": "hello.py"}),
            "unknown session": (
                "fs/read_text_file",
                {"sessionId": "nope", "path": os.path.join(cwd, "x")},
            ),
        }
        for n, (name, (method, params)) in enumerate(probes.items(), start=100):
            send({"jsonrpc": "2.0", "id": n, "method": method, "params": params})
            answers[name] = wait_response(n)
        # Two requests with one id while the first is in flight: exactly one answer comes.
        send(
            {
                "jsonrpc": "2.0",
                "id": "dup",
                "method": "session/request_permission",
                "params": {
                    "sessionId": session,
                    "toolCall": {"toolCallId": "d1", "title": "Twice"},
                    "options": [{"optionId": "ok", "name": "Allow", "kind": "allow_once"}],
                },
            }
        )
        send(
            {
                "jsonrpc": "2.0",
                "id": "dup",
                "method": "fs/read_text_file",
                "params": {"sessionId": session, "path": os.path.join(cwd, "hello.py")},
            }
        )
        answers["duplicate id"] = wait_response("dup")
        if record:
            with open(record, "w", encoding="utf-8") as f:
                json.dump(answers, f)
    elif mode == "crash":
        send(
            {
                "jsonrpc": "2.0",
                "id": "perm",
                "method": "session/request_permission",
                "params": {
                    "sessionId": session,
                    "toolCall": {
                        "toolCallId": "c1",
                        "title": "Delete everything",
                        "kind": "delete",
                    },
                    "options": [
                        {"optionId": "ok", "name": "Allow", "kind": "allow_once"},
                        {"optionId": "no", "name": "Reject", "kind": "reject_once"},
                    ],
                },
            }
        )
        time.sleep(0.5)
        sys.stderr.write("fatal: the model went away\n")
        sys.stderr.flush()
        os._exit(3)
    elif mode == "hang":
        while read_message() is not None:
            pass
        sys.exit(0)
    return "end_turn"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--record")
    args = parser.parse_args()
    cwd = os.getcwd()
    while (message := read_message()) is not None:
        method, req_id = message.get("method"), message.get("id")
        if method == "initialize":
            if args.mode == "hang-init":
                continue
            send(
                {
                    "jsonrpc": "2.0",
                    "id": req_id,
                    "result": {
                        "protocolVersion": 1,
                        "agentCapabilities": {},
                        "agentInfo": {"name": "misbehaving"},
                    },
                }
            )
        elif method == "session/new":
            cwd = message["params"]["cwd"]
            send({"jsonrpc": "2.0", "id": req_id, "result": {"sessionId": "s1"}})
        elif method == "session/prompt":
            stop = mischief(args.mode, "s1", cwd, args.count, args.record)
            send({"jsonrpc": "2.0", "id": req_id, "result": {"stopReason": stop}})
        elif req_id is not None and "method" in message:
            send({"jsonrpc": "2.0", "id": req_id, "error": {"code": -32601, "message": "no"}})


if __name__ == "__main__":
    main()
