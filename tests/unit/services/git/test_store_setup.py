"""A checkpoint store's own files: whose it is and its settings, and the repository's excludes
with our keep-the-bytes attributes, written only when they changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from acp_editor.services.git import store_setup


def test_settle_says_whose_store_it_is_and_brings_its_settings_up_to_date(tmp_path: Path) -> None:
    store, root = tmp_path / "store", tmp_path / "w"
    store.mkdir()
    (store / "config").write_text("[core]\n\tbare = true\n")  # as an older version left it
    store_setup.settle(store, root)
    assert (store / "acp-root").read_text() == str(root)
    assert (store / "config").read_text() == store_setup.CONFIG
    (store / "acp-root").write_text("/elsewhere")
    store_setup.settle(store, root)
    assert (store / "acp-root").read_text() == "/elsewhere"  # the first root it was made for


def test_the_repositorys_excludes_count_and_bytes_are_kept_as_they_are(tmp_path: Path) -> None:
    store, root = tmp_path / "store", tmp_path / "w"
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "info" / "exclude").write_text("secret.txt\n")
    store_setup.copy_excludes(store, root)
    assert (store / "info" / "exclude").read_text() == "secret.txt\n"
    assert (store / "info" / "attributes").read_bytes() == store_setup.BYTES_AS_THEY_ARE
    (root / ".git" / "info" / "exclude").unlink()
    store_setup.copy_excludes(store, root)
    assert (store / "info" / "exclude").read_text() == ""  # not a repository any more


def test_the_state_directory_inside_the_root_is_excluded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, root = tmp_path / "store", tmp_path / "w"
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "info" / "exclude").write_text("secret.txt")  # no newline at its end
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(root / "my state" / "acp-editor"))
    store_setup.copy_excludes(store, root)
    assert (store / "info" / "exclude").read_text() == "secret.txt\n/my\\ state/acp-editor/\n"
    monkeypatch.setenv("ACP_EDITOR_STATE_DIR", str(tmp_path / "elsewhere"))
    store_setup.copy_excludes(store, root)
    assert (store / "info" / "exclude").read_text() == "secret.txt"
