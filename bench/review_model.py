"""The model-based review test's long run: the state machine of
``tests/e2e_lsp/review_machine.py`` for many examples of many steps (each example its own
sidecar and two sessions of the scripted agent), against the model of
``tests/e2e_lsp/review_model.py``.

    python bench/review_model.py [--examples 100] [--steps 20] [--seed 0]

Prints the examples run, the steps taken, the failures found (hypothesis stops at the first and
shrinks it: the falsifying example is printed as the steps that reproduce it) and the time.
Exit status 1 when it found one. A suite run keeps it bounded: ``test_lsp_review_model.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis.stateful import get_state_machine_test


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--examples", type=int, default=100, help="examples to run (default 100)")
    p.add_argument("--steps", type=int, default=20, help="steps per example at most (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    p.add_argument("--no-shrink", action="store_true", help="report a failure as found")
    p.add_argument(
        "--leave-out",
        default="",
        metavar="WHAT,...",
        help="leave out 'both' (writing twice), 'undo', 'decide', 'open': one bug at a time",
    )
    a = p.parse_args()
    os.environ.setdefault("ACP_EDITOR_STATE_DIR", tempfile.mkdtemp(prefix="review-model-state-"))
    from tests.e2e_lsp import review_machine

    class Machine(review_machine.ReviewMachine):
        leave_out = frozenset(w for w in a.leave_out.split(",") if w)

    phases = [Phase.explicit, Phase.reuse, Phase.generate]
    if not a.no_shrink:
        phases.append(Phase.shrink)
    chosen = settings(
        max_examples=a.examples,
        stateful_step_count=a.steps,
        deadline=None,
        database=None,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )
    started = time.monotonic()
    failure: BaseException | None = None
    try:
        seed(a.seed)(get_state_machine_test(Machine, settings=chosen))()
    except BaseException as exc:
        failure = exc
    took = time.monotonic() - started
    counts = review_machine.COUNTS
    found: list[BaseException] = []
    if failure is not None:  # several distinct ones come as a group
        group = isinstance(failure, BaseExceptionGroup)
        found = list(failure.exceptions) if group else [failure]
    print(
        f"examples run: {counts['examples']}, steps: {counts['steps']}, "
        f"failures found: {len(found)}, time: {took:.1f} s "
        f"(seed {a.seed}, up to {a.examples} examples of up to {a.steps} steps"
        + (f", leaving out {a.leave_out})" if a.leave_out else ")")
    )
    for one in found:
        print(f"failure: {type(one).__name__}: {one}")
        for note in getattr(one, "__notes__", []):
            print(note)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
