"""Pure text diffing for the editor: minimal LSP edits and reviewable hunks.

Nothing here does I/O; positions in the results are LSP positions (0-based lines, UTF-16
columns) computed through ``acp_editor.text.positions``, the one place coordinates are converted.
"""

from acp_editor.text.edits import TextEdit, apply_edits, minimal_edits
from acp_editor.text.hunks import (
    Hunk,
    apply_hunks,
    compute_hunks,
    dominant_newline,
    unified_line_counts,
)

__all__ = [
    "Hunk",
    "TextEdit",
    "apply_edits",
    "apply_hunks",
    "compute_hunks",
    "dominant_newline",
    "minimal_edits",
    "unified_line_counts",
]
