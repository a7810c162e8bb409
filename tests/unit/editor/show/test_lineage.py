"""Which session started which (editor.show.lineage)."""

from __future__ import annotations

from acp_editor.editor.show.lineage import Lineage


def test_a_child_names_its_parent_and_title_and_follows_as_its_top_session() -> None:
    lineage = Lineage()
    lineage.seen("parent", None)
    lineage.seen("child", "parent")
    lineage.seen("grandchild", "child")
    lineage.subagents_changed({"child": {"sessionId": "child", "title": "Explore"}})
    assert lineage.root_of("grandchild") == "parent"
    assert lineage.root_of("parent") == "parent"
    assert lineage.subagent("child") == {"parentSessionId": "parent", "title": "Explore"}
    assert lineage.subagent("grandchild") == {"parentSessionId": "child"}
    assert lineage.subagent("parent") is None
    assert lineage.label("child") == "Subagent “Explore”"
    assert lineage.label("grandchild") == "A subagent"
    assert lineage.label("parent") is None


def test_a_loop_of_parents_does_not_hang() -> None:
    lineage = Lineage()
    lineage.seen("a", "b")
    lineage.seen("b", "a")
    assert lineage.root_of("a") in ("a", "b")


def test_a_blank_title_or_bad_records_are_no_title() -> None:
    lineage = Lineage()
    lineage.seen("c", "p")
    lineage.subagents_changed({"c": {"title": "  "}, "d": "junk"})
    lineage.subagents_changed(None)
    assert lineage.title("c") is None and lineage.record("d") is None
