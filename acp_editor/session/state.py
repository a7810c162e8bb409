"""The state of one ACP session as the client sees it, built from what the agent reports.

Pure: no I/O and no event loop, so every rule can be tested exhaustively and the agent link and
editor link can share it. Every method returns the minimal list of changes it caused (documented
in `acp_editor.session.reducer`) and applies them to its own snapshot through the same
`apply_change` an editor mirror uses, so mirror and state cannot drift apart.

The rules follow the v2 draft for both protocol versions, because they lose nothing on v1 input;
the one difference is ``null`` in a tool-call update ("clear" on v2, "unchanged" on v1). Nothing an
agent sends is dropped for being unknown: unknown update variants become raw transcript entries,
and unknown fields, kinds, statuses and content types are stored verbatim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from acp_editor.session.markers import notice_entry
from acp_editor.session.messages import Messages
from acp_editor.session.plans import plan_removed, plan_updated
from acp_editor.session.reducer import apply_change, empty_snapshot, json_copy, json_equal
from acp_editor.session.subagents import subagent_changes
from acp_editor.session.tool_calls import cancel_changes, content_chunk_changes, upsert_changes
from acp_editor.session.update_fields import (
    InvalidUpdate,
    plan_id,
    require_content,
    require_tool_call_id,
    without_tag,
)

#: Message chunk variants and the transcript role each one streams into.
_CHUNK_ROLES = {
    "user_message_chunk": "user",
    "agent_message_chunk": "agent",
    "agent_thought_chunk": "thought",
    "session_message_chunk": "session",
}

#: v2 message upserts (keyed by messageId) and the transcript role each one patches; a message
#: between sessions (a parent and its subagents) is an upsert in v1 too.
_UPSERT_ROLES = {
    "user_message": "user",
    "agent_message": "agent",
    "agent_thought": "thought",
    "session_message": "session",
}

#: v2 display terminal updates: ``agent/serving/display_terminals.py`` reads them as they arrive and
#: shows them as terminal output, as it does client terminals (whose output the state never
#: holds either); a transcript entry per output chunk would only grow without end.
_DISPLAY_TERMINAL_UPDATES = frozenset({"terminal_update", "terminal_output_chunk"})

#: Variants whose one member (named like the snapshot field) replaces that field:
#: sessionUpdate -> (member and snapshot field, change type).
_MEMBER_REPLACEMENTS = {
    "available_commands_update": ("availableCommands", "commands"),
    "config_option_update": ("configOptions", "config_options"),
}

#: Variants whose whole object (minus ``sessionUpdate``) replaces a top-level field.
_WHOLE_REPLACEMENTS = {"plan": ("plan", "plan"), "usage_update": ("usage", "usage")}


class SessionView(Protocol):
    """Reading a session's state without changing it: what front ends and review are given, so
    they look at the one state instead of keeping copies of tool calls."""

    @property
    def session_id(self) -> str: ...

    agent: str
    """The id of the agent the session runs in (not part of the snapshot)."""
    cwd: str | None
    """The session's working directory (not part of the snapshot)."""
    parent: str | None
    """A subagent's session: the session that started it (not part of the snapshot)."""

    def peek_tool_call(self, tool_call_id: str) -> Mapping[str, Any] | None: ...

    def tool_call_order(self) -> list[str]: ...

    def current_mode(self) -> str | None: ...

    def config_options(self) -> Any: ...

    def entry_count(self) -> int: ...

    def peek_entries(self, start: int = 0) -> Sequence[Mapping[str, Any]]: ...

    def run_state(self) -> Mapping[str, Any] | None: ...

    def title(self) -> str | None: ...


class SessionState:
    """Transcript, tool calls, plan, modes and metadata of one session."""

    def __init__(
        self,
        session_id: str,
        protocol_version: int = 1,
        *,
        agent: str = "default",
        cwd: str | None = None,
        parent: str | None = None,
    ) -> None:
        self.session_id = session_id
        #: Whose session it is and where it works: told with it, never part of its snapshot.
        self.agent = agent
        self.cwd = cwd
        #: A subagent's session: the session whose agent started it (``subagent_update``).
        self.parent = parent
        #: The negotiated ACP version; decides only what ``null`` means in tool-call updates.
        self.protocol_version = protocol_version
        self._snapshot = empty_snapshot(session_id, protocol_version)
        self._messages = Messages(self._snapshot["entries"])

    def copy_as(self, session_id: str) -> SessionState:
        """A state holding everything this one holds, for session ``session_id`` (a fork)."""
        other = SessionState(
            session_id, self.protocol_version, agent=self.agent, cwd=self.cwd, parent=self.parent
        )
        other._snapshot = json_copy(self._snapshot)
        other._snapshot["sessionId"] = session_id
        other._messages = self._messages.copy_for(other._snapshot["entries"])
        return other

    # -- reading ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the whole state, safe to serialise, send or mutate."""
        snapshot: dict[str, Any] = json_copy(self._snapshot)
        return snapshot

    def tool_call(self, tool_call_id: str) -> dict[str, Any] | None:
        """A copy of the stored tool call, or ``None`` if the id was never reported."""
        record = self._snapshot["toolCalls"].get(tool_call_id)
        return json_copy(record) if record is not None else None

    def peek_tool_call(self, tool_call_id: str) -> Mapping[str, Any] | None:
        """The stored tool call itself, not a copy: for code that only looks (on every update,
        where copying a tool call with large content would dominate). Never modify it."""
        record: dict[str, Any] | None = self._snapshot["toolCalls"].get(tool_call_id)
        return record

    def snapshot_field(self, name: str) -> Any:
        """One top-level value of the snapshot (``configOptions``, ``modes``...), not copied."""
        return self._snapshot.get(name)

    def tool_call_order(self) -> list[str]:
        """Tool call ids in the order they first appeared."""
        return [e["toolCallId"] for e in self._snapshot["entries"] if e.get("kind") == "toolCall"]

    def entry_count(self) -> int:
        """How long the transcript is: where the next turn's entries will start."""
        return len(self._snapshot["entries"])

    def peek_entries(self, start: int = 0) -> Sequence[Mapping[str, Any]]:
        """The transcript's entries from ``start`` on, not copied (see ``peek_tool_call``)."""
        entries: list[dict[str, Any]] = self._snapshot["entries"]
        return entries[start:]

    def run_state(self) -> Mapping[str, Any] | None:
        """The foreground work as last reported (``runState``, not copied): v2's is the agent's
        state update whole, its ``background`` too."""
        value = self._snapshot.get("runState")
        return value if isinstance(value, dict) else None

    def title(self) -> str | None:
        """The session's title as the agent last gave it (``session_info_update``), else None."""
        title = self._snapshot["info"].get("title")
        return title.strip() if isinstance(title, str) and title.strip() else None

    def config_options(self) -> Any:
        """The session's config options as the agent last gave them (None: none)."""
        return json_copy(self._snapshot["configOptions"])

    def current_mode(self) -> str | None:
        """The session mode the agent is in (``currentModeId``), if it has modes."""
        modes = self._snapshot.get("modes")
        mode = modes.get("currentModeId") if isinstance(modes, dict) else None
        return mode if isinstance(mode, str) else None

    # -- agent reports ---------------------------------------------------------------------

    def apply_update(self, update: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply the ``update`` of a ``session/update`` notification; return what changed."""
        if not isinstance(update, dict):
            raise InvalidUpdate(f"a session update must be an object, got {type(update).__name__}")
        kind = update.get("sessionUpdate")
        if not isinstance(kind, str):
            raise InvalidUpdate(f"a session update needs a string sessionUpdate, got {kind!r}")
        return self._commit(self._changes_for(kind, update))

    def apply_permission_tool_call(self, tool_call: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply the ``toolCall`` of a ``session/request_permission`` as a tool-call update.

        Agents often ask permission for a call they have not announced yet (or never will), so
        this creates the tool call when the id is new, exactly like an update would.
        """
        if not isinstance(tool_call, dict):
            raise InvalidUpdate(
                f"a permission toolCall must be an object, got {type(tool_call).__name__}"
            )
        tool_call_id = require_tool_call_id(tool_call, "a permission toolCall")
        return self._commit(self._upsert(tool_call_id, tool_call))

    # -- client-side events ----------------------------------------------------------------

    def add_user_prompt(
        self, blocks: list[dict[str, Any]], turn: int | None = None, *, queued: bool = False
    ) -> list[dict[str, Any]]:
        """Record the user's prompt as a new user message (kept block for block, not merged);
        ``turn`` numbers the turn it starts when the workspace was checkpointed before it (the
        number ``acp.restoreCheckpoint`` takes). ``queued``: sent while the agent works (v2), so
        it waits its turn; the agent's echo of it clears that."""
        if not isinstance(blocks, list):
            raise InvalidUpdate(f"a prompt must be a list of blocks, got {type(blocks).__name__}")
        entry: dict[str, Any] = {
            "kind": "message",
            "role": "user",
            "messageId": None,
            "content": json_copy(blocks),
        }
        if turn is not None:
            entry["turn"] = turn
        if queued:
            entry["queued"] = True
        if self.protocol_version >= 2:
            self._messages.prompt_sent(len(self._snapshot["entries"]))
        return self._commit([self._entry_change(entry)])

    def prompt_inserted(self, index: int, message_id: str) -> list[dict[str, Any]]:
        """v2: the agent's answer to the prompt at ``index`` names the user message it inserted
        (``PromptResponse.messageId``); the agent's echo of it joins that entry."""
        return self._commit(self._messages.prompt_inserted(index, message_id))

    def set_modes(self, modes: dict[str, Any] | None) -> list[dict[str, Any]]:
        """Replace the mode state (from a ``session/new`` or ``session/load`` response)."""
        return self._commit(self._replace("modes", "modes", json_copy(modes)))

    def set_config_options(self, options: list[Any] | None) -> list[dict[str, Any]]:
        """Replace the config options (from ``session/new|load`` or ``set_config_option``)."""
        value = json_copy(options)
        return self._commit(self._replace("configOptions", "config_options", value))

    def set_current_mode(self, mode_id: str) -> list[dict[str, Any]]:
        """Record a mode switch the agent accepted (``session/set_mode`` succeeded)."""
        return self._commit(self._current_mode(mode_id))

    def start_queued(
        self, index: int, blocks: list[dict[str, Any]], turn: int | None
    ) -> list[dict[str, Any]]:
        """v1: a prompt that waited its turn in the client goes now, saying ``blocks``; it reads
        after what came in the meantime (``waitedUntil``: the turn before it, its reply)."""
        turned = {"turn": turn} if turn is not None else {}
        went = {"content": json_copy(blocks), **turned, **self._waited()}
        self._messages.turn_started()  # its reply is a message of its own
        return self._set(index, went, ["queued"])

    def edit_queued(self, index: int, blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """v1: a prompt still waiting its turn says something else."""
        return self._set(index, {"content": json_copy(blocks)}, [])

    def drop_queued(self, index: int) -> list[dict[str, Any]]:
        """v1: a prompt waiting its turn was withdrawn: it stays, marked ``dropped`` (as v2's),
        read where its wait ended."""
        return self._set(index, {"dropped": True, **self._waited()}, ["queued"])

    def _waited(self) -> dict[str, Any]:
        """Where a prompt's wait ended: a prompt sent while a turn ran is at the entry index it
        was sent at, but reads after the entries before this one (the turn it waited behind and
        that turn's reply, which would otherwise read as its own)."""
        return {"waitedUntil": len(self._snapshot["entries"])}

    def _set(self, index: int, set_: dict[str, Any], unset: list[str]) -> list[dict[str, Any]]:
        return self._commit([{"type": "message", "index": index, "set": set_, "unset": unset}])

    def settle_prompts(self) -> list[dict[str, Any]]:
        """v2, when the agent's work is over: prompts it never echoed are forgotten; a queued
        one it never took up (a cancel drops the queue) is marked ``dropped``."""
        changes = []
        for index in self._messages.unechoed():
            if self._snapshot["entries"][index].get("queued"):
                changes += self.drop_queued(index)
        return changes

    def mark_unfinished_cancelled(self) -> list[dict[str, Any]]:
        """After ``session/cancel``: every tool call not completed/failed/cancelled is cancelled."""
        return self._commit(cancel_changes(self._snapshot))

    # -- internals -------------------------------------------------------------------------

    def _commit(self, changes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for change in changes:
            apply_change(self._snapshot, change)
        return changes

    def _changes_for(self, kind: str, update: dict[str, Any]) -> list[dict[str, Any]]:
        role = _CHUNK_ROLES.get(kind)
        if role is not None:
            return self._messages.chunk(role, update, kind)
        role = _UPSERT_ROLES.get(kind)
        if role is not None:
            return self._messages.upsert(role, update, kind)
        if kind in _DISPLAY_TERMINAL_UPDATES:
            return []
        if kind == "state_update":
            return self._replace("runState", "run_state", without_tag(update))
        if kind == "plan_update" and plan_id(update) is not None:
            return plan_updated(self._snapshot, update["plan"])
        if kind == "plan_removed":
            return plan_removed(self._snapshot, update)
        if kind == "subagent_update":
            return subagent_changes(self._snapshot, update)
        if kind in ("compaction_update", "compaction_summary_chunk"):
            return self._messages.compaction(kind, update)
        if kind == "notice" and (notice := notice_entry(update)) is not None:
            return [self._entry_change(notice)]
        if kind in ("tool_call", "tool_call_update"):
            return self._upsert(require_tool_call_id(update, kind), update)
        if kind == "tool_call_content_chunk":
            tool_call_id = require_tool_call_id(update, kind)
            item = require_content(update, kind)
            return content_chunk_changes(self._snapshot, tool_call_id, item)
        if kind in _WHOLE_REPLACEMENTS:
            field, change_type = _WHOLE_REPLACEMENTS[kind]
            return self._replace(field, change_type, without_tag(update))
        if kind in _MEMBER_REPLACEMENTS and _MEMBER_REPLACEMENTS[kind][0] in update:
            field, change_type = _MEMBER_REPLACEMENTS[kind]
            return self._replace(field, change_type, json_copy(update[field]))
        if kind == "current_mode_update":
            # The schema names the field currentModeId; one doc example shows modeId.
            for member in ("currentModeId", "modeId"):
                if member in update:
                    return self._current_mode(json_copy(update[member]))
        if kind == "session_info_update":
            return self._merge_info(update)
        # Unknown variants, and known ones missing the member that carries their value: keep the
        # raw object in the transcript so an editor can still show it and nothing is lost.
        return [self._entry_change({"kind": "update", "update": json_copy(update)})]

    def _entry_change(self, entry: dict[str, Any]) -> dict[str, Any]:
        return {"type": "entry", "index": len(self._snapshot["entries"]), "entry": entry}

    def _upsert(self, tool_call_id: str, patch: dict[str, Any]) -> list[dict[str, Any]]:
        null_clears = self.protocol_version >= 2
        return upsert_changes(self._snapshot, tool_call_id, patch, null_clears=null_clears)

    def _replace(self, field: str, change_type: str, value: Any) -> list[dict[str, Any]]:
        """A whole-value change, or none when the value is what the snapshot already holds."""
        if json_equal(self._snapshot[field], value):
            return []
        return [{"type": change_type, field: value}]

    def _current_mode(self, mode_id: Any) -> list[dict[str, Any]]:
        modes = json_copy(self._snapshot["modes"])
        if not isinstance(modes, dict):
            # A mode update can arrive before (or without) any mode state: start one rather
            # than lose the fact, without inventing an availableModes list.
            modes = {}
        modes["currentModeId"] = mode_id
        return self._replace("modes", "modes", modes)

    def _merge_info(self, update: dict[str, Any]) -> list[dict[str, Any]]:
        """Merge ``session_info_update`` fields: a value replaces, ``null`` clears (per schema)."""
        info = json_copy(self._snapshot["info"])
        for field, value in update.items():
            if field == "sessionUpdate":
                continue
            if value is None:
                info.pop(field, None)
            else:
                info[field] = json_copy(value)
        return self._replace("info", "info", info)
