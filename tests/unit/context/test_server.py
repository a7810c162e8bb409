"""The editor-context server's socket and tools: only this user's processes holding a token
minted for a session get answers (from the moment it is minted: agents connect while they answer
``session/new``), and only about that session's folders."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pygls.workspace import TextDocument

from acp_editor.context.server import ContextServer
from acp_editor.context.tools import ContextTools
from acp_editor.editor.buffers.source import EditorDocuments
from acp_editor.text.positions import path_to_uri
from tests.support.fake_editor import FakeChannel


@pytest.fixture
async def served(tmp_path: Path):  # type: ignore[no-untyped-def]
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.py").write_text("on disk\n")
    (tmp_path / "secret.txt").write_text("not yours\n")
    channel = FakeChannel()
    uri = path_to_uri(str(root / "a.py"))
    channel.documents[uri] = TextDocument(uri, "unsaved\n", version=3)
    server = ContextServer(ContextTools(EditorDocuments(channel), lambda: None))
    yield server, root
    await server.close()


async def talk(path: str, *lines: dict[str, Any]) -> list[Any]:
    reader, writer = await asyncio.open_unix_connection(path)
    answers = []
    try:
        for line in lines:
            writer.write(json.dumps(line).encode() + b"\n")
            await writer.drain()
            got = await reader.readline()
            answers.append(json.loads(got) if got else None)
    finally:
        writer.close()
    return answers


async def test_a_token_reads_the_unsaved_buffer_and_nothing_outside(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server, root = served
    entry, token = await server.entry([str(root)])
    server.bind(token, "s1", [str(root)])
    env = {e["name"]: e["value"] for e in entry["env"]}
    assert env["ACP_EDITOR_MCP_TOKEN"] == token and entry["name"] == "editor"
    hello, read, listed, outside, relative = await talk(
        str(server.socket_path),
        {"token": token},
        {"id": 1, "tool": "read_buffer", "arguments": {"path": str(root / "a.py")}},
        {"id": 2, "tool": "open_buffers", "arguments": {}},
        {"id": 3, "tool": "read_buffer", "arguments": {"path": str(tmp_path / "secret.txt")}},
        {"id": 4, "tool": "read_buffer", "arguments": {"path": "a.py"}},
    )
    assert hello == {"ok": True}
    assert read["result"] == {"path": str(root / "a.py"), "text": "unsaved\n", "open": True}
    assert listed["result"] == [{"path": str(root / "a.py"), "modified": True}]
    assert "outside this session's folders" in outside["error"]
    assert "absolute" in relative["error"]


async def test_a_sessions_folders_follow_the_workspace(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server, root = served
    _, token = await server.entry([str(root)])
    server.bind(token, "s1", [str(root)])
    ask = {"id": 1, "tool": "read_buffer", "arguments": {"path": str(tmp_path / "secret.txt")}}
    _, refused = await talk(str(server.socket_path), {"token": token}, ask)
    assert "outside" in refused["error"]
    server.roots_changed("s1", [str(root), str(tmp_path)])  # a folder added to the workspace
    _, read = await talk(str(server.socket_path), {"token": token}, ask)
    assert read["result"]["text"] == "not yours\n"


async def test_unknown_and_forgotten_tokens_are_turned_away_and_logged(served, caplog) -> None:  # type: ignore[no-untyped-def]
    server, root = served
    _, minted = await server.entry([str(root)])
    assert await talk(str(server.socket_path), {"token": "guess"}) == [{"error": "unknown token"}]
    assert "unknown token was turned away" in caplog.text  # the sidecar's log says so too
    server.bind(minted, "s1", [str(root)])
    server.forget(minted)  # its session/new failed, or the session was closed
    assert await talk(str(server.socket_path), {"token": minted}) == [{"error": "unknown token"}]


async def test_a_token_works_before_its_session_has_an_id(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """As gemini-cli, opencode and fast-agent do: the bridge starts, says hello and calls a tool
    while the agent is still answering session/new; the call's folders apply already."""
    server, root = served
    _, minted = await server.entry([str(root)])
    reader, writer = await asyncio.open_unix_connection(str(server.socket_path))

    async def say(line: dict[str, Any]) -> Any:
        writer.write(json.dumps(line).encode() + b"\n")
        await writer.drain()
        return json.loads(await reader.readline())

    try:
        assert await say({"token": minted}) == {"ok": True}
        read = {"id": 1, "tool": "read_buffer", "arguments": {"path": str(root / "a.py")}}
        assert (await say(read))["result"]["text"] == "unsaved\n"
        outside = {"path": str(tmp_path / "secret.txt")}
        refused = await say({"id": 2, "tool": "read_buffer", "arguments": outside})
        assert "outside" in refused["error"]
        review = await say({"id": 3, "tool": "review_state", "arguments": {}})
        assert review["result"] == {"pending": [], "rejected": []}
        server.bind(minted, "s1", [str(root)])  # the answer names the session: same connection
        assert (await say({**read, "id": 4}))["result"]["text"] == "unsaved\n"
        server.session_closed("s1")  # a connection made before it closed is refused since
        assert "closed" in (await say({**read, "id": 5}))["error"]
    finally:
        writer.close()


async def test_the_socket_is_private_and_goes_with_the_server(served) -> None:  # type: ignore[no-untyped-def]
    server, _ = served
    await server.start()
    path = Path(str(server.socket_path))
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    await server.close()
    assert not path.parent.exists()


SYSTEM_PYTHON = "/usr/bin/python3"


@pytest.mark.skipif(
    os.geteuid() != 0 or not os.path.exists(SYSTEM_PYTHON),
    reason="needs root (to run a process as another user) and /usr/bin/python3",
)
async def test_another_user_cannot_connect_even_with_the_token(served) -> None:  # type: ignore[no-untyped-def]
    server, root = served
    _, token = await server.entry([str(root)])
    server.bind(token, "s1", [str(root)])
    path = str(server.socket_path)
    probe = (
        "import json, socket, sys\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n    s.connect(sys.argv[1])\n"
        "except OSError as e:\n    print('refused', e.errno); sys.exit()\n"
        "try:\n"
        "    s.sendall(json.dumps({'token': sys.argv[2]}).encode() + b'\\n')\n"
        "    print(s.makefile().readline().strip() or 'closed')\n"
        "except OSError:\n    print('closed')\n"  # the server may hang up before or after
    )

    def run_as_nobody() -> str:
        done = subprocess.run(
            [SYSTEM_PYTHON, "-c", probe, path, token],  # another user may not run our venv
            user=65534,
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        )
        return done.stdout.strip()

    assert (await asyncio.to_thread(run_as_nobody)).startswith("refused")  # the 0700 directory
    os.chmod(os.path.dirname(path), 0o777)  # were the directory open, the peer check remains
    os.chmod(path, 0o777)
    answer = await asyncio.to_thread(run_as_nobody)
    assert answer == "closed", answer  # turned away without a word: not this user


async def test_the_http_endpoint_answers_minted_tokens_only_and_leaves_logging_alone(  # type: ignore[no-untyped-def]
    served, monkeypatch
) -> None:
    import logging

    import httpx2

    server, root = served
    root_logger = logging.getLogger()
    monkeypatch.setattr(root_logger, "handlers", [])  # as in the sidecar: none of its own
    before = (list(root_logger.handlers), root_logger.level)
    entry, token = await server.entry([str(root)], "http")
    assert (list(root_logger.handlers), root_logger.level) == before
    assert entry["headers"] == [{"name": "Authorization", "value": f"Bearer {token}"}]
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"accept": "application/json, text/event-stream"}
    bearer = {**accept, "authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient() as http:
        guessed = await http.post(
            entry["url"], json=ping, headers={**accept, "authorization": "Bearer guess"}
        )
        unbound = await http.post(entry["url"], json=ping, headers=bearer)  # session/new runs
        server.bind(token, "s1", [str(root)])
        bound = await http.post(entry["url"], json=ping, headers=bearer)
        server.forget(token)
        forgotten = await http.post(entry["url"], json=ping, headers=bearer)
    codes = (guessed, unbound, bound, forgotten)
    assert tuple(r.status_code for r in codes) == (401, 200, 200, 401)


async def test_prepare_starts_the_http_endpoint_that_sessions_then_share(served) -> None:  # type: ignore[no-untyped-def]
    server, _root = served
    server.prepare("stdio")  # the socket is cheap: it starts with the first session
    assert server.socket_path is None and server._http is None
    server.prepare("http")
    first, _ = await server.entry([str(_root)], "http")
    second, _ = await server.entry([str(_root)], "http")
    assert first["url"] == second["url"] == server._http.url


async def test_a_plain_editor_gets_the_conflicts_acp_editor_knows_as_diagnostics(
    tmp_path: Path,
) -> None:
    from acp_editor.context.tools import Caller
    from acp_editor.editor.buffers.conflicts import BufferConflict, Conflicts
    from acp_editor.text.merge import Conflict

    root = tmp_path / "project"
    root.mkdir()
    inside, outside = str(root / "a.py"), str(tmp_path / "b.py")
    channel = FakeChannel()  # no 'context' feature: it shares no diagnostics of its own
    conflicts = Conflicts(channel)
    for path in (inside, outside):
        place = Conflict(start=2, end=3, base_lines=("x\n",), their_lines=("agent\n",))
        conflicts.add(BufferConflict(path, path_to_uri(path), "theirs\n", (place,)))
    tools = ContextTools(EditorDocuments(channel), lambda: None, channel, conflicts=conflicts)
    caller = Caller("s1", (root.resolve(),))
    got = await tools.call(caller, "diagnostics", {})
    assert got["note"] == "this editor does not share its language servers' diagnostics"
    (only,) = got["diagnostics"]  # the one outside the session's folders is not shown
    assert only["path"] == inside and only["code"] == "conflict" and only["severity"] == "error"
    assert only["range"]["start"]["line"] == 3  # 1-based: the buffer's third line (0-based 2)
    assert "'agent'" in only["message"]
    assert (await tools.call(caller, "diagnostics", {"path": inside}))["diagnostics"] == [only]


async def test_a_closed_sessions_token_opens_nothing(served) -> None:  # type: ignore[no-untyped-def]
    server, root = served
    _entry, token = await server.entry([str(root)])
    _other, kept = await server.entry([str(root)])
    server.bind(token, "s1", [str(root)])
    server.bind(kept, "s2", [str(root)])
    server.session_closed("s1")
    (refused,) = await talk(str(server.socket_path), {"token": token})
    (welcome,) = await talk(str(server.socket_path), {"token": kept})
    assert refused == {"error": "unknown token"} and welcome == {"ok": True}


async def test_close_hangs_up_on_connected_bridges_and_waits_for_them(served) -> None:  # type: ignore[no-untyped-def]
    """A bridge still connected when the sidecar ends: its handler returns before the loop
    ends (Python 3.11 printed a traceback for a handler cancelled with the loop)."""
    server, root = served
    _, token = await server.entry([str(root)])
    reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
    writer.write(json.dumps({"token": token}).encode() + b"\n")
    await writer.drain()
    assert json.loads(await reader.readline()) == {"ok": True}
    (handler,) = server._bridges
    await server.close()
    assert handler.done() and not handler.cancelled() and handler.exception() is None
    assert await reader.read() == b""  # hung up on
    writer.close()
