"""Commands of the strength group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cgsim.commands.runs import BackendOpt, SchedulerOpt
from cgsim.games.registry import DEFAULT_GAME
from cgsim.play.backend import using_backend
from cgsim.play.bot_registry import split_bot_list
from cgsim.play.limits import MAX_GAMES, check_int, check_seed, check_workers, workers_used
from cgsim.studies.strength import DEFAULT_GAMES, DEFAULT_SOLO_GAMES, format_report, run_strength


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def strength(
        games: Annotated[
            int, typer.Option("--games", help="deals per ladder pair (2 games each)")
        ] = DEFAULT_GAMES,
        solo_games: Annotated[
            int,
            typer.Option("--solo-games", help="solo games per bot (games with a solo mode only)"),
        ] = DEFAULT_SOLO_GAMES,
        workers: Annotated[
            int | None, typer.Option("--workers", help="worker processes (default: one per core)")
        ] = None,
        seed: Annotated[
            int, typer.Option("--seed", help="bench seed (same seed, same results)")
        ] = 0,
        bots: Annotated[
            list[str] | None,
            typer.Option(
                "--bots",
                help="ladder to bench, weakest first: names separated by commas, or repeat "
                "the option for specs with parameters (default: the ladder the game declares)",
            ),
        ] = None,
        budget: Annotated[
            int | None,
            typer.Option(
                "--budget",
                help="search size of each entry named without parameters, for the bots "
                "that declare one (e.g. playouts, positions kept per turn)",
            ),
        ] = None,
        game: Annotated[str, typer.Option(help="Which game.")] = DEFAULT_GAME,
        quiet: Annotated[bool, typer.Option("--quiet", help="no progress line")] = False,
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Measure a game's bot ladder: paired 2-player win rates, solo scores, decision cost."""

        def progress(done: int, total: int) -> None:
            print(f"\r{done}/{total} tasks", end="", file=sys.stderr, flush=True)
            if done == total:
                print(file=sys.stderr)

        check_int("--games", games, 0, MAX_GAMES)
        check_int("--solo-games", solo_games, 0, MAX_GAMES)
        check_seed("--seed", seed)
        check_workers("--workers", workers)
        chosen = [spec for value in bots or [] for spec in split_bot_list(value)]
        with using_backend(backend, scheduler):
            report = run_strength(
                chosen or None,
                games=games,
                solo_games=solo_games,
                workers=workers_used(workers),
                seed=seed,
                budget=budget,
                progress=None if quiet else progress,
                game=game,
            )
        typer.echo(format_report(report))
