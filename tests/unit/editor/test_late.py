"""``Late``: a part built once, at its first use; the editor side's review built late."""

from __future__ import annotations

from acp_editor.agent.config import AgentConfig
from acp_editor.editor.late import Late, late_review
from acp_editor.editor.supervisor import ServerOptions
from acp_editor.services.documents import DiskDocuments


def test_built_at_the_first_call_and_only_once() -> None:
    built: list[int] = []
    late = Late(lambda: built.append(1) or len(built))
    assert late.built is None and built == []
    assert late() == 1
    assert late() == 1 and late.built == 1 and built == [1]


def test_review_takes_the_mode_of_its_first_use() -> None:
    options = ServerOptions(agent=AgentConfig(command=["x"]))
    review = late_review(DiskDocuments(), options, lambda _event: None)
    options.agent.review_mode = "off"  # the editor's settings, at initialize
    assert review.built is None
    assert review().mode == "off"
    assert review() is review.built
