"""One regression gate for a rule or engine change: golden games first, then statistics.

``regress`` replays the golden games of a baseline folder. When every digest is
identical the change altered no golden game and there is nothing more to test. When
some changed, the baseline run's games (a results directory made before the change) are
played again with the current code on the same seeds, batch by batch, and for every
metric the user names a two-sided sequential test (``cgsim.studies.sequential``) decides between
"no change" (``delta = 0``) and "a change of at least the tolerance"; a regression is
established when a test accepts the latter. Error rates are split evenly over the
metrics (Bonferroni), so the gate's false-alarm rate stays at ``alpha``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from cgsim.errors import CgsimError
from cgsim.play.config import RunConfig, validate_config, with_overrides
from cgsim.play.results import MANIFEST, load_tables, read_manifest
from cgsim.reporting.metrics import game_metrics, schema_of
from cgsim.studies.golden import Difference, check_golden
from cgsim.studies.sequential import (
    GameBatches,
    SprtSettings,
    SprtStep,
    TwoSidedSprt,
    metric_differences,
    whole_blocks,
)

BASELINE_RESULTS = "results"
"""Default place of the baseline run inside a baseline folder."""


class RegressError(CgsimError):
    """A regression check that cannot run (no baseline run, mismatched plans...)."""


@dataclass
class RegressOutcome:
    """What the gate found: golden differences and, when run, each metric's test."""

    golden_games: int
    golden_changed: list[Difference]
    decisions: dict[str, str] = field(default_factory=dict)
    """Metric to ``H0`` (no change), ``H1`` (regression) or ``undecided``."""
    steps: dict[str, list[SprtStep]] = field(default_factory=dict)
    games: int = 0

    @property
    def regressions(self) -> list[str]:
        """Metrics whose change beyond tolerance is established."""
        return [metric for metric, decision in self.decisions.items() if decision == "H1"]


def baseline_results(baseline: Path, results: Path | None) -> Path:
    """The baseline run's results directory: ``results`` or ``BASELINE/results``."""
    candidate = results if results is not None else baseline / BASELINE_RESULTS
    if not (candidate / MANIFEST).is_file():
        raise RegressError(
            f"golden games changed, and the paired test needs the baseline run's results "
            f"directory: {str(candidate)!r} is none; give --results DIR (a 'cgsim run' output "
            "made before the change)"
        )
    return candidate


def baseline_config(results: Path, config: RunConfig | None, workers: int | None) -> RunConfig:
    """The config to replay: ``config`` (or the baseline's own) on the baseline's seed and
    game count."""
    manifest = read_manifest(results)
    base = config if config is not None else validate_config(manifest["config"], str(results))
    return with_overrides(
        base,
        {
            "seed": int(manifest["run_seed"]),
            "games": int(manifest["games_done"]),
            "workers": workers,
        },
    )


def _slice(tables: Mapping[str, pl.DataFrame], start: int, stop: int) -> dict[str, pl.DataFrame]:
    def part(frame: pl.DataFrame) -> pl.DataFrame:
        if "game_id" not in frame.columns:
            return frame
        return frame.filter(pl.col("game_id").is_between(start, stop - 1))

    return {name: part(frame) for name, frame in tables.items()}


def regress(
    baseline: Path,
    tolerances: Mapping[str, float],
    *,
    config: RunConfig | None = None,
    results: Path | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    batch: int = 200,
    workers: int | None = None,
    echo: Callable[[str], object] = lambda _: None,
) -> RegressOutcome:
    """Golden games, then (only if some changed) the paired sequential tests."""
    count, changed = check_golden(baseline)
    outcome = RegressOutcome(count, changed)
    if not changed:
        return outcome
    folder = baseline_results(baseline, results)
    stored = load_tables(folder)
    stored_schema = schema_of(read_manifest(folder), str(folder / MANIFEST))
    replay = baseline_config(folder, config, workers)
    if not tolerances:
        raise RegressError(
            "golden games changed: name the metrics to test, e.g. --metric mean_score:1.0"
        )
    per_metric = alpha / len(tolerances)
    tests = {
        metric: TwoSidedSprt(
            SprtSettings(metric, 0.0, tolerance, per_metric, beta, batch, max(batch, replay.games))
        )
        for metric, tolerance in tolerances.items()
    }
    open_tests = dict(tests)
    echo(
        f"{len(changed)} of {count} golden games changed; replaying {replay.games} games of "
        f"{folder} with the current code"
    )
    with GameBatches(replay) as current:
        step_size = whole_blocks(batch, current.block_size)
        start = 0
        while start < replay.games and open_tests:
            stop = min(start + step_size, replay.games)
            now = current.metrics(current.play(start, stop))
            before_tables = _slice(stored, start, stop)
            before = game_metrics(before_tables["games"], before_tables["seats"], stored_schema)
            for metric, test in list(open_tests.items()):
                step = test.update(metric_differences(before, now, metric), stop)
                outcome.steps.setdefault(metric, []).append(step)
                echo(
                    f"{metric}: games {stop}  mean diff {step.mean:+.4g}  LLR up "
                    f"{step.llr_up:+.3f} down {step.llr_down:+.3f}  bounds "
                    f"[{test.lower:.3f}, {test.upper:.3f}]"
                )
                if step.decision != "continue":
                    outcome.decisions[metric] = step.decision
                    del open_tests[metric]
            outcome.games = stop
            start = stop
            if outcome.regressions:
                break
    for metric in tests:
        outcome.decisions.setdefault(metric, "undecided")
    return outcome
