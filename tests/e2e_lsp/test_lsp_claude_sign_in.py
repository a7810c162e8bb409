"""claude-agent-acp 0.101 signs in through the editor (issue 34): started with no key for the
model gateway, it offers acp-editor (which advertises ``auth.terminal``) its terminal logins,
"Claude Subscription" and "Anthropic Console"; the first prompt needs a sign-in, the editor runs
the chosen one (``acp/signInTerminal``) in its terminal, and the waiting prompt goes on.

The login is Claude Code's own ``claude auth login``, run as the editor is told to run it, for
real: only the network is fake (``fake_anthropic_login``: a proxy that plays Anthropic's sign-in
service, and a browser script that plays the user). What the login stores is what the agent
then signs its model requests with, and those reach our fake Anthropic API.
"""

from __future__ import annotations

import asyncio
import os
import pty
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from acp_editor.protocol import editor as proto
from tests.agents.claude_code import claude_agent
from tests.agents.fake_anthropic import StepScript, running_fake_anthropic, say
from tests.agents.fake_anthropic_login import (
    ACCESS_TOKEN,
    API_KEY,
    FakeAnthropicLogin,
    running_fake_login,
)
from tests.e2e_lsp.conftest import StartEditor
from tests.e2e_lsp.schema_1_25 import Tap, schemas, statuses_auth
from tests.support.npm import CLAUDE_AGENT_ACP, ensure_npm_package, requires_npm

pytestmark = requires_npm
__all__ = ["schemas"]

SIGNED_OUT_AGENT = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN")
REMOTE = ("NO_BROWSER", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "CLAUDE_CODE_REMOTE")
"""Set, claude-agent-acp offers one "Log in with Claude" TUI login instead of the two."""


@pytest.fixture(scope="module")
def agent_installed() -> Path:
    return ensure_npm_package(CLAUDE_AGENT_ACP)


def user_environment(agent_env: dict[str, str], network: FakeAnthropicLogin) -> dict[str, str]:
    """The user's environment, which the editor, the sidecar it starts and the editor's
    terminal share: the throwaway home, no key for the model gateway, the fake network."""
    env = {k: v for k, v in os.environ.items() if k not in SIGNED_OUT_AGENT + REMOTE}
    env.update({k: v for k, v in agent_env.items() if k not in SIGNED_OUT_AGENT})
    env.update(network.env())
    return env


def run_in_terminal(params: dict[str, Any], user_env: dict[str, str]) -> tuple[int, str]:
    """What a rich editor does with ``acp/signInTerminal``: runs ``command`` in a terminal (a
    pseudo-terminal) in ``cwd``, ``env`` set on top of its own; the exit status, the screen."""
    leader, follower = pty.openpty()
    try:
        child = subprocess.Popen(
            params["command"],
            cwd=params.get("cwd"),
            env={**user_env, **params["env"]},
            stdin=follower,
            stdout=follower,
            stderr=follower,
            start_new_session=True,
        )
    finally:
        os.close(follower)
    screen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the terminal's last writer is gone
            break
        if not chunk:
            break
        screen += chunk
    os.close(leader)
    return child.wait(timeout=60), screen.decode("utf-8", "replace")


@pytest.mark.parametrize(
    ("method_id", "name", "signed_with", "label"),
    [
        ("console-login", "Anthropic Console", ("x-api-key", API_KEY), "Anthropic API key"),
        (
            "claude-ai-login",
            "Claude Subscription",
            ("authorization", f"Bearer {ACCESS_TOKEN}"),
            "Claude Max",
        ),
    ],
)
async def test_claude_agent_signs_in_with_its_terminal_login_and_the_prompt_goes_on(
    agent_installed: Path,
    editor_factory: StartEditor,
    workspace: Path,
    tmp_path: Path,
    schemas: Any,
    method_id: str,
    name: str,
    signed_with: tuple[str, str],
    label: str,
) -> None:
    tap = Tap(tmp_path / "acp.jsonl", schemas)
    screens: list[str] = []
    asked: list[dict[str, Any]] = []

    with (
        running_fake_anthropic(StepScript([say("Signed in and answering.")])) as api,
        running_fake_login(tmp_path / "network") as network,
    ):
        argv, agent_env = claude_agent(api.base_url, tmp_path / "home")
        user_env = user_environment(agent_env, network)

        async def editor_answers(params: dict[str, Any]) -> Any:
            asked.append(params)
            if "methods" in params:  # acp/chooseAuthMethod
                return {"methodId": method_id}
            code, screen = await asyncio.to_thread(run_in_terminal, params, user_env)
            screens.append(screen)
            return {"exitCode": code}

        editor = await editor_factory(
            agent=tap.wrap(argv),
            env=user_env,
            features=["stream", "auth", "signIn"],
            answer_permission=editor_answers,
        )
        sid = (await editor.request(proto.ACP_NEW_SESSION, {}))["sessionId"]
        result = await editor.request(proto.ACP_PROMPT, {"sessionId": sid, "prompt": "Hello?"})
        assert result["stopReason"] == "end_turn", result
        assert api.errors == [] and network.errors == [], (api.errors, network.errors)
        main = [r for r in api.requests if r.path == "/v1/messages"]

    # Offered both terminal logins, by name, as the agent's own.
    choose, terminal = asked
    offered = {m["id"]: (m["name"], m["type"]) for m in choose["methods"]}
    assert offered == {
        "claude-ai-login": ("Claude Subscription", "terminal"),
        "console-login": ("Anthropic Console", "terminal"),
    }
    flag = "--console" if method_id == "console-login" else "--claudeai"
    # The agent's own command with the method's args, as the agent gave them.
    assert terminal["command"] == [*tap.wrap(argv), "--cli", "auth", "login", flag]
    assert (terminal["methodId"], terminal["name"]) == (method_id, name)
    assert shlex.split(terminal["commandLine"])[-5:] == [argv[-1], "--cli", "auth", "login", flag]
    assert terminal["cwd"] == str(workspace) and terminal["agentName"]
    (screen,) = screens
    assert "Login successful" in screen, screen
    # The login ran against the fake sign-in service only, and the agent's model requests are
    # signed with what it stored.
    assert network.hosts_asked() <= {"platform.claude.com", "api.anthropic.com", "claude.com"}
    assert main, [r.path for r in api.requests]
    header, value = signed_with
    assert all(r.headers.get(header) == value for r in main), [r.headers for r in main]
    # Before: "Not logged in" (the agent's _auth/status_update); after: signed in.
    auths = statuses_auth(editor)
    assert auths[0] == {"state": "unauthenticated", "label": "Not logged in"}, auths
    assert auths[-1] == {"state": "authenticated", "label": label}, auths
    # The failed prompt went once more, after the sign-in, and nothing the sidecar sent broke
    # the schema.
    assert len(tap.sent("session/prompt")) == 2
    tap.check()
