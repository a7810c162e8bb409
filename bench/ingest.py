"""The sidecar's own CPU per update, in one process: no pipes, no other process on the cores.

    python bench/ingest.py [--n 100000] [--mix ...] [--repeat 5]

``run.py`` times the whole chain (agent, sidecar and editor share two cores), so its numbers move
by a third between runs. This replays the same stream through the sidecar's own parts, built as
the sidecar builds them (``AcpClient``'s link and session state, ``editor.build.assemble``'s
editor side with the ``stream`` and ``follow`` features), stage by stage, and counts CPU time:

- ``json.loads``: one call per line, the floor (what ``run.py``'s direct reader does);
- ``decode``: the agent link's line splitter;
- ``+ state``: the link's dispatch, the session state and every observer (review, terminals);
- ``+ editor``: the editor side too, with each frame's ``acp/sessionChanged`` encoded as the
  server encodes it (a frame every 1,000 updates, about what a flood gets).

Best of ``--repeat`` runs, in microseconds per update; the last column is the ratio to the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flood_agent import DEFAULT_MIX, build_plan, make_update, parse_mix

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from acp_editor import jsonio
from acp_editor.agent.client import AcpClient
from acp_editor.agent.config import AgentConfig
from acp_editor.agent.frontend import SilentFrontend
from acp_editor.agent.link.framing import LineSplitter
from acp_editor.agent.link.rpc import JsonRpcPeer, Writer
from acp_editor.agent.sessions import Session
from acp_editor.editor.build import assemble
from acp_editor.editor.lsp.features import ClientFeatures
from acp_editor.editor.supervisor import ServerOptions
from acp_editor.protocol import editor as proto
from acp_editor.session.state import SessionState
from tests.support.fake_agent import FakeAgents
from tests.support.fake_editor import FakeChannel

FRAME = 1000
CHUNK = 1 << 16


class EncodingEditor(FakeChannel):
    """The test suite's editor channel, encoding each notification as the server does."""

    def __init__(self) -> None:
        super().__init__(ClientFeatures(rich={proto.FEATURE_STREAM, proto.FEATURE_FOLLOW}))
        self.sent_bytes = 0

    def notify(self, method: str, params: Any) -> None:
        self.sent_bytes += len(jsonio.dumps({"jsonrpc": "2.0", "method": method, "params": params}))


def stream(n: int, mix: str, seed: int) -> bytes:
    plan = build_plan(n, parse_mix(mix), 1, seed, "/tmp/ingest")
    lines = []
    for seq, (kind, data) in enumerate(plan.steps):
        update = make_update(kind, data, seq, time.monotonic_ns())
        params = {"sessionId": "s1", "update": update}
        lines.append(json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": params}))
    return ("\n".join(lines) + "\n").encode()


def chunks(data: bytes) -> list[bytes]:
    return [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]


def floor(data: bytes) -> Callable[[], None]:
    def run() -> None:
        for line in data.splitlines():
            json.loads(line)

    return run


def decode(data: bytes) -> Callable[[], None]:
    def run() -> None:
        splitter = LineSplitter()
        for chunk in chunks(data):
            for _ in splitter.feed(chunk):
                pass

    return run


def sidecar(data: bytes, with_editor: bool) -> Callable[[], None]:
    """A fresh link, session and editor side per run, fed the stream as reads would."""

    def run() -> None:
        editor = EncodingEditor()
        options = ServerOptions(agent=AgentConfig(command=["flood"]), server_cwd="/tmp")
        side = assemble(editor, options, FakeAgents(), lambda: "/tmp")
        client = AcpClient(options.agent, side.frontend, side.documents)
        if not with_editor:
            client.requests.frontend = SilentFrontend()
        peer = JsonRpcPeer("agent", Writer(lambda _: None, _nothing))
        client.requests.register(peer)
        session = Session("s1", "/tmp/ingest", SessionState("s1"))
        client.sessions["s1"] = session
        client.requests.session_opened(session)
        for index, chunk in enumerate(chunks(data)):
            peer.feed(chunk)
            if with_editor and index % (FRAME * 270 // CHUNK + 1) == 0:
                side.frontend.coalescer.flush_all()
        side.frontend.close()

    return run


async def _nothing() -> None:
    return None


def best_cpu(run: Callable[[], None], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        began = time.process_time()
        run()
        best = min(best, time.process_time() - began)
    return best


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--mix", default=DEFAULT_MIX)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = stream(args.n, args.mix, args.seed)
    gc.freeze()  # what the sidecar does once it is up (cli.tune_gc)
    gc.set_threshold(700, 20, 100)
    stages = {
        "json.loads": floor(data),
        "decode": decode(data),
        "+ state": sidecar(data, with_editor=False),
        "+ editor": sidecar(data, with_editor=True),
    }
    print(f"command: python bench/ingest.py --n {args.n} --mix {args.mix} --repeat {args.repeat}")
    print(f"{len(data) / 1e6:.1f} MB, python {sys.version.split()[0]}")
    base = None
    for name, run in stages.items():
        cpu = best_cpu(run, args.repeat) / args.n * 1e6
        base = base or cpu
        print(f"{name:<12} {cpu:6.2f} us/update  {cpu / base:5.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
