"""Command line: argument parsing only; the work happens in the modules it calls."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from acp_editor import __version__
from acp_editor.log import configure


def split_agent(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``[options] -- AGENT [ARGS]``: everything after the first ``--`` is the agent command."""
    args = list(argv)
    if "--" in args:
        cut = args.index("--")
        return args[:cut], args[cut + 1 :]
    return args, []


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="acp-editor",
        description="Watch and steer an ACP coding agent from your editor.",
        epilog="The agent command goes last, after --: acp-editor demo -- AGENT [ARGS...]",
    )
    parser.add_argument("--version", action="version", version=f"acp-editor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="run an agent in a throw-away workspace and show what an editor is told",
        description="Without an agent after --, the built-in scripted demo agent is used.",
    )
    demo.add_argument("--yes", action="store_true", help="allow every permission request")
    demo.add_argument("--prompt", help="the prompt to send (default: one for the agent used)")
    demo.add_argument("--workspace", help="use this folder instead of a temporary one")
    add_agent_options(demo)
    return parser


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--protocol-version",
        type=int,
        choices=(1, 2),
        default=1,
        help="ACP protocol version to offer (2 is the draft; default 1)",
    )
    parser.add_argument("--auth-method", help="authenticate with this method when asked")
    parser.add_argument("--log-level", default="WARNING", help="DEBUG, INFO, WARNING, ERROR")
    parser.add_argument("--log-file", help="write the log here instead of stderr")


def main(argv: Sequence[str] | None = None) -> int:
    own, agent = split_agent(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(own)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    configure(args.log_level, args.log_file)
    if args.command == "demo":
        from acp_editor.demo.run import DemoOptions, demo_main

        options = DemoOptions(
            agent=agent,
            prompt=args.prompt,
            auto_yes=args.yes,
            protocol_version=args.protocol_version,
            auth_method=args.auth_method,
            workspace=args.workspace,
        )
        return demo_main(options)
    parser.error(f"unknown command {args.command}")
    return 2
