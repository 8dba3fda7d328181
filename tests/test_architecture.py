"""The package layout is the architecture: arrows between layers point down only.

Layers, bottom to top: ``errors``/``version`` (leaves), ``games`` (the contract, the game
registry, each game with its checker and its array encoding), the ``bots`` package and
``env`` (learning environments over the encodings: an optional extra, so nothing else
imports it or its libraries), ``play`` (configs, match loop, executors, runner, storage),
``reporting`` (statistics, ratings, tables, pages, plots, balance), ``studies``
(tournaments' users: compare, sweep, tune, regress, strength, golden, bench),
``commands``, and the entry points (``cli``, ``api``).

Every import counts, the ones inside functions too: an import inside a function exists
only to defer a heavy library that most commands never need, says so in a comment, and
hides no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
DEFERRED = {
    "polars": "the tables: `import cgsim` (every worker, every submodule) must not load it",
    "numpy": "the array library: a fifth of `cgsim --help`'s start-up",
    "scipy": "statistics functions: more than a second to import",
    "choix": "the rating fit (imports scipy)",
    "matplotlib": "the plots",
    "dask": "the Dask backend, an optional extra",
    "distributed": "the Dask backend, an optional extra",
    "pettingzoo": "the learning environments, an optional extra",
    "gymnasium": "the learning environments, an optional extra",
    "pdb": "the debugger, only for --pdb",
    "fcntl": "file locks, on Unix only",
}
"""The libraries a function may import: heavy or optional, and why."""
REPORT_CODE = "cgsim.reporting."
"""The command line starts without report code (``tests/test_cli_commands.py``), so a
command may defer a report module, however light."""


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


def _import_nodes(path: Path) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    """Every absolute import of a file, whether it sits in a function, and whether it is
    under ``if TYPE_CHECKING:`` (for the type checker only, never run)."""

    def walk(node: ast.AST, in_function: bool, typing_only: bool) -> Iterator[Any]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child, in_function, typing_only
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            checking = isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            yield from walk(child, inner, typing_only or checking)

    yield from walk(ast.parse(path.read_text(encoding="utf-8")), False, False)


def _names(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import names: ``from a import b`` names ``a`` and, if it is a
    module, ``a.b``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.module is None or node.level != 0:
        return []
    return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]


def _imports(path: Path, top_level_only: bool) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _graph(in_functions: bool) -> dict[str, set[str]]:
    """Which of the project's modules each imports when it runs (with the imports inside
    its functions, or only at import time)."""
    modules = {_module_name(path): path for path in _sources()}
    return {
        name: {
            target
            for node, in_function, typing_only in _import_nodes(path)
            if not typing_only and (in_functions or not in_function)
            for target in _names(node)
            if target in modules and target != name
        }
        for name, path in modules.items()
    }


def _libraries(path: Path) -> set[str]:
    """The top-level names of what a file imports when it is imported."""
    return {
        target.split(".")[0]
        for node, in_function, typing_only in _import_nodes(path)
        if not in_function and not typing_only
        for target in _names(node)[:1]
    }


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


def test_imports_have_no_cycle() -> None:
    graph = _graph(in_functions=True)
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


def _loaded() -> dict[str, set[str]]:
    """For each module, the libraries of ``DEFERRED`` that importing it loads."""
    graph = _graph(in_functions=False)
    paths = {_module_name(path): path for path in _sources()}
    loaded: dict[str, set[str]] = {}

    def load(name: str) -> set[str]:
        if name not in loaded:
            loaded[name] = set()  # no cycle (tested above), so this is only a marker
            found = _libraries(paths[name]) & set(DEFERRED)
            for target in graph[name]:
                found |= load(target)
            loaded[name] = found
        return loaded[name]

    for name in graph:
        load(name)
    return loaded


def _comment_above(lines: list[str], imports: set[int], line: int) -> bool:
    """Whether a comment opens the block of imports (and ``try:``) that ``line`` is in;
    ``imports`` holds the (1-based) numbers of every line of every import."""
    number = line - 1
    while number in imports or lines[number - 1].strip() == "try:":
        number -= 1
    return number >= 1 and lines[number - 1].strip().startswith("#")


def test_imports_in_functions_only_defer_a_heavy_library() -> None:
    loaded = _loaded()
    wrong = []
    for path in _sources():
        own = _module_name(path)
        lines = path.read_text(encoding="utf-8").splitlines()
        nodes = list(_import_nodes(path))
        imports = {
            number
            for node, _, _ in nodes
            for number in range(node.lineno, (node.end_lineno or node.lineno) + 1)
        }
        for node, in_function, typing_only in nodes:
            if not in_function or typing_only:
                continue
            names = _names(node)
            ours = [name for name in names if name in loaded]
            if ours:
                heavy = set().union(*(loaded[name] for name in ours))
            else:
                heavy = {names[0].split(".")[0]} & set(DEFERRED)
            report = own.startswith("cgsim.commands.") and any(
                name.startswith(REPORT_CODE) for name in ours
            )
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if not heavy - loaded[own] and not report:
                wrong.append(f"{where} defers no heavy library: {ast.unparse(node)}")
            elif not _comment_above(lines, imports, node.lineno):
                wrong.append(f"{where} needs a comment saying what it defers")
    assert wrong == [], "\n".join(wrong)
