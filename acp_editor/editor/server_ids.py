"""Ids of the requests the server sends to the editor (a module of its own: the frontend needs
them before a request exists, and must not import the server module)."""

from __future__ import annotations

import uuid


def new_request_id() -> str:
    return f"acp-{uuid.uuid4().hex[:12]}"
