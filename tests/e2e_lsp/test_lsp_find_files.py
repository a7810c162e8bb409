"""``acp/findFiles`` on the real server: an ``@`` completes the editor's open documents first,
then the workspace's files as git sees them (ignored ones left out); bad params are refused."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from tests.e2e_lsp.conftest import StartEditor
from tests.support.lsp import Editor


async def find(editor: Editor, query: str, **more: Any) -> dict[str, Any]:
    """Ask until the first listing has ended (it runs in the background after the first ask)."""
    for _ in range(200):
        answer: dict[str, Any] = await editor.request("acp/findFiles", {"query": query, **more})
        if answer["complete"]:
            return answer
    raise AssertionError("the listing never completed")


@pytest.fixture
def repository(workspace: Path) -> Path:
    (workspace / "lib").mkdir()
    (workspace / "lib" / "hello_world.py").write_text("x = 1\n")
    (workspace / "out").mkdir()
    (workspace / "out" / "hello_build.py").write_text("built\n")
    (workspace / ".gitignore").write_text("out/\n")
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    subprocess.run(["git", "-C", str(workspace), "add", "-A"], check=True)
    (workspace / "hello_new.py").write_text("untracked\n")
    return workspace


async def test_open_documents_first_then_the_workspace_without_ignored_files(
    editor_factory: StartEditor, repository: Path
) -> None:
    editor = await editor_factory()
    opened = editor.open("lib/hello_world.py", "x = 1\n")
    answer = await find(editor, "hello")
    files = [(f["path"], f["open"]) for f in answer["files"]]
    assert files == [
        ("lib/hello_world.py", True),  # open: first, whatever its rank
        ("hello.py", False),
        ("hello_new.py", False),  # not tracked yet, not ignored
    ]
    assert answer["files"][0]["uri"] == opened

    limited = await find(editor, "hello", limit=1)
    assert [f["path"] for f in limited["files"]] == ["lib/hello_world.py"]


@pytest.mark.parametrize(
    "params", [{}, {"query": 3}, {"query": "a", "limit": 0}, {"query": "a", "limit": True}]
)
async def test_bad_params_are_refused(editor_factory: StartEditor, params: Any) -> None:
    editor = await editor_factory()
    with pytest.raises(JsonRpcException) as err:
        await editor.request("acp/findFiles", params)
    assert err.value.code == -32602
