"""Before and after in one run: this build's speed beside another installation's.

A speed gain measured on two days is mostly the machine's mood; measured in one run, the
two builds alternating round by round, drift hits both alike. This runs the same probe
(:mod:`benchmarks.probe`) under this interpreter and under the baseline's, in fresh
processes, and prints the medians side by side. Run from the checkout:
``python -m benchmarks.compare BASELINE`` (``make bench-compare`` builds one from a commit).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import cli, spawn
from benchmarks.loop import loop_games, match_setups
from benchmarks.probe import take_turns
from benchmarks.spawn import match_task
from cgsim.errors import ConfigError
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import list_bots, resolve_bot
from cgsim.studies.bench import SEARCH_GAMES_PER, bot_players, players_label, setups_for

Echo = Callable[[str], Any]

ROUNDS = 4
"""Each figure is measured this many times per build, the builds taking turns."""


def baseline_python(path: Path) -> Path:
    """The interpreter of the baseline: ``path`` itself, or the ``.venv`` in that folder."""
    for candidate in (path, path / ".venv" / "bin" / "python"):
        if candidate.is_file():
            return candidate.absolute()  # the probe runs elsewhere; a venv link stays a link
    raise ConfigError(
        f"baseline {path}: neither a Python interpreter nor a folder with .venv/bin/python "
        "(make bench-compare builds one from the commit it is given)"
    )


def _alternate(
    before: Path, task: dict[str, Any], rounds: int = ROUNDS
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``rounds`` answers from each build, the two taking turns (:func:`take_turns`)."""
    return take_turns(lambda: spawn.probe(before, task), lambda: spawn.probe_here(task), rounds)


def _median(answers: list[dict[str, Any]], key: str) -> float:
    values = [a[key] for a in answers if a[key] is not None]
    return statistics.median(values) if values else float("nan")


def _ratio(before: float, after: float) -> str:
    return f"{after / before:.2f}x" if before == before and after == after else "-"


def _cell(value: float, spec: str) -> str:
    return format(value, spec) if value == value else "-"


def compare(baseline: Path, games: int, seed: int, echo: Echo, game: str) -> None:
    """Print engine, match-loop and bot figures of this build beside ``baseline``'s."""
    before = baseline_python(baseline)
    the_game = get_game(game)
    base: dict[str, Any] = {"game": game, "seed": seed}
    where = spawn.probe(
        before,
        {
            **base,
            "measure": "engine",
            "players": 1 if the_game.info.min_players == 1 else 2,
            "variant": {},
            "games": 1,
        },
    )["where"]
    echo(f"Before and after: this build against the one at {Path(where).parents[2]}")
    echo(
        f"(each figure the median of {ROUNDS} rounds per build, the builds alternating, "
        "each first in every other round)"
    )
    echo("")
    echo("Engine: random-vs-random, one core")
    echo(
        f"{'setup':<32} {'before/s':>9} {'after/s':>9} {'turns/s before':>15} {'after':>9} {'gain':>7}"
    )
    for setup in setups_for(the_game):
        task = {
            **base,
            "measure": "engine",
            "players": setup.players,
            "variant": dict(setup.variant),
            "games": games,
        }
        old, new = _alternate(before, task)
        b, a = _median(old, "rate"), _median(new, "rate")
        turns = _median(new, "decisions")
        if _median(old, "decisions") != turns:
            echo(f"{setup.name}: the builds play different games (decisions per game differ)")
        echo(
            f"{setup.name:<32} {b:>9.0f} {a:>9.0f} {b * turns:>15.0f} {a * turns:>9.0f} "
            f"{_ratio(b, a):>7}"
        )
    echo("")
    echo("Match loop without records: cost per game over the bare engine, random bots")
    echo(f"{'players':<32} {'before':>9} {'after':>9}")
    for setup in match_setups(the_game):
        task = match_task(game, seed, setup.players, dict(setup.variant), loop_games(games))
        old, new = _alternate(before, task)
        echo(
            f"{players_label(setup.players):<32} {_median(old, 'over'):>+9.1%} {_median(new, 'over'):>+9.1%}"
        )
    echo("")
    players = bot_players(the_game)
    echo(f"Bots: mean ms per real decision ({players_label(players)})")
    echo(f"{'bot':<14} {'before':>9} {'after':>9} {'gain':>7}")
    for info in list_bots(game):
        searches = resolve_bot(info.name, game).cls.searches
        n_games = games // SEARCH_GAMES_PER if searches else max(1, games // 10)
        if not n_games:
            continue
        task = {**base, "measure": "bot", "players": players, "bot": info.name, "games": n_games}
        old, new = _alternate(before, task, rounds=1)
        b, a = _median(old, "ms"), _median(new, "ms")
        echo(f"{info.name:<14} {_cell(b, '>9.3f')} {_cell(a, '>9.3f')} {_ratio(a, b):>7}")


def main(argv: list[str] | None = None) -> None:
    """``python -m benchmarks.compare BASELINE [--game G] [--games N] [--seed S]``."""
    options = cli.parser(
        "python -m benchmarks.compare", "This build's speed beside a baseline installation's.", 300
    )
    options.add_argument(
        "baseline", type=Path, help="the baseline's Python, or a folder with .venv/bin/python"
    )
    args = options.parse_args(argv)

    def measure() -> None:
        cli.check_game(args.game)
        baseline_python(args.baseline)  # a wrong path fails before any measurement
        compare(args.baseline, args.games, args.seed, print, args.game)

    cli.run(measure)


if __name__ == "__main__":
    main(sys.argv[1:])
