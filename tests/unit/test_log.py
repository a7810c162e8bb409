"""Logging never touches stdout (the protocol's stream): records go to stderr or a file, and
untrusted input is logged as a short printable excerpt."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from acp_editor import log


@pytest.fixture
def package_logger() -> Iterator[logging.Logger]:
    """The package's logger, put back as it was (other tests read records through caplog)."""
    logger = logging.getLogger(log.LOGGER_NAME)
    saved = logger.handlers[:], logger.level, logger.propagate
    yield logger
    for handler in set(logger.handlers) - set(saved[0]):
        handler.close()
    logger.handlers[:], logger.level, logger.propagate = saved


def test_records_go_to_stderr_never_stdout(
    package_logger: logging.Logger, capsys: pytest.CaptureFixture[str]
) -> None:
    log.configure("debug")
    log.get_logger("agent.rpc").debug("hello")
    out, err = capsys.readouterr()
    assert out == "" and "DEBUG acp_editor.agent.rpc: hello" in err
    assert package_logger.propagate is False  # nobody else's handler prints them


def test_records_go_to_the_file_when_one_is_given(
    package_logger: logging.Logger, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log.configure("info", str(tmp_path / "sidecar.log"))
    log.get_logger().info("to the file")
    log.get_logger().debug("below the level")
    assert capsys.readouterr() == ("", "")
    text = (tmp_path / "sidecar.log").read_text()
    assert "INFO acp_editor: to the file" in text and "below the level" not in text


def test_a_snippet_is_one_printable_line_of_bounded_length() -> None:
    assert log.snippet(b"a\nb\xff") == "a\\nb\ufffd"
    long = log.snippet("x" * 500, limit=10)
    assert long == "xxxxxxxxxx... (500 chars)"


def test_a_module_s_logger_is_named_after_the_module() -> None:
    assert log.get_logger("acp_editor.review.undo").name == "acp_editor.review.undo"
    assert log.get_logger("acp_editor").name == "acp_editor"
    assert log.get_logger("rpc.agent").name == "acp_editor.rpc.agent"  # any other name: under it


def test_every_module_names_its_logger_by_its_module() -> None:
    """A record says which module wrote it: no module gives its logger a name of its own."""
    package = Path(log.__file__).parent
    named = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if 'get_logger("' in path.read_text(encoding="utf-8")
    ]
    assert named == []
