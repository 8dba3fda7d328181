"""Commands for balance studies and rule-change checking: ``compare``, ``sweep``, ``tune``,
``balance``, ``regress`` and the golden games (``cgsim golden record|check``).

Thin on purpose: parse, call the study modules, print, choose the exit code (0 done,
1 a difference or regression established, 2 a user error).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cgsim.errors import CgsimError
from cgsim.games.registry import DEFAULT_GAME
from cgsim.play.limits import (
    MAX_GAMES,
    check_float,
    check_int,
    check_seed,
    check_workers,
)
from cgsim.play.paths import require_output_dir

if TYPE_CHECKING:
    import polars as pl

    from cgsim.studies.compare import Side

    Compared = tuple[pl.DataFrame, tuple[Side, Side], list[str]]

EXIT_FOUND = 1

golden_app = typer.Typer(
    help="Golden games: store deterministic games, then check that a change alters none.",
    no_args_is_help=True,
)

DEFAULT_GOLDEN_BOTS = "random"
MAX_GOLDEN_GAMES = 1000
"""Golden games per setup: they are replayed on every check."""


class StudyInputError(CgsimError):
    """A command-line input of a study that is neither of the allowed kinds."""


@golden_app.command("record")
def golden_record(
    out: Annotated[Path, typer.Option(help="Folder to write the golden games to.")],
    games: Annotated[
        int, typer.Option(help="Games per setup the game declares ('cgsim games' lists them).")
    ] = 3,
    bots: Annotated[
        str, typer.Option(help="Bots that take the seats in turn, comma-separated.")
    ] = DEFAULT_GOLDEN_BOTS,
    game: Annotated[str, typer.Option(help="Which game.")] = DEFAULT_GAME,
) -> None:
    """Play the golden games and store their digests and records."""
    from cgsim.commands.engine import split_bot_list
    from cgsim.studies.golden import default_games, record_golden

    check_int("--games", games, 1, MAX_GOLDEN_GAMES)
    planned = default_games(games, split_bot_list(bots), game)
    require_output_dir(out, "--out")
    count = record_golden(out, planned)
    typer.echo(f"recorded {count} golden games in {out}")


@golden_app.command("check")
def golden_check(
    folder: Annotated[Path, typer.Argument(help="A folder written by 'cgsim golden record'.")],
) -> None:
    """Play the stored golden games again and list those that changed (exit 1 if any)."""
    from cgsim.studies.golden import check_golden

    count, differences = check_golden(folder)
    for diff in differences:
        g = diff.golden
        typer.echo(
            f"changed: game {diff.index} (seed {g.seed}, {g.players} players, "
            f"{','.join(g.seats)}): {diff.where}"
        )
    if differences:
        typer.echo(f"{len(differences)} of {count} golden games changed")
        raise typer.Exit(EXIT_FOUND)
    typer.echo(f"all {count} golden games identical")


# ---------------------------------------------------------------- compare


def _is_results(path: Path) -> bool:
    from cgsim.play.results import MANIFEST

    return path.is_dir() and (path / MANIFEST).is_file()


def _check_input(path: Path, what: str) -> None:
    if _is_results(path) or path.is_file():
        return
    if path.is_dir():
        raise StudyInputError(
            f"{what} {str(path)!r}: a folder without manifest.json; expected a results "
            "directory or a TOML config"
        )
    raise StudyInputError(f"{what} {str(path)!r}: no such file or results directory")


def _label(path: Path) -> str:
    return path.name if _is_results(path) else path.stem


def register_compare(app: typer.Typer) -> None:
    """The ``compare`` command."""

    @app.command()
    def compare(
        a: Annotated[Path, typer.Argument(help="Setup A: a TOML config or a results directory.")],
        b: Annotated[Path, typer.Argument(help="Setup B: a TOML config or a results directory.")],
        out: Annotated[
            Path | None,
            typer.Option(help="Output folder (default results/compare-A-vs-B)."),
        ] = None,
        games: Annotated[
            int | None, typer.Option(help="Games per side (default: A's games).")
        ] = None,
        seed: Annotated[
            int | None, typer.Option(help="Run seed of both sides (default A's).")
        ] = None,
        workers: Annotated[
            int | None, typer.Option(help="Worker processes, 0 = all cores.")
        ] = None,
        fail_on: Annotated[
            str | None,
            typer.Option(
                "--fail-on",
                help="metric:tolerance,... exit 1 when a change beyond tolerance is established.",
            ),
        ] = None,
        alpha: Annotated[float, typer.Option(help="Family-wise error rate (Holm).")] = 0.05,
        sprt: Annotated[
            bool, typer.Option("--sprt", help="Sequential test on one metric (two configs).")
        ] = False,
        metric: Annotated[str, typer.Option(help="--sprt: the metric tested.")] = "mean_score",
        h0: Annotated[
            float, typer.Option(help="--sprt: largest change that does not matter.")
        ] = 0.0,
        h1: Annotated[float, typer.Option(help="--sprt: smallest change that matters.")] = 1.0,
        beta: Annotated[float, typer.Option(help="--sprt: chance of missing an h1 change.")] = 0.05,
        batch: Annotated[int, typer.Option(help="--sprt: games per side between looks.")] = 100,
        max_games: Annotated[int, typer.Option(help="--sprt: games per side at most.")] = 10_000,
    ) -> None:
        """Compare two setups metric by metric, paired on shared seeds (exit 1 with
        --fail-on when a change beyond tolerance is established)."""
        from cgsim.studies.compare import beyond_tolerance, check_metric_names, parse_tolerances

        _check_input(a, "A")
        _check_input(b, "B")
        tolerances = parse_tolerances(fail_on) if fail_on is not None else {}
        check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
        if sprt:
            check_float("--beta", beta, 0.0, 1.0, open_ends=True)
            check_int("--batch", batch, 1, MAX_GAMES)
            check_int("--max-games", max_games, 1, MAX_GAMES)
        if seed is not None:
            check_seed("--seed", seed)
        check_workers("--workers", workers)
        labels = (_label(a), _label(b))
        if labels[0] == labels[1]:
            labels = (f"{labels[0]}-a", f"{labels[1]}-b")
        folder = require_output_dir(
            out or Path("results") / f"compare-{labels[0]}-vs-{labels[1]}", "--out"
        )
        if tolerances:
            check_metric_names(tolerances, _possible_metrics(a) & _possible_metrics(b))
        if sprt:
            table, sides, notes = _compare_sequential(
                a, b, folder, labels, metric, h0, h1, alpha, beta, batch, max_games, workers
            )
        else:
            table, sides, notes = _compare_runs(a, b, folder, labels, games, seed, workers, alpha)
        _finish_compare(table, sides, notes, folder, labels)
        breaches = beyond_tolerance(table, tolerances) if tolerances else []
        for line in breaches:
            typer.echo(f"beyond tolerance: {line}")
        if breaches:
            raise typer.Exit(EXIT_FOUND)


def _possible_metrics(path: Path) -> set[str]:
    """The metrics a side (config or results directory) can be compared on."""
    from cgsim.play.config import load_config
    from cgsim.play.results import load_tables
    from cgsim.studies.compare import possible_metrics

    return possible_metrics(load_tables(path) if _is_results(path) else load_config(path))


def _tables_of(
    path: Path, label: str, folder: Path, seed: int | None, games: int | None, workers: int | None
) -> tuple[dict[str, pl.DataFrame], Path]:
    """Play a config (into ``folder/label``) or read a results directory."""
    from cgsim.play.config import load_config
    from cgsim.play.results import load_tables
    from cgsim.play.runner import run_games
    from cgsim.play.schedules import plan_for

    if _is_results(path):
        return load_tables(path), path
    config = load_config(
        path,
        {"name": label, "out": folder, "seed": seed, "games": games, "workers": workers},
    )
    result = run_games(config, plan_for(config, "run"), fresh=True)
    if result.status != "complete":
        raise typer.Exit(130 if result.status == "interrupted" else EXIT_FOUND)
    typer.echo(f"{label}: {result.games_done} games in {result.wall_seconds:.1f} s", err=True)
    return load_tables(result.results_dir), result.results_dir


def _compare_runs(
    a: Path,
    b: Path,
    folder: Path,
    labels: tuple[str, str],
    games: int | None,
    seed: int | None,
    workers: int | None,
    alpha: float,
) -> Compared:
    from cgsim.play.config import load_config
    from cgsim.play.results import read_manifest
    from cgsim.studies.compare import Side, compare_sides, shared_seeds

    # The side that is a results directory fixes the seed and game count of the other.
    stored = a if _is_results(a) else b if _is_results(b) else None
    if stored is not None:
        manifest = read_manifest(stored)
        seed = seed if seed is not None else int(manifest["run_seed"])
        games = games if games is not None else int(manifest["games_done"])
    elif seed is None or games is None:
        config_a = load_config(a)
        seed = config_a.seed if seed is None else seed
        games = config_a.games if games is None else games
    tables_a, dir_a = _tables_of(a, labels[0], folder, seed, games, workers)
    tables_b, dir_b = _tables_of(b, labels[1], folder, seed, games, workers)
    sa, sb = Side.of(labels[0], tables_a), Side.of(labels[1], tables_b)
    pairs = shared_seeds(sa, sb)
    notes = [
        f"A: {dir_a}; B: {dir_b}",
        f"paired on {pairs} shared deals" if pairs >= 2 else "no shared deals: unpaired tests",
    ]
    return compare_sides(sa, sb, alpha=alpha), (sa, sb), notes


def _compare_sequential(
    a: Path,
    b: Path,
    folder: Path,
    labels: tuple[str, str],
    metric: str,
    h0: float,
    h1: float,
    alpha: float,
    beta: float,
    batch: int,
    max_games: int,
    workers: int | None,
) -> Compared:
    from cgsim.play.config import load_config
    from cgsim.reporting.studyplots import plot_llr
    from cgsim.studies.compare import Side, compare_sides
    from cgsim.studies.sequential import DECISION_TEXT, SprtSettings, sprt_compare

    if _is_results(a) or _is_results(b):
        raise StudyInputError("--sprt plays games as it goes: give two TOML configs")
    settings = SprtSettings(metric, h0, h1, alpha, beta, batch, max_games)
    run = sprt_compare(load_config(a), load_config(b), settings, workers=workers, echo=typer.echo)
    outcome = run.outcome
    verdict = DECISION_TEXT[outcome.decision]
    typer.echo(f"SPRT on {metric}: {verdict} after {outcome.games} games per side")
    folder.mkdir(parents=True, exist_ok=True)
    plot_llr(outcome.history(), outcome.bounds, folder / "sprt_llr.png")
    sa, sb = Side.of(labels[0], run.tables_a), Side.of(labels[1], run.tables_b)
    notes = [
        f"SPRT on {metric}: H0 |B - A| <= {h0:g} against H1 |B - A| >= {h1:g}, alpha {alpha:g}, "
        f"beta {beta:g}: {verdict} after {outcome.games} games per side (plot sprt_llr.png)",
    ]
    return compare_sides(sa, sb, alpha=alpha), (sa, sb), notes


def _finish_compare(
    table: pl.DataFrame,
    sides: tuple[Side, Side],
    notes: list[str],
    folder: Path,
    labels: tuple[str, str],
) -> None:
    from cgsim.studies.compare import format_table, write_comparison

    typer.echo(format_table(table, labels))
    for note in notes:
        typer.echo(note)
    paths = write_comparison(
        table,
        folder,
        sides,
        title=f"Compare {labels[0]} (A) with {labels[1]} (B)",
        notes=notes,
    )
    typer.echo(f"comparison written: {paths['markdown']}, {paths['csv']}, {paths['html']}")


# ---------------------------------------------------------------- sweep, tune, balance, regress


def register_studies(app: typer.Typer) -> None:
    """The ``sweep``, ``tune``, ``balance`` and ``regress`` commands."""

    @app.command()
    def sweep(
        config: Annotated[Path, typer.Argument(help="TOML config with a \\[sweep] table.")],
        games: Annotated[int | None, typer.Option(help="Games per grid point (overrides).")] = None,
        seed: Annotated[int | None, typer.Option(help="Run seed (overrides).")] = None,
        workers: Annotated[
            int | None, typer.Option(help="Worker processes, 0 = all cores.")
        ] = None,
        out: Annotated[Path | None, typer.Option(help="Parent of the sweep folder.")] = None,
        fresh: Annotated[
            bool, typer.Option("--fresh", help="Replay points already played.")
        ] = False,
    ) -> None:
        """Play every grid point on the same seeds; write sweep.md/.html/.csv and plots."""
        from cgsim.play.config import load_config
        from cgsim.studies.sweep import run_sweep, sweep_dir, sweep_table, write_sweep_report

        loaded = load_config(config, {"games": games, "seed": seed, "workers": workers, "out": out})
        require_output_dir(sweep_dir(loaded), "--out")
        done = run_sweep(loaded, fresh=fresh, echo=typer.echo)
        if any(result.status != "complete" for _, result in done):
            typer.echo("sweep stopped before every point was played; run it again to resume")
            raise typer.Exit(130)
        table = sweep_table([p for p, _ in done], [r.results_dir for _, r in done])
        paths = write_sweep_report(loaded, table, sweep_dir(loaded))
        typer.echo(f"sweep report written: {paths['markdown']}, {paths['html']}")

    @app.command()
    def tune(
        config: Annotated[
            Path, typer.Argument(help="TOML config with \\[tune.free] and \\[tune.targets] tables.")
        ],
        workers: Annotated[
            int | None, typer.Option(help="Worker processes, 0 = all cores.")
        ] = None,
        seed: Annotated[int | None, typer.Option(help="Run seed (overrides).")] = None,
        out: Annotated[Path | None, typer.Option(help="Parent of the results folder.")] = None,
    ) -> None:
        """Search the free rule settings for the values closest to the targets."""
        from cgsim.play.config import load_config
        from cgsim.reporting.report import format_value
        from cgsim.studies.tune import candidate_label, tune_config, tune_spec, write_tune_report

        loaded = load_config(config, {"seed": seed, "workers": workers, "out": out})
        spec = tune_spec(loaded)
        require_output_dir(loaded.results_dir / "tune", "--out")
        result = tune_config(loaded, workers=workers, echo=typer.echo)
        typer.echo(f"best settings: {candidate_label(result.best)}")
        summary = result.best_summary
        for name in spec.targets:
            row = summary.filter(summary["metric"] == name)
            if row.height:
                r = row.row(0, named=True)
                typer.echo(
                    f"  {name}: {format_value(r['estimate'])} "
                    f"[{format_value(r['low'])}, {format_value(r['high'])}] "
                    f"(target {spec.targets[name].target:g})"
                )
        paths = write_tune_report(loaded, spec, result, loaded.results_dir / "tune")
        typer.echo(f"tuning report written: {paths['markdown']}, {paths['html']}")

    @app.command()
    def balance(
        results: Annotated[Path, typer.Argument(help="A results directory.")],
        out: Annotated[Path | None, typer.Option(help="Output folder (default: RESULTS).")] = None,
    ) -> None:
        """Balance metrics of a run: seat advantage, decisiveness, components, bonuses,
        skill depth, choices that go with winning, and flags."""
        from polars import read_csv

        from cgsim.play.results import require_results_dir
        from cgsim.reporting.balance import write_balance_report
        from cgsim.reporting.report import markdown_table

        require_results_dir(results)
        require_output_dir(out or results, "--out")
        paths = write_balance_report(results, out)

        for name in ("balance_seat_advantage", "balance_flags"):
            if name in paths:
                typer.echo(f"{name}:")
                typer.echo(markdown_table(read_csv(paths[name])))
        typer.echo(f"balance report written: {paths['markdown']}, {paths['html']}")

    @app.command()
    def regress(
        baseline: Annotated[Path, typer.Argument(help="Golden folder of the baseline.")],
        config: Annotated[
            Path | None, typer.Argument(help="Config to replay (default: the baseline run's).")
        ] = None,
        results: Annotated[
            Path | None,
            typer.Option(help="Baseline run's results directory (default BASELINE/results)."),
        ] = None,
        metric: Annotated[
            list[str] | None,
            typer.Option(help="metric:tolerance to test (repeatable or comma-separated)."),
        ] = None,
        alpha: Annotated[float, typer.Option(help="False-alarm rate of the whole gate.")] = 0.05,
        beta: Annotated[
            float, typer.Option(help="Chance of missing a change of tolerance.")
        ] = 0.05,
        batch: Annotated[int, typer.Option(help="Games between looks.")] = 200,
        workers: Annotated[
            int | None, typer.Option(help="Worker processes, 0 = all cores.")
        ] = None,
    ) -> None:
        """Golden games first (all identical: stop, exit 0); otherwise a paired sequential
        test per metric against the baseline run (exit 1 on an established regression)."""
        from cgsim.play.config import load_config
        from cgsim.studies.compare import parse_tolerances
        from cgsim.studies.regress import regress as run_regress

        tolerances = parse_tolerances(",".join(metric), "--metric") if metric else {}
        check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
        check_float("--beta", beta, 0.0, 1.0, open_ends=True)
        check_int("--batch", batch, 1, MAX_GAMES)
        check_workers("--workers", workers)
        loaded = load_config(config) if config is not None else None
        outcome = run_regress(
            baseline,
            tolerances,
            config=loaded,
            results=results,
            alpha=alpha,
            beta=beta,
            batch=batch,
            workers=workers,
            echo=typer.echo,
        )
        if not outcome.golden_changed:
            typer.echo(
                f"all {outcome.golden_games} golden games identical: the change alters no "
                "golden game"
            )
            return
        for diff in outcome.golden_changed:
            typer.echo(f"changed: golden game {diff.index}: {diff.where}")
        for name, decision in outcome.decisions.items():
            text = {"H0": "no change", "H1": "REGRESSION", "undecided": "undecided"}[decision]
            typer.echo(f"{name}: {text} (tolerance {tolerances[name]:g}, {outcome.games} games)")
        if outcome.regressions:
            raise typer.Exit(EXIT_FOUND)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    register_compare(app)
    register_studies(app)
    app.add_typer(golden_app, name="golden")
