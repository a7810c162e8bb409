"""A scripted fake of the Anthropic Messages API, so agents built on Claude run fully offline.

The server answers ``POST /v1/messages`` (streamed as server-sent events or as one JSON body) and
``POST /v1/messages/count_tokens``; any other route gets an Anthropic-shaped JSON error naming it.

Requests are either *main* (the agent's conversation: it offers tools) or *side* (titles, topic
checks and other small helper calls that offer none). Main requests are answered by a ``Script``,
which sees the whole request, so a script decides from the conversation itself (how many answers
it has given so far, the last ``tool_result``) instead of from a counter that a retried request
would skew. Side requests get a short, plausible text answer.

Tools are named by suffix in scripts (``"Edit"``): the server resolves that against the ``tools``
the request offers, preferring the client-backed ``mcp__acp__Edit`` over a built-in ``Edit``.
Every request is recorded in ``server.requests`` for assertions.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol

ACP_TOOL_PREFIX = "mcp__acp__"
DEFAULT_BASH_TIMEOUT_MS = 30_000
"""``mcp__acp__Bash`` rejects a call without a numeric ``timeout`` (milliseconds)."""


# -- what a script sees --------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolResult:
    """One ``tool_result`` block the agent sent back."""

    tool_use_id: str
    is_error: bool
    text: str


@dataclass(frozen=True)
class MessagesRequest:
    """One recorded request: its route and decoded JSON body (``{}`` when it had none)."""

    method: str
    path: str
    body: dict[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)
    """Lower-cased header names (``x-api-key``, ``anthropic-beta``, ...)."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        messages = self.body.get("messages")
        return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []

    @property
    def tool_names(self) -> list[str]:
        tools = self.body.get("tools")
        if not isinstance(tools, list):
            return []
        return [t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]

    @property
    def is_main(self) -> bool:
        """The agent's own conversation (it offers tools), as opposed to a helper call."""
        return self.path == "/v1/messages" and bool(self.tool_names)

    @property
    def answered_turns(self) -> int:
        """How many assistant messages the conversation already holds: the script's position."""
        return sum(1 for m in self.messages if m.get("role") == "assistant")

    def tool_named(self, suffix: str) -> str | None:
        """The offered tool called ``suffix`` or ``<prefix>__suffix``; ACP-backed ones first."""
        matches = [n for n in self.tool_names if n == suffix or n.endswith(f"__{suffix}")]
        matches.sort(key=lambda n: (not n.startswith(ACP_TOOL_PREFIX), n == suffix, n))
        return matches[0] if matches else None

    def tool_results(self) -> list[ToolResult]:
        """Every ``tool_result`` in the conversation, oldest first."""
        results = []
        for message in self.messages:
            content = message.get("content")
            if message.get("role") != "user" or not isinstance(content, list):
                continue
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    results.append(
                        ToolResult(
                            tool_use_id=str(block.get("tool_use_id", "")),
                            is_error=bool(block.get("is_error")),
                            text=_text_of(block.get("content")),
                        )
                    )
        return results

    def last_tool_result(self) -> ToolResult | None:
        """The newest ``tool_result``, if the last message carries one."""
        last = self.messages[-1:] if self.messages else []
        if not last or last[0].get("role") != "user":
            return None
        results = MessagesRequest(self.method, self.path, {"messages": last}).tool_results()
        return results[-1] if results else None

    def text(self) -> str:
        """All text of the system prompt and messages, for matching side requests."""
        return _text_of(self.body.get("system")) + "\n" + _text_of(self.messages)


def _text_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "\n".join(_text_of(item) for item in value)
    if isinstance(value, dict):
        if isinstance(value.get("text"), str):
            return str(value["text"])
        return _text_of(value.get("content"))
    return ""


# -- what a script answers -----------------------------------------------------------------------


@dataclass(frozen=True)
class ToolUse:
    """Call the offered tool whose name ends with ``tool`` (``"Read"``) with ``input``."""

    tool: str
    input: Mapping[str, Any]


@dataclass(frozen=True)
class Step:
    """One model answer: some text, then tool calls. With no tool calls it ends the turn."""

    text: str = ""
    tool_uses: tuple[ToolUse, ...] = ()


def say(text: str) -> Step:
    """A final answer: text, ``stop_reason: end_turn``."""
    return Step(text=text)


def call(tool: str, text: str = "", /, **tool_input: Any) -> Step:
    """One tool call (``stop_reason: tool_use``), optionally preceded by ``text``."""
    return Step(text=text, tool_uses=(ToolUse(tool, tool_input),))


class Script(Protocol):
    """Decides the answer to each main request from the request itself."""

    def next_step(self, request: MessagesRequest) -> Step: ...


@dataclass
class StepScript:
    """Answer the n-th main request of a conversation with ``steps[n]``.

    When the agent's last ``tool_result`` is an error (a rejected permission, a failed edit), the
    turn ends at once with ``stopped_text`` unless ``stop_on_error`` is off. Past the last step
    every request gets ``done_text``.
    """

    steps: Sequence[Step]
    stop_on_error: bool = True
    stopped_text: str = "The tool call did not go through, so I stopped here."
    done_text: str = "Nothing more to do."

    def next_step(self, request: MessagesRequest) -> Step:
        last = request.last_tool_result()
        if self.stop_on_error and last is not None and last.is_error:
            return say(f"{self.stopped_text} ({_first_line(last.text)})")
        index = request.answered_turns
        return self.steps[index] if index < len(self.steps) else say(self.done_text)


def read_edit_shell(
    path: str | Path,
    old: str,
    new: str,
    command: str,
    *,
    final_text: str = "Edited the file and ran the command.",
) -> StepScript:
    """Read ``path``, replace ``old`` with ``new``, run ``command``, then end the turn."""
    file_path = str(path)
    return StepScript(
        [
            call("Read", "Let me read the file first.", file_path=file_path),
            call("Edit", file_path=file_path, old_string=old, new_string=new),
            call(
                "Bash",
                command=command,
                timeout=DEFAULT_BASH_TIMEOUT_MS,
                description="Run the requested command",
            ),
            say(final_text),
        ]
    )


def _first_line(text: str, limit: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "no details"
    return line[:limit]


# -- the server ----------------------------------------------------------------------------------


class FakeAnthropic:
    """The fake API on ``127.0.0.1:<free port>``, served from a background thread."""

    model_fallback = "claude-fake-1"

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[MessagesRequest] = []
        """Every request received, in arrival order (side requests and bad routes included)."""
        self.errors: list[str] = []
        """Script problems (an unknown tool, an exception); tests should assert it stays empty."""
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.fake = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},  # how long close() waits for the loop to notice
            name="fake-anthropic",
            daemon=True,
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def main_requests(self) -> list[MessagesRequest]:
        with self._lock:
            return [r for r in self.requests if r.is_main]

    def start(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # -- called from handler threads --

    def record(self, request: MessagesRequest) -> int:
        with self._lock:
            self.requests.append(request)
            return next(self._ids)

    def note_error(self, message: str) -> None:
        with self._lock:
            self.errors.append(message)

    def answer(self, request: MessagesRequest, number: int) -> dict[str, Any]:
        """The complete assistant message for a ``/v1/messages`` request."""
        step = self.script.next_step(request) if request.is_main else say(side_answer(request))
        content: list[dict[str, Any]] = []
        if step.text:
            content.append({"type": "text", "text": step.text})
        for i, use in enumerate(step.tool_uses):
            name = request.tool_named(use.tool)
            if name is None:
                problem = f"no offered tool matches {use.tool!r}; offered: {request.tool_names}"
                self.note_error(problem)
                return self.message(request, number, [{"type": "text", "text": problem}])
            content.append(
                {
                    "type": "tool_use",
                    "id": f"toolu_fake_{number:03d}_{i}",
                    "name": name,
                    "input": dict(use.input),
                }
            )
        if not content:
            content.append({"type": "text", "text": "OK."})
        return self.message(request, number, content)

    def message(
        self, request: MessagesRequest, number: int, content: list[dict[str, Any]]
    ) -> dict[str, Any]:
        uses_tools = any(block["type"] == "tool_use" for block in content)
        model = request.body.get("model")
        return {
            "id": f"msg_fake_{number:03d}",
            "type": "message",
            "role": "assistant",
            "model": model if isinstance(model, str) else self.model_fallback,
            "content": content,
            "stop_reason": "tool_use" if uses_tools else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": estimate_tokens(request.body),
                "output_tokens": max(1, estimate_tokens(content)),
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
            },
        }


def side_answer(request: MessagesRequest) -> str:
    """A plausible answer to a helper request (it offers no tools)."""
    text = request.text()
    if "isNewTopic" in text:
        return json.dumps({"isNewTopic": True, "title": "Scripted task"})
    if re.search(r"\btitle\b", text, re.IGNORECASE):
        return "Scripted task"
    return "OK."


def estimate_tokens(value: Any) -> int:
    """About four characters a token: enough for usage fields and ``count_tokens``."""
    return max(1, len(json.dumps(value, ensure_ascii=False)) // 4)


def stream_events(message: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The server-sent events that stream ``message``, split into small deltas."""
    head = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    head["usage"] = {**message["usage"], "output_tokens": 1}
    yield "message_start", {"type": "message_start", "message": head}
    yield "ping", {"type": "ping"}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            start: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": part} for part in _halves(block["text"])]
        else:
            start = {**block, "input": {}}
            encoded = json.dumps(block["input"], ensure_ascii=False)
            deltas = [
                {"type": "input_json_delta", "partial_json": part} for part in _halves(encoded)
            ]
        yield (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": start,
            },
        )
        for delta in deltas:
            yield (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": delta,
                },
            )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": message["usage"]["output_tokens"]},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _halves(text: str) -> list[str]:
    middle = len(text) // 2
    return [part for part in (text[:middle], text[middle:]) if part] or [""]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeAnthropic/1"

    @property
    def fake(self) -> FakeAnthropic:
        fake: FakeAnthropic = self.server.fake  # type: ignore[attr-defined]
        return fake

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the recorded requests are the log."""

    def do_POST(self) -> None:
        self._route()

    # Every other verb gets the same router, so it answers with a JSON error, not an HTML 501.
    do_GET = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_POST

    def _route(self) -> None:
        path = self.path.split("?", 1)[0]
        raw = self._read_body()
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = None
        headers = {name.lower(): value for name, value in self.headers.items()}
        request = MessagesRequest(
            self.command, path, body if isinstance(body, dict) else {}, headers
        )
        number = self.fake.record(request)
        if self.command != "POST" or path not in ("/v1/messages", "/v1/messages/count_tokens"):
            self._error(
                HTTPStatus.NOT_FOUND,
                "not_found_error",
                f"fake_anthropic serves POST /v1/messages and /v1/messages/count_tokens, "
                f"not {self.command} {path}",
            )
        elif not isinstance(body, dict):
            self._error(HTTPStatus.BAD_REQUEST, "invalid_request_error", "body is no JSON object")
        elif path == "/v1/messages/count_tokens":
            self._json(HTTPStatus.OK, {"input_tokens": estimate_tokens(body)})
        else:
            self._messages(request, number)

    def _messages(self, request: MessagesRequest, number: int) -> None:
        try:
            message = self.fake.answer(request, number)
        except Exception as exc:  # a broken script must fail the test, not hang the agent
            problem = f"script failed on request {number}: {exc!r}"
            self.fake.note_error(problem)
            # 400, not 500: the agent retries server errors for a long time.
            self._error(HTTPStatus.BAD_REQUEST, "invalid_request_error", problem)
            return
        if request.body.get("stream") is True:
            self._stream(message)
        else:
            self._json(HTTPStatus.OK, message)

    def _stream(self, message: dict[str, Any]) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", f"req_{message['id']}")
        self.end_headers()
        self.close_connection = True
        for event, data in stream_events(message):
            payload = f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
            self.wfile.write(payload.encode("utf-8"))
            self.wfile.flush()

    def _json(self, status: HTTPStatus, value: dict[str, Any]) -> None:
        data = json.dumps(value, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _error(self, status: HTTPStatus, kind: str, message: str) -> None:
        self._json(status, {"type": "error", "error": {"type": kind, "message": message}})

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while size := int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass  # trailers
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""


@contextlib.contextmanager
def running_fake_anthropic(script: Script) -> Iterator[FakeAnthropic]:
    """Serve ``script`` for the duration of the ``with`` block."""
    server = FakeAnthropic(script).start()
    try:
        yield server
    finally:
        server.close()
