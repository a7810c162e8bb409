"""Plans by id (session.plans): plan_update replaces one plan, plan_removed takes it away."""

from __future__ import annotations

import pytest

from acp_editor.session import InvalidUpdate
from tests.unit.session.conftest import Harness

P1 = {"type": "items", "planId": "p1", "entries": [{"content": "a", "status": "pending"}]}
P2 = {"type": "markdown", "planId": "p2", "content": "# Next"}


def test_plans_by_id_and_the_one_updated_last_is_shown(h: Harness) -> None:
    h.update({"sessionUpdate": "plan_update", "plan": P1})
    h.update({"sessionUpdate": "plan_update", "plan": P2})
    assert h.snap["plans"] == {"p1": P1, "p2": P2}
    assert h.snap["plan"] == P2


def test_removing_the_shown_plan_shows_the_newest_left(h: Harness) -> None:
    h.updates(
        {"sessionUpdate": "plan_update", "plan": P1},
        {"sessionUpdate": "plan_update", "plan": P2},
    )
    h.update({"sessionUpdate": "plan_removed", "planId": "p2"})
    assert h.snap["plans"] == {"p1": P1}
    assert h.snap["plan"] == P1
    h.update({"sessionUpdate": "plan_removed", "planId": "p1"})
    assert h.snap["plans"] == {}
    assert h.snap["plan"] is None


def test_removing_another_plan_keeps_the_shown_one(h: Harness) -> None:
    h.updates(
        {"sessionUpdate": "plan_update", "plan": P1},
        {"sessionUpdate": "plan_update", "plan": P2},
    )
    h.update({"sessionUpdate": "plan_removed", "planId": "p1"})
    assert h.snap["plan"] == P2


def test_removing_an_unknown_plan_changes_nothing(h: Harness) -> None:
    assert h.update({"sessionUpdate": "plan_removed", "planId": "nope"}) == []
    with pytest.raises(InvalidUpdate):
        h.state.apply_update({"sessionUpdate": "plan_removed", "planId": 7})
