"""Command line: argument parsing only; the work happens in the modules it calls."""

from __future__ import annotations

import argparse
import gc
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from acp_editor import __version__
from acp_editor.log import configure
from acp_editor.presets import (
    Preset,
    PresetError,
    default_config_path,
    load_presets,
    resolve,
)
from acp_editor.services.permissions import Rule, parse_setting

if TYPE_CHECKING:
    from acp_editor.services.path_map import PathMap

COMMAND_LINE = "command line"
"""The name of the preset the command after ``--`` makes."""


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
    parser.add_argument(
        "--stdio",
        action="store_true",
        help="serve LSP on stdin/stdout (how editors start acp-editor)",
    )
    add_agent_options(parser)
    parser.add_argument(
        "--no-editor-context",
        action="store_true",
        help="do not give sessions the editor-context MCP server (open buffers, review)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="run an agent in a throw-away workspace and show what an editor is told",
        description="Without an agent after --, the built-in scripted demo agent is used.",
    )
    demo.add_argument("--yes", action="store_true", help="allow every permission request")
    demo.add_argument("--prompt", help="the prompt to send (default: one for the agent used)")
    demo.add_argument("--workspace", help="use this folder instead of a temporary one")
    demo.add_argument(
        "--require-login",
        action="store_true",
        help="the demo agent asks you to sign in first, in this terminal (as Claude Code does)",
    )
    add_agent_options(demo)
    agents = sub.add_parser(
        "agents",
        help="list the agents of the ACP registry (run one with --agent ID)",
        description="The ACP agent registry: each agent's id, name, version, how it runs here. "
        "Fetched, then cached; the cached copy is used when offline.",
    )
    mcp = sub.add_parser(
        "mcp",
        help="the editor-context MCP server (acp-editor starts it for agents)",
        description="Speaks MCP on stdin/stdout and answers from a running acp-editor: "
        "the token comes in $ACP_EDITOR_MCP_TOKEN.",
    )
    mcp.add_argument("--connect", required=True, help="the running acp-editor's socket")
    agents.add_argument("--json", action="store_true", help="machine-readable (for editors)")
    agents.add_argument(
        "--registry",
        help="registry.json URL (default: $ACP_EDITOR_REGISTRY, else the official registry)",
    )
    add_state_command(sub)
    return parser


def add_state_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    state = sub.add_parser(
        "state",
        help="what acp-editor keeps for each workspace (turn checkpoints, pending review, "
        "sessions' worktrees)",
        description="Lists, per workspace folder, what is kept in the state directory: whether "
        "the folder still exists, the size on disk, sessions and turns checkpointed, pending "
        "review, sessions' own worktrees. Old turns are pruned in the background; 'state clean' "
        "removes more now.",
    )
    state.add_argument("--json", action="store_true", help="machine-readable")
    clean = state.add_subparsers(dest="state_command", metavar="clean").add_parser(
        "clean",
        help="remove what is kept (asks nothing; prints what it removed)",
        description="Remove kept data now. Run it while no editor works in those folders.",
    )
    clean.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="PATH",
        help="everything kept for this folder (gone or not): checkpoints, pending review",
    )
    clean.add_argument(
        "--all-missing", action="store_true", help="everything kept for folders that are gone"
    )
    clean.add_argument(
        "--session",
        action="append",
        default=[],
        metavar="ID",
        help="the checkpoints of this session (as deleting the session does)",
    )
    clean.add_argument(
        "--prune",
        action="store_true",
        help="prune now what undo no longer needs (what runs in the background once a day)",
    )
    clean.add_argument("--all", action="store_true", help="everything kept, for every folder")
    clean.add_argument("--dry-run", action="store_true", help="print, remove nothing")


def add_agent_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--protocol-version",
        type=int,
        choices=(1, 2),
        default=1,
        help="ACP protocol version to offer (2 is the draft; default 1)",
    )
    parser.add_argument("--auth-method", help="authenticate with this method when asked")
    parser.add_argument(
        "--agent",
        help="the agent preset of this name from the config file, else the ACP registry agent "
        "of this id (see: acp-editor agents)",
    )
    parser.add_argument(
        "--registry",
        help="registry.json URL for --agent (default: $ACP_EDITOR_REGISTRY, else the official one)",
    )
    parser.add_argument(
        "--mode", help="start new sessions in this session mode (one of the agent's mode ids)"
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="agent presets file (default: $XDG_CONFIG_HOME/acp-editor/agents.toml)",
    )
    parser.add_argument(
        "--review",
        choices=("after-write", "before-write", "off"),
        default="after-write",
        help="review agent edits: after they land (default), before they are written, or not",
    )
    parser.add_argument(
        "--tell-agent-rejections",
        action="store_true",
        help="tell the agent, with the next prompt, which of its changes were rejected",
    )
    parser.add_argument(
        "--auto-approve",
        action="append",
        default=[],
        metavar="RULE",
        help="answer matching permission requests with allow: KIND, execute:COMMAND PREFIX or "
        "KIND:/path (repeatable; nothing is auto-approved unless set)",
    )
    add_confinement_options(parser)
    parser.add_argument("--log-level", default="WARNING", help="DEBUG, INFO, WARNING, ERROR")
    parser.add_argument("--log-file", help="write the log here instead of stderr")


def add_confinement_options(parser: argparse.ArgumentParser) -> None:
    """What the agent may see and touch, and where it sees the editor's files."""
    parser.add_argument(
        "--env-allow",
        metavar="NAMES",
        help="pass the agent only these environment variables (comma-separated; NAME or PREFIX*)",
    )
    parser.add_argument(
        "--map-path",
        action="append",
        default=[],
        metavar="AGENT_PATH=EDITOR_PATH",
        help="the agent sees EDITOR_PATH at AGENT_PATH (a sandbox, a container, another machine; "
        "repeatable, added to the preset's map_paths: docs/remote.md)",
    )
    parser.add_argument(
        "--command-prefix",
        metavar="COMMAND",
        help="runs the shell line given as its last argument where the agent is, e.g. 'ssh host': "
        "its terminals run through it (else the preset's command_prefix: docs/remote.md)",
    )
    parser.add_argument(
        "--allow-outside-roots",
        action="store_true",
        help="let the agent read and write files outside the session roots",
    )


def agent_command(args: argparse.Namespace, agent: list[str]) -> Preset:
    """The agent after ``--``, else the ``--agent`` preset (or the default one), else the demo
    (an empty command); ``--mode`` wins over the preset's mode."""
    chosen = Preset(COMMAND_LINE, agent)
    if not agent:
        try:
            chosen = resolve(args.agent, args.config or default_config_path()) or chosen
        except PresetError as exc:
            from acp_editor.registry.run import registry_preset

            found = registry_preset(args.agent, getattr(args, "registry", None))
            if found is None:
                why = f"{exc}, nor an agent of that id in the registry"
                raise SystemExit(f"acp-editor: {why}") from exc
            chosen = found
    if getattr(args, "mode", None):
        chosen.mode = args.mode
    return chosen


def agent_id(preset: Preset) -> str:
    """The server's own agent's id in the editor protocol: ``demo`` for the built-in one,
    ``default`` for the command after ``--``, else the preset's (or registry entry's) name."""
    if not preset.command:
        return "demo"
    return "default" if preset.name == COMMAND_LINE else preset.name


def other_presets(args: argparse.Namespace, own: str) -> dict[str, Preset]:
    """The presets sessions may also run in (``acp/newSession``'s ``agent``). A presets file
    that cannot be read costs only them: the server's own agent was chosen already."""
    try:
        presets = load_presets(args.config or default_config_path())
    except PresetError as exc:
        print(f"acp-editor: {exc}", file=sys.stderr)
        return {}
    return {name: p for name, p in presets.items() if name != own}


def auto_approve_rules(values: list[str]) -> list[Rule]:
    try:
        return [parse_setting(v) for v in values]
    except ValueError as exc:
        raise SystemExit(f"acp-editor: --auto-approve: {exc}") from exc


def path_map(preset: Preset, args: argparse.Namespace) -> PathMap | None:
    """The preset's pairs and ``--map-path``'s; None when there are none."""
    if not preset.map_paths and not args.map_path:
        return None  # most starts: not even imported (issue 36)
    from acp_editor.services.path_map import MappingError, PathMap

    try:
        paths = PathMap.parse([*preset.map_paths, *args.map_path])
    except MappingError as exc:
        raise SystemExit(f"acp-editor: {exc}") from exc
    return paths or None


def main(argv: Sequence[str] | None = None) -> int:
    own, agent = split_agent(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(own)
    if args.stdio:
        gc.set_threshold(700, 1_000_000, 1_000_000)  # young collections only: see tune_gc
        configure(args.log_level, args.log_file)
        return serve(args, agent_command(args, agent))
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if args.command == "mcp":
        from acp_editor.context.bridge import main as bridge

        return bridge(args.connect)
    configure(args.log_level, args.log_file)
    if args.command == "agents":
        from acp_editor.registry.run import list_agents

        return list_agents(args.registry, as_json=args.json)
    if args.command == "state":
        return state_command(parser, args)
    if args.command == "demo":
        preset = agent_command(args, agent)
        from acp_editor.demo.run import DemoOptions, demo_main

        options = DemoOptions(
            agent=preset.command,
            mode=preset.mode,
            prompt=args.prompt,
            auto_yes=args.yes,
            protocol_version=args.protocol_version,
            auth_method=args.auth_method,
            workspace=args.workspace,
            require_login=args.require_login,
        )
        return demo_main(options)
    parser.error(f"unknown command {args.command}")
    return 2


def state_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from acp_editor.services.retention import command

    if args.state_command is None:
        return command.show(as_json=args.json)
    asked = command.Clean(
        roots=args.root,
        all_missing=args.all_missing,
        sessions=args.session,
        prune=args.prune,
        everything=args.all,
        dry_run=args.dry_run,
    )
    if not (asked.roots or asked.all_missing or asked.sessions or asked.prune or asked.everything):
        parser.error(
            "state clean: say what: --root PATH, --all-missing, --session ID, --prune or --all"
        )
    return command.clean(asked)


def tune_gc() -> None:
    """Run once the editor has its ``initialize`` answer. Until then only the youngest objects
    are collected: importing pygls and lsprotocol makes tens of thousands of objects, and the
    full collections they set off cost about 50 ms before the first answer (bench/startup.py);
    turning the collector off instead kept 9 MB of the imports' garbage.

    The session state is a large, growing, acyclic heap of JSON (100k updates: about a
    million dicts, lists and strings), which Python's cyclic collector scans again and again.
    What was imported stays out of its scans (``freeze``), and the older generations are
    collected less often: the tool-call-heavy 100k flood took 24% less CPU (bench/README.md).
    Cycles are rare here (exceptions, asyncio internals) and still collected."""
    gc.freeze()
    gc.set_threshold(700, 20, 100)


def serve(args: argparse.Namespace, preset: Preset) -> int:
    """The language server. Exits the process itself: pygls reads stdin on a worker thread that
    would otherwise keep the interpreter alive until the editor closes the pipe."""
    import logging

    from acp_editor import procs
    from acp_editor.agent.config import AgentConfig
    from acp_editor.demo_agent import DEMO_AGENT
    from acp_editor.editor.build import create_server
    from acp_editor.editor.lsp.lsp_log import LspLogHandler
    from acp_editor.editor.lsp.server import serve_stdio
    from acp_editor.editor.supervisor import ServerOptions
    from acp_editor.log import LOGGER_NAME

    config = AgentConfig(
        command=preset.command or DEMO_AGENT,
        name=agent_id(preset),
        env=preset.env,
        initial_mode=preset.mode,
        protocol_version=args.protocol_version,
        auth_method=args.auth_method,
        mcp_servers=preset.mcp_servers,
        unrestricted_fs=args.allow_outside_roots,
        review_mode=args.review,
        tell_agent_rejections=args.tell_agent_rejections,
        auto_approve=auto_approve_rules(args.auto_approve),
        paths=path_map(preset, args),
        command_prefix=shlex.split(args.command_prefix)
        if args.command_prefix
        else preset.command_prefix,
        env_allowlist=[n.strip() for n in args.env_allow.split(",") if n.strip()]
        if args.env_allow is not None
        else None,
    )
    options = ServerOptions(
        agent=config,
        editor_context=not args.no_editor_context,
        presets=other_presets(args, config.name),
    )
    server = create_server(options)
    logging.getLogger(LOGGER_NAME).addHandler(LspLogHandler(server))
    server.on_initialized.append(tune_gc)
    code = 1
    try:
        code = serve_stdio(server)
    finally:
        procs.kill_leftovers()
        sys.stderr.flush()
        os._exit(code)
