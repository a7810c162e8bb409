"""A pipe that is slow both ways: runs the agent after ``--`` and passes every line between
it and the sidecar ``--delay-ms`` later, in order (a far agent: a sandbox on another machine,
a container over a network). ``--requests FILE``: the method of each request the agent sends
is appended to FILE (what a turn cannot do without a round trip). Standard library only: it is
the agent's command."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time


async def carry(reader: asyncio.StreamReader, write: object, delay: float) -> None:
    """Each line as it arrives, passed on ``delay`` seconds later, order kept."""
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def later() -> None:
        while True:
            due, line = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not line:
                break
            write(line)  # type: ignore[operator]

    sender = asyncio.ensure_future(later())
    while True:
        line = await reader.readline()
        queue.put_nowait((time.monotonic() + delay, line))
        if not line:
            break
    await sender


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay-ms", type=float, default=50.0)
    parser.add_argument("--requests", help="append the agent's request methods to this file")
    argv = sys.argv[1:]
    cut = argv.index("--")
    args = parser.parse_args(argv[:cut])
    delay = args.delay_ms / 1000
    proc = await asyncio.create_subprocess_exec(
        *argv[cut + 1 :],
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        limit=1 << 24,
    )
    assert proc.stdin is not None and proc.stdout is not None
    loop = asyncio.get_running_loop()
    ours = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(ours), sys.stdin)
    out = sys.stdout.buffer

    counted = open(args.requests, "a") if args.requests else None  # noqa: SIM115, ASYNC230

    def to_sidecar(line: bytes) -> None:
        out.write(line)
        out.flush()
        if counted is not None and b'"method"' in line:
            message = json.loads(line)
            if "id" in message and "method" in message:
                counted.write(message["method"] + "\n")
                counted.flush()

    def to_agent(line: bytes) -> None:
        assert proc.stdin is not None
        proc.stdin.write(line)

    async def inbound() -> None:
        await carry(ours, to_agent, delay)
        assert proc.stdin is not None
        proc.stdin.close()  # the sidecar closed its end: so does the agent's

    going = asyncio.ensure_future(inbound())
    await carry(proc.stdout, to_sidecar, delay)
    going.cancel()
    return await proc.wait()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
