"""A language server's ``initialize`` answer, read over its stdio by hand: what
bench/startup.py times and tests/e2e_lsp/test_lsp_start_imports.py stops the server at.

The standard library only, no LSP client: what is timed or counted is the server's start, not
a client's, and the server is asked nothing else meanwhile.
"""

from __future__ import annotations

import json
import os
import subprocess


def initialize_frame() -> bytes:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}},
        }
    ).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def initialize_answer(proc: subprocess.Popen[bytes]) -> bytes:
    """Write ``initialize`` to a server just started with pipes for stdin and stdout, and read
    the whole answer (its JSON body, unparsed: a caller that times it stops at the last byte)."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(initialize_frame())
    proc.stdin.flush()
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        byte = proc.stdout.read(1)
        if not byte:
            raise RuntimeError(f"{proc.args} exited before answering initialize")
        header += byte
    length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
    return proc.stdout.read(length)
