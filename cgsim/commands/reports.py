"""Commands of the reports group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


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
            int, typer.Option("--bootstrap", min=0, help="Block-bootstrap resamples for ratings.")
        ] = 200,
    ) -> None:
        """Write report.md, report.html, plots/ and tables/ into DIR and print a summary."""
        from cgsim.play.paths import require_output_dir
        from cgsim.play.results import require_results_dir
        from cgsim.reporting.report import build_report, save_report, summary_text

        results = require_results_dir(directory)
        require_output_dir(results, "results directory")
        built = build_report(results, n_bootstrap=bootstrap)
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
