"""The transcript's messages found again by id: chunks and upserts of a message go to its entry,
the agent's echo of a prompt we recorded takes that prompt's entry (the one whose answer named
its ``messageId``, else the oldest no answer named), and a compaction (a message
of role ``compaction``, see ``session.markers``) is patched and appended to the same way.

It works out changes against the session's entries and keeps only the indexes; the caller
(``session.state``) applies the changes.
"""

from __future__ import annotations

from typing import Any

from acp_editor.session.markers import (
    COMPACTION,
    chunk_block,
    compaction_id,
    compaction_patch,
    new_compaction,
)
from acp_editor.session.reducer import json_copy, json_equal
from acp_editor.session.update_fields import InvalidUpdate, require_content


class Messages:
    def __init__(self, entries: list[dict[str, Any]]) -> None:
        self.entries = entries
        """The session snapshot's transcript (read only here)."""
        #: (role, messageId) -> entry index, so a chunk for an earlier message finds it directly.
        self._messages: dict[tuple[str, str], int] = {}
        #: v2: our prompts' entries, oldest first, that the agent has not echoed yet (its
        #: ``user_message`` names the message; we hold the prompt until then).
        self._unechoed: list[int] = []
        #: v2: the ``messageId`` each answer to our prompt named (``PromptResponse``), for the
        #: prompts among those not echoed yet: their echo joins exactly that entry.
        self._named: dict[str, int] = {}
        #: v1: where the running turn's entries start when its prompt is not the last entry (a
        #: prompt that waited: its reply must not continue the turn before's last message).
        self._turn_start = 0

    def copy_for(self, entries: list[dict[str, Any]]) -> Messages:
        other = Messages(entries)
        other._messages = dict(self._messages)
        other._unechoed = list(self._unechoed)
        other._named = dict(self._named)
        other._turn_start = self._turn_start
        return other

    def turn_started(self) -> None:
        """A prompt that waited went: chunks from now on start a message of their own."""
        self._turn_start = len(self.entries)

    def prompt_sent(self, index: int) -> None:
        """v2: our prompt at ``index`` waits for the agent's echo."""
        self._unechoed.append(index)

    def prompt_inserted(self, index: int, message_id: str) -> list[dict[str, Any]]:
        """v2: the agent's answer to our prompt at ``index`` names the user message it inserted.
        The entry takes the id now; its echo, whenever it comes, joins this entry (an echo that
        came first took the oldest prompt not named, which is this one when the agent inserts
        prompts in the order sent)."""
        if index not in self._unechoed or ("user", message_id) in self._messages:
            return []  # echoed already, or settled
        self._named[message_id] = index
        return patch_change(index, self.entries[index], {"messageId": message_id})

    def unechoed(self) -> list[int]:
        """v2, when the agent's work is over: the prompts it never echoed (forgotten now)."""
        indexes, self._unechoed = self._unechoed, []
        for message_id, index in self._named.items():  # a late echo patches the entry named
            self._messages[("user", message_id)] = index
        self._named.clear()
        return indexes

    def _ours(self, message_id: str) -> int | None:
        """Which prompt of ours a user message the agent names is: the one whose answer named
        it, else the oldest one no answer named; None when every prompt waiting for its echo
        was named otherwise (another client's prompt, say: a message of its own)."""
        if message_id in self._named:
            return self._named.pop(message_id)
        named = set(self._named.values())
        return next((i for i in self._unechoed if i not in named), None)

    def _entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        return {"type": "entry", "index": len(self.entries), "entry": entry}

    def chunk(self, role: str, update: dict[str, Any], kind: str) -> list[dict[str, Any]]:
        block = require_content(update, kind)  # apply_change copies it into the snapshot
        message_id = update.get("messageId")
        if not isinstance(message_id, str):
            # The schema deserialises an invalid messageId as absent; do the same.
            message_id = None
        entries: list[dict[str, Any]] = self.entries
        if message_id is not None:
            index = self._messages.get((role, message_id))
            if index is None and role == "user" and (ours := self._ours(message_id)) is not None:
                # The agent's echo of our prompt: its chunks are the message now.
                return [self._echo(ours, message_id, {"content": [block]})]
        elif (
            len(entries) > self._turn_start
            and entries[-1]["kind"] == "message"
            and entries[-1]["role"] == role
        ):
            index = len(entries) - 1
        else:
            index = None
        if index is not None:
            return [{"type": "message_chunk", "index": index, "content": block}]
        if message_id is not None:
            self._messages[(role, message_id)] = len(entries)
        entry = {"kind": "message", "role": role, "messageId": message_id, "content": [block]}
        return [self._entry(entry)]

    def upsert(self, role: str, update: dict[str, Any], kind: str) -> list[dict[str, Any]]:
        """A v2 message upsert: a new ``messageId`` starts a message, a known one is patched
        (``content`` replaces the whole content, ``null`` clears; other fields set or unset)."""
        message_id = update.get("messageId")
        if not isinstance(message_id, str):
            raise InvalidUpdate(f"{kind} needs a string messageId, got {message_id!r}")
        patch: dict[str, Any] = {}
        for name, value in update.items():
            if name in ("sessionUpdate", "messageId"):
                continue
            if name == "content":
                if value is None or isinstance(value, list):  # anything else: as if absent
                    patch["content"] = json_copy(value) if value is not None else []
            else:
                patch[name] = json_copy(value)
        index = self._messages.get((role, message_id))
        if index is None and role == "user" and (ours := self._ours(message_id)) is not None:
            return [self._echo(ours, message_id, patch)]
        if index is None:
            self._messages[(role, message_id)] = len(self.entries)
            entry = {"kind": "message", "role": role, "messageId": message_id, "content": []}
            entry.update((k, v) for k, v in patch.items() if v is not None)
            return [self._entry(entry)]
        return patch_change(index, self.entries[index], patch)

    def _echo(self, index: int, message_id: str, patch: dict[str, Any]) -> dict[str, Any]:
        """The agent echoes our prompt at ``index`` (``_ours``): the entry takes its id and
        content, and is no longer queued."""
        self._unechoed.remove(index)
        self._messages[("user", message_id)] = index
        set_ = {"messageId": message_id, **{k: v for k, v in patch.items() if v is not None}}
        unset = [k for k, v in patch.items() if v is None]
        if "queued" in self.entries[index]:
            unset.append("queued")
            set_["waitedUntil"] = len(self.entries)  # it reads after what came meanwhile
        return {"type": "message", "index": index, "set": set_, "unset": unset}

    def compaction(self, kind: str, update: dict[str, Any]) -> list[dict[str, Any]]:
        """A compaction's entry made by its first update or chunk, then patched or appended to
        (see ``session.markers``)."""
        compaction = compaction_id(update, kind)
        key = (COMPACTION, compaction)
        index = self._messages.get(key)
        if kind == "compaction_summary_chunk":
            block = chunk_block(update)
            if index is not None:
                return [{"type": "message_chunk", "index": index, "content": block}]
            first = {"content": [block]}
        else:
            first = compaction_patch(update)
            if index is not None:
                current = self.entries[index]
                return patch_change(index, current, first)
        self._messages[key] = len(self.entries)
        return [self._entry(new_compaction(compaction, first))]


def patch_change(
    index: int, current: dict[str, Any], patch: dict[str, Any]
) -> list[dict[str, Any]]:
    """The ``message`` change that patches entry ``index`` (a ``None`` value unsets its field),
    or none when nothing differs."""
    set_ = {k: v for k, v in patch.items() if v is not None and not json_equal(current.get(k), v)}
    unset = [k for k, v in patch.items() if v is None and k in current]
    if not set_ and not unset:
        return []
    return [{"type": "message", "index": index, "set": set_, "unset": unset}]
