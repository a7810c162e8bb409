"""The demo agent's session config options: the model (and, on the v2 draft, the mode) as
``select`` options, and ``think-aloud`` as a ``boolean`` one, offered only to a client that
advertised ``session.configOptions.boolean`` (schema 1.25). ``session/set_config_option`` sets a
select with a value id and a boolean with ``type: "boolean"`` and a JSON boolean."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from acp_editor.errors import InvalidParams
from acp_editor.protocol.acp import nonempty_str

if TYPE_CHECKING:
    from acp_editor.demo_agent.turn.prompt_turn import AgentSession

MODES = [
    {"id": "ask", "name": "Ask", "description": "Ask before changing anything"},
    {"id": "code", "name": "Code", "description": "Edit and run commands (still asks)"},
]
MODELS = [
    {"value": "demo-fast", "name": "Demo fast", "description": "Answers at once"},
    {"value": "demo-careful", "name": "Demo careful", "description": "Answers the same, slower"},
]
THINK_ALOUD = "think-aloud"


def config_options(session: AgentSession, version: int, boolean: bool) -> list[dict[str, Any]]:
    """The session's options as ``session/new`` and ``session/set_config_option`` answer them;
    ``boolean``: the client takes boolean options."""
    options = [_select("model", "Model", "model", session.model, MODELS)]
    if version >= 2:  # v2 has no modes: the mode is a config option
        modes = [
            {"value": m["id"], "name": m["name"], "description": m["description"]} for m in MODES
        ]
        options.insert(0, _select("mode", "Mode", "mode", session.mode, modes))
    if boolean:
        options.append(
            {
                "id": THINK_ALOUD,
                "name": "Think aloud",
                "description": "Start every answer with a thought about the prompt",
                "category": "model_config",
                "type": "boolean",
                "currentValue": session.think_aloud,
            }
        )
    return options


def _select(
    option_id: str, name: str, category: str, current: str, values: list[dict[str, str]]
) -> dict[str, Any]:
    return {
        "id": option_id,
        "name": name,
        "category": category,
        "type": "select",
        "currentValue": current,
        "options": values,
    }


def set_option(
    session: AgentSession, options: list[dict[str, Any]], params: dict[str, Any]
) -> None:
    """Apply ``session/set_config_option``'s params to ``session`` (-32602 on anything the
    options do not allow)."""
    config_id, value = nonempty_str(params, "configId"), params.get("value")
    by_id = {o["id"]: o for o in options}
    if config_id not in by_id:
        raise InvalidParams(f"unknown config option {config_id!r}")
    option = by_id[config_id]
    if option["type"] == "boolean":
        if params.get("type") != "boolean" or not isinstance(value, bool):
            raise InvalidParams(f'{config_id} takes type "boolean" and true or false')
        session.think_aloud = value
        return
    if params.get("type") == "boolean":
        raise InvalidParams(f"{config_id} takes a value id, not a boolean")
    if not isinstance(value, str) or value not in {o["value"] for o in option["options"]}:
        raise InvalidParams(f"unknown value {value!r} for {config_id}")
    if config_id == "mode":
        session.mode = value
    else:
        session.model = value
