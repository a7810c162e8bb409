"""Pure text diffing for the editor: minimal LSP edits and reviewable hunks.

Nothing here does I/O; positions in the results are LSP positions (0-based lines, UTF-16
columns) computed through ``acp_editor.text.positions``, the one place coordinates are converted.
Import the modules themselves (``text.edits``, ``text.hunks``, ...): this package imports none of
them, so what needs only ``text.positions`` at the start does not load ``difflib`` (issue 36).
"""
