"""Commands that answer a designer's questions: ``power`` (how many deals),
``sensitivity`` (which rule setting matters), ``mechanics`` (what each mechanic is
worth) and ``scaling`` (the game at every player count).

Thin on purpose: parse, call the study modules, print, choose the exit code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cgsim.commands.runs import EXIT_INTERRUPTED, SeedOpt, WorkersOpt
from cgsim.play.config import load_config
from cgsim.play.limits import check_float, check_seed, check_workers
from cgsim.play.paths import require_output_dir


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def power(
        pilot: Annotated[
            Path,
            typer.Argument(help="A pilot: a TOML config (played first) or a results directory."),
        ],
        detect: Annotated[
            str | None,
            typer.Option(
                help="metric:effect,... to detect, a metric at as many effects as given "
                "(default mean_score and one point of score)."
            ),
        ] = None,
        alpha: Annotated[float, typer.Option(help="Two-sided false-alarm rate.")] = 0.05,
        power: Annotated[float, typer.Option(help="Chance of finding the effect.")] = 0.8,
        games: Annotated[int | None, typer.Option(help="Pilot games (config only).")] = None,
        seed: Annotated[int | None, typer.Option(help="Pilot run seed (config only).")] = None,
        workers: WorkersOpt = None,
        out: Annotated[
            Path | None, typer.Option(help="Output folder (default: the pilot's results).")
        ] = None,
    ) -> None:
        """Deals needed to detect an effect on a metric, paired and unpaired, from a pilot."""
        # Deferred: report code, numpy and scipy stay out of the command line's start-up.
        from cgsim.reporting.pages import markdown_table
        from cgsim.studies.compare import parse_metric_values
        from cgsim.studies.power import (
            default_effects,
            pilot_tables,
            power_sentences,
            power_table,
            write_power,
        )

        check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
        check_float("--power", power, 0.0, 1.0, open_ends=True)
        check_workers("--workers", workers)
        if seed is not None:
            check_seed("--seed", seed)
        effects = parse_metric_values(detect, "--detect", "effect") if detect is not None else None
        tables, folder = pilot_tables(
            pilot, games=games, seed=seed, workers=workers, echo=typer.echo
        )
        table = power_table(tables, folder, effects or default_effects(folder), alpha, power)
        lines = power_sentences(table, alpha, power)
        typer.echo(markdown_table(table))
        for line in lines:
            typer.echo(line)
        paths = write_power(table, lines, require_output_dir(out or folder, "--out"))
        typer.echo(f"power written: {paths['markdown']}, {paths['csv']}")

    @app.command()
    def sensitivity(
        config: Annotated[Path, typer.Argument(help="TOML config (an optional \\[sensitivity]).")],
        games: Annotated[int | None, typer.Option(help="Games per point (overrides).")] = None,
        seed: SeedOpt = None,
        workers: WorkersOpt = None,
        out: Annotated[Path | None, typer.Option(help="Parent of the study's folder.")] = None,
        alpha: Annotated[float, typer.Option(help="Family-wise error rate (Holm).")] = 0.05,
        fresh: Annotated[
            bool, typer.Option("--fresh", help="Replay points already played.")
        ] = False,
    ) -> None:
        """Each numeric rule setting one step down and up on the same deals: paired
        differences per metric, tornado plots, interactions of the top knobs."""
        # Deferred: loads numpy and scipy, which most commands never need.
        from cgsim.studies.sensitivity import (
            SensitivityStopped,
            run_sensitivity,
            write_sensitivity_report,
        )

        check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
        loaded = load_config(config, {"games": games, "seed": seed, "workers": workers, "out": out})
        folder = require_output_dir(loaded.out / loaded.name, "--out")
        try:
            study = run_sensitivity(loaded, alpha=alpha, fresh=fresh, echo=typer.echo)
        except SensitivityStopped as stopped:
            typer.echo(f"sensitivity stopped at {stopped.point} ({stopped.status}); run it again")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        changed = study.effects.filter(study.effects["verdict"] == "changed")
        for row in changed.iter_rows(named=True):
            typer.echo(
                f"{row['metric']}: {row['knob']} {row['direction']} to {row['value']}: "
                f"{row['difference']:+.3g} [{row['low']:+.3g}, {row['high']:+.3g}]"
            )
        if changed.is_empty():
            typer.echo("no knob moved any key metric (established at the family-wise rate)")
        paths = write_sensitivity_report(loaded, study, folder)
        typer.echo(f"sensitivity report written: {paths['markdown']}, {paths['html']}")

    @app.command()
    def mechanics(
        config: Annotated[
            Path, typer.Argument(help="TOML config: the first seat's bot is restricted.")
        ],
        games: Annotated[int | None, typer.Option(help="Games per run (overrides).")] = None,
        seed: SeedOpt = None,
        workers: WorkersOpt = None,
        out: Annotated[Path | None, typer.Option(help="Parent of the study's folder.")] = None,
        alpha: Annotated[float, typer.Option(help="Family-wise error rate (Holm).")] = 0.05,
        fresh: Annotated[bool, typer.Option("--fresh", help="Replay runs already played.")] = False,
    ) -> None:
        """What each mechanic is worth: the bot with and without each declared restriction
        on the same deals (win-share and score change, with intervals and flags)."""
        # Deferred: loads numpy and scipy, which most commands never need.
        from cgsim.studies.mechanics import (
            MechanicsStopped,
            mechanics_settings,
            run_mechanics,
            write_mechanics_report,
        )

        check_float("--alpha", alpha, 0.0, 1.0, open_ends=True)
        loaded = load_config(config, {"games": games, "seed": seed, "workers": workers, "out": out})
        mechanics_settings(loaded)
        folder = require_output_dir(loaded.out / loaded.name, "--out")
        try:
            study = run_mechanics(loaded, alpha=alpha, fresh=fresh, echo=typer.echo)
        except MechanicsStopped as stopped:
            typer.echo(f"mechanics stopped at {stopped.point} ({stopped.status}); run it again")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        for row in study.table.iter_rows(named=True):
            flag = f"  ** {row['flag']}" if row["flag"] else ""
            typer.echo(
                f"without {row['restriction']}: {row['measure']} {row['change']:+.3g} "
                f"[{row['low']:+.3g}, {row['high']:+.3g}] {row['verdict']}{flag}"
            )
        paths = write_mechanics_report(loaded, study, folder)
        typer.echo(f"mechanics report written: {paths['markdown']}, {paths['html']}")

    @app.command()
    def scaling(
        config: Annotated[
            Path, typer.Argument(help="TOML config: its seats are repeated at every count.")
        ],
        games: Annotated[int | None, typer.Option(help="Games per count (overrides).")] = None,
        seed: SeedOpt = None,
        workers: WorkersOpt = None,
        out: Annotated[Path | None, typer.Option(help="Parent of the study's folder.")] = None,
        fresh: Annotated[
            bool, typer.Option("--fresh", help="Replay counts already played.")
        ] = False,
    ) -> None:
        """The same setup at every player count the game allows, charted: fairness,
        length, margin, score spread, waiting between one's turns."""
        # Deferred: report code, numpy and scipy stay out of the command line's start-up.
        from cgsim.reporting.pages import markdown_table
        from cgsim.studies.scaling import (
            ScalingStopped,
            run_scaling,
            scaling_points,
            write_scaling_report,
        )

        loaded = load_config(config, {"games": games, "seed": seed, "workers": workers, "out": out})
        scaling_points(loaded)
        folder = require_output_dir(loaded.out / loaded.name, "--out")
        try:
            table = run_scaling(loaded, fresh=fresh, echo=typer.echo)
        except ScalingStopped as stopped:
            typer.echo(f"scaling stopped at {stopped.point} ({stopped.status}); run it again")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        typer.echo(markdown_table(table.select("players", "metric", "estimate", "low", "high")))
        paths = write_scaling_report(loaded, table, folder)
        typer.echo(f"scaling report written: {paths['markdown']}, {paths['html']}")
