"""``python -m acp_editor.demo_agent``: the demo agent on stdio (see ``cli``)."""

import sys

from acp_editor.demo_agent.cli import main

sys.exit(main())
