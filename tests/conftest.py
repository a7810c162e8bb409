"""Settings for the whole test run."""

from __future__ import annotations

import os
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Turn checkpoints live in the user's state directory: every sidecar a test starts (directly,
    # or through Neovim) keeps them in one throw-away folder instead.
    os.environ.setdefault("ACP_EDITOR_STATE_DIR", tempfile.mkdtemp(prefix="acp-editor-state-"))
