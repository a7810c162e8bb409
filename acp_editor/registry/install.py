"""The command that runs a registry agent on this machine: ``npx`` or ``uvx`` when the agent is
distributed that way and the tool is installed, else its binary for this platform, downloaded
once into the cache (with a progress bar on a terminal) and extracted safely: an archive entry
that would land outside its folder (an absolute path, ``..``, a link pointing out) refuses the
whole archive."""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from acp_editor.registry.entries import Agent, Binary, this_target
from acp_editor.registry.fetch import TIMEOUT, cache_dir

Which = Callable[[str], str | None]


class InstallError(Exception):
    """The agent cannot run here; the message says what is missing."""


@dataclass
class Command:
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    how: str = ""
    """npx, uvx or binary."""


def how_it_runs(agent: Agent, which: Which = shutil.which, target: str | None = None) -> str:
    """ "npx", "uvx", "binary", or why it cannot run here (for listings)."""
    target = target or this_target()
    if agent.npx and which("npx"):
        return "npx"
    if agent.uvx and which("uvx"):
        return "uvx"
    if target and target in agent.binary:
        return "binary"
    return f"needs {_missing(agent, target)}"


def _missing(agent: Agent, target: str | None) -> str:
    needs = []
    if agent.npx:
        needs.append("npx (install Node.js)")
    if agent.uvx:
        needs.append("uvx (install uv: pip install uv)")
    if agent.binary:
        needs.append(f"a build for {target or 'this platform'} (it has {', '.join(agent.binary)})")
    return " or ".join(needs) or "a distribution"


def command_for(agent: Agent, which: Which = shutil.which, target: str | None = None) -> Command:
    target = target or this_target()
    if agent.npx and which("npx"):
        return Command(["npx", "-y", agent.npx.package, *agent.npx.args], agent.npx.env, "npx")
    if agent.uvx and which("uvx"):
        return Command(["uvx", agent.uvx.package, *agent.uvx.args], agent.uvx.env, "uvx")
    if target and target in agent.binary:
        binary = agent.binary[target]
        program = ensure_binary(agent, binary, target)
        return Command([str(program), *binary.args], binary.env, "binary")
    needs = _missing(agent, target)
    raise InstallError(f"{agent.name} ({agent.id}) cannot run here: it needs {needs}")


# -- binaries -------------------------------------------------------------------------------------


def ensure_binary(agent: Agent, binary: Binary, target: str) -> Path:
    """The agent's program, downloaded and extracted once per version and platform."""
    home = cache_dir() / "agents" / f"{agent.id}-{agent.version}-{target}"
    if not (home / ".complete").exists():
        _install(binary.archive, home)
    program = _inside(home, binary.cmd)
    if not program.is_file():
        raise InstallError(f"{agent.id}: the archive has no {binary.cmd}")
    return program


def _inside(root: Path, relative: str) -> Path:
    path = (root / relative).resolve()
    if not path.is_relative_to(root.resolve()):
        raise InstallError(f"{relative} points outside the agent's folder")
    return path


def _install(url: str, home: Path) -> None:
    home.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=home.parent) as scratch:
        archive = Path(scratch) / Path(url.split("?")[0]).name
        _download(url, archive)
        unpacked = Path(scratch) / "unpacked"
        unpacked.mkdir()
        _extract(archive, unpacked)
        (unpacked / ".complete").write_text(url + "\n", encoding="utf-8")
        shutil.rmtree(home, ignore_errors=True)
        os.replace(unpacked, home)


def _download(url: str, to: Path) -> None:
    if not url.startswith(("https://", "http://", "file://")):
        raise InstallError(f"{url} is not an http(s) or file URL")
    request = urllib.request.Request(url, headers={"User-Agent": "acp-editor"})
    tty = sys.stderr.isatty()
    print(f"acp-editor: downloading {url}", file=sys.stderr)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response, to.open("wb") as out:
            total = int(response.headers.get("Content-Length") or 0)
            done = 0
            while chunk := response.read(1 << 16):
                out.write(chunk)
                done += len(chunk)
                if tty and total:
                    bar = "#" * (30 * done // total)
                    print(f"\r  [{bar:<30}] {done * 100 // total:3d}%", end="", file=sys.stderr)
    except OSError as exc:
        raise InstallError(f"downloading {url} failed: {exc}") from exc
    if tty and total:
        print(file=sys.stderr)


def _safe_name(name: str) -> bool:
    parts = PurePosixPath(name.replace("\\", "/")).parts
    absolute = name.startswith(("/", "\\")) or (bool(parts) and ":" in parts[0])
    return bool(parts) and not absolute and ".." not in parts


def _extract(archive: Path, into: Path) -> None:
    name = archive.name.lower()
    if name.endswith(".zip"):
        _extract_zip(archive, into)
    elif name.endswith((".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".tar")):
        _extract_tar(archive, into)
    else:
        raise InstallError(f"{archive.name}: not a .zip or .tar.gz archive")


def _extract_tar(archive: Path, into: Path) -> None:
    with tarfile.open(archive) as tar:
        members = tar.getmembers()
        for member in members:
            plain = member.isfile() or member.isdir() or member.issym()
            if not _safe_name(member.name) or not plain:
                raise InstallError(f"{archive.name}: refused, {member.name!r} is not a plain entry")
            if member.issym():
                target = (into / member.name).parent / member.linkname
                inside = target.resolve().is_relative_to(into.resolve())
                if os.path.isabs(member.linkname) or not inside:
                    raise InstallError(f"{archive.name}: refused, {member.name!r} links outside")
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4+: the library's own checks too
            tar.extractall(into, members, filter="data")
        else:
            tar.extractall(into, members)  # every member checked above


def _extract_zip(archive: Path, into: Path) -> None:
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            if not _safe_name(info.filename):
                raise InstallError(f"{archive.name}: refused, {info.filename!r} leaves its folder")
        for info in zf.infolist():
            path = Path(zf.extract(info, into))
            mode = info.external_attr >> 16
            if mode & stat.S_IXUSR:
                path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
