"""Start -> LSP ``initialize`` answered: acp-editor next to a bare pygls server, in one run.

    python bench/startup.py [--runs 15]

Each run starts the server, writes ``initialize`` at once and times until the answer's last byte
is read. The two servers alternate, so both meet the same machine state; the medians and their
difference are printed. The bare server is pygls's own ``LanguageServer`` with no features: the
floor every pygls server pays (importing pygls and lsprotocol).

acp-editor's modules are compiled to bytecode first, as ``pip install`` does for pygls's: an
editable install under ``PYTHONDONTWRITEBYTECODE=1`` (set on some machines, this one included)
would otherwise compile every module again at every start, about 60 ms here.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.initialize import initialize_answer

BARE = """
from pygls.lsp.server import LanguageServer
LanguageServer("bare", "0").start_io()
"""


def time_to_answer(argv: list[str], cwd: str) -> float:
    """Seconds from the start of the process to the whole ``initialize`` answer."""
    began = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd
    )
    body = initialize_answer(proc)
    took = time.perf_counter() - began
    assert json.loads(body)["id"] == 1
    proc.kill()
    proc.wait()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    import acp_editor

    compileall.compile_dir(os.path.dirname(acp_editor.__file__), quiet=1)
    servers = {
        "bare pygls server": [sys.executable, "-c", BARE],
        "acp-editor --stdio": [sys.executable, "-m", "acp_editor", "--stdio"],
    }
    times: dict[str, list[float]] = {name: [] for name in servers}
    with tempfile.TemporaryDirectory() as cwd:
        for _ in range(args.runs):
            for name, argv in servers.items():
                times[name].append(time_to_answer(argv, cwd))
    print(f"command: python bench/startup.py --runs {args.runs}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    medians = {name: statistics.median(ts) * 1000 for name, ts in times.items()}
    for name, ms in medians.items():
        spread = f"{min(times[name]) * 1000:.0f}-{max(times[name]) * 1000:.0f}"
        print(f"{name:<22} median {ms:6.0f} ms  (min-max {spread} ms)")
    extra = medians["acp-editor --stdio"] - medians["bare pygls server"]
    print(f"acp-editor's own share: {extra:+.0f} ms (goal: at most +60 ms)")


if __name__ == "__main__":
    main()
