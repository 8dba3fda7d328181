"""The Kitchen Garden bot ladder: each rung against the one below, in 2-player games.

Every deal is played twice with the seats swapped, so the luck of the deal cancels.
Bots see only their observation. An aborted game counts as half a win for each side.
Run as ``python -m cgsim.kitchen.strength [--deals N] [--seed S] [--jobs J]``; it prints,
per pair, the upper bot's win rate with a 95% Wilson interval. ``--jobs`` spreads the
deals over processes; the figures do not depend on it.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import time
from collections.abc import Sequence

from cgsim.bot import Bot
from cgsim.kitchen.game import GAME

LADDER = (
    ("bots.random_bot:RandomBot", "bots.kitchen_greedy:KitchenGreedyBot"),
    ("bots.kitchen_greedy:KitchenGreedyBot", "bots.kitchen_search:KitchenSearchBot"),
)
"""(lower, upper) bot classes of each rung, as ``module:Class``."""


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def load_bot(target: str) -> Bot:
    """A fresh bot with default parameters from ``module:Class``."""
    module_name, class_name = target.split(":")
    cls: type[Bot] = getattr(importlib.import_module(module_name), class_name)
    return cls()


def play(bots: Sequence[Bot], seed: int) -> tuple[int, ...]:
    """Play one 2-player game on the deal of ``seed``; the winning seats."""
    rules = GAME.make_rules(len(bots), {})
    state = GAME.new_game(rules, seed)
    rngs = [random.Random(f"strength:{seed}:{seat}") for seat in range(len(bots))]
    for seat, bot in enumerate(bots):
        bot.new_game(GAME, seat, GAME.observation(state, seat))
    watchers = [
        (seat, bot) for seat, bot in enumerate(bots) if type(bot).observe is not Bot.observe
    ]
    while not GAME.is_terminal(state):
        seat = GAME.current_player(state)
        legal = GAME.legal_actions(state)
        action = bots[seat].choose(GAME.observation(state, seat), legal, rngs[seat])
        state = GAME.apply(state, action)
        for watcher_seat, watcher in watchers:
            watcher.observe(GAME.observation(state, watcher_seat), seat, action)
    return GAME.result(state).winners


def deal_points(lower: str, upper: str, game_seed: int) -> float:
    """Points of the upper bot over the two games of one deal (seats swapped)."""
    points = 0.0
    for upper_seat in (0, 1):
        bots = [load_bot(lower), load_bot(lower)]
        bots[upper_seat] = load_bot(upper)
        winners = play(bots, game_seed)
        points += 1.0 if upper_seat in winners else 0.5 if not winners else 0.0
    return points


def _deal_task(task: tuple[str, str, int]) -> float:
    return deal_points(*task)


def rung(lower: str, upper: str, deals: int, seed: int, jobs: int = 1) -> tuple[float, int, float]:
    """Points of the upper bot (win 1, abort 0.5), games played, seconds taken."""
    started = time.perf_counter()
    tasks = [(lower, upper, seed * 1_000_003 + deal) for deal in range(deals)]
    if jobs > 1:
        from multiprocess import Pool

        with Pool(jobs) as pool:
            results: list[float] = pool.map(_deal_task, tasks)
    else:
        results = [_deal_task(task) for task in tasks]
    return sum(results), 2 * deals, time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> None:
    """Play every rung of the ladder and print the upper bot's win rate per rung."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=100, help="deals per rung (2 games each)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals")
    parser.add_argument("--jobs", type=int, default=1, help="processes to spread deals over")
    args = parser.parse_args(argv)
    for lower, upper in LADDER:
        points, games, seconds = rung(lower, upper, args.deals, args.seed, max(1, args.jobs))
        low, high = wilson(points, games)
        print(
            f"{upper.split(':')[1]} vs {lower.split(':')[1]}: {points / games:.3f} "
            f"[{low:.3f}, {high:.3f}] over {games} games ({seconds:.0f} s)"
        )


if __name__ == "__main__":
    main()
