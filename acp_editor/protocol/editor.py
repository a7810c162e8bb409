"""The ``acp/...`` editor protocol in Python: a mirror of ``docs/protocol.md``.

The document is the source of truth; ``tests/unit/protocol`` fails when this table and the
document disagree. Payloads are plain JSON objects, typed here only as far as the server reads
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Direction = Literal["editor → server", "server → editor"]
Kind = Literal["request", "notification"]


@dataclass(frozen=True)
class Message:
    method: str
    direction: Direction
    kind: Kind


# editor → server requests
ACP_NEW_SESSION = "acp/newSession"
ACP_PROMPT = "acp/prompt"
ACP_CANCEL = "acp/cancel"
ACP_SNAPSHOT = "acp/snapshot"
ACP_SET_MODE = "acp/setMode"
ACP_SET_CONFIG_OPTION = "acp/setConfigOption"
ACP_LIST_SESSIONS = "acp/listSessions"
ACP_LOAD_SESSION = "acp/loadSession"
ACP_SET_FOLLOW = "acp/setFollow"
ACP_RESTORE_CHECKPOINT = "acp/restoreCheckpoint"
ACP_REVIEW_DECIDE = "acp/reviewDecide"
ACP_REVIEW_GROUP_FILES = "acp/reviewGroupFiles"
ACP_DELETE_SESSION = "acp/deleteSession"
ACP_FORK_SESSION = "acp/forkSession"
ACP_LOGOUT = "acp/logout"
# server → editor notifications
ACP_SESSION_CHANGED = "acp/sessionChanged"
ACP_AGENT_STATUS = "acp/agentStatus"
ACP_FOLLOW = "acp/follow"
ACP_DIFF = "acp/diff"
ACP_TERMINAL_OUTPUT = "acp/terminalOutput"
ACP_TERMINAL_EXIT = "acp/terminalExit"
ACP_REVIEW_CHANGED = "acp/reviewChanged"
# server → editor requests
ACP_REQUEST_PERMISSION = "acp/requestPermission"
ACP_CHOOSE_AUTH_METHOD = "acp/chooseAuthMethod"
ACP_ELICIT = "acp/elicit"
ACP_DIAGNOSTICS = "acp/diagnostics"
ACP_SELECTION = "acp/selection"

_IN: Direction = "editor → server"
_OUT: Direction = "server → editor"

MESSAGES: dict[str, Message] = {
    m.method: m
    for m in [
        Message(ACP_NEW_SESSION, _IN, "request"),
        Message(ACP_PROMPT, _IN, "request"),
        Message(ACP_CANCEL, _IN, "request"),
        Message(ACP_SNAPSHOT, _IN, "request"),
        Message(ACP_SET_MODE, _IN, "request"),
        Message(ACP_SET_CONFIG_OPTION, _IN, "request"),
        Message(ACP_LIST_SESSIONS, _IN, "request"),
        Message(ACP_LOAD_SESSION, _IN, "request"),
        Message(ACP_SET_FOLLOW, _IN, "request"),
        Message(ACP_SESSION_CHANGED, _OUT, "notification"),
        Message(ACP_AGENT_STATUS, _OUT, "notification"),
        Message(ACP_FOLLOW, _OUT, "notification"),
        Message(ACP_DIFF, _OUT, "notification"),
        Message(ACP_TERMINAL_OUTPUT, _OUT, "notification"),
        Message(ACP_TERMINAL_EXIT, _OUT, "notification"),
        Message(ACP_REQUEST_PERMISSION, _OUT, "request"),
        Message(ACP_CHOOSE_AUTH_METHOD, _OUT, "request"),
        Message(ACP_ELICIT, _OUT, "request"),
        Message(ACP_REVIEW_CHANGED, _OUT, "notification"),
        Message(ACP_REVIEW_DECIDE, _IN, "request"),
        Message(ACP_REVIEW_GROUP_FILES, _IN, "request"),
        Message(ACP_RESTORE_CHECKPOINT, _IN, "request"),
        Message(ACP_DELETE_SESSION, _IN, "request"),
        Message(ACP_FORK_SESSION, _IN, "request"),
        Message(ACP_LOGOUT, _IN, "request"),
        Message(ACP_DIAGNOSTICS, _OUT, "request"),
        Message(ACP_SELECTION, _OUT, "request"),
    ]
}
"""Every ``acp/...`` message, by method name."""

# Rich features an editor declares in initializationOptions.acp.features.
FEATURE_STREAM = "stream"
FEATURE_FOLLOW = "follow"
FEATURE_PERMISSIONS = "permissions"
FEATURE_DIFFS = "diffs"
FEATURE_TERMINALS = "terminals"
FEATURE_AUTH = "auth"
FEATURE_REVIEW = "review"
FEATURE_ELICIT = "elicit"
FEATURE_CONTEXT = "context"
FEATURES = (
    FEATURE_STREAM,
    FEATURE_FOLLOW,
    FEATURE_PERMISSIONS,
    FEATURE_DIFFS,
    FEATURE_TERMINALS,
    FEATURE_AUTH,
    FEATURE_REVIEW,
    FEATURE_ELICIT,
    FEATURE_CONTEXT,
)

# Zero-plugin commands (workspace/executeCommand).
CMD_PROMPT = "acp.prompt"
CMD_PROMPT_ASYNC = "acp.promptAsync"
CMD_TRANSCRIPT = "acp.transcript"
CMD_CANCEL = "acp.cancel"
CMD_NEW_SESSION = "acp.newSession"
CMD_SET_MODE = "acp.setMode"
CMD_FOLLOW = "acp.follow"
CMD_STATUS = "acp.status"
CMD_RESTORE_CHECKPOINT = "acp.restoreCheckpoint"
CMD_ACCEPT_HUNK = "acp.acceptHunk"
CMD_REJECT_HUNK = "acp.rejectHunk"
CMD_ACCEPT_FILE = "acp.acceptFile"
CMD_REJECT_FILE = "acp.rejectFile"
CMD_ACCEPT_ALL = "acp.acceptAll"
CMD_REJECT_ALL = "acp.rejectAll"
CMD_ACCEPT_GROUP = "acp.acceptGroup"
CMD_REJECT_GROUP = "acp.rejectGroup"
CMD_GROUP_FILES = "acp.groupFiles"
CMD_TAKE_AGENT_VERSION = "acp.takeAgentVersion"
CMD_KEEP_MINE = "acp.keepMine"
CMD_DELETE_SESSION = "acp.deleteSession"
CMD_FORK_SESSION = "acp.forkSession"
CMD_LOGOUT = "acp.logout"
COMMANDS = (
    CMD_PROMPT,
    CMD_PROMPT_ASYNC,
    CMD_TRANSCRIPT,
    CMD_CANCEL,
    CMD_NEW_SESSION,
    CMD_SET_MODE,
    CMD_FOLLOW,
    CMD_STATUS,
    CMD_RESTORE_CHECKPOINT,
    CMD_ACCEPT_HUNK,
    CMD_REJECT_HUNK,
    CMD_ACCEPT_FILE,
    CMD_REJECT_FILE,
    CMD_ACCEPT_ALL,
    CMD_REJECT_ALL,
    CMD_ACCEPT_GROUP,
    CMD_REJECT_GROUP,
    CMD_GROUP_FILES,
    CMD_TAKE_AGENT_VERSION,
    CMD_KEEP_MINE,
    CMD_DELETE_SESSION,
    CMD_FORK_SESSION,
    CMD_LOGOUT,
)

REVIEW_MODES = ("after-write", "before-write", "off")
DIAGNOSTIC_SOURCE = "acp"

AGENT_UNAVAILABLE = -32050
"""Error code: the agent failed to start or has exited."""
