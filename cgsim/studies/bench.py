"""Speed figures, printed, never asserted: engine throughput, bot decision cost, parallelism.

Every figure is measured on this machine when the command runs, for one game at a time
(through the ``Game`` object, so one loop serves every game). Figures that compare this
build with another, or the match loop with the bare engine, are the lab's: see
``benchmarks/``.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgsim.games.registry import DEFAULT_GAME, get_game
from cgsim.play.backend import chosen_backend
from cgsim.play.bot_registry import list_bots, resolve_bot
from cgsim.play.config import RunConfig, validate_config
from cgsim.play.limits import cpu_count
from cgsim.studies.dask_bench import dask_bench
from cgsim.studies.strength import play
from cgsim.studies.timed_runs import PARALLEL_ROUNDS, Echo, runner_round, summarise_rounds

if TYPE_CHECKING:
    from cgsim.games.contract import AnyGame, Setup

BOT_BENCH_PLAYERS = 2
SEARCH_GAMES_PER = 100
"""A search bot's decision cost is timed on one game per this many ``--games``."""


def players_label(players: int) -> str:
    """ "1 player", "2 players": the label of a player count in the tables."""
    return f"{players} player{'s' if players != 1 else ''}"


def bot_players(game: AnyGame) -> int:
    """Two players, or the nearest count the game allows."""
    return min(max(BOT_BENCH_PLAYERS, game.info.min_players), game.info.max_players)


def setups_for(game: AnyGame) -> tuple[Setup, ...]:
    """The setups the engine figure measures: the ones ``game`` declares."""
    return game.info.setups


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
    players = bot_players(the_game)
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
    info = get_game(game).info
    players = bot_players(get_game(game))
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
    echo(f"Bots: mean cost per real decision ({players_label(bot_players(the_game))})")
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
    are noisy (a spread above :data:`~cgsim.studies.timed_runs.NOISY_SPREAD`, or an
    efficiency above 1, which real work cannot reach); returns the two rates.
    """
    cores = cpu_count()
    per_round = max(1, games // PARALLEL_ROUNDS)
    echo(
        f"Runner: games per second on {config.name!r} ({per_round} games x "
        f"{PARALLEL_ROUNDS} rounds per worker count, alternating, whole pipeline)"
    )
    measured: dict[int, list[tuple[int, float]]] = {1: [], cores: []}
    for _ in range(PARALLEL_ROUNDS):
        for workers in measured:
            measured[workers].append(runner_round(config, per_round, seed, workers))
    rates = [
        summarise_rounds(f"{workers} worker{'s' if workers > 1 else ''}:", rounds, echo, 11)
        for workers, rounds in measured.items()
    ]
    efficiency = rates[-1] / (cores * rates[0]) if rates[0] > 0 else 0.0
    echo(f"parallel efficiency on {cores} cores: {efficiency:.2f}")
    if efficiency > 1.0:
        echo(
            "  noisy: an efficiency above 1 is not real (the workers cannot beat one core "
            "each); the one-worker rounds ran slower, on a busier machine: measure again "
            "when it is idle"
        )
    return rates[0], rates[-1]


def _tree_pss_kb(root: int) -> int:
    """Proportional set size of a process and its children (shared pages split fairly).

    Summing plain RSS would count the pages forked workers share with their parent
    several times; PSS is what the run really costs the machine. Linux only.
    """
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
    players = bot_players(get_game(game))
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
