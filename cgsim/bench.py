"""Speed figures, printed, never asserted: engine throughput, bot decision cost, parallelism.

Every figure is measured on this machine when the command runs; the README quotes a
run of ``make bench``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from cgsim.cottage import rules as engine
from cgsim.cottage.game import GAME
from cgsim.cottage.state import PH_OVER

Echo = Callable[[str], Any]

SETUPS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("solo", 1, {"solo": True}),
    ("2 players", 2, {}),
    ("3 players", 3, {}),
    ("4 players", 4, {}),
    ("2 players, a child of 5", 2, {"children": [5, None]}),
)


def random_games_per_second(
    players: int, variant: dict[str, Any], games: int, seed: int
) -> tuple[float, float]:
    """Random-vs-random games per second on one core, raw engine loop; also decisions/game."""
    rules = GAME.make_rules(players, {}, None, variant)
    decisions = 0
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        state = engine.new_game(rules, game_seed)
        rng = random.Random(game_seed)
        while state.phase != PH_OVER:
            legal = engine.legal_actions(state)
            state = engine.apply(state, legal[rng.randrange(len(legal))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games


def match_games_per_second(players: int, games: int, seed: int) -> float:
    """The same through the runner's match loop (bots, records and summaries included)."""
    from cgsim.match import play_game
    from cgsim.registry import resolve_bot

    rules = GAME.make_rules(players, {}, None, {"solo": players == 1})
    specs = [resolve_bot("random", GAME.name)] * players
    start = time.perf_counter()
    for game_seed in range(seed, seed + games):
        play_game(GAME, rules, game_seed, specs)
    return games / (time.perf_counter() - start)


def bot_decision_costs(games: int, seed: int) -> list[tuple[str, float, int]]:
    """Mean milliseconds per real decision (more than one legal action) for every bot."""
    from cgsim.registry import list_bots, resolve_bot

    rows = []
    rules = GAME.make_rules(2, {}, None, {})
    for info in list_bots(GAME.name):
        bot_spec = resolve_bot(info.name, GAME.name)
        heavy = info.name in ("mcts", "planner", "beam")
        n_games = max(1, games // 100) if heavy else max(1, games // 10)
        spent, decisions = 0.0, 0
        for game_seed in range(seed, seed + n_games):
            bots = [bot_spec.create(), bot_spec.create()]
            state = GAME.new_game(rules, game_seed)
            rngs = [random.Random(game_seed * 2 + s) for s in range(2)]
            for seat, bot in enumerate(bots):
                bot.new_game(GAME, seat, state)
            while not GAME.is_terminal(state):
                legal = GAME.legal_actions(state)
                seat = GAME.current_player(state)
                if len(legal) == 1:
                    action = legal[0]
                else:
                    begin = time.perf_counter()
                    action = bots[seat].choose(state, legal, rngs[seat])
                    spent += time.perf_counter() - begin
                    decisions += 1
                state = GAME.apply(state, action)
        rows.append((info.name, 1000 * spent / max(decisions, 1), decisions))
    return rows


def run_bench(games: int, seed: int, parallel: bool, echo: Echo) -> None:
    """Print every figure ``make bench`` reports."""
    echo("Engine: random-vs-random games per second, one core")
    echo(f"{'setup':<26} {'games/s':>9} {'decisions/game':>15}")
    for label, players, variant in SETUPS:
        rate, decisions = random_games_per_second(players, variant, games, seed)
        echo(f"{label:<26} {rate:>9.0f} {decisions:>15.1f}")
    echo("")
    echo("Match loop (bots, record and summary per game), random bots, one core")
    for players in (1, 2, 3, 4):
        rate = match_games_per_second(players, max(20, games // 3), seed)
        echo(f"{players} player(s){'':<15} {rate:>9.0f}")
    echo("")
    echo("Bots: mean cost per real decision (2 players)")
    echo(f"{'bot':<14} {'ms/decision':>12} {'decisions':>10}")
    for name, ms, count in bot_decision_costs(games, seed):
        echo(f"{name:<14} {ms:>12.3f} {count:>10}")
    if parallel:
        from cgsim.runner import parallel_bench

        echo("")
        parallel_bench(games=max(games, 200), seed=seed, echo=echo)


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


def memory_bench(games: int, seed: int, echo: Echo) -> None:
    """Run ``games`` random 2-player games as a real run and report its peak memory."""
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "memory.toml"
        config.write_text(
            f'name = "memory"\nplayers = 2\nseats = ["random", "random"]\ngames = {games}\n'
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
    echo(f"Memory: {games} random 2-player games, all cores, records off")
    echo(
        f"peak memory (PSS, parent and workers): {peak / 1024:.0f} MB; {games / elapsed:.0f} games/s"
    )
