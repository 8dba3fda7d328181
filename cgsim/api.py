"""The notebook API: run a config and get polars DataFrames back, or read a past run.

``simulate`` goes through the same planner and runner as the command line (seeded,
parallel, fault-contained), so a notebook's numbers match ``cgsim run``'s.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import polars as pl

from cgsim.play.backend import using_backend
from cgsim.play.config import RunConfig, load_config, validate_config, with_overrides
from cgsim.play.results import load_tables
from cgsim.play.runner import run_games
from cgsim.play.schedules import Plan, plan_for


def _config(source: RunConfig | Mapping[str, Any] | str | Path) -> RunConfig:
    if isinstance(source, RunConfig):
        return source
    if isinstance(source, Mapping):
        return validate_config(source)
    return load_config(source)


def simulate(
    config_or_path: RunConfig | Mapping[str, Any] | str | Path,
    games: int | None = None,
    workers: int | None = None,
    seed: int | None = None,
    *,
    command: Literal["run", "tournament"] | None = None,
    out: str | Path | None = None,
    progress: bool = False,
    backend: Literal["local", "dask"] | None = None,
    scheduler: str | None = None,
) -> dict[str, pl.DataFrame]:
    """Play a config (a ``RunConfig``, its data, or a TOML path) and return its tables.

    ``games``, ``workers`` and ``seed`` override the config. ``command`` defaults to
    ``run`` when the config has seats and ``tournament`` otherwise. Results go to a
    temporary directory removed afterwards, or to ``out/<name>`` when ``out`` is given
    (kept, and resumed like ``cgsim run``). ``backend`` and ``scheduler`` override the
    config's: ``"dask"`` plays on a Dask cluster (a local one of ``workers`` processes
    without a scheduler), with the same tables. Returns ``{"games": ..., "seats": ..., and
    the game's own tables}``. Ctrl-C stops the run and raises ``KeyboardInterrupt``.
    """
    config = with_overrides(
        _config(config_or_path), {"games": games, "workers": workers, "seed": seed}
    )
    chosen = command or ("run" if config.seats else "tournament")
    plan = plan_for(config, chosen)
    with using_backend(backend, scheduler):
        if out is not None:
            return _run(with_overrides(config, {"out": Path(out)}), plan, progress)
        with tempfile.TemporaryDirectory(prefix="cgsim-") as folder:
            return _run(with_overrides(config, {"out": Path(folder)}), plan, progress)


def _run(config: RunConfig, plan: Plan, progress: bool) -> dict[str, pl.DataFrame]:
    result = run_games(config, plan, progress=progress)
    if result.status == "interrupted":
        raise KeyboardInterrupt
    return load_tables(result.results_dir)


def load_results(results_dir: str | Path) -> dict[str, pl.DataFrame]:
    """Every table of a results directory as a DataFrame (``games``, ``seats``, ...),
    once the directory is checked (``ResultsError`` naming a damaged or foreign file)."""
    return load_tables(Path(results_dir))
