"""Before and after in one run: this build's speed beside another installation's.

A speed gain measured on two days is mostly the machine's mood; measured in one run, the
two builds alternating round by round, drift hits both alike. ``cgsim bench --baseline``
runs the same probe (``bench_probe.py``) under this interpreter and under the baseline's,
in fresh processes, and prints the medians side by side.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.registry import get_game, registered_target
from cgsim.play.bot_registry import list_bots, resolve_bot
from cgsim.studies.bench_probe import take_turns

Echo = Callable[[str], None]

PROBE = Path(__file__).with_name("bench_probe.py")
ROUNDS = 4
"""Each figure is measured this many times per build, the builds taking turns."""
PROBE_SECONDS = 3600
"""A probe that runs longer than this is stuck, not slow."""


def baseline_python(path: Path) -> Path:
    """The interpreter of the baseline: ``path`` itself, or the ``.venv`` in that folder."""
    for candidate in (path, path / ".venv" / "bin" / "python"):
        if candidate.is_file():
            return candidate.absolute()  # the probe runs elsewhere; a venv link stays a link
    raise ConfigError(
        f"--baseline {path}: neither a Python interpreter nor a folder with .venv/bin/python "
        "(make bench builds one from the commit the Makefile names)"
    )


def probe(python: Path, task: dict[str, Any], import_path: Sequence[str] = ()) -> dict[str, Any]:
    """Run one measurement under ``python`` in a fresh process started in a scratch folder;
    its JSON answer. ``import_path``: folders the process imports from before its own (this
    process's, for a probe of this build that must find what this process finds)."""
    env = None
    if import_path:
        folders = [folder for folder in import_path if folder]
        inherited = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([*folders, *filter(None, [inherited])])}
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [str(python), "-c", PROBE.read_text(encoding="utf-8"), json.dumps(task)],
            cwd=scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=PROBE_SECONDS,
            check=False,
        )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ConfigError(f"the speed probe failed under {python}: {last}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def game_task(game: str, seed: int) -> dict[str, Any]:
    """What every probe task of ``game`` starts with: the game and the seed, and for a game
    registered at run time its registration, so the probe's fresh process knows it too."""
    task: dict[str, Any] = {"game": game, "seed": seed}
    target = registered_target(game)
    if target is not None:
        task["register"] = {game: target}
    return task


def match_task(
    game: str, seed: int, players: int, variant: dict[str, Any], games: int
) -> dict[str, Any]:
    """The probe's task for the match loop's figure (``loop_overhead``)."""
    return {
        **game_task(game, seed),
        "measure": "match",
        "players": players,
        "variant": variant,
        "games": games,
    }


def probe_here(task: dict[str, Any]) -> dict[str, Any]:
    """:func:`probe` under this interpreter, importing what this process imports."""
    return probe(Path(sys.executable), task, sys.path)


def _alternate(
    before: Path, task: dict[str, Any], rounds: int = ROUNDS
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``rounds`` answers from each build, the two taking turns (:func:`take_turns`)."""
    return take_turns(lambda: probe(before, task), lambda: probe_here(task), rounds)


def _median(answers: list[dict[str, Any]], key: str) -> float:
    values = [a[key] for a in answers if a[key] is not None]
    return statistics.median(values) if values else float("nan")


def _ratio(before: float, after: float) -> str:
    return f"{after / before:.2f}x" if before == before and after == after else "-"


def _cell(value: float, spec: str) -> str:
    return format(value, spec) if value == value else "-"


def baseline_bench(baseline: Path, games: int, seed: int, echo: Echo, game: str) -> None:
    """Print engine, match-loop and bot figures of this build beside ``baseline``'s."""
    from cgsim.studies.bench import (
        SEARCH_GAMES_PER,
        _bot_players,
        _players_label,
        loop_games,
        match_setups,
        setups_for,
    )

    before = baseline_python(baseline)
    the_game = get_game(game)
    base = game_task(game, seed)
    where = probe(
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
            f"{_players_label(setup.players):<32} {_median(old, 'over'):>+9.1%} {_median(new, 'over'):>+9.1%}"
        )
    echo("")
    players = _bot_players(the_game)
    echo(f"Bots: mean ms per real decision ({_players_label(players)})")
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
