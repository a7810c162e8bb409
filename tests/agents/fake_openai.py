"""A scripted fake of the OpenAI Responses API (``POST /v1/responses``, server-sent events), so
``codex-acp`` runs fully offline.

The script is a list of steps: each is a function call (a tool name and its arguments) or, last,
a text answer. Which step answers a request is read from the request itself (how many
``function_call_output`` items its input already holds), so a retried request gets the same
answer. Every request body is kept in ``requests``.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

USAGE = {
    "input_tokens": 1,
    "output_tokens": 1,
    "total_tokens": 2,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens_details": {"reasoning_tokens": 0},
}


@dataclass
class FakeOpenAI:
    steps: list[tuple[str, dict[str, Any]]]
    """(tool name, arguments) per step; after the last, ``final_text`` ends the turn."""
    final_text: str = "Done."
    requests: list[dict[str, Any]] = field(default_factory=list)
    base_url: str = ""

    def answer(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        self.requests.append(body)
        items = body.get("input") if isinstance(body.get("input"), list) else []
        done = sum(
            1 for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"
        )
        if done < len(self.steps):
            name, arguments = self.steps[done]
            item: dict[str, Any] = {
                "type": "function_call",
                "id": f"fc_{done}",
                "call_id": f"call_{done}",
                "name": name,
                "arguments": json.dumps(arguments),
                "status": "completed",
            }
        else:
            text = {"type": "output_text", "text": self.final_text, "annotations": []}
            item = {"type": "message", "id": "msg_final", "role": "assistant"}
            item.update(status="completed", content=[text])
        response = {"id": f"resp_{done}", "object": "response", "model": "fake", "usage": USAGE}
        return [
            {
                "type": "response.created",
                "response": {**response, "status": "in_progress", "output": []},
            },
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {
                "type": "response.completed",
                "response": {**response, "status": "completed", "output": [item]},
            },
        ]

    def tool_names(self) -> set[str]:
        return {
            str(t.get("name"))
            for r in self.requests
            for t in r.get("tools", [])
            if isinstance(t, dict) and t.get("name")
        }


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return None

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw)
            except ValueError:
                body = {}
            events = fake.answer(body if isinstance(body, dict) else {})
            data = b"".join(
                f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events
            )
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@contextlib.contextmanager
def running_fake_openai(steps: list[tuple[str, dict[str, Any]]]) -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI(steps)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def patch(path: str, old: str, new: str) -> str:
    """An ``apply_patch`` command line (codex runs it itself) replacing one line."""
    return (
        "apply_patch <<'EOF'\n*** Begin Patch\n"
        f"*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\nEOF\n"
    )
