"""Signing in from the editor (issue 34), through the real sidecar and the scripted agent in
its terminal-only sign-in (``--require-login``, as claude-agent-acp signs in): a session opens,
its first prompt needs a sign-in, the user chooses the terminal method, the agent's own login
program runs with the method's args (here: the test plays the user at that terminal), and the
waiting prompt goes on. A plain editor is told the command line to run; a rich one runs it."""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

from acp_editor.protocol import editor as proto
from tests.e2e_lsp.conftest import StartEditor


def run_login(command: list[str], env: dict[str, str], typed: str) -> int:
    """The user at the terminal: runs the command and types ``typed``."""
    done = subprocess.run(
        command,
        input=typed,
        text=True,
        capture_output=True,
        env={**os.environ, **env},
        timeout=60,
        check=False,
    )
    return done.returncode


def flags(tmp_path: Path) -> tuple[str, ...]:
    return ("--fast", "--require-login", "--login-file", str(tmp_path / "login.json"))


async def test_a_plain_editor_is_told_what_to_run_and_the_prompt_goes_on(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    ran: list[int] = []

    async def answer(params: dict[str, Any]) -> Any:
        message = params["message"]
        titles = [a["title"] for a in params["actions"]]
        if "Choose how" in message:
            assert "(a command in a terminal)" in message
            return {"title": titles[0]}
        # The command to run comes last in the question, as a shell line.
        line = message.rsplit("\n", 1)[-1]
        assert titles == ["Not now", "I have signed in"]
        ran.append(await asyncio.to_thread(run_login, shlex.split(line), {}, "Alice\n"))
        return {"title": "I have signed in"}

    editor = await editor_factory(agent_flags=flags(tmp_path), answer_permission=answer)
    result = await editor.command("acp.prompt", "stream")
    assert ran == [0]
    assert result["stopReason"] == "end_turn" and result["reply"]
    assert (tmp_path / "login.json").exists()
    status = await editor.command("acp.status")
    assert status["auth"]["state"] == "authenticated"


async def test_a_rich_editor_runs_the_login_in_its_terminal(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    asked: list[dict[str, Any]] = []

    async def answer(params: dict[str, Any]) -> Any:
        asked.append(params)
        if "methods" in params:  # acp/chooseAuthMethod
            (method,) = [m for m in params["methods"] if m["type"] == "terminal"]
            return {"methodId": method["id"]}
        code = await asyncio.to_thread(run_login, params["command"], params["env"], "Bo\n")
        return {"exitCode": code}

    editor = await editor_factory(
        features=["stream", "auth", "signIn"], agent_flags=flags(tmp_path), answer_permission=answer
    )
    sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "stream"})
    choose, terminal = asked
    assert choose["agent"] == "default"
    assert terminal["command"][-3:] == ["--login", "--login-file", str(tmp_path / "login.json")]
    assert shlex.split(terminal["commandLine"]) == terminal["command"]
    assert terminal["cwd"] and terminal["agentName"]
    statuses = editor.of(proto.ACP_AGENT_STATUS)
    assert statuses[-1]["auth"]["state"] == "authenticated"
    assert any(s.get("auth", {}).get("state") == "unauthenticated" for s in statuses)


async def test_a_login_that_fails_fails_the_prompt_saying_what_to_run(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    async def answer(params: dict[str, Any]) -> Any:
        if "methods" in params:
            return {"methodId": params["methods"][0]["id"]}
        code = await asyncio.to_thread(run_login, params["command"], params["env"], "")
        return {"exitCode": code}

    editor = await editor_factory(
        features=["stream", "auth", "signIn"], agent_flags=flags(tmp_path), answer_permission=answer
    )
    sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
    try:
        await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "stream"})
    except Exception as exc:  # the editor's request fails with the sidecar's error
        said = str(exc)
    else:
        raise AssertionError("the prompt went on without a sign-in")
    assert "exit status 1" in said and "--login" in said
    assert not (tmp_path / "login.json").exists()


async def test_the_user_can_sign_in_before_the_agent_asks(
    editor_factory: StartEditor, tmp_path: Path
) -> None:
    async def answer(params: dict[str, Any]) -> Any:
        if "methods" in params:
            return {"methodId": params["methods"][0]["id"]}
        return {"exitCode": await asyncio.to_thread(run_login, params["command"], {}, "Cy\n")}

    editor = await editor_factory(
        features=["stream", "auth", "signIn"], agent_flags=flags(tmp_path), answer_permission=answer
    )
    result = await editor.command("acp.signIn")
    assert result == {"agent": "default", "methodId": "demo-terminal-login"}
    assert (tmp_path / "login.json").exists()
    # Asked again at once: the editor shows the agent signed in before the next prompt.
    status = await editor.command("acp.status")
    assert status["auth"]["state"] == "authenticated"
