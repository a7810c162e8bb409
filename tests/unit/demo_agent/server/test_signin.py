"""Signing in: the terminal method offered only to a client that can run it, ``--require-login``
(prompts refused until the login file exists), ``auth/status`` and its updates, and the
``--login`` program itself as a subprocess. Every message the agent sends is checked against
schema 1.25 (the ``wires`` fixture)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from acp_editor.demo_agent.server.signin import LOGIN_PROMPT, TERMINAL_LOGIN_ID, login_program
from acp_editor.errors import AuthRequired, RpcError
from tests.unit.demo_agent.wire import Wire

Wires = Callable[..., Wire]
TERMINAL_AUTH = {"auth": {"terminal": True}}


def _sign_in(login_file: Path, name: str = "Ada") -> None:
    login_file.write_text(json.dumps({"name": name}), encoding="utf-8")


async def test_require_login_offers_the_terminal_method_to_a_client_that_runs_it(
    wires: Wires, tmp_path: Path
) -> None:
    login_file = tmp_path / "login.json"
    wire = wires(require_login=True, login_file=str(login_file))
    answer = await wire.start(TERMINAL_AUTH)
    assert answer["authMethods"] == [
        {
            "id": TERMINAL_LOGIN_ID,
            "name": "Log in from a terminal",
            "description": "Type your name in a terminal (the demo's sign-in)",
            "type": "terminal",
            "args": ["--login", "--login-file", str(login_file)],
            "env": {},
        }
    ]
    assert answer["agentCapabilities"]["auth"] == {"logout": {}, "status": {}}


@pytest.mark.parametrize("auth", [{}, {"terminal": False}, {"terminal": None}])
async def test_require_login_offers_nothing_to_a_client_that_cannot(
    wires: Wires, tmp_path: Path, auth: dict[str, object]
) -> None:
    wire = wires(require_login=True, login_file=str(tmp_path / "login.json"))
    assert (await wire.start({"auth": auth}))["authMethods"] == []


async def test_a_prompt_needs_the_login_file_and_the_status_follows_it(
    wires: Wires, tmp_path: Path
) -> None:
    login_file = tmp_path / "login.json"
    wire = wires(require_login=True, login_file=str(login_file))
    await wire.start(TERMINAL_AUTH)
    assert await wire.call("auth/status", {}) == {"state": "unauthenticated", "accounts": []}
    sid = await wire.new()  # a session needs no sign-in
    with pytest.raises(RpcError) as refused:
        await wire.prompt(sid, "hello")
    assert (refused.value.code, refused.value.message) == (-32000, "Authentication required")
    assert wire.statuses == []  # nothing changed yet
    _sign_in(login_file)
    assert (await wire.prompt(sid, "hello"))["stopReason"] == "end_turn"
    signed_in = {
        "state": "authenticated",
        "accounts": [{"label": "Ada", "name": "Ada", "active": True}],
    }
    assert wire.statuses == [signed_in]  # told once, at the first prompt that saw the file
    await wire.prompt(sid, "hello")
    assert wire.statuses == [signed_in]
    assert await wire.call("auth/status", {}) == signed_in


async def test_a_logout_forgets_the_login_file(wires: Wires, tmp_path: Path) -> None:
    login_file = tmp_path / "login.json"
    _sign_in(login_file)
    wire = wires(require_login=True, login_file=str(login_file))
    await wire.start(TERMINAL_AUTH)
    sid = await wire.new()
    await wire.prompt(sid, "hello")
    await wire.call("logout", {})
    assert not login_file.exists()
    assert wire.statuses == [{"state": "unauthenticated", "accounts": []}]
    with pytest.raises(RpcError, match="Authentication required"):
        await wire.prompt(sid, "hello")


async def test_the_terminal_method_is_never_authenticated_with(
    wires: Wires, tmp_path: Path
) -> None:
    wire = wires(require_login=True, login_file=str(tmp_path / "login.json"))
    await wire.start(TERMINAL_AUTH)
    with pytest.raises(RpcError, match="terminal method"):
        await wire.call("authenticate", {"methodId": TERMINAL_LOGIN_ID})


async def test_require_auth_offers_its_terminal_method_only_when_asked(
    wires: Wires, tmp_path: Path
) -> None:
    login_file = str(tmp_path / "login.json")
    offered = await wires(require_auth=True, login_file=login_file).start(TERMINAL_AUTH)
    assert [m["id"] for m in offered["authMethods"]] == ["demo-login", TERMINAL_LOGIN_ID]
    plain = await wires(require_auth=True, login_file=login_file).start({})
    assert [m["id"] for m in plain["authMethods"]] == ["demo-login"]


async def test_require_auth_takes_a_terminal_sign_in_too(wires: Wires, tmp_path: Path) -> None:
    login_file = tmp_path / "login.json"
    wire = wires(require_auth=True, login_file=str(login_file))
    await wire.start(TERMINAL_AUTH)
    with pytest.raises(RpcError, match="authenticate first"):
        await wire.new()
    _sign_in(login_file, "Grace")  # what the terminal method's program does
    assert await wire.new()  # the client's retry
    grace = {"label": "Grace", "name": "Grace", "active": True}
    assert wire.statuses == [{"state": "authenticated", "accounts": [grace]}]
    await wire.call("logout", {})
    assert not login_file.exists()
    with pytest.raises(RpcError, match="authenticate first"):
        await wire.new()


async def test_authenticate_with_require_auth_is_reported(wires: Wires, tmp_path: Path) -> None:
    wire = wires(require_auth=True, login_file=str(tmp_path / "login.json"))
    await wire.start({})
    with pytest.raises(RpcError) as refused:
        await wire.new()
    assert refused.value.code == AuthRequired.CODE
    await wire.call("authenticate", {"methodId": "demo-login"})
    assert wire.statuses == [
        {"state": "authenticated", "accounts": [{"label": "Demo login", "active": True}]}
    ]
    assert await wire.new()


async def test_an_agent_that_needs_no_sign_in_says_so_and_never_updates(wires: Wires) -> None:
    wire = wires()
    answer = await wire.start(TERMINAL_AUTH)
    assert answer["authMethods"] == []
    assert await wire.call("auth/status", {}) == {"state": "not_required", "accounts": []}
    sid = await wire.new()
    await wire.prompt(sid, "hello")
    await wire.call("logout", {})
    assert wire.statuses == []


# -- the --login program ----------------------------------------------------------------------


def _login(login_file: Path, typed: str | None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "acp_editor.demo_agent", "--login", "--login-file"]
    return subprocess.run(
        [*argv, str(login_file)],
        input=typed,
        stdin=subprocess.DEVNULL if typed is None else None,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_login_program_keeps_the_name_typed(tmp_path: Path) -> None:
    login_file = tmp_path / "state" / "login.json"
    done = _login(login_file, "Grace Hopper\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(LOGIN_PROMPT + "\n")
    assert "Signed in as Grace Hopper" in done.stdout
    assert json.loads(login_file.read_text())["name"] == "Grace Hopper"


def test_the_login_program_fails_at_the_end_of_input(tmp_path: Path) -> None:
    login_file = tmp_path / "login.json"
    done = _login(login_file, None)
    assert done.returncode == 1
    assert done.stdout == LOGIN_PROMPT + "\n"
    assert "Not signed in: the input ended" in done.stderr
    assert not login_file.exists()


def test_an_empty_name_is_no_sign_in(tmp_path: Path) -> None:
    login_file = tmp_path / "login.json"
    out, err = io.StringIO(), io.StringIO()
    assert login_program(str(login_file), io.StringIO("  \n"), out, err) == 1
    assert err.getvalue() == "Not signed in: no name typed.\n"
    assert not login_file.exists()
