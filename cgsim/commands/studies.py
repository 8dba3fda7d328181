"""Commands for balance studies and rule-change checking: ``compare``, ``sweep``, ``tune``,
``balance``, ``regress`` and the golden games (``cgsim golden record|check|playthrough``).

Thin on purpose: parse, call the study modules, print, choose the exit code (0 done,
1 a difference or regression established, 2 a user error, 130 interrupted).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from polars import read_csv

from cgsim.commands.runs import BackendOpt, SchedulerOpt
from cgsim.errors import CgsimError
from cgsim.games.registry import DEFAULT_GAME
from cgsim.play.backend import using_backend
from cgsim.play.bot_registry import split_bot_list
from cgsim.play.config import RunConfig, load_config, with_overrides
from cgsim.play.limits import (
    MAX_GAMES,
    check_float,
    check_int,
    check_workers,
)
from cgsim.play.paths import require_output_dir
from cgsim.play.results import require_results_dir
from cgsim.studies.golden import check_golden, default_games, playthrough_games, record_golden
from cgsim.studies.playthrough import check_playthroughs, write_playthroughs

EXIT_FOUND = 1
EXIT_INTERRUPTED = 130

DEFAULT_GOLDEN_BOTS = "random"
MAX_GOLDEN_GAMES = 1000


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def compare(
        a: Annotated[Path, typer.Argument(help="Setup A: a TOML config or a results directory.")],
        b: Annotated[Path, typer.Argument(help="Setup B: a TOML config or a results directory.")],
        out: Annotated[
            Path | None,
            typer.Option(help="Output folder (default results/compare-A-vs-B)."),
        ] = None,
        games: Annotated[
            int | None,
            typer.Option(help="Games per side (default: a results directory side's, else A's)."),
        ] = None,
        seed: Annotated[
            int | None,
            typer.Option(
                help="Run seed of both sides (default: a results directory side's, else A's)."
            ),
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
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Compare two setups metric by metric, paired on shared seeds (exit 1 with
        --fail-on when a change beyond tolerance is established)."""
        # Deferred: loads numpy and scipy, which most commands never need.
        from cgsim.studies.compare import (
            SideStopped,
            beyond_tolerance,
            check_metric_names,
            format_table,
            parse_tolerances,
            possible_metrics,
            run_compare,
        )
        from cgsim.studies.sequential import SprtSettings

        tolerances = parse_tolerances(fail_on) if fail_on is not None else {}
        if tolerances:
            check_metric_names(tolerances, possible_metrics(a) & possible_metrics(b))
        settings = SprtSettings(metric, h0, h1, alpha, beta, batch, max_games) if sprt else None
        try:
            with using_backend(backend, scheduler):
                done = run_compare(
                    a,
                    b,
                    out=out,
                    games=games,
                    seed=seed,
                    workers=workers,
                    alpha=alpha,
                    sprt=settings,
                    echo=typer.echo,
                    progress=lambda line: typer.echo(line, err=True),
                )
        except SideStopped as stopped:
            raise typer.Exit(
                EXIT_INTERRUPTED if stopped.status == "interrupted" else EXIT_FOUND
            ) from None
        typer.echo(format_table(done.table, done.labels))
        for note in done.notes:
            typer.echo(note)
        if settings is None:
            # Deferred: loads numpy and scipy, which most commands never need.
            from cgsim.studies.power import compare_hints, side_effects

            for line in compare_hints(done.table, side_effects(a, tolerances), alpha):
                typer.echo(line)
        paths = done.paths
        typer.echo(f"comparison written: {paths['markdown']}, {paths['csv']}, {paths['html']}")
        breaches = beyond_tolerance(done.table, tolerances) if tolerances else []
        for line in breaches:
            typer.echo(f"beyond tolerance: {line}")
        if breaches:
            raise typer.Exit(EXIT_FOUND)

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
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Play every grid point on the same seeds; write sweep.md/.html/.csv and plots."""
        # Deferred: loads numpy and scipy, which most commands never need.
        from cgsim.studies.sweep import run_sweep, sweep_dir, sweep_table, write_sweep_report

        loaded = load_config(config, {"games": games, "seed": seed, "workers": workers, "out": out})
        require_output_dir(sweep_dir(loaded), "--out")
        with using_backend(backend, scheduler):
            done = run_sweep(loaded, fresh=fresh, echo=typer.echo)
        if any(result.status != "complete" for _, result in done):
            typer.echo("sweep stopped before every point was played; run it again to resume")
            raise typer.Exit(EXIT_INTERRUPTED)
        table = sweep_table([p for p, _ in done], [r.results_dir for _, r in done])
        paths = write_sweep_report(loaded, table, sweep_dir(loaded))
        typer.echo(f"sweep report written: {paths['markdown']}, {paths['html']}")

    @app.command()
    def tune(
        config: Annotated[
            Path,
            typer.Argument(
                help="TOML config with \\[tune.free] and \\[tune.targets] tables (rule "
                "settings), or a \\[tune_bot] table (a bot's parameters)."
            ),
        ],
        workers: Annotated[
            int | None, typer.Option(help="Worker processes, 0 = all cores.")
        ] = None,
        seed: Annotated[int | None, typer.Option(help="Run seed (overrides).")] = None,
        out: Annotated[Path | None, typer.Option(help="Parent of the results folder.")] = None,
        games: Annotated[
            int | None,
            typer.Option(
                help="Games per candidate in the first round, doubled every round "
                "(overrides [tune] games); for a bot: one round of the search, with this "
                "many deals per candidate, in the final race and in the confirmation (at "
                "least 2): a quick trial of a config."
            ),
        ] = None,
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Search the free rule settings for the values closest to the targets, or a bot's
        free parameters for its best win rate (solo: mean score), confirmed on fresh deals."""
        loaded = load_config(config, {"seed": seed, "workers": workers, "out": out})
        if games is not None and loaded.tune:
            loaded = with_overrides(loaded, {"tune": {**loaded.tune, "games": games}})
        if games is not None and loaded.tune_bot:
            sizes = {
                "evaluations": loaded.tune_bot.get("batch", 8),
                "deals": games,
                "final_deals": games,
                "confirm_deals": max(2, games),
            }
            loaded = with_overrides(loaded, {"tune_bot": {**loaded.tune_bot, **sizes}})
        if loaded.tune_bot:
            if loaded.tune:
                raise CgsimError(
                    f"{loaded.name}: give [tune] (rule settings) or [tune_bot] (a bot's "
                    "parameters), not both"
                )
            with using_backend(backend, scheduler):
                _tune_bot(loaded, config, workers, seed)
        else:
            with using_backend(backend, scheduler):
                _tune_rules(loaded, workers)

    @app.command()
    def balance(
        results: Annotated[Path, typer.Argument(help="A results directory.")],
        out: Annotated[Path | None, typer.Option(help="Output folder (default: RESULTS).")] = None,
    ) -> None:
        """Balance metrics of a run: seat advantage, decisiveness, components, bonuses,
        skill depth, choices that go with winning, and flags."""
        # Deferred: report code, numpy and scipy stay out of the command line's start-up.
        from cgsim.reporting.balance_page import write_balance_report
        from cgsim.reporting.pages import markdown_table

        require_results_dir(results)
        require_output_dir(out or results, "--out")
        paths = write_balance_report(results, out)

        # The verdict the page opens with: its lines between the title and the first section.
        opening = paths["markdown"].read_text(encoding="utf-8").split("\n## ", 1)[0]
        typer.echo("\n".join(line for line in opening.splitlines()[1:] if line.strip()))
        typer.echo("")
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
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Golden games first (all identical: stop, exit 0); otherwise a paired sequential
        test per metric against the baseline run (exit 1 on an established regression)."""
        # Deferred: loads numpy and scipy, which most commands never need.
        from cgsim.studies.compare import parse_tolerances
        from cgsim.studies.regress import regress as run_regress

        tolerances = parse_tolerances(",".join(metric), "--metric") if metric else {}
        check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
        check_float("--beta", beta, 0.0, 1.0, open_ends=True)
        check_int("--batch", batch, 1, MAX_GAMES)
        check_workers("--workers", workers)
        loaded = load_config(config) if config is not None else None
        with using_backend(backend, scheduler):
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

    golden = typer.Typer(
        help="Golden games: store deterministic games, then check that a change alters none.",
        no_args_is_help=True,
    )

    @golden.command("record")
    def golden_record(
        out: Annotated[Path, typer.Option(help="Folder to write the golden games to.")],
        games: Annotated[
            int, typer.Option(help="Games per setup the game declares ('cgsim games').")
        ] = 3,
        bots: Annotated[
            str, typer.Option(help="Bots that take the seats in turn, comma-separated.")
        ] = DEFAULT_GOLDEN_BOTS,
        game: Annotated[str, typer.Option(help="Which game.")] = DEFAULT_GAME,
    ) -> None:
        """Play the golden games and store their digests and records."""
        check_int("--games", games, 1, MAX_GOLDEN_GAMES)
        planned = default_games(games, split_bot_list(bots), game)
        require_output_dir(out, "--out")
        count = record_golden(out, planned)
        typer.echo(f"recorded {count} golden games in {out}")

    @golden.command("check")
    def golden_check(
        folder: Annotated[Path, typer.Argument(help="A folder written by 'cgsim golden record'.")],
    ) -> None:
        """Play the stored golden games again and list those that changed (exit 1 if any)."""
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

    @golden.command("playthrough")
    def golden_playthrough(
        out: Annotated[
            Path | None, typer.Option(help="Folder to write the playthroughs to (one .txt each).")
        ] = None,
        check: Annotated[
            Path | None,
            typer.Option(help="Folder of stored playthroughs to compare (exit 1 if any differs)."),
        ] = None,
    ) -> None:
        """Write the playthroughs (readable golden games), or check the stored ones."""
        setups = playthrough_games()
        if out is not None and check is None:
            written = write_playthroughs(out, setups)
            typer.echo(f"wrote {len(written)} playthroughs in {out}")
            return
        if check is None or out is not None:
            raise CgsimError("give either --out FOLDER (write) or --check FOLDER (compare)")
        problems = check_playthroughs(check, setups)
        for name, what in problems.items():
            typer.echo(f"changed: {name}\n{what}")
        if problems:
            typer.echo(f"{len(problems)} of {len(setups)} playthroughs changed")
            raise typer.Exit(EXIT_FOUND)
        typer.echo(f"all {len(setups)} playthroughs identical")

    app.add_typer(golden, name="golden")


def _tune_rules(loaded: RunConfig, workers: int | None) -> None:
    """``cgsim tune`` of a config's ``[tune]`` table."""
    # Deferred: report code, numpy and scipy stay out of the command line's start-up.
    from cgsim.reporting.pages import format_value
    from cgsim.studies.tune import candidate_label, tune_config, tune_spec, write_tune_report

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


def _tune_bot(loaded: RunConfig, config: Path, workers: int | None, seed: int | None) -> None:
    """``cgsim tune`` of a config's ``[tune_bot]`` table: Ctrl-C stops it with nothing
    written (exit 130); the same command replays the same search."""
    # Deferred: loads numpy and scipy, which most commands never need.
    from cgsim.studies.bottune import tune_bot
    from cgsim.studies.bottune_report import strength_text, tuned_text, write_bot_tune_report
    from cgsim.studies.bottune_spec import bot_search

    bot_search(loaded)
    out_dir = loaded.results_dir / "tune"
    require_output_dir(out_dir, "--out")
    command = f"cgsim tune {config}" + (f" --seed {seed}" if seed is not None else "")
    try:
        result = tune_bot(loaded, workers=workers, echo=typer.echo)
    except KeyboardInterrupt:
        typer.echo(
            "tune interrupted: nothing written; the same command plays the same search again",
            err=True,
        )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    typer.echo(f"tuned: {result.label}")
    typer.echo(f"confirmed: {strength_text(result)}")
    typer.echo(tuned_text(result, command), nl=False)
    paths = write_bot_tune_report(result, out_dir, command)
    typer.echo(f"tuning report written: {paths['markdown']}, {paths['html']}, {paths['tuned']}")
