"""Pinned PyPI tools the tests run as subprocesses, each installed once into a virtual environment
of its own under ``~/.cache/acp-editor-tests/pypi/`` (``$XDG_CACHE_HOME`` is honoured).

The cache lies outside the work tree so that every clone on a machine (CI runs in a fresh one)
shares it; an entry is named after the tool, the Python that runs it and a hash of the pinned
requirements, so a change of pins makes a new entry instead of altering an old one. A virtual
environment cannot be renamed into place (its scripts name its path), so it is built where it
stays, under a lock, and counts as installed only once its marker file is written last: a
half-finished install is removed and redone by the next process that finds it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.installs import run_installer

MARKER = "acp-editor-tests-installed"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "acp-editor-tests" / "pypi"


class PypiError(RuntimeError):
    """No suitable Python, or an install failed (the message carries pip's own output)."""


@dataclass(frozen=True)
class PinnedTool:
    """A PyPI package and every one of its dependencies at exact versions."""

    name: str
    """The distribution to install, e.g. ``fast-agent-mcp``."""
    requirements: Path
    """A pip requirements file pinning ``name`` and all it depends on (``==`` only)."""
    pythons: tuple[str, ...]
    """The ``major.minor`` versions it may run on, the preferred first."""

    def pins(self) -> list[str]:
        lines = self.requirements.read_text("utf-8").splitlines()
        pins = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
        loose = [p for p in pins if not re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+", p)]
        if loose:
            raise ValueError(f"{self.requirements}: not exact pins: {loose}")
        return pins

    def version(self) -> str:
        wanted = re.compile(rf"{re.escape(self.name)}==(.+)", re.I)
        (version,) = [m[1] for p in self.pins() if (m := wanted.fullmatch(p))]
        return version


def find_python(versions: tuple[str, ...]) -> Path | None:
    """An interpreter of one of ``versions`` (earlier ones preferred): pyenv's, then ``PATH``'s.

    pyenv's shims are on ``PATH`` even for versions that are not selected, where running them
    fails, so each candidate is asked its version before it is taken.
    """
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    for version in versions:
        installed = sorted(pyenv.glob(f"{version}.*/bin/python{version}"), key=_release)
        on_path = shutil.which(f"python{version}")
        for candidate in [*reversed(installed), *([Path(on_path)] if on_path else [])]:
            if _reports(candidate, version):
                return candidate
    return None


def skip_reason(tool: PinnedTool) -> str | None:
    """Why ``tool`` cannot run here, or ``None``. Under CI it always runs (and fails)."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        return None
    if find_python(tool.pythons) is None:
        wanted = " or ".join(tool.pythons)
        return f"no Python {wanted} (pyenv or PATH) to install {tool.name} into"
    return None


def ensure_installed(tool: PinnedTool, *, root: Path | None = None) -> Path:
    """Install ``tool`` with its pins unless cached; return the virtual environment's path."""
    python = find_python(tool.pythons)
    if python is None:
        raise PypiError(f"no Python {' or '.join(tool.pythons)} to install {tool.name} into")
    pins = tool.pins()
    python_version = _version_of(python)
    digest = hashlib.sha256("\n".join([python_version, *pins]).encode()).hexdigest()[:12]
    venv = (root or cache_root()) / f"{tool.name}@{tool.version()}-py{python_version}-{digest}"
    if (venv / MARKER).is_file():
        return venv
    venv.parent.mkdir(parents=True, exist_ok=True)
    with _locked(venv.with_name(venv.name + ".lock")):
        if (venv / MARKER).is_file():
            return venv  # another process installed it while this one waited
        shutil.rmtree(venv, ignore_errors=True)  # a half-finished install
        _run([str(python), "-m", "venv", str(venv)], f"creating a venv for {tool.name}")
        pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
        # --no-compile: compiling every module took 16 of 39 s; the few a run imports are
        # compiled (and cached in the venv) when first imported.
        install = [*pip, "install", "--quiet", "--no-input", "--no-compile", *pins]
        _run(install, f"pip install {tool.name}")
        (venv / MARKER).write_text("\n".join(pins) + "\n", encoding="utf-8")
    return venv


def requires(tool: PinnedTool) -> pytest.MarkDecorator:
    """Mark for tests that run ``tool``: skipped only when no Python for it is found, outside CI."""
    reason = skip_reason(tool)
    return pytest.mark.skipif(reason is not None, reason=reason or f"{tool.name} can be installed")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _run(argv: list[str], what: str) -> None:
    run_installer(argv, what, PypiError)


def _reports(python: Path, version: str) -> bool:
    try:
        return _version_of(python).startswith(f"{version}.")
    except (OSError, subprocess.SubprocessError):
        return False


def _version_of(python: Path) -> str:
    done = subprocess.run(
        [str(python), "-c", "import platform; print(platform.python_version())"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.strip()


def _release(path: Path) -> tuple[int, ...]:
    """``.../versions/3.12.10/bin/python3.12`` -> ``(3, 12, 10)``, for sorting numerically."""
    return tuple(int(part) for part in re.findall(r"\d+", path.parents[1].name))
