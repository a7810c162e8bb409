"""The shape of the package, checked: no import cycle, layers that point down, wiring in one
place, short functions (see docs/architecture.md and ``scripts/deps.py``); and tests that
mirror the code, so a module's tests are found from its path alone."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _deps() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deps", ROOT / "scripts" / "deps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["deps"] = module
    spec.loader.exec_module(module)
    return module


deps = _deps()
EDGES: dict[str, set[str]] = deps.graph()


def test_the_graph_is_read() -> None:
    # A graph read wrongly would pass every check below: make sure it has the known edges.
    assert "acp_editor.agent.link.rpc" in EDGES["acp_editor.agent.client"]
    assert "acp_editor.editor.lsp.channel" in EDGES["acp_editor.editor.show.editor_frontend"]


def test_no_import_cycle_even_in_functions_or_type_checking_blocks() -> None:
    assert deps.strongly_connected(EDGES) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert deps.strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert deps.simple_cycles({"a": {"b"}, "b": {"a", "c"}, "c": {"a"}}) == 2


def test_every_import_points_to_its_own_layer_or_below() -> None:
    assert deps.upward(EDGES) == []


def test_no_function_is_longer_than_about_a_screen() -> None:
    assert deps.long_functions() == []


def importers_of(target: str) -> set[str]:
    return {src for src, dsts in EDGES.items() if target in dsts}


def test_the_server_knows_none_of_its_features() -> None:
    features = {
        m for m in EDGES["acp_editor.editor.lsp.server"] if m.startswith("acp_editor.editor.")
    }
    assert features <= {"acp_editor.editor.lsp.channel", "acp_editor.editor.lsp.features"}


@pytest.mark.parametrize(
    ("module", "allowed"),
    [
        # The editor side reaches the agent side through editor.agent_port; only the wiring
        # names the real client.
        ("acp_editor.agent.client", {"acp_editor.editor.build", "acp_editor.demo.run"}),
        ("acp_editor.editor.build", {"acp_editor.cli"}),
        (
            "acp_editor.editor.lsp.server",
            {
                "acp_editor.editor.build",
                "acp_editor.editor.handlers.lifecycle",
                "acp_editor.editor.lsp.lsp_log",
                "acp_editor.cli",
            },
        ),
    ],
)
def test_wiring_lives_in_one_place(module: str, allowed: set[str]) -> None:
    assert importers_of(module) <= allowed


def test_the_agent_side_never_imports_the_editor_side() -> None:
    agent = [m for m in EDGES if m.startswith("acp_editor.agent.")]
    assert all(not d.startswith("acp_editor.editor.") for m in agent for d in EDGES[m])


def test_the_editor_side_sees_review_through_its_owner_only() -> None:
    """Review reaches the editor side from its owner (``review.owner``) as one event and a view
    (``review.events``, ``review.view``); hunks and groups are values it reads. The queue,
    turns and checkpoints stay review's own."""
    seen = {
        dst
        for src, dsts in EDGES.items()
        if src.startswith("acp_editor.editor.")
        for dst in dsts
        if dst.startswith("acp_editor.review.")
    }
    assert seen <= {
        "acp_editor.review.owner",
        "acp_editor.review.events",
        "acp_editor.review.view",
        "acp_editor.review.queue.hunk",
        "acp_editor.review.queue.groups",
    }
    assert "acp_editor.review.owner" in seen  # the check reads the imports it means to


def test_review_is_built_by_its_owner_alone() -> None:
    """One place builds review's parts: the agent side asks the owner for its share."""
    client = {d for d in EDGES["acp_editor.agent.client"] if d.startswith("acp_editor.review.")}
    assert client == {"acp_editor.review.owner"}
    builders = importers_of("acp_editor.review.finding.turns") | importers_of(
        "acp_editor.review.finding.intake"
    )
    assert {m for m in builders if not m.startswith("acp_editor.review.")} == set()


# -- objects whole when made, and reached through their owner's methods ------------------------


def _trees() -> dict[str, ast.Module]:
    return {
        p.relative_to(PACKAGE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def _methods(tree: ast.Module) -> set[str]:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        item.name
        for cls in ast.walk(tree)
        if isinstance(cls, ast.ClassDef)
        for item in cls.body
        if isinstance(item, kinds)
    }


def callbacks_set_after_construction(trees: dict[str, ast.Module]) -> list[str]:
    """Assignments that give another object a callback once it is made: to an attribute of
    anything but ``self``, of a lambda, of one of the module's own methods (``self.found``),
    or to an ``on_...`` attribute. An object's listeners are its constructor's arguments."""
    found = []
    for module, tree in trees.items():
        methods = _methods(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Assign | ast.AnnAssign) or node.value is None:
                continue
            value = node.value
            own = (
                isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name)
                and value.value.id == "self"
                and value.attr in methods
            )
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if not isinstance(target, ast.Attribute):
                    continue
                if isinstance(target.value, ast.Name) and target.value.id == "self":
                    continue  # its own attribute, set in its own code
                if own or isinstance(value, ast.Lambda) or target.attr.startswith("on_"):
                    found.append(f"{module}:{node.lineno}: {ast.unparse(target)}")
    return found


def test_no_callback_is_set_on_an_object_after_it_is_made() -> None:
    assert callbacks_set_after_construction(_trees()) == []


def test_the_callback_check_finds_one() -> None:
    tree = ast.parse(
        "class A:\n"
        "    def found(self): ...\n"
        "    def wire(self, queue):\n"
        "        queue.bulk.on_change = print\n"
        "        queue.listener = lambda: None\n"
        "        queue.told = self.found\n"
        "        self.mine = lambda: None\n"
    )
    assert callbacks_set_after_construction({"a.py": tree}) == [
        "a.py:4: queue.bulk.on_change",
        "a.py:5: queue.listener",
        "a.py:6: queue.told",
    ]


OWNERS = {
    "review/owner.py": ({"Review"}, {"review", "reviewing"}),
    "review/agent_review.py": ({"AgentReview"}, {"review", "reviewing"}),
}
"""A layer's owner classes, and the names the layers above hold them by."""


def _parts(tree: ast.Module, classes: set[str]) -> set[str]:
    """The parts an owner holds: its dataclass fields and the attributes its ``__init__``
    sets (its methods are how the layers above use it)."""
    found: set[str] = set()
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef) or cls.name not in classes:
            continue
        for item in cls.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                found.add(item.target.id)
            if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                for node in ast.walk(item):
                    if (
                        isinstance(node, ast.Attribute)
                        and isinstance(node.ctx, ast.Store)
                        and isinstance(node.value, ast.Name)
                        and node.value.id == "self"
                    ):
                        found.add(node.attr)
    return found


def reaching_through(trees: dict[str, ast.Module]) -> list[str]:
    """Chains outside an owner's package that go through one of its parts to the part's own
    attributes (``self.review.documents.queue.x``, ``review.isolated.folders.add``): the
    layers above call the owner's methods, which know its parts."""
    found = []
    for owner, (classes, handles) in OWNERS.items():
        parts = _parts(trees[owner], classes) if owner in trees else set()
        package = owner.split("/")[0] + "/"
        for module, tree in trees.items():
            if module.startswith(package):
                continue
            for node in ast.walk(tree):
                chain: list[str] = []
                while isinstance(node, ast.Attribute):
                    chain.insert(0, node.attr)
                    node = node.value
                for at, name in enumerate(chain[:2]):
                    if name in handles and len(chain) > at + 2 and chain[at + 1] in parts:
                        found.append(f"{module}: {'.'.join(chain)}")
                        break
    return sorted(set(found))


def test_the_layers_above_reach_review_through_its_owner_s_methods_only() -> None:
    trees = _trees()
    assert set(OWNERS) <= set(trees)  # the check reads the owners it means to
    assert reaching_through(trees) == []


def test_the_reach_through_check_finds_one() -> None:
    owner = ast.parse(
        "class Review:\n    def __init__(self):\n        self.queue = 1\n    def mode(self): ..."
    )
    above = ast.parse("x = self.review.queue.hunks\ny = self.review.mode()\nz = self.review.queue")
    found = reaching_through({"review/owner.py": owner, "agent/client.py": above})
    assert found == ["agent/client.py: review.queue.hunks"]


# -- tests mirror the code ----------------------------------------------------------------------
#
# acp_editor/<package...>/<module>.py has its tests in tests/unit/<package...>/test_<module>.py;
# a second file for one module is test_<module>_<aspect>.py. Other files in tests/unit are
# conftest.py and helpers (no ``test_`` prefix).

PACKAGE = ROOT / "acp_editor"
UNIT = ROOT / "tests" / "unit"

ABOUT_THE_WHOLE = {"test_architecture.py"}
"""Test files about the package as a whole, not one module."""

NAMED_OTHERWISE: dict[str, str] = {}
"""Test files whose names do not say their module: the module each tests."""

E2E = "tests/e2e"
E2E_LSP = "tests/e2e_lsp"
DEMO_AGENT = (
    f"the scripted demo agent, a process of its own: every test in {E2E} and {E2E_LSP} drives it"
)

NO_TEST_FILE = {
    "__main__.py": f"`python -m acp_editor`, one call of cli.main: every {E2E_LSP} test starts it",
    "agent/link/connection.py": f"spawns and talks to a real agent process: {E2E}",
    "agent/frontend.py": "the Frontend protocol and its harmless defaults: every agent test's fake",
    "agent/link/process.py": f"the process, its shutdown ladder: {E2E}/test_client_lifecycle.py",
    "agent/sessions.py": "a dataclass around a session's state: through agent/test_client.py",
    "agent/calls/cancelling.py": "turn, tool call, terminal cancels: agent/test_client*.py",
    "agent/calls/setup_calls.py": f"agent/test_client.py; sign-in, retries: {E2E}/test_client_*.py",
    "agent/serving/asking.py": "permission questions: through agent/test_client.py and e2e tests",
    "context/over_http.py": "the HTTP endpoint: through context/test_server.py",
    "context/sdk.py": "the tools on the MCP SDK: through context/test_server.py",
    "context/tools.py": f"context/test_server.py, {E2E_LSP}/test_lsp_editor_context.py",
    "demo/run.py": f"`acp-editor demo`: {E2E}/test_demo_cli.py",
    "demo_agent/__main__.py": DEMO_AGENT,
    "demo_agent/scenarios/command_scenarios.py": DEMO_AGENT,
    "demo_agent/scenarios/editor_context.py": DEMO_AGENT,
    "demo_agent/scenarios/elicit.py": DEMO_AGENT,
    "demo_agent/scenarios/file_scenarios.py": DEMO_AGENT,
    "demo_agent/server/cli.py": DEMO_AGENT,
    "demo_agent/server/methods.py": DEMO_AGENT,
    "demo_agent/server/prompts.py": DEMO_AGENT,
    "demo_agent/server/store.py": DEMO_AGENT,
    "demo_agent/turn/prompt_turn.py": DEMO_AGENT,
    "editor/agent_port.py": "AgentSide and AgentSlot: through every editor test's rig (assemble())",
    "editor/buffers/conflicts.py": "through editor/buffers/test_source_agent_writes.py",
    "editor/handlers/worktree_handlers.py": (
        f"bring back and discard a worktree: {E2E_LSP}/test_lsp_worktree_session.py"
    ),
    "editor/lsp/channel.py": f"EditorChannel over pygls: faked in unit tests, real in {E2E_LSP}",
    "editor/lsp/server.py": f"the pygls server: editor/test_build.py builds it, {E2E_LSP} runs it",
    "editor/show/diffs.py": "diff previews: through editor/show/test_editor_frontend.py",
    "editor/show/progress.py": "work-done progress: through editor/show/test_editor_frontend.py",
    "editor/show/replies.py": "a turn's reply: through editor/handlers/test_commands.py",
    "protocol/editor_context.py": "pure data: the editor-context server's name, tools, variable",
    "registry/fetch.py": f"the registry fetched and cached: {E2E}/test_registry.py",
    "registry/run.py": f"`acp-editor agents`, `--agent ID`: {E2E}/test_registry.py",
    "review/events.py": "what review tells, pure data: told in order in review/test_owner.py",
    "review/finding/intake.py": (
        "the agent's writes through us entering review: review/finding/"
        "test_turns_written_twice.py, e2e_lsp/test_lsp_review.py"
    ),
    "review/view.py": "the ReviewView protocol (Review implements it): review/test_owner.py",
    "services/retention/command.py": f"`acp-editor state`: {E2E}/test_state_cli.py",
    "services/retention/inventory.py": "through services/retention/test_pruning.py",
    "services/retention/plumbing.py": "git against a store: through retention/test_pruning.py",
}
"""Modules with no test file of their own, each with where it is tested instead. A module
small enough to test directly deserves its own test file rather than an entry here."""


def package_modules() -> set[str]:
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}


def unit_test_files() -> set[str]:
    return {p.relative_to(UNIT).as_posix() for p in UNIT.rglob("test_*.py")}


def module_of(test: str, modules: set[str]) -> str | None:
    """The module a test file's path names: the longest that fits, so that
    ``test_review_groups.py`` is ``review_groups.py``'s, not ``review.py``'s."""
    if test in NAMED_OTHERWISE:
        return NAMED_OTHERWISE[test]
    folder, _, name = test.rpartition("/")
    stem = name.removeprefix("test_").removesuffix(".py")
    fits = [
        module
        for module in modules
        if module.rpartition("/")[0] == folder
        and (stem == Path(module).stem or stem.startswith(Path(module).stem + "_"))
    ]
    return max(fits, key=len, default=None)


def defines_nothing(module: str) -> bool:
    """A package ``__init__`` with a docstring, imports and ``__all__`` only: nothing to test."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return not any(isinstance(node, kinds) for node in ast.walk(tree))


def test_the_mirror_reads_names_as_meant() -> None:
    modules = {"editor/buffers/review.py", "editor/buffers/review_groups.py", "jsonio.py"}
    assert module_of("editor/buffers/test_review.py", modules) == "editor/buffers/review.py"
    assert module_of("editor/buffers/test_review_moves.py", modules) == "editor/buffers/review.py"
    groups = "editor/buffers/review_groups.py"
    assert module_of("editor/buffers/test_review_groups.py", modules) == groups
    assert module_of("test_jsonio.py", modules) == "jsonio.py"
    assert module_of("editor/test_jsonio.py", modules) is None  # the folder must mirror too
    assert module_of("editor/buffers/test_reviews.py", modules) is None


def test_every_unit_test_file_names_the_module_it_tests() -> None:
    """tests/unit/<package>/test_<module>.py or test_<module>_<aspect>.py, for a module that
    exists: rename a test file with its module, or list it in NAMED_OTHERWISE."""
    modules = package_modules()
    unnamed = [t for t in unit_test_files() - ABOUT_THE_WHOLE if module_of(t, modules) is None]
    assert sorted(unnamed) == [], "name each after its module, or map it in NAMED_OTHERWISE"


def test_every_module_has_its_test_file_or_says_where_it_is_tested() -> None:
    """A new module gets tests/unit/<package>/test_<module>.py, or an entry in NO_TEST_FILE
    saying where it is tested instead (an e2e test, a neighbour's test through ``assemble()``)."""
    modules = package_modules()
    tested = {module_of(t, modules) for t in unit_test_files()}
    missing = [
        m
        for m in modules - tested - NO_TEST_FILE.keys()
        if not (m.endswith("__init__.py") and defines_nothing(m))
    ]
    assert sorted(missing) == [], (
        "give each its test file, or say in NO_TEST_FILE where it is tested"
    )


def test_the_exceptions_are_still_needed() -> None:
    """An entry for a module that has its own test file now, or that is gone, goes."""
    modules = package_modules()
    tested = {module_of(t, modules) for t in unit_test_files()}
    assert sorted(NO_TEST_FILE.keys() - (modules - tested)) == []
    assert sorted(NAMED_OTHERWISE.keys() - unit_test_files()) == []
    assert sorted(set(NAMED_OTHERWISE.values()) - modules) == []
    assert all(reason.strip() for reason in NO_TEST_FILE.values())


DOCUMENTS = ["README.md", "SECURITY.md", "bench/README.md", *sorted((ROOT / "docs").glob("*.md"))]
NAMED_FILE = re.compile(r"(?:acp_editor|scripts|bench|lua|tests)/[\w/.-]+\.(?:py|lua|ts|sh)\b")


def test_the_documents_name_files_that_exist() -> None:
    """A file moved or renamed leaves no stale path in the project's documents (SECURITY.md
    names the test of each promise; the map names the modules)."""
    stale = [
        f"{doc}: {name}"
        for doc in DOCUMENTS
        for name in sorted(set(NAMED_FILE.findall((ROOT / doc).read_text(encoding="utf-8"))))
        if not (ROOT / name).exists()
    ]
    assert stale == []
