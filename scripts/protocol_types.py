"""Write the editor protocol's payload types, as docs/protocol.md's ``ts`` blocks give them.

The document declares every message's params and result, and the types they share, once, in
TypeScript. This writes them into:
- acp_editor/protocol/editor_types.py: TypedDicts (``NotRequired`` for optional fields,
  ``Literal`` for string unions, aliases), what the sidecar's handlers are typed with;
- acp_editor/protocol/editor_shapes.py: the same shapes as data, what
  ``acp_editor.protocol.editor.parse`` validates an editor's params against;
- vscode-extension/src/wire.generated.ts: the extension's payload types (src/wire.ts re-exports
  them).

    python scripts/protocol_types.py            # write the generated files
    python scripts/protocol_types.py --check    # exit 1 with a diff when one is stale

``--root DIR`` reads and writes under DIR instead of the repository (the tests use a copy).
scripts/protocol_ts.py says which TypeScript is read; anything else is an error (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from generated_files import ruff_formatted, sync
from protocol_doc import DocError
from protocol_ts import Decl, declarations
from protocol_types_python import python, shapes
from protocol_types_ts import typescript

ROOT = Path(__file__).resolve().parents[1]
DOC = Path("docs/protocol.md")

OUTPUTS: dict[Path, Callable[[list[Decl]], str]] = {
    Path("acp_editor/protocol/editor_types.py"): python,
    Path("acp_editor/protocol/editor_shapes.py"): shapes,
    Path("vscode-extension/src/wire.generated.ts"): typescript,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 and diff if stale")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: ours)")
    args = parser.parse_args(argv)
    try:
        decls = declarations((args.root / DOC).read_text(encoding="utf-8"))
        files = {path: write(decls) for path, write in OUTPUTS.items()}
    except DocError as error:
        print(f"{DOC}: {error}", file=sys.stderr)
        return 2
    for path in files:
        if path.suffix == ".py":
            files[path] = ruff_formatted(files[path], args.root / path)
    stale = sync(files, args.root, args.check)
    if stale:
        print(f"\nstale: not as {DOC} gives them; edit {DOC}, then run {Path(__file__).name}")
    return stale


if __name__ == "__main__":
    sys.exit(main())
