"""Ranking paths for an ``@``: the name's start, then the name, then the path, then the
characters in order; shorter first within each; case ignored."""

from __future__ import annotations

from acp_editor.services.workspace_files.match import TIER_SCAN, PathTable

PATHS = [
    "docs/application-notes.md",
    "src/components/AppHeader.tsx",
    "src/app.ts",
    "src/wrapper.ts",
    "apps/web/index.html",
    "src/a/p/p.ts",
    "README.md",
]


def test_tiers_come_in_order_and_shorter_paths_first_within_each() -> None:
    table = PathTable(PATHS)
    assert table.best("app", 10) == [
        "src/app.ts",  # the name starts with it, shortest first
        "docs/application-notes.md",
        "src/components/AppHeader.tsx",
        "src/wrapper.ts",  # the name contains it
        "apps/web/index.html",  # only the path does
        "src/a/p/p.ts",  # its letters in order
    ]


def test_case_is_ignored_and_the_answer_keeps_the_paths_own_case() -> None:
    assert PathTable(PATHS).best("APPHEAD", 5) == ["src/components/AppHeader.tsx"]


def test_an_empty_query_gives_the_paths_nearest_the_top() -> None:
    assert PathTable(PATHS).best("", 2) == ["README.md", "src/app.ts"]
    assert PathTable(PATHS).best("  ", 1) == ["README.md"]


def test_a_slash_in_the_query_matches_along_the_path() -> None:
    assert PathTable(PATHS).best("src/a", 3) == [
        "src/app.ts",
        "src/a/p/p.ts",
        "src/wrapper.ts",  # its characters in order only
    ]


def test_nothing_matching_gives_nothing_and_limits_hold() -> None:
    table = PathTable(PATHS)
    assert table.best("zzz", 10) == []
    assert table.best("s", 0) == []
    assert len(table.best("s", 3)) == 3
    assert PathTable([]).best("a", 5) == []


def test_regular_expression_characters_are_plain_characters() -> None:
    table = PathTable(["a+b.txt", "ab.txt", "a(b).txt"])
    assert table.best("a+b", 5) == ["a+b.txt"]
    assert table.best("(b)", 5) == ["a(b).txt"]
    assert table.best(".*", 5) == []


def test_a_one_letter_query_over_a_big_workspace_still_fills_the_answer() -> None:
    """A letter most paths hold: only the first ``3 * limit * TIER_SCAN`` paths holding it are
    looked at (a bound, not a search of everything), ranked by the same tiers."""
    many = [f"f{i:05d}/mod/util{i}.py" for i in range(5000)]
    best = PathTable(many).best("f", 3)
    assert best == ["f00000/mod/util0.py", "f00001/mod/util1.py", "f00002/mod/util2.py"]
    assert len(many) > 3 * 3 * TIER_SCAN
    assert PathTable(["x/loaf.py", "f.py"]).best("f", 2) == ["f.py", "x/loaf.py"]
