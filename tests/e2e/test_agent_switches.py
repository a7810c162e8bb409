"""The switches only tests need live in the test agent, not in the product's demo agent."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.support.starter import STREAMING_AGENT

PRODUCT_AGENT = [sys.executable, "-m", "acp_editor.demo_agent"]
PRODUCT_FLAGS = {
    "--require-auth",
    "--require-login",
    "--wait-seconds",
    "--login",
    "--login-file",
    "--state-dir",
    "--writes-itself",
    "--log-level",
}
TEST_ONLY = {
    "--fast",
    "--slow",
    "--answer-version",
    "--stderr-flood",
    "--ignore-stdin-eof",
    "--record",
    "--mcp",
    "--mcp-at-new",
    "--mcp-drop-secrets",
    "--reads-disk",
    "--notice-at-new",
    "--mcp-connect",
    "--writes-twice",
    "--scripts",
}


def flags_in_help(command: list[str], cwd: Path) -> set[str]:
    done = subprocess.run(
        [*command, "--help"], capture_output=True, text=True, timeout=60, cwd=cwd, check=True
    )
    return set(re.findall(r"--[a-z][a-z-]*", done.stdout)) - {"--help"}


def test_the_demo_agent_offers_only_what_a_demo_user_may_want(tmp_path: Path) -> None:
    assert flags_in_help(PRODUCT_AGENT, tmp_path) == PRODUCT_FLAGS


def test_the_test_agent_adds_the_test_only_switches(tmp_path: Path) -> None:
    # Run by file path from a foreign cwd, as the tests start it: its imports must still work.
    assert flags_in_help(STREAMING_AGENT, tmp_path) == PRODUCT_FLAGS | TEST_ONLY
