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

import sys
from collections.abc import Callable
from pathlib import Path

from protocol_doc import generate
from protocol_ts import Decl, declarations
from protocol_types_python import python, shapes
from protocol_types_ts import typescript

OUTPUTS: dict[Path, Callable[[list[Decl]], str]] = {
    Path("acp_editor/protocol/editor_types.py"): python,
    Path("acp_editor/protocol/editor_shapes.py"): shapes,
    Path("vscode-extension/src/wire.generated.ts"): typescript,
}


if __name__ == "__main__":
    sys.exit(generate(Path(__file__).name, __doc__.splitlines()[0], declarations, OUTPUTS))
