"""The sidecar with a log of where its event loop waited: run it in place of ``python -m
acp_editor`` through ``ACP_BENCH_SIDECAR``, e.g.

    ACP_BENCH_SIDECAR="python $PWD/bench/loop_stalls.py" python bench/sessions.py

Each line of the log (``ACP_BENCH_STALLS``, default ``/tmp/acp-loop-stalls.log``) starts with
``time.monotonic_ns()`` (the clock of the benches' stamps, so a late message can be matched to
what the sidecar did meanwhile):

- ``stall``: one event-loop callback that took over ``ACP_BENCH_STALL_MS`` (default 2) of wall
  time, with its thread CPU time (wall far above CPU: blocked in a system call, e.g. a fork for
  a subprocess, or not scheduled) and, for a task, its coroutine and where it stopped next;
- ``executor``: a ``run_in_executor``/``to_thread`` job that waited for a thread or ran that long;
- ``gc``: a collection of the cyclic GC that long.

A bench tool: it patches private asyncio and ``concurrent.futures`` internals (CPython 3.11).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import sys
import time
from asyncio import events
from concurrent.futures import thread
from typing import Any

LOG = open(os.environ.get("ACP_BENCH_STALLS", "/tmp/acp-loop-stalls.log"), "a", buffering=1)  # noqa: SIM115
OVER_NS = int(float(os.environ.get("ACP_BENCH_STALL_MS", "2")) * 1e6)
clock, cpu = time.monotonic_ns, time.thread_time_ns


def what_ran(handle: events.Handle) -> str:
    task = getattr(getattr(handle, "_callback", None), "__self__", None)
    if not isinstance(task, asyncio.Task):
        return repr(handle)[:160]
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", type(coro).__name__)
    frames = task.get_stack(limit=2)
    at = "; ".join(f"{f.f_code.co_filename.rsplit('/', 2)[-1]}:{f.f_lineno}" for f in frames)
    return f"task {name} (now at {at or 'its end'})"


_run = events.Handle._run


def _timed_run(self: events.Handle) -> None:
    wall, used = clock(), cpu()
    try:
        _run(self)
    finally:
        took = clock() - wall
        if took > OVER_NS:
            LOG.write(
                f"{wall} stall {took / 1e6:.1f} ms, cpu {(cpu() - used) / 1e6:.1f} ms: "
                f"{what_ran(self)}\n"
            )


_init, _work = thread._WorkItem.__init__, thread._WorkItem.run


def _stamped_init(self: Any, *args: Any, **kwargs: Any) -> None:
    _init(self, *args, **kwargs)
    self.queued_ns = clock()


def _timed_work(self: Any) -> None:
    began = clock()
    try:
        _work(self)
    finally:
        waited, ran = began - self.queued_ns, clock() - began
        if waited + ran > OVER_NS:
            LOG.write(
                f"{self.queued_ns} executor waited {waited / 1e6:.1f} ms, ran {ran / 1e6:.1f} "
                f"ms: {job_of(self.fn, self.args)}\n"
            )


def job_of(fn: Any, args: tuple[Any, ...]) -> str:
    """``to_thread`` submits ``partial(context.run, func, *args)``: name ``func``."""
    if isinstance(fn, functools.partial) and getattr(fn.func, "__name__", "") == "run":
        fn, args = fn.args[0], fn.args[1:]
    name = getattr(fn, "__qualname__", None) or repr(fn)
    return f"{name[:100]} {repr(args)[:120]}"


_gc_began = [0]


def _gc_pass(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_began[0] = clock()
    elif clock() - _gc_began[0] > OVER_NS:
        took = (clock() - _gc_began[0]) / 1e6
        LOG.write(f"{_gc_began[0]} gc generation {info['generation']} {took:.1f} ms\n")


events.Handle._run = _timed_run  # type: ignore[method-assign]
thread._WorkItem.__init__ = _stamped_init  # type: ignore[method-assign]
thread._WorkItem.run = _timed_work  # type: ignore[method-assign]
gc.callbacks.append(_gc_pass)

if __name__ == "__main__":
    from acp_editor.cli import main

    sys.exit(main())
