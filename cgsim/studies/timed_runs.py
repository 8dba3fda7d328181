"""Timing the whole runner in alternating rounds: what the parallel figure of the bench and
the Dask backend's figures share.

A machine's speed drifts while it is measured (other work starts, the CPU warms), so
each setting compared is timed in several rounds, the settings alternating, and a
spread between a setting's rounds says the figure is noisy.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from cgsim.play.config import RunConfig, with_overrides
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for

Echo = Callable[[str], Any]
NOISY_SPREAD = 0.10
"""Two measurements of the same setting that differ by more than this share of their
mean make the figure noisy (the machine's load changed while it was measured)."""
PARALLEL_ROUNDS = 2
"""Each setting is measured this many times, alternating, so drift shows."""


def runner_round(config: RunConfig, games: int, seed: int, workers: int) -> tuple[int, float]:
    """Games played and seconds spent by one run of ``config`` on ``workers`` workers:
    a tournament when it names a pool of bots, else a run; no records, into a temporary
    directory."""
    command: Literal["run", "tournament"] = "tournament" if config.bots else "run"
    with tempfile.TemporaryDirectory(prefix="cgsim-bench-") as folder:
        trial = with_overrides(
            config,
            {"games": games, "seed": seed, "workers": workers, "records": False, "out": folder},
        )
        plan = plan_for(trial, command)
        start = time.perf_counter()
        result = run_games(trial, plan, progress=False)
        return result.games_played, time.perf_counter() - start


def summarise_rounds(
    label: str, rounds: Sequence[tuple[int, float]], echo: Echo, width: int
) -> float:
    """Print one setting's games per second over its rounds (``label`` padded to
    ``width``), each round's, their spread and whether that makes it noisy; the rate."""
    rate = sum(n for n, _ in rounds) / sum(t for _, t in rounds)
    each = [n / t for n, t in rounds]
    spread = (max(each) - min(each)) / rate
    shown = ", ".join(f"{r:.1f}" for r in each)
    echo(f"{label:<{width}}{rate:9.1f} games/s (rounds: {shown}; spread {spread:.0%})")
    if spread > NOISY_SPREAD:
        echo(
            f"  noisy: the rounds differ by {spread:.0%} (over {NOISY_SPREAD:.0%}); other "
            "work on the machine changed its speed: measure again when it is idle"
        )
    return rate
