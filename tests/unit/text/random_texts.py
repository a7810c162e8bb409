"""Random texts with mixed line endings and astral characters, for this folder's property tests.

Texts are drawn from a small alphabet so that old and new share lines (the interesting case
for a diff), and also derived from each other by splicing, which is how agents edit files.
"""

from __future__ import annotations

from hypothesis import strategies as st

PIECES = ["a", "b", "é", "中", "😀", " ", "\n", "\n", "\r\n", "\r"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@st.composite
def related(draw: st.DrawFn) -> tuple[str, str]:
    """An old text and a new one made from it by a few splices (or drawn independently)."""
    old = draw(TEXT)
    if draw(st.booleans()):
        return old, draw(TEXT)
    new = old
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(new)))
        end = draw(st.integers(start, min(len(new), start + 6)))
        new = new[:start] + draw(TEXT) + new[end:]
    return old, new
