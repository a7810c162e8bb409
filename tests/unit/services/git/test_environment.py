"""The environment git runs with: nothing of ours that names a repository leaks in, our stores
never read the user's settings, the user's repository always does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from acp_editor.services.git import environment

STRAY = {"GIT_DIR": "/elsewhere", "GIT_INDEX_FILE": "/elsewhere/index", "LC_ALL": "fr_FR.UTF-8"}


def test_a_store_of_ours_reads_none_of_the_users_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in STRAY.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    env = environment.for_store(Path("/s"), Path("/s/acp-index"))
    assert {k: v for k, v in env.items() if k.startswith("GIT_")} == {
        "GIT_DIR": "/s",
        "GIT_INDEX_FILE": "/s/acp-index",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
    }
    assert env["LC_ALL"] == "C" and "GLIBC_TUNABLES" not in env


def test_a_store_with_a_work_tree_commits_and_a_heap_kept() -> None:
    env = environment.for_store(
        Path("/s"), Path("/s/look"), work_tree=Path("/w"), commits=True, keep_heap=True
    )
    assert env["GIT_WORK_TREE"] == "/w" and env["GIT_INDEX_FILE"] == "/s/look"
    assert env["GIT_COMMITTER_NAME"] == env["GIT_AUTHOR_NAME"] == "acp-editor"
    assert env["GLIBC_TUNABLES"].endswith(environment.KEEP_HEAP)


def test_the_heap_setting_joins_tunables_already_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.a=1")
    env = environment.for_store(Path("/s"), Path("/s/i"), keep_heap=True)
    assert env["GLIBC_TUNABLES"] == f"glibc.a=1:{environment.KEEP_HEAP}"


def test_the_users_repository_is_seen_as_the_user_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in STRAY.items():
        monkeypatch.setenv(name, value)
    env = environment.for_repository()
    assert {k: v for k, v in env.items() if k.startswith("GIT_")} == {"GIT_TERMINAL_PROMPT": "0"}
    assert env["LC_ALL"] == "C"
    listed = environment.for_repository(
        system_config=False, git_dir=Path("/empty"), work_tree=Path("/w")
    )
    assert {k: v for k, v in listed.items() if k.startswith("GIT_")} == {
        "GIT_DIR": "/empty",
        "GIT_WORK_TREE": "/w",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
    }
    assert environment.inherited() == {
        k: v for k, v in os.environ.items() if not k.startswith("GIT_")
    }
