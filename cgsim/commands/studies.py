"""Commands for rule-change checking: golden games (``cgsim golden record|check``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

golden_app = typer.Typer(
    help="Golden games: store deterministic games, then check that a change alters none.",
    no_args_is_help=True,
)

DEFAULT_GOLDEN_BOTS = "random"


@golden_app.command("record")
def golden_record(
    out: Annotated[Path, typer.Option(help="Folder to write the golden games to.")],
    games: Annotated[int, typer.Option(help="Games per setup (solo, 2-4 players, children).")] = 3,
    bots: Annotated[
        str, typer.Option(help="Bots that take the seats in turn, comma-separated.")
    ] = DEFAULT_GOLDEN_BOTS,
) -> None:
    """Play the golden games and store their digests and records."""
    from cgsim.commands.engine import split_bot_list
    from cgsim.golden import default_games, record_golden

    count = record_golden(out, default_games(games, split_bot_list(bots)))
    typer.echo(f"recorded {count} golden games in {out}")


@golden_app.command("check")
def golden_check(
    folder: Annotated[Path, typer.Argument(help="A folder written by 'cgsim golden record'.")],
) -> None:
    """Play the stored golden games again and list those that changed (exit 1 if any)."""
    from cgsim.golden import check_golden

    count, differences = check_golden(folder)
    for diff in differences:
        g = diff.golden
        typer.echo(
            f"changed: game {diff.index} (seed {g.seed}, {g.players} players, {','.join(g.seats)}): {diff.where}"
        )
    if differences:
        typer.echo(f"{len(differences)} of {count} golden games changed")
        raise typer.Exit(1)
    typer.echo(f"all {count} golden games identical")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.add_typer(golden_app, name="golden")
