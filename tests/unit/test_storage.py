"""The state directory: ``ACP_EDITOR_STATE_DIR`` first, then the XDG state home, then
``~/.local/state``; one readable, collision-free name per workspace root."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.storage import below, per_root, state_dir


def test_the_state_directory_is_ours_then_xdgs_then_the_homes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "own"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert state_dir() == tmp_path / "own"
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", "")  # empty: not set
    assert state_dir() == tmp_path / "xdg" / "acp-editor"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir() == tmp_path / "home" / ".local" / "state" / "acp-editor"


def test_each_root_has_its_own_readable_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path))
    one, other = per_root("review", Path("/a/app")), per_root("review", Path("/b/app"))
    assert one.parent == other.parent == tmp_path / "review"
    assert one.name.startswith("app-") and other.name.startswith("app-") and one != other
    assert per_root("review", Path("/a/app")) == one  # the same root: the same place
    assert per_root("checkpoints", Path("/"), ".git").name.startswith("root-")
    assert per_root("checkpoints", Path("/"), ".git").name.endswith(".git")


def test_the_state_directory_is_named_below_a_root_that_holds_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = tmp_path.resolve()
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(root / "home" / ".local" / "state"))
    assert below(root) == "home/.local/state"
    assert below(root / "home" / ".local" / "state") is None  # the root itself: not below
    assert below(root / "elsewhere") is None
