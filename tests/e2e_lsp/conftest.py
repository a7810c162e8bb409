"""Fixtures for the editor-link tests: a workspace and a started synthetic editor."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.lsp import Editor, start_editor

HELLO = 'def greet(name):\n    return f"Hello, {name}!"\n'
EDIT_LINE = 'print("edited by the demo agent")\n'


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "my project"  # a space: URIs must be encoded right
    root.mkdir()
    (root / "hello.py").write_text(HELLO, encoding="utf-8")
    return root


StartEditor = Callable[..., Awaitable[Editor]]


@pytest.fixture
async def editor_factory(workspace: Path) -> AsyncIterator[StartEditor]:
    started: list[Editor] = []

    async def start(**kwargs: Any) -> Editor:
        editor = await start_editor(workspace, **kwargs)
        started.append(editor)
        return editor

    yield start
    for editor in started:
        if editor.client._server is not None and editor.client._server.returncode is None:
            await editor.close()
