"""The package layout is the architecture: arrows between layers point down only.

Layers, bottom to top: ``errors``/``version`` (leaves), ``games`` (the contract, the game
registry, each game with its checker and its array encoding), the ``bots`` package and
``env`` (learning environments over the encodings: an optional extra, so nothing else
imports it or its libraries), ``play`` (configs, match loop, executors, runner, storage),
``reporting`` (statistics, ratings, tables, pages, plots, balance), ``studies``
(tournaments' users: compare, sweep, tune, regress, strength, golden, bench),
``commands``, and the entry points (``cli``, ``api``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "errors": 0,
    "version": 0,
    "games": 1,
    "env": 2,
    "play": 3,
    "reporting": 4,
    "studies": 5,
    "commands": 6,
    "api": 7,
    "cli": 7,
    "__init__": 7,
}
BOTS_LAYER = 2


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] == "bots":
        return BOTS_LAYER
    if parts[0] != "cgsim":
        return None
    return LAYERS["__init__"] if len(parts) == 1 else LAYERS.get(parts[1])


def _sources() -> list[Path]:
    return sorted([*(ROOT / "cgsim").rglob("*.py"), *(ROOT / "bots").rglob("*.py")])


def _imports(path: Path, top_level_only: bool) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_every_package_of_cgsim_has_a_layer() -> None:
    packages = {path.name for path in (ROOT / "cgsim").iterdir() if path.is_dir()}
    packages |= {path.stem for path in (ROOT / "cgsim").glob("*.py")}
    packages -= {"__pycache__", "py"}
    assert packages <= set(LAYERS), packages - set(LAYERS)


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_imports_point_down_the_layers(path: Path) -> None:
    own = _layer(_module_name(path))
    assert own is not None
    upward = [
        module
        for module in _imports(path, top_level_only=False)
        if (layer := _layer(module)) is not None and layer > own
    ]
    assert upward == [], f"{path.relative_to(ROOT)} imports upward: {upward}"


def test_the_engine_packages_import_no_bot() -> None:
    for path in (ROOT / "cgsim" / "games").rglob("*.py"):
        bots = [m for m in _imports(path, top_level_only=False) if m.split(".")[0] == "bots"]
        assert bots == [], path


def test_only_the_environments_import_the_learning_libraries() -> None:
    optional = {"cgsim.env", "pettingzoo", "gymnasium"}
    for path in _sources():
        if _module_name(path).startswith("cgsim.env"):
            continue
        found = [
            module
            for module in _imports(path, top_level_only=False)
            if any(module == name or module.startswith(name + ".") for name in optional)
        ]
        assert found == [], f"{path.relative_to(ROOT)} imports {found}"


def test_module_level_imports_have_no_cycle() -> None:
    modules = {_module_name(path): path for path in _sources()}
    graph = {
        name: {target for target in _imports(path, top_level_only=True) if target in modules}
        for name, path in modules.items()
    }
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            cycle = [*trail[trail.index(name) :], name]
            pytest.fail("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        for target in sorted(graph[name]):
            visit(target, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
