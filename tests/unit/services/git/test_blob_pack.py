"""Reading files ahead for a pack: only plain files, within the size limit. (Packing itself is
tested through the store: tests/unit/services/git/test_taking.py.)"""

from __future__ import annotations

import os
from pathlib import Path

from acp_editor.services.git.blob_pack import read_plain


def test_only_a_plain_file_is_read_ahead(tmp_path: Path) -> None:
    """A path that became a FIFO or a symlink since it was listed is left to update-index (a
    FIFO is opened without waiting for a writer)."""
    (tmp_path / "README.md").write_text("# hi\n")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to("README.md")
    assert read_plain(os.fsencode(tmp_path / "fifo"), 100) is None
    assert read_plain(os.fsencode(tmp_path / "link"), 100) is None
    assert read_plain(os.fsencode(tmp_path / "gone"), 100) is None
    assert read_plain(os.fsencode(tmp_path / "README.md"), 100) == b"# hi\n"
    assert read_plain(os.fsencode(tmp_path / "README.md"), 4) is None  # past the limit
