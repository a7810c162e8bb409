"""Property tests over random sequences of agent reports and client events, on v1 and v2.

Properties:
  H1  valid operations never raise; invalid ones raise only InvalidUpdate and change nothing;
  H2  a mirror fed the JSON-encoded changes equals snapshot() after every step;
  H3  tool calls match a tiny reference model of the upsert/chunk rules (null per version);
  H4  chunk-only tool calls lose and reorder no content item;
  H5  plain text fragments without messageId read back as one block per same-role run.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from acp_editor.session import InvalidUpdate, SessionState, apply_change, empty_snapshot

# Enough examples to find ordering bugs, few enough to keep the folder's suite well under 5 s.
SETTINGS = settings(max_examples=100, deadline=None)

VERSIONS = st.sampled_from([1, 2])
IDS = st.sampled_from(["a", "b", "pending"])
MESSAGE_IDS = st.sampled_from(["<absent>", None, "m1", "m2", 7])
ROLES = {"user_message_chunk", "agent_message_chunk", "agent_thought_chunk"}

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.text(max_size=3)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
blocks = st.one_of(
    st.builds(lambda t: {"type": "text", "text": t}, st.text(max_size=3)),
    st.builds(lambda t: {"type": "text", "text": t, "annotations": {"p": 1}}, st.text(max_size=2)),
    st.just({"type": "image", "mimeType": "image/png", "data": "AA=="}),
    st.builds(lambda v: {"type": "_custom", "v": v}, json_values),
)
items = st.one_of(
    st.builds(lambda b: {"type": "content", "content": b}, blocks),
    st.builds(
        lambda n: {"type": "diff", "path": f"/f{n}", "oldText": None, "newText": "x"},
        st.integers(0, 9),
    ),
    st.builds(lambda n: {"type": "terminal", "terminalId": f"t{n}"}, st.integers(0, 9)),
    st.builds(lambda v: {"type": "_future", "v": v}, json_values),
)
FIELDS = ["title", "kind", "status", "content", "locations", "rawInput", "rawOutput", "_meta", "_x"]
field_values = st.one_of(
    st.none(),
    json_values,
    st.lists(items, max_size=3),
    st.sampled_from(["pending", "completed", "_custom", "read"]),
)
patches = st.dictionaries(st.sampled_from(FIELDS), field_values, max_size=4)


def _with(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    return {**patch, **base}


def _chunk(kind: str, block: Any, message_id: Any) -> dict[str, Any]:
    update = {"sessionUpdate": kind, "content": block}
    if message_id != "<absent>":
        update["messageId"] = message_id
    return update


tool_updates = st.builds(
    lambda kind, call_id, patch: (
        "update",
        _with({"sessionUpdate": kind, "toolCallId": call_id}, patch),
    ),
    st.sampled_from(["tool_call", "tool_call_update"]),
    IDS,
    patches,
)
content_chunks = st.builds(
    lambda call_id, item: (
        "update",
        {"sessionUpdate": "tool_call_content_chunk", "toolCallId": call_id, "content": item},
    ),
    IDS,
    items,
)
message_chunks = st.builds(
    lambda kind, block, mid: ("update", _chunk(kind, block, mid)),
    st.sampled_from(sorted(ROLES)),
    blocks,
    MESSAGE_IDS,
)
permissions = st.builds(
    lambda call_id, patch: ("permission", {"toolCallId": call_id, **patch}), IDS, patches
)
other_updates = st.builds(
    lambda kind, payload: ("update", {"sessionUpdate": kind, **payload}),
    st.sampled_from(
        [
            "plan",
            "usage_update",
            "session_info_update",
            "available_commands_update",
            "config_option_update",
            "current_mode_update",
            "_vendor",
            "terminal_output_chunk",
        ]
    ),
    st.dictionaries(
        st.sampled_from(
            [
                "entries",
                "used",
                "title",
                "availableCommands",
                "configOptions",
                "currentModeId",
                "modeId",
                "_meta",
            ]
        ),
        json_values,
        max_size=3,
    ),
)
client_events = st.one_of(
    st.builds(lambda b: ("prompt", b), st.lists(blocks, max_size=3)),
    st.builds(
        lambda m: ("set_modes", m),
        st.none()
        | st.dictionaries(
            st.sampled_from(["currentModeId", "availableModes"]), json_values, max_size=2
        ),
    ),
    st.builds(lambda m: ("set_current_mode", m), st.sampled_from(["ask", "code"])),
    st.builds(lambda o: ("set_config_options", o), st.none() | st.lists(json_values, max_size=2)),
    st.just(("cancel", None)),
)
invalid = st.one_of(
    st.builds(lambda v: ("invalid_update", v), json_values),  # keys are too short to be a tag
    st.builds(
        lambda kind, v: ("invalid_update", {"sessionUpdate": kind, "toolCallId": v}),
        st.sampled_from(["tool_call", "tool_call_update", "tool_call_content_chunk"]),
        st.none() | st.integers(),
    ),
    st.builds(
        lambda kind: ("invalid_update", {"sessionUpdate": kind, "messageId": "m1"}),
        st.sampled_from(sorted(ROLES)),
    ),
    st.builds(lambda v: ("invalid_permission", v), json_values),
)
operations = st.one_of(
    tool_updates, content_chunks, message_chunks, permissions, other_updates, client_events, invalid
)


def run(state: SessionState, op: str, arg: Any) -> list[dict[str, Any]]:
    if op in ("update", "invalid_update"):
        return state.apply_update(arg)
    if op in ("permission", "invalid_permission"):
        return state.apply_permission_tool_call(arg)
    if op == "prompt":
        return state.add_user_prompt(arg)
    if op == "cancel":
        return state.mark_unfinished_cancelled()
    method = getattr(state, op)
    result: list[dict[str, Any]] = method(arg)
    return result


@SETTINGS
@given(VERSIONS, st.lists(operations, max_size=25))
def test_random_sequences_keep_mirror_equal_and_only_reject_invalid(version, ops) -> None:
    # H1 + H2.
    state = SessionState("s", version)
    mirror = empty_snapshot("s", version)
    for op, arg in ops:
        before = state.snapshot()
        try:
            changes = run(state, op, arg)
        except InvalidUpdate:
            assert op.startswith("invalid"), (op, arg)
            assert state.snapshot() == before
            continue
        assert not op.startswith("invalid"), (op, arg)
        for change in json.loads(json.dumps(changes)):
            apply_change(mirror, change)
        assert json.dumps(mirror) == json.dumps(state.snapshot())


def reference_tool_calls(version: int, ops: list[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    """The upsert rules restated as naively as possible, to check the real thing against."""
    calls: dict[str, dict[str, Any]] = {}
    for _, update in ops:
        record = calls.setdefault(update["toolCallId"], {"toolCallId": update["toolCallId"]})
        if update.get("sessionUpdate") == "tool_call_content_chunk":
            content = record.get("content")
            record["content"] = (
                [*content, update["content"]] if isinstance(content, list) else [update["content"]]
            )
            continue
        for field, value in update.items():
            if field in ("toolCallId", "sessionUpdate"):
                continue
            if value is not None:
                record[field] = value
            elif version >= 2:
                record.pop(field, None)
    return calls


@SETTINGS
@given(VERSIONS, st.lists(st.one_of(tool_updates, content_chunks, permissions), max_size=25))
def test_tool_calls_match_the_reference_model(version, ops) -> None:
    # H3.
    state = SessionState("s", version)
    for op, arg in ops:
        run(state, op, arg)
    expected = reference_tool_calls(version, ops)
    snapshot = state.snapshot()
    assert json.dumps(snapshot["toolCalls"], sort_keys=True) == json.dumps(expected, sort_keys=True)
    first_seen = list(dict.fromkeys(arg["toolCallId"] for _, arg in ops))
    assert [e["toolCallId"] for e in snapshot["entries"]] == first_seen


status_only = st.builds(
    lambda call_id, status: (
        "update",
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": call_id,
            "status": status,
            "title": None,
        },
    ),
    IDS,
    st.sampled_from(["pending", "in_progress", "completed"]),
)


@SETTINGS
@given(VERSIONS, st.lists(st.one_of(content_chunks, status_only, message_chunks), max_size=30))
def test_chunk_only_content_loses_and_reorders_nothing(version, ops) -> None:
    # H4: interleaved ids, status updates and message chunks never disturb chunked content.
    state = SessionState("s", version)
    for op, arg in ops:
        run(state, op, arg)
    for call_id in ("a", "b", "pending"):
        sent = [
            arg["content"]
            for _, arg in ops
            if arg.get("sessionUpdate") == "tool_call_content_chunk"
            and arg["toolCallId"] == call_id
        ]
        record = state.tool_call(call_id)
        if sent:
            assert record is not None
            assert record["content"] == sent


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(sorted(ROLES)), st.text(max_size=4)), max_size=20))
def test_plain_text_runs_read_back_whole(fragments) -> None:
    # H5.
    state = SessionState("s", 1)
    for kind, fragment in fragments:
        state.apply_update({"sessionUpdate": kind, "content": {"type": "text", "text": fragment}})
    roles = {
        "user_message_chunk": "user",
        "agent_message_chunk": "agent",
        "agent_thought_chunk": "thought",
    }
    expected = [
        {
            "kind": "message",
            "role": roles[kind],
            "messageId": None,
            "content": [{"type": "text", "text": "".join(text for _, text in run_)}],
        }
        for kind, run_ in (
            (k, list(g)) for k, g in itertools.groupby(fragments, key=lambda f: f[0])
        )
    ]
    assert state.snapshot()["entries"] == expected
