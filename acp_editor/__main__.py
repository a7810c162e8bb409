"""``python -m acp_editor``: the same as the ``acp-editor`` command."""

import sys

from acp_editor.cli import main

sys.exit(main())
