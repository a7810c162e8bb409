"""``python -m acp_editor.demo_agent``: the demo agent on stdio (see ``server.cli``)."""

import sys

from acp_editor.demo_agent.server.cli import main

sys.exit(main())
