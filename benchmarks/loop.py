"""The match loop's cost per game over the bare engine, random bots: the figure the loop's
optimisations were measured by.

Random bots decide in microseconds, so this is where the loop's own cost shows most;
with real bots it is under a percent of a game. Run from the checkout:
``python -m benchmarks.loop --game kitchen-garden``.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import TYPE_CHECKING, Any

from benchmarks import cli, spawn
from benchmarks.probe import LOOP_ROUNDS
from benchmarks.spawn import match_task
from cgsim.games.contract import Setup
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import play_game
from cgsim.studies.bench import players_label, setups_for

if TYPE_CHECKING:
    from collections.abc import Callable

    from cgsim.games.contract import AnyGame

LOOP_PROCESSES = 5
"""The match loop's figure is the median of this many fresh processes. Where a process's
objects land in memory shifts the loop's cost against the engine's by a point or two for
the whole life of the process (one process reads +9% in every round, the next +7%), so
more rounds in one process do not steady the figure; more processes do, and a run's
per-game cost is an average over its workers' processes too."""


def match_setups(game: AnyGame) -> tuple[Setup, ...]:
    """One setup per player count the game allows: the first declared with it."""
    chosen: dict[int, Setup] = {}
    for setup in setups_for(game):
        chosen.setdefault(setup.players, setup)
    return tuple(
        chosen.get(n, Setup(players_label(n), n))
        for n in range(game.info.min_players, game.info.max_players + 1)
    )


def loop_games(games: int) -> int:
    """The games of each match-loop figure for ``--games``: a third (at least 20), since
    each is played ten times over (both sides, an untimed pass and four rounds)."""
    return max(20, games // 3)


def recorded_games_per_second(
    players: int, games: int, seed: int, game: str, variant: dict[str, Any]
) -> float:
    """Random bots' games per second through the match loop with records kept."""
    the_game = get_game(game)
    rules = the_game.make_rules(players, {}, None, variant)
    specs = [resolve_bot("random", game)] * players
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        play_game(the_game, rules, game_seed, specs, record=True)
    return games / (time.perf_counter() - start)


def loop_figure(
    game: str, players: int, variant: dict[str, Any], games: int, seed: int
) -> dict[str, float]:
    """The match loop's cost per game over the bare engine (``loop_overhead``), measured in
    :data:`LOOP_PROCESSES` fresh processes of this interpreter: the median rate and cost,
    and the lowest and highest cost of a process (``low``, ``high``)."""
    task = match_task(game, seed, players, variant, games)
    answers = [spawn.probe_here(task) for _ in range(LOOP_PROCESSES)]
    overs = [answer["over"] for answer in answers]
    return {
        "rate": statistics.median(answer["rate"] for answer in answers),
        "over": statistics.median(overs),
        "low": min(overs),
        "high": max(overs),
    }


def loop_bench(games: int, seed: int, echo: Callable[[str], Any], game: str) -> None:
    """Print the match loop's table for ``game``: per player count, its games per second
    without records, its cost over the bare engine, and its games per second with records."""
    echo(f"Match loop (bots, rows and summary per game) of {game}, random bots, one core")
    echo(
        f"(over engine: the same games on the bare engine, one rules object, after an "
        f"untimed pass; in each of {LOOP_PROCESSES} fresh processes the median of "
        f"{LOOP_ROUNDS} rounds, each side first in every other; the median process, and "
        "the lowest and highest)"
    )
    echo(f"{'players':<32} {'no records':>11} {'over engine':>12} {'processes':>17} {'records':>9}")
    for setup in match_setups(get_game(game)):
        n, variant = loop_games(games), dict(setup.variant)
        measured = loop_figure(game, setup.players, variant, n, seed)
        kept = recorded_games_per_second(setup.players, n, seed, game, variant)
        over = f"{measured['over']:+.1%}"
        spread = f"{measured['low']:+.1%} to {measured['high']:+.1%}"
        echo(
            f"{players_label(setup.players):<32} {measured['rate']:>11.0f} {over:>12} "
            f"{spread:>17} {kept:>9.0f}"
        )


def main(argv: list[str] | None = None) -> None:
    """``python -m benchmarks.loop [--game G] [--games N] [--seed S]``."""
    args = cli.parser(
        "python -m benchmarks.loop", "The match loop's cost per game over the bare engine.", 300
    ).parse_args(argv)

    def measure() -> None:
        cli.check_game(args.game)
        loop_bench(args.games, args.seed, print, args.game)

    cli.run(measure)


if __name__ == "__main__":
    main(sys.argv[1:])
