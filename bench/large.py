"""Large single messages and the review's diffing, in one process: each next to its baseline.

    python bench/large.py [--repeat 5]

- a 10 MB ``session/update`` line decoded by the agent link (``framing.decode_line``), next to
  the standard library's ``json.loads`` of the same bytes (what the link used before orjson);
- a tool call with a 5 MB diff: applied to the session state, then its change encoded for the
  editor (``jsonio.dumps``), next to ``json.dumps`` of the same change;
- the review's hunks and anchors of a 10k-line file with 200 edits (``anchors_for``), next to
  ``difflib``'s own opcodes of the same lines (the diff underneath).

Medians of ``--repeat`` runs; a ratio below 1.00x means faster than the baseline.
"""

from __future__ import annotations

import argparse
import difflib
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from acp_editor import jsonio
from acp_editor.agent.link.framing import decode_line
from acp_editor.review.queue.anchor import anchors_for
from acp_editor.session import SessionState


def timed(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def big_line() -> bytes:
    text = ("lorem ipsum dolor sit amet, consectetur adipiscing elit " * 200_000)[: 10 << 20]
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    message = {"jsonrpc": "2.0", "method": "session/update", "params": {"update": update}}
    return json.dumps(message).encode()


def big_diff_update() -> dict[str, Any]:
    old = "".join(f"line {i}: the quick brown fox jumps over the lazy dog\n" for i in range(90_000))
    new = old.replace("lazy", "eager", 45_000)
    return {
        "sessionUpdate": "tool_call",
        "toolCallId": "call_big",
        "title": "Edit big.txt",
        "kind": "edit",
        "status": "completed",
        "content": [{"type": "diff", "path": "/w/big.txt", "oldText": old, "newText": new}],
    }


def ten_k_lines() -> tuple[str, str]:
    lines = [f"    value_{i} = compute({i}, factor={i % 7})\n" for i in range(10_000)]
    edited = list(lines)
    for k in range(0, 10_000, 50):
        edited[k] = edited[k].replace("compute", "recompute")
    return "".join(lines), "".join(edited)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    rows: list[tuple[str, float, str, float]] = []

    line = big_line()
    ours = timed(lambda: decode_line(line), repeat)
    rows.append(
        (
            f"decode a {len(line) >> 20} MB line",
            ours,
            "json.loads",
            timed(lambda: json.loads(line), repeat),
        )
    )

    update = big_diff_update()
    size = len(update["content"][0]["oldText"]) + len(update["content"][0]["newText"])

    def apply_and_encode() -> bytes:
        changes = SessionState("s").apply_update(update)
        return jsonio.dumps({"jsonrpc": "2.0", "method": "acp/sessionChanged", "params": changes})

    def apply_and_json() -> bytes:
        changes = SessionState("s").apply_update(update)
        message = {"jsonrpc": "2.0", "method": "acp/sessionChanged", "params": changes}
        return json.dumps(message).encode()

    rows.append(
        (
            f"apply + encode a {size >> 20} MB diff",
            timed(apply_and_encode, repeat),
            "json.dumps",
            timed(apply_and_json, repeat),
        )
    )

    old, new = ten_k_lines()
    a, b = old.splitlines(), new.splitlines()
    ours = timed(lambda: anchors_for(old, new), repeat)
    base = timed(lambda: difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes(), repeat)
    rows.append(("review hunks of 10k lines, 200 edits", ours, "difflib opcodes", base))

    print(f"command: python bench/large.py --repeat {repeat}")
    print(f"{'what':<40}{'ours ms':>10}  {'baseline':<18}{'ms':>8}  ratio")
    for what, ours_ms, base_name, base_ms in rows:
        print(
            f"{what:<40}{ours_ms:>10.1f}  {base_name:<18}{base_ms:>8.1f}  {ours_ms / base_ms:.2f}x"
        )


if __name__ == "__main__":
    main()
