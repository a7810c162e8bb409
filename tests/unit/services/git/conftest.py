"""A small workspace for the checkpoint store's tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def root(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / "a.py").write_text("a = 1\n")
    (work / "README.md").write_text("# hi\n")
    return work.resolve()
