"""PathPolicy against real directories and symlinks: every way out of a root is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from acp_editor.errors import InvalidParams
from acp_editor.protocol.acp import obj, optional_uint, require_str
from acp_editor.services.paths import PathPolicy


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    """root/ (allowed) with src/a.py, and outside/ beside it holding secret.txt."""
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("x = 1\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    return {"root": root, "outside": outside}


def refused(policy: PathPolicy, raw: object) -> str:
    with pytest.raises(InvalidParams) as info:
        policy.check(raw)
    assert info.value.code == -32602
    return info.value.message


def test_plain_file_inside_root(tree: dict[str, Path]) -> None:
    policy = PathPolicy([tree["root"]])
    path = tree["root"] / "src" / "a.py"
    assert policy.check(str(path)) == path.resolve()
    assert policy.check(str(tree["root"])) == tree["root"].resolve()


def test_relative_and_non_string_paths_are_refused(tree: dict[str, Path]) -> None:
    policy = PathPolicy([tree["root"]], unrestricted=True)
    assert "must be absolute" in refused(policy, "src/a.py")
    assert "must be absolute" in refused(policy, "")
    assert "must be a string" in refused(policy, None)
    assert "must be a string" in refused(policy, 42)
    assert "NUL" in refused(policy, f"{tree['root']}/a\x00b")


def test_dotdot_is_resolved_before_judging(tree: dict[str, Path]) -> None:
    policy = PathPolicy([tree["root"]])
    inside = policy.check(f"{tree['root']}/src/../src/a.py")
    assert inside == (tree["root"] / "src" / "a.py").resolve()
    message = refused(policy, f"{tree['root']}/src/../../outside/secret.txt")
    assert "outside the allowed roots" in message
    assert "secret.txt" in message
    assert str(tree["root"].resolve()) in message  # names the allowed roots


def test_sibling_with_root_as_name_prefix_is_outside(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj2").mkdir()
    policy = PathPolicy([tmp_path / "proj"])
    refused(policy, str(tmp_path / "proj2" / "f.txt"))


def test_symlinked_file_leading_out_is_refused(tree: dict[str, Path]) -> None:
    link = tree["root"] / "src" / "innocent.txt"
    link.symlink_to(tree["outside"] / "secret.txt")
    policy = PathPolicy([tree["root"]])
    assert "resolves to" in refused(policy, str(link))


def test_symlinked_dir_leading_out_is_refused_also_for_new_files(tree: dict[str, Path]) -> None:
    (tree["root"] / "out").symlink_to(tree["outside"], target_is_directory=True)
    policy = PathPolicy([tree["root"]])
    refused(policy, str(tree["root"] / "out" / "secret.txt"))
    refused(policy, str(tree["root"] / "out" / "new" / "file.txt"))  # does not exist yet
    # `..` after a symlinked directory climbs from where the link really points.
    refused(policy, str(tree["root"] / "out" / ".." / "outside" / "secret.txt"))


def test_dangling_symlink_pointing_out_is_refused(tree: dict[str, Path]) -> None:
    (tree["root"] / "dangling").symlink_to(tree["outside"] / "not-yet")
    refused(PathPolicy([tree["root"]]), str(tree["root"] / "dangling"))


def test_symlink_staying_inside_is_followed(tree: dict[str, Path]) -> None:
    (tree["root"] / "alias.py").symlink_to(tree["root"] / "src" / "a.py")
    policy = PathPolicy([tree["root"]])
    assert policy.check(str(tree["root"] / "alias.py")) == (tree["root"] / "src/a.py").resolve()


def test_nonexistent_file_inside_root_is_allowed(tree: dict[str, Path]) -> None:
    policy = PathPolicy([tree["root"]])
    raw = tree["root"] / "new" / "deeper" / "file.txt"
    assert policy.check(str(raw)) == tree["root"].resolve() / "new" / "deeper" / "file.txt"


def test_root_given_through_a_symlink_is_resolved(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "via").symlink_to(real, target_is_directory=True)
    policy = PathPolicy([tmp_path / "via"])
    assert policy.roots == (real.resolve(),)
    assert policy.check(str(real / "x.txt")) == real.resolve() / "x.txt"
    assert policy.check(str(tmp_path / "via" / "x.txt")) == real.resolve() / "x.txt"


def test_proc_self_environ_is_refused(tree: dict[str, Path]) -> None:
    refused(PathPolicy([tree["root"]]), "/proc/self/environ")
    refused(PathPolicy([]), "/proc/self/environ")


def test_unrestricted_allows_anything_absolute(tree: dict[str, Path]) -> None:
    policy = PathPolicy([tree["root"]], unrestricted=True)
    secret = tree["outside"] / "secret.txt"
    assert policy.check(str(secret)) == secret.resolve()
    assert policy.check("/proc/self/environ") == Path(os.path.realpath("/proc/self/environ"))


def test_add_root(tree: dict[str, Path]) -> None:
    policy = PathPolicy([tree["root"]])
    secret = str(tree["outside"] / "secret.txt")
    refused(policy, secret)
    policy.add_root(tree["outside"])
    policy.add_root(tree["outside"])  # twice is harmless
    assert len(policy.roots) == 2
    assert policy.check(secret) == Path(secret).resolve()


def test_what_names_the_field(tree: dict[str, Path]) -> None:
    with pytest.raises(InvalidParams, match="cwd must be absolute"):
        PathPolicy([tree["root"]]).check("rel", what="cwd")


def test_param_helpers() -> None:
    with pytest.raises(InvalidParams, match="params must be an object"):
        obj([1])
    p = obj({"s": "x", "n": 3, "b": True, "neg": -1, "z": None, "f": 1.5})
    assert require_str(p, "s") == "x"
    with pytest.raises(InvalidParams, match="missing required field 'absent'"):
        require_str(p, "absent")
    with pytest.raises(InvalidParams, match="'n' must be a string"):
        require_str(p, "n")
    assert optional_uint(p, "n") == 3
    assert optional_uint(p, "z") is None
    assert optional_uint(p, "absent") is None
    for key in ("b", "neg", "f", "s"):
        with pytest.raises(InvalidParams, match="non-negative integer"):
            optional_uint(p, key)
