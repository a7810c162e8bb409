"""Settings for the whole test run."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_STATE_DIR: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    # Turn checkpoints live in the user's state directory: every sidecar a test starts (directly,
    # or through Neovim) keeps them in one throw-away folder instead.
    global _STATE_DIR
    if "ACP_EDITOR_STATE_DIR" not in os.environ:
        _STATE_DIR = tempfile.mkdtemp(prefix="acp-editor-state-")
        os.environ["ACP_EDITOR_STATE_DIR"] = _STATE_DIR


def pytest_unconfigure(config: pytest.Config) -> None:
    # Only the folder this run made: one given from outside is the caller's to keep.
    if _STATE_DIR is not None:
        shutil.rmtree(_STATE_DIR, ignore_errors=True)
