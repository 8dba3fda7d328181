"""Build hook: compile the game engines and the bots' hot modules with mypyc when possible,
else stay pure Python.

Everything else about the package is declared in ``pyproject.toml``. The modules each game
package lists in its ``COMPILED`` (``cgsim/games/compiled.py``) are the same sources either way; compiled, they run several
times faster (docs/performance.md). The build stays pure Python, with the same results byte
for byte, when ``CGSIM_PURE_PYTHON`` is set (to anything but ``0`` or an empty string),
when mypyc is not installed where the package is built, or when no C compiler works.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "cgsim" / "games"))
from compiled import (  # noqa: E402
    PURE_ENV,
    compiled_groups,
    pure_requested,
    source_path,
    write_manifest,
)

del sys.path[0]


class OptionalBuildExt(build_ext):
    """Compiles the engines; when that fails the package is simply pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, no headers: the sources still work
            print(f"cgsim: compiling the engines failed ({error}); installing pure Python")


def extensions() -> list[Any]:
    """mypyc's extension modules, one shared library per compiled package; none when not
    possible.

    All packages are compiled in one mypyc run (``separate`` names each package's group):
    the bots then read the engines' states and call their functions natively. Compiled
    one package at a time, every attribute of an engine's object that a bot read went
    through Python's generic lookup, and every call between packages through a boxed
    Python call.
    """
    if pure_requested():
        print(f"cgsim: {PURE_ENV} is set; installing pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("cgsim: mypyc is not installed here; installing pure Python")
        return []
    write_manifest(ROOT)
    groups = [
        ([str(source_path(name, ROOT).relative_to(ROOT)) for name in modules], group)
        for group, modules in compiled_groups(ROOT).items()
    ]
    paths = [path for group_paths, _ in groups for path in group_paths]
    built: list[Any] = mypycify(paths, separate=groups, opt_level="2", debug_level="0")
    return built


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
