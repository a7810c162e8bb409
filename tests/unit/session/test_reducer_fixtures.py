"""scripts/reducer_fixtures.py: the change streams the TypeScript and Lua mirrors replay
(tests/fixtures/reducer/) are the ones the Python session state gives today."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "reducer_fixtures.py"
FIXTURES = Path("tests/fixtures/reducer")


def fixtures(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_recorded_fixtures_are_what_the_session_state_gives() -> None:
    done = fixtures(ROOT, "--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(list((ROOT / FIXTURES).glob("*.json"))) >= 7


def test_a_stale_or_unknown_fixture_fails_the_check(tmp_path: Path) -> None:
    shutil.copytree(ROOT / FIXTURES, tmp_path / FIXTURES)
    recorded = tmp_path / FIXTURES / "tool_calls.json"
    recorded.write_text(recorded.read_text().replace('"in_progress"', '"pending"'))
    (tmp_path / FIXTURES / "gone.json").write_text("{}\n")
    done = fixtures(tmp_path, "--check")
    assert done.returncode == 1
    assert f"--- a/{FIXTURES.as_posix()}/tool_calls.json" in done.stdout
    assert "gone.json: not generated any more" in done.stdout
    assert fixtures(tmp_path).returncode == 0
    assert fixtures(tmp_path, "--check").returncode == 0
    assert not (tmp_path / FIXTURES / "gone.json").exists()
