"""Speed figures, printed, never asserted: engine throughput, bot decision cost, parallelism.

Every figure is measured on this machine when the command runs, for one game at a time
(through the ``Game`` object, so one loop serves every game); the README quotes a run
of ``make bench``.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from cgsim.games.contract import Setup
from cgsim.games.registry import DEFAULT_GAME, get_game
from cgsim.play.backend import chosen_backend
from cgsim.play.bot_registry import list_bots, resolve_bot
from cgsim.play.match import play_game
from cgsim.studies.bench_baseline import match_task, probe_here
from cgsim.studies.bench_probe import LOOP_ROUNDS
from cgsim.studies.strength import play

if TYPE_CHECKING:
    from cgsim.games.contract import AnyGame
    from cgsim.play.config import RunConfig

Echo = Callable[[str], Any]
BOT_BENCH_PLAYERS = 2
SEARCH_GAMES_PER = 100
"""A search bot's decision cost is timed on one game per this many ``--games``."""
LOOP_PROCESSES = 5
"""The match loop's figure is the median of this many fresh processes. Where a process's
objects land in memory shifts the loop's cost against the engine's by a point or two for
the whole life of the process (one process reads +9% in every round, the next +7%), so
more rounds in one process do not steady the figure; more processes do, and a run's
per-game cost is an average over its workers' processes too."""


def _players_label(players: int) -> str:
    return f"{players} player{'s' if players != 1 else ''}"


def _bot_players(game: AnyGame) -> int:
    """Two players, or the nearest count the game allows."""
    return min(max(BOT_BENCH_PLAYERS, game.info.min_players), game.info.max_players)


def setups_for(game: AnyGame) -> tuple[Setup, ...]:
    """The setups the engine figure measures: the ones ``game`` declares."""
    return game.info.setups


def match_setups(game: AnyGame) -> tuple[Setup, ...]:
    """One setup per player count the game allows: the first declared with it."""
    chosen: dict[int, Setup] = {}
    for setup in setups_for(game):
        chosen.setdefault(setup.players, setup)
    return tuple(
        chosen.get(n, Setup(_players_label(n), n))
        for n in range(game.info.min_players, game.info.max_players + 1)
    )


def random_games_per_second(
    players: int, variant: dict[str, Any], games: int, seed: int, game: str = DEFAULT_GAME
) -> tuple[float, float]:
    """Random-vs-random games per second on one core, raw engine loop; also decisions/game."""
    the_game = get_game(game)
    rules = the_game.make_rules(players, {}, None, variant)
    new_game, legal_actions = the_game.new_game, the_game.legal_actions
    apply, is_terminal = the_game.apply, the_game.is_terminal
    decisions = 0
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        state = new_game(rules, game_seed)
        rng = random.Random(game_seed)
        while not is_terminal(state):
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games


def match_games_per_second(
    players: int,
    games: int,
    seed: int,
    game: str = DEFAULT_GAME,
    variant: dict[str, Any] | None = None,
    record: bool = False,
) -> float:
    """The same through the runner's match loop: bots, result rows and summaries (from
    the record when ``record``, else from the game's tally, as in a run without records)."""
    the_game = get_game(game)
    rules = the_game.make_rules(players, {}, None, variant or {})
    specs = [resolve_bot("random", game)] * players
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        play_game(the_game, rules, game_seed, specs, record=record)
    return games / (time.perf_counter() - start)


def loop_games(games: int) -> int:
    """The games of each match-loop figure for ``--games``: a third (at least 20), since
    each is played ten times over (both sides, an untimed pass and four rounds)."""
    return max(20, games // 3)


def loop_figure(
    game: str, players: int, variant: dict[str, Any], games: int, seed: int
) -> dict[str, float]:
    """The match loop's cost per game over the bare engine (``loop_overhead``), measured in
    :data:`LOOP_PROCESSES` fresh processes of this interpreter, importing what this process
    imports (a game registered at run time is registered there too): the median rate and
    cost, and the lowest and highest cost of a process (``low``, ``high``)."""
    task = match_task(game, seed, players, variant, games)
    answers = [probe_here(task) for _ in range(LOOP_PROCESSES)]
    overs = [answer["over"] for answer in answers]
    return {
        "rate": statistics.median(answer["rate"] for answer in answers),
        "over": statistics.median(overs),
        "low": min(overs),
        "high": max(overs),
    }


def bot_decision_costs(
    games: int, seed: int, game: str = DEFAULT_GAME
) -> list[tuple[str, float, int]]:
    """Mean milliseconds per real decision (more than one legal action) for every bot,
    and the decisions measured (0 for a search bot skipped: see below).

    Each bot fills every seat of a 2-player game played by the strength bench's loop
    (observations and ``observe`` calls as in a run): ``games / 10`` games (at least
    one), a search bot ``games / 100``, so below 100 games the search bots, whose one
    game can take a minute, are skipped.
    """
    the_game = get_game(game)
    players = _bot_players(the_game)
    rows = []
    for info in list_bots(game):
        spec = resolve_bot(info.name, game)
        n_games = games // SEARCH_GAMES_PER if spec.cls.searches else max(1, games // 10)
        spent, decisions = 0.0, 0
        for game_seed in range(seed, seed + n_games):
            bots = [spec.create() for _ in range(players)]
            for outcome in play(the_game, bots, game_seed, game_seed):
                spent += outcome.seconds
                decisions += outcome.decisions
        rows.append((info.name, 1000 * spent / decisions if decisions else math.nan, decisions))
    return rows


def parallel_config(game: str) -> RunConfig:
    """The run the parallel figure plays: the game's ``bench_seats`` in a 2-player run,
    or else a round robin of its ladder (Cottage Garden's main job)."""
    from cgsim.play.config import validate_config

    info = get_game(game).info
    players = _bot_players(get_game(game))
    data: dict[str, Any] = {"name": f"{game}-bench", "game": game, "players": players}
    if info.bench_seats:
        data["seats"] = list(info.bench_seats)
    elif len(info.ladder) >= players > 1:
        data["bots"] = list(info.ladder)
    else:
        data["seats"] = ["random"] * players
    return validate_config(data, f"bench config for {game}")


def run_bench(games: int, seed: int, parallel: bool, echo: Echo, game: str = DEFAULT_GAME) -> None:
    """Print every figure ``make bench`` reports for ``game``; on the Dask backend (a
    command's ``--backend dask``) only the runner figures, which are the backend's."""
    the_game = get_game(game)
    echo(f"Game: {game}")
    echo("")
    backend = chosen_backend()
    if backend is not None and backend.kind == "dask":
        from cgsim.studies.dask_bench import dask_bench

        config = parallel_config(game)
        dask_bench(max(games, 200), seed, echo, config, backend.scheduler, parallel)
        return
    echo("Engine: random-vs-random games per second, one core")
    echo(f"{'setup':<32} {'games/s':>9} {'decisions/game':>15}")
    for setup in setups_for(the_game):
        variant = dict(setup.variant)
        rate, decisions = random_games_per_second(setup.players, variant, games, seed, game)
        echo(f"{setup.name:<32} {rate:>9.0f} {decisions:>15.1f}")
    echo("")
    echo("Match loop (bots, rows and summary per game), random bots, one core")
    echo(
        f"(over engine: the same games on the bare engine, one rules object, after an "
        f"untimed pass; in each of {LOOP_PROCESSES} fresh processes the median of "
        f"{LOOP_ROUNDS} rounds, each side first in every other; the median process, and "
        "the lowest and highest)"
    )
    echo(f"{'players':<32} {'no records':>11} {'over engine':>12} {'processes':>17} {'records':>9}")
    for setup in match_setups(the_game):
        n, variant = loop_games(games), dict(setup.variant)
        measured = loop_figure(game, setup.players, variant, n, seed)
        kept = match_games_per_second(setup.players, n, seed, game, variant, record=True)
        over = f"{measured['over']:+.1%}"
        spread = f"{measured['low']:+.1%} to {measured['high']:+.1%}"
        echo(
            f"{_players_label(setup.players):<32} {measured['rate']:>11.0f} {over:>12} "
            f"{spread:>17} {kept:>9.0f}"
        )
    echo("")
    echo(f"Bots: mean cost per real decision ({_players_label(_bot_players(the_game))})")
    echo(f"{'bot':<14} {'ms/decision':>12} {'decisions':>10}")
    for name, ms, count in bot_decision_costs(games, seed, game):
        if count:
            echo(f"{name:<14} {ms:>12.3f} {count:>10}")
        else:
            echo(
                f"{name:<14} {'skipped':>12}  (a search bot plays --games / {SEARCH_GAMES_PER} "
                f"games: give --games {SEARCH_GAMES_PER} or more to time it)"
            )
    if parallel:
        echo("")
        parallel_bench(games=max(games, 200), seed=seed, echo=echo, config=parallel_config(game))


NOISY_SPREAD = 0.10
"""Two measurements of the same setting that differ by more than this share of their
mean make the figure noisy (the machine's load changed while it was measured)."""
PARALLEL_ROUNDS = 2
"""Each worker count is measured this many times, alternating, so drift shows."""


def parallel_bench(
    games: int,
    seed: int,
    echo: Echo,
    config: RunConfig,
) -> tuple[float, float]:
    """Games per second on one worker and on every core, and the parallel efficiency.

    Plays ``config`` (a tournament when it names a pool of bots, else a run) through the
    whole runner into a temporary directory, without records: one worker, then every
    core, then both again (``games`` split over the rounds), so a machine whose speed
    drifts shows as a spread between the rounds. Prints the figures and says when they
    are noisy (a spread above :data:`NOISY_SPREAD`, or an efficiency above 1, which real
    work cannot reach); returns the two rates.
    """
    from cgsim.play.limits import cpu_count

    cores = cpu_count()
    per_round = max(1, games // PARALLEL_ROUNDS)
    echo(
        f"Runner: games per second on {config.name!r} ({per_round} games x "
        f"{PARALLEL_ROUNDS} rounds per worker count, alternating, whole pipeline)"
    )
    measured: dict[int, list[tuple[int, float]]] = {1: [], cores: []}
    for _ in range(PARALLEL_ROUNDS):
        for workers in measured:
            measured[workers].append(_runner_round(config, per_round, seed, workers))
    rates = []
    for workers, rounds in measured.items():
        rate = sum(n for n, _ in rounds) / sum(t for _, t in rounds)
        each = [n / t for n, t in rounds]
        spread = (max(each) - min(each)) / rate
        rates.append(rate)
        label = f"{workers} worker{'s' if workers > 1 else ''}:"
        rounds_text = ", ".join(f"{r:.1f}" for r in each)
        echo(f"{label:<11}{rate:9.1f} games/s (rounds: {rounds_text}; spread {spread:.0%})")
        if spread > NOISY_SPREAD:
            echo(
                f"  noisy: the rounds differ by {spread:.0%} (over {NOISY_SPREAD:.0%}); other "
                "work on the machine changed its speed: measure again when it is idle"
            )
    efficiency = rates[-1] / (cores * rates[0]) if rates[0] > 0 else 0.0
    echo(f"parallel efficiency on {cores} cores: {efficiency:.2f}")
    if efficiency > 1.0:
        echo(
            "  noisy: an efficiency above 1 is not real (the workers cannot beat one core "
            "each); the one-worker rounds ran slower, on a busier machine: measure again "
            "when it is idle"
        )
    return rates[0], rates[-1]


def _runner_round(config: RunConfig, games: int, seed: int, workers: int) -> tuple[int, float]:
    """Games played and seconds spent by one run of ``config`` on ``workers`` workers."""
    from cgsim.play.config import with_overrides
    from cgsim.play.runner import run_games
    from cgsim.play.schedules import plan_for

    command: Literal["run", "tournament"] = "tournament" if config.bots else "run"
    with tempfile.TemporaryDirectory(prefix="cgsim-bench-") as folder:
        trial = with_overrides(
            config,
            {"games": games, "seed": seed, "workers": workers, "records": False, "out": folder},
        )
        plan = plan_for(trial, command)
        start = time.perf_counter()
        result = run_games(trial, plan, progress=False)
        return result.games_played, time.perf_counter() - start


def _tree_pss_kb(root: int) -> int:
    """Proportional set size of a process and its children (shared pages split fairly).

    Summing plain RSS would count the pages forked workers share with their parent
    several times; PSS is what the run really costs the machine. Linux only.
    """
    from pathlib import Path

    pids = [root]
    for task in Path(f"/proc/{root}/task").glob("*/children"):
        pids += [int(p) for p in task.read_text().split()]
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def memory_bench(games: int, seed: int, echo: Echo, game: str = DEFAULT_GAME) -> None:
    """Run ``games`` random 2-player games of ``game`` as a real run and report its peak memory."""
    import subprocess
    import sys
    from pathlib import Path

    players = _bot_players(get_game(game))
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "memory.toml"
        config.write_text(
            f'name = "memory"\ngame = {json.dumps(game)}\nplayers = {players}\n'
            f"seats = {json.dumps(['random'] * players)}\ngames = {games}\n"
            f"seed = {seed}\nchunk_size = 5000\n",
            encoding="utf-8",
        )
        command = [
            sys.executable,
            "-m",
            "cgsim.cli",
            "run",
            str(config),
            "--out",
            folder,
            "--no-report",
        ]
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peak = 0
        while process.poll() is None:
            peak = max(peak, _tree_pss_kb(process.pid))
            time.sleep(0.5)
        elapsed = time.perf_counter() - start
    if process.returncode != 0:
        echo(f"memory run failed with exit code {process.returncode}")
        return
    echo(f"Memory: {games} random {players}-player {game} games, all cores, records off")
    echo(
        f"peak memory (PSS, parent and workers): {peak / 1024:.0f} MB; {games / elapsed:.0f} games/s"
    )
