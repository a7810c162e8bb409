"""Pure session state: what an ACP agent has reported, as a snapshot plus a stream of changes.

`SessionState` is fed by the agent link and returns minimal changes; an editor keeps a mirror by
applying those changes to `empty_snapshot` with `apply_change`. No I/O lives here.
"""

from acp_editor.session.reducer import apply_change, empty_snapshot
from acp_editor.session.state import SessionState
from acp_editor.session.update_fields import InvalidUpdate

__all__ = ["InvalidUpdate", "SessionState", "apply_change", "empty_snapshot"]
