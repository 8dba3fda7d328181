"""Which modules are compiled, and the guard that keeps compiled code honest.

The hot modules of each game's engine, and of the built-in bots (``bots``), are compiled
with mypyc at install time (``setup.py``) into extension modules beside their sources;
the sources stay the definition, so the pure-Python package plays every game identically,
only slower. A compiled package (each game package, and ``bots``) lists its compiled
modules in ``COMPILED`` (a tuple of module names in its ``__init__``, one shared library
per package) and calls :func:`guard` before any of them is imported. All packages are
compiled in one run and call each other directly (the bots read the engines' states
natively), so they run compiled, or not, together.
The guard makes Python load that package's ``.py`` sources instead of its extension
modules when

- ``CGSIM_PURE_PYTHON`` is set (to anything but ``0`` or an empty string): the same
  variable also makes the build skip compiling; or
- any compiled source, in any package, changed since the extension modules were built
  (the build writes a digest of every compiled source to ``compiled.json``): an edited
  engine then runs as written, never as stale machine code, until ``make`` builds it
  again; the other packages run their sources too, since their compiled code expects the
  compiled classes.

This module is imported by ``setup.py`` on its own: it uses the standard library only.
"""

from __future__ import annotations

import abc
import ast
import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

PURE_ENV = "CGSIM_PURE_PYTHON"
MANIFEST = "compiled.json"

_GAMES_DIR = Path(__file__).resolve().parent

COMPILED_PACKAGES = ("bots",)
"""Top-level packages compiled besides the game packages (found in ``cgsim/games``)."""


def pure_requested() -> bool:
    """Whether ``CGSIM_PURE_PYTHON`` asks for the pure-Python engines."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_path(module: str, root: Path | None = None) -> Path:
    """The ``.py`` file of a module (under ``root``, else the installed packages' folder,
    where ``cgsim`` and ``bots`` lie side by side)."""
    base = root if root is not None else _GAMES_DIR.parents[1]
    return base.joinpath(*module.split(".")).with_suffix(".py")


def compiled_groups(root: Path) -> dict[str, tuple[str, ...]]:
    """Every compiled package's modules, by shared library, read from the sources under
    ``root`` (the build cannot import the package: its dependencies may be missing)."""
    inits = sorted((root / "cgsim" / "games").glob("*/__init__.py"))
    inits += [root / name / "__init__.py" for name in COMPILED_PACKAGES]
    inits = [init for init in inits if init.is_file()]
    groups: dict[str, tuple[str, ...]] = {}
    for init in inits:
        package = ".".join(init.parent.relative_to(root).parts)
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and [
                getattr(target, "id", None) for target in node.targets
            ] == ["COMPILED"]:
                names = ast.literal_eval(node.value)
                groups[f"{package}._engine"] = tuple(f"{package}.{name}" for name in names)
    return groups


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest(root: Path) -> None:
    """Record the digest of every compiled module's source (run by the build)."""
    modules = [name for group in compiled_groups(root).values() for name in group]
    digests = {name: _digest(source_path(name, root)) for name in modules}
    target = root / "cgsim" / "games" / MANIFEST
    target.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _stale(modules: Sequence[str] | None = None) -> bool:
    """Whether a source differs from the one the extension modules were built from
    (among ``modules``; by default, among every compiled module)."""
    try:
        built = json.loads((_GAMES_DIR / MANIFEST).read_text(encoding="utf-8"))
        names = list(built) if modules is None else modules
        return any(built.get(name) != _digest(source_path(name)) for name in names)
    except (OSError, ValueError):
        return True


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules in their ``.py`` files, ahead of any extension module."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


_REASONS: dict[str, str] = {}
"""Per guarded package: why it runs pure Python (absent: it runs what is installed)."""


def guard(package: str, names: Sequence[str]) -> None:
    """Before ``package``'s modules ``names`` load: choose their ``.py`` sources over
    stale or unwanted extension modules (see the module docstring)."""
    modules = tuple(f"{package}.{name}" for name in names)
    if pure_requested():
        reason = f"{PURE_ENV} is set"
    elif not any(_built(name) for name in modules):
        return
    elif _stale():
        reason = "sources changed since the build; `make` builds them again"
    else:
        return
    _REASONS[package] = reason
    sys.meta_path.insert(0, _SourcesFirst(modules))


def _built(module: str) -> bool:
    """Whether an extension module of ``module`` lies beside its source."""
    source = source_path(module)
    return any(
        source.with_name(source.stem + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


def is_compiled(module: ModuleType) -> bool:
    """Whether a loaded module is an extension module."""
    file = getattr(module, "__file__", None) or ""
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def engine_mode(package: str) -> str:
    """How a compiled package (a game's engine, or the bots) runs, in words: compiled, or
    pure Python and why."""
    names: Sequence[str] = getattr(sys.modules.get(package), "COMPILED", ())
    loaded = [
        sys.modules[f"{package}.{name}"] for name in names if f"{package}.{name}" in sys.modules
    ]
    if loaded and all(is_compiled(module) for module in loaded):
        return "compiled (mypyc)"
    reason = _REASONS.get(package, "not compiled at install")
    return f"pure Python ({reason})"


def own_abc(*classes: type) -> None:
    """Give each compiled class deriving from an ABC (``Sequence``) its own ABC registry
    and cache. Compiled, the ABC's metaclass never sets one up for it, so it shares its
    ABC's: once ``isinstance(a_list, Sequence)`` had been asked, ``isinstance(a_list,
    TableRows)`` answered True. A Python class has its own already (nothing is done)."""
    init = abc._abc_init  # type: ignore[attr-defined]  # the C accelerator's, always there
    for cls in classes:
        if "_abc_impl" not in cls.__dict__:
            init(cls)


def dataclass_reduce(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``__reduce__`` of a dataclass in a compiled module: rebuilt by its ``__init__``
    from its fields in order. (Compiled classes otherwise unpickle by setting each
    attribute, which a frozen dataclass refuses.)"""
    return type(value), tuple(getattr(value, f.name) for f in dataclasses.fields(value))
