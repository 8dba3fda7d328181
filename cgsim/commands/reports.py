"""Commands of the reports group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cgsim.play.bot_registry import split_bot_list
from cgsim.play.paths import require_output_dir
from cgsim.play.results import require_results_dir

MAX_BOOTSTRAP = 10_000
"""Resamples a report may ask for: beyond it the ratings' interval does not move, the time
and memory (a weight per deal block per resample) only grow."""


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def report(
        directory: Annotated[Path, typer.Argument(help="A results directory (results/<name>/).")],
        open_html_path: Annotated[
            bool,
            typer.Option(
                "--open-html-path",
                help="Print only the path of report.html (to hand to a browser), no summary.",
            ),
        ] = False,
        bootstrap: Annotated[
            int,
            typer.Option(
                "--bootstrap",
                min=0,
                max=MAX_BOOTSTRAP,
                help=f"Block-bootstrap resamples for ratings (0..{MAX_BOOTSTRAP:,}).",
            ),
        ] = 200,
        leave_out: Annotated[
            list[str] | None,
            typer.Option(
                "--leave-out",
                help="A bot to leave out of the ratings plot, e.g. a reference bot such as "
                "random (repeatable or comma-separated; the tables keep it). Without it, a bot "
                "far from the others is marked at the plot's edge.",
            ),
        ] = None,
    ) -> None:
        """Write report.md, report.html, plots/ and tables/ into DIR and print a summary."""
        # Deferred: the report loads numpy, scipy and matplotlib, which most commands never need.
        from cgsim.reporting.report import build_report, save_report, summary_text

        results = require_results_dir(directory)
        require_output_dir(results, "results directory")
        names = [name for value in leave_out or [] for name in split_bot_list(value, "--leave-out")]
        built = build_report(results, n_bootstrap=bootstrap, leave_out=names)
        paths = save_report(built, results)
        if open_html_path:
            typer.echo(str(paths.html.resolve()))
            return
        typer.echo(summary_text(built))
        typer.echo("")
        typer.echo(f"report:   {paths.markdown}")
        typer.echo(f"html:     {paths.html}")
        typer.echo(f"tables:   {paths.markdown.parent / 'tables'} ({len(paths.tables)} CSV files)")
        typer.echo(f"plots:    {paths.markdown.parent / 'plots'} ({len(paths.plots)} PNG files)")
