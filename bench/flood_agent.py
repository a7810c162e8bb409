"""A tiny ACP agent that floods its client with session updates (stdlib only, no asyncio).

It answers ``initialize`` and ``session/new``; on ``session/prompt`` it writes ``--n``
``session/update`` notifications as fast as the pipe takes them (or ``--rate`` per second), each
stamped with its sequence number and send time (see ``stamps``), then answers the prompt. The
stream is a deterministic mix (``--mix``, ``--seed``) of agent text chunks, ``tool_call`` with a
location, ``tool_call_update`` (status, moving location, finally ``completed`` with raw output) and,
only when protocol version 2 was negotiated, v2 ``tool_call_content_chunk``. Every client that
negotiates the same version gets byte-for-byte the same stream apart from the stamps.

    python bench/flood_agent.py --n 20000 --mix text=50,tool_call=10,tool_call_update=25,content=15
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from stamps import meta_stamp, text_stamp

KINDS = ("text", "tool_call", "tool_call_update", "content")
DEFAULT_MIX = "text=50,tool_call=10,tool_call_update=25,content=15"
LOREM = (
    "Looking at the failing test, the fixture builds the session before the agent has "
    "answered initialize, so the first update lands on a session nobody registered yet. "
)
UPDATES_PER_CALL = 3
"""``tool_call_update``s a call gets before the one that completes it."""


def parse_mix(text: str) -> dict[str, int]:
    """``text=50,tool_call=10,...`` as weights; kinds left out weigh 0."""
    mix = dict.fromkeys(KINDS, 0)
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = part.partition("=")
        if name not in mix or not weight.isdigit():
            raise ValueError(f"bad mix item {part!r}: use KIND=WEIGHT with KIND in {KINDS}")
        mix[name] = int(weight)
    if not any(mix.values()):
        raise ValueError("the mix needs at least one positive weight")
    return mix


@dataclass
class Call:
    call_id: str
    path: str
    line: int
    updates: int = 0


@dataclass
class Plan:
    """The whole stream minus the stamps, built before the first update is timed."""

    steps: list[tuple[str, Any]] = field(default_factory=list)


def build_plan(n: int, mix: dict[str, int], version: int, seed: int, cwd: str) -> Plan:
    weights = dict(mix)
    if version < 2:
        weights["content"] = 0  # v1 has no content chunks: the other kinds fill the stream
    if not any(weights.values()):
        weights["text"] = 1
    rng = random.Random(seed)
    kinds = rng.choices(list(weights), weights=list(weights.values()), k=n)
    open_calls: list[Call] = []
    plan = Plan()
    made = 0
    for kind in kinds:
        if kind in ("tool_call_update", "content") and not open_calls:
            kind = "tool_call"  # nothing to update yet: start a call instead
        if kind == "text":
            start = rng.randrange(len(LOREM) - 80)
            plan.steps.append(("text", LOREM[start : start + rng.randrange(20, 80)]))
        elif kind == "tool_call":
            made += 1
            call = Call(f"call_{made}", f"{cwd}/src/mod_{made % 40}.py", 1 + (made * 37) % 500)
            open_calls.append(call)
            plan.steps.append(("tool_call", (call.call_id, call.path, call.line)))
        elif kind == "tool_call_update":
            call = open_calls[-1]
            call.updates += 1
            call.line += 5
            done = call.updates > UPDATES_PER_CALL
            if done:
                open_calls.pop()
            plan.steps.append(("tool_call_update", (call.call_id, call.path, call.line, done)))
        else:
            start = rng.randrange(len(LOREM) - 60)
            plan.steps.append(("content", (open_calls[-1].call_id, LOREM[start : start + 60])))
    return plan


def make_update(kind: str, data: Any, seq: int, now: int) -> dict[str, Any]:
    if kind == "text":
        return {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "text", "text": text_stamp(seq, now) + data},
        }
    if kind == "tool_call":
        call_id, path, line = data
        return {
            "sessionUpdate": "tool_call",
            "toolCallId": call_id,
            "title": f"Read {os.path.basename(path)}",
            "kind": "read",
            "status": "pending",
            "locations": [{"path": path, "line": line}],
            "rawInput": {"path": path},
            "_meta": meta_stamp(seq, now),
        }
    if kind == "tool_call_update":
        call_id, path, line, done = data
        update: dict[str, Any] = {
            "sessionUpdate": "tool_call_update",
            "toolCallId": call_id,
            "status": "completed" if done else "in_progress",
            "locations": [{"path": path, "line": line}],
            "_meta": meta_stamp(seq, now),
        }
        if done:
            update["rawOutput"] = {"lines": line, "truncated": False}
        return update
    call_id, text = data
    return {
        "sessionUpdate": "tool_call_content_chunk",
        "toolCallId": call_id,
        "content": {
            "type": "content",
            "content": {"type": "text", "text": text_stamp(seq, now) + text},
        },
    }


def write_all(data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(1, view) :]


def send(message: dict[str, Any]) -> None:
    write_all(json.dumps(message, separators=(",", ":")).encode() + b"\n")


class FloodAgent:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.mix = parse_mix(args.mix)
        self.version = 1
        self.cwd = os.getcwd()

    def handle(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params") or {}
        if "id" not in message:
            return  # session/cancel and friends: a flood is not interruptible
        if method == "initialize":
            offered = params.get("protocolVersion")
            self.version = 2 if offered == 2 else 1
            result: dict[str, Any] = {
                "protocolVersion": self.version,
                "agentCapabilities": {"loadSession": False},
                "agentInfo": {"name": "flood-agent", "version": "1"},
                "authMethods": [],
            }
        elif method == "session/new":
            self.cwd = str(params.get("cwd") or self.cwd)
            result = {"sessionId": "bench-1"}
        elif method == "session/prompt":
            result = self.flood(str(params.get("sessionId")))
        else:
            send(
                {
                    "jsonrpc": "2.0",
                    "id": message["id"],
                    "error": {"code": -32601, "message": f"method not found: {method}"},
                }
            )
            return
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def flood(self, session_id: str) -> dict[str, Any]:
        args = self.args
        plan = build_plan(args.n, self.mix, self.version, args.seed, self.cwd)
        interval = 1e9 / args.rate if args.rate > 0 else 0.0
        clock = time.monotonic_ns
        start = clock()
        for seq, (kind, data) in enumerate(plan.steps):
            if interval:
                delay = start + seq * interval - clock()
                if delay > 0:
                    time.sleep(delay / 1e9)
            now = clock()
            update = make_update(kind, data, seq, now)
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "session/update",
                    "params": {"sessionId": session_id, "update": update},
                }
            )
        end = clock()
        if args.report:
            kinds = [kind for kind, _ in plan.steps]
            report = {
                "n": len(plan.steps),
                "version": self.version,
                "start_ns": start,
                "end_ns": end,
                "kinds": {k: kinds.count(k) for k in KINDS},
            }
            with open(args.report, "a", encoding="utf-8") as out:
                out.write(json.dumps(report) + "\n")
        return {"stopReason": "end_turn"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20_000, help="updates per prompt")
    parser.add_argument("--mix", default=DEFAULT_MIX, help=f"weights (default {DEFAULT_MIX})")
    parser.add_argument("--rate", type=float, default=0.0, help="updates/s; 0 floods")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", help="append the send timings of each prompt here (JSON)")
    args = parser.parse_args()
    agent = FloodAgent(args)
    for line in sys.stdin.buffer:
        if line.strip():
            agent.handle(json.loads(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
