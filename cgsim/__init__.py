"""cgsim: headless simulation and tournament toolkit for Cottage Garden.

For notebooks: ``cgsim.simulate(config_or_path, games=...)`` runs a config and returns
its tables as polars DataFrames; ``cgsim.load_results(dir)`` reads a results directory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgsim.version import __version__

__all__ = ["__version__", "load_results", "simulate"]

if TYPE_CHECKING:
    from cgsim.api import load_results, simulate


def __getattr__(name: str) -> Any:
    """Import the notebook API lazily, so ``import cgsim`` stays cheap for workers."""
    if name in ("simulate", "load_results"):
        # Deferred: the API loads polars and the play stack; workers import cgsim.
        from cgsim import api

        return getattr(api, name)
    raise AttributeError(f"module 'cgsim' has no attribute {name!r}")
