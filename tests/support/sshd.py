"""A real OpenSSH server on 127.0.0.1 for the tests of an agent or an editor on another machine
(issue 38): Debian's ``sshd`` (scripts/remote-test-deps installs it) run by the test as the
current user, with its own host key, one client key, and a config that lets only that key in.

"Another machine" is this one reached over ssh: what a test checks is that everything goes
through the ssh connection (the agent's pipe, its terminals, TRAMP's files), with the workspace
at another path on the far side where the test needs one.
"""

from __future__ import annotations

import getpass
import os
import shlex
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

SSHD = "/usr/sbin/sshd"
PRIVSEP_DIR = Path("/run/sshd")
"""Debian's sshd refuses to start without it; its service makes it at boot, a container has none."""


COMMANDS = "commands.log"
LOGGED_SHELL = """#!/bin/sh
# Every session's command, NUL-ended, before it runs as sshd would run it (a login shell
# when none was asked for, as TRAMP asks): the test sees what ran over ssh, and where.
printf '%s\\0' "$SSH_ORIGINAL_COMMAND" >> {log}
if [ -z "$SSH_ORIGINAL_COMMAND" ]; then exec "${{SHELL:-/bin/sh}}" -l; fi
exec "${{SHELL:-/bin/sh}}" -c "$SSH_ORIGINAL_COMMAND"
"""


@dataclass(frozen=True)
class Sshd:
    """A running server and how to reach it: ``ssh(...)`` is the client's command line."""

    port: int
    key: Path
    config: Path
    """An ssh client config (``ssh -F``) naming the key, for programs that add their own
    options (TRAMP): ``Host remote`` and ``127.0.0.1``."""
    user: str
    pid: int

    @property
    def target(self) -> str:
        return f"{self.user}@127.0.0.1"

    def ssh(self) -> list[str]:
        """``ssh`` with this server's port and key, asking nothing and printing no warnings
        (a host key "permanently added" would land in a terminal's output)."""
        return [
            "ssh", "-F", "/dev/null", "-i", str(self.key), "-p", str(self.port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", self.target,
        ]  # fmt: skip

    def ssh_line(self) -> str:
        return shlex.join(self.ssh())

    def commands(self) -> list[str]:
        """What ran over ssh so far, in order (a login shell: "")."""
        log = self.key.parent / COMMANDS
        return log.read_text().split("\0")[:-1] if log.exists() else []


def unusable() -> str | None:
    """Why no sshd can run here (None: it can)."""
    if not Path(SSHD).exists() or shutil.which("ssh") is None or shutil.which("ssh-keygen") is None:
        return "no OpenSSH server or client (scripts/remote-test-deps installs them)"
    if not PRIVSEP_DIR.is_dir() and os.geteuid() != 0:
        return f"sshd needs {PRIVSEP_DIR}, which only root can make"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _keygen(path: Path) -> None:
    cmd = ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "acp-editor test", "-f", str(path)]
    subprocess.run(cmd, check=True, capture_output=True)


def _config(home: Path, port: int, user: str) -> Path:
    authorized = home / "authorized_keys"
    authorized.write_text((home / "client_key.pub").read_text())
    shell = home / "logged-shell"  # what runs each session: the log, then the command asked for
    shell.write_text(LOGGED_SHELL.format(log=shlex.quote(str(home / COMMANDS))))
    shell.chmod(0o755)
    config = home / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {home / 'host_key'}\n"
        f"PidFile none\nAuthorizedKeysFile {authorized}\nAllowUsers {user}\n"
        # root in CI: its key, nothing else; StrictModes would refuse keys below a 0777 /tmp.
        "PermitRootLogin prohibit-password\nStrictModes no\nPasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\nUsePAM no\nPrintMotd no\nPrintLastLog no\n"
        f"Subsystem sftp internal-sftp\nForceCommand {shell}\n"
    )
    return config


def _client_config(home: Path, port: int, user: str) -> Path:
    config = home / "ssh_config"
    config.write_text(
        f"Host remote 127.0.0.1\n  HostName 127.0.0.1\n  Port {port}\n  User {user}\n"
        f"  IdentityFile {home / 'client_key'}\n  IdentitiesOnly yes\n"
        "  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n"
        "  BatchMode yes\n  LogLevel ERROR\n"
    )
    return config


def _wait_for_port(
    port: int, proc: subprocess.Popen[bytes], log: Path, timeout: float = 10.0
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"sshd exited {proc.returncode}: {log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)  # no event says a socket of another process listens: poll it
    raise TimeoutError(f"sshd did not listen on {port} within {timeout} s")


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (its connections' sshd and what they run)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if stat[0] != b"Z":
                parents[int(entry.name)] = int(stat[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent]
        found += children
        frontier += children
    return found


def _stop(proc: subprocess.Popen[bytes], grace: float) -> list[int]:
    """End the server once its connections have ended by themselves (an agent whose client
    left must exit); returns those still running after ``grace`` seconds, which are killed."""
    deadline = time.monotonic() + grace
    while (left := descendants(proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)  # polled: another process's end gives this one no event
    for pid in left:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    proc.terminate()
    proc.wait(timeout=10)
    return left


@contextmanager
def running_sshd(home: Path, grace: float = 10.0) -> Iterator[Sshd]:
    """A server on a free port of 127.0.0.1 for the current user, its files in ``home``. On
    leaving, it fails if a connection outlived ``grace`` seconds (what it ran is then
    killed): nothing the test started over ssh may be left."""
    home.mkdir(parents=True, exist_ok=True)
    if not PRIVSEP_DIR.is_dir():
        PRIVSEP_DIR.mkdir(mode=0o755)
    _keygen(home / "host_key")
    _keygen(home / "client_key")
    port, user = free_port(), getpass.getuser()
    config = _config(home, port, user)
    argv = [SSHD, "-D", "-e", "-f", str(config), "-p", str(port)]
    log = (home / "sshd.log").open("wb")  # -e: its log, for a test that fails
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        _wait_for_port(port, proc, home / "sshd.log")
        client = _client_config(home, port, user)
        yield Sshd(port, home / "client_key", client, user, proc.pid)
    finally:
        left = _stop(proc, grace)
        log.close()
    assert not left, f"still running over ssh after {grace} s: {left}"
