"""Who plays whom, where, on which deal: the schedules of ``run`` and ``tournament``.

Both commands arrange games in **deal blocks**: every game of block ``b`` is dealt from
the same seed and the block plays a fixed list of seatings, so deal luck cancels across
the seatings (duplicate format) and reports can resample whole blocks.

- ``run`` plays the config's seats; block ``b`` holds one game per rotation of them
  (game ``i`` of a block uses rotation ``i``), so every bot sits in every position
  equally often. The last block is partial when ``games`` is not a multiple of the
  player count.
- ``tournament`` plays every combination of the pool's bots for the player count
  (with repetition only when the pool has fewer bots than seats, and then leaving out
  a bot playing only itself), each combination in every distinct seat order, or, when
  those outnumber the seats (3 or 4 distinct bots), in the cyclic Latin-square
  rotations, where each bot takes each seat once. A block is one deal played by all
  combinations and seatings, and ``games`` is rounded up to whole blocks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cgsim.errors import ConfigError
from cgsim.play.bot_registry import BotSpec
from cgsim.play.config import RunConfig, resolve_bots, resolve_rules
from cgsim.play.limits import MAX_GAMES, MAX_SEATINGS
from cgsim.play.match import GameSpec
from cgsim.play.pool import Schedule
from cgsim.play.seeds import deal_seed, game_seed

Seating = tuple[int, ...]
"""Index into the plan's bot list, per seat."""


@dataclass(frozen=True)
class Plan:
    """What to play: the command's bots, its schedule of games and the resolved rules."""

    command: str
    bots: tuple[BotSpec, ...]
    schedule: Schedule
    rules: Any
    description: str


@dataclass(frozen=True, slots=True)
class DealSchedule:
    """``games`` games in deal blocks, each block playing ``seatings`` in order.

    Specs are computed on demand, so a schedule of a million games costs no memory.
    """

    run_seed: int
    seatings: tuple[Seating, ...]
    games: int

    def __len__(self) -> int:
        return self.games

    def spec(self, game_id: int) -> GameSpec:
        """The game with this id: its block, deal seed, bot seed and seating."""
        if not 0 <= game_id < self.games:
            raise IndexError(f"game id {game_id} outside 0..{self.games - 1}")
        block, position = divmod(game_id, len(self.seatings))
        return GameSpec(
            game_id=game_id,
            block=block,
            seed=deal_seed(self.run_seed, block),
            bot_seed=game_seed(self.run_seed, game_id),
            seats=self.seatings[position],
        )


def rotations(seats: Sequence[int]) -> list[Seating]:
    """The cyclic rotations of a seating: rotation ``r`` seats ``seats[(s + r) % n]`` at ``s``."""
    n = len(seats)
    return [tuple(seats[(s + r) % n] for s in range(n)) for r in range(n)]


def seatings_of(combination: Sequence[int]) -> list[Seating]:
    """Every distinct seat order of a combination, or its rotations when those are more
    than the seats (a cyclic Latin square: each bot in each seat equally often)."""
    orders = sorted(set(itertools.permutations(combination)))
    if len(orders) <= len(combination):
        return orders
    return rotations(combination)


def combinations_of(pool: int, players: int) -> list[Seating]:
    """Which bots (by pool index) meet: every ``players``-subset of the pool, or, when the
    pool is smaller than the table, every multiset except a single bot playing itself."""
    if pool >= players:
        return list(itertools.combinations(range(pool), players))
    combos = list(itertools.combinations_with_replacement(range(pool), players))
    mixed = [combo for combo in combos if len(set(combo)) > 1]
    return mixed or combos


def plan_run(config: RunConfig) -> Plan:
    """The config's seats, rotated over deal blocks of one game per seat."""
    if not config.seats:
        raise ConfigError("seats: required to run a config (or give a bots pool for a tournament)")
    bots = resolve_bots(config, "seats")
    schedule = DealSchedule(config.seed, tuple(rotations(range(len(bots)))), config.games)
    labels = ", ".join(bot.label for bot in bots)
    description = (
        f"run: seats {labels}, rotated over deals of {len(bots)} "
        f"game{'s' if len(bots) > 1 else ''}; {config.games} games"
    )
    return Plan("run", bots, schedule, resolve_rules(config), description)


def seatings_bound(pool: int, players: int) -> int:
    """At most how many games one deal block of a tournament holds (each combination
    has at most ``players`` seatings), counted without building them."""
    if pool >= players:
        return math.comb(pool, players) * players
    return math.comb(pool + players - 1, players) * players


def plan_tournament(config: RunConfig) -> Plan:
    """Every combination of the pool, every seating of each, on shared deals."""
    if not config.bots:
        raise ConfigError("bots: a tournament needs a pool of bots (bots = [...])")
    per_deal = seatings_bound(len(config.bots), config.players)
    if per_deal > MAX_SEATINGS:
        raise ConfigError(
            f"bots: {len(config.bots)} bots at {config.players} seats make up to {per_deal:,} "
            f"games per deal; allowed at most {MAX_SEATINGS:,}: use a smaller pool"
        )
    bots = resolve_bots(config, "bots")
    combos = combinations_of(len(bots), config.players)
    seatings = tuple(seating for combo in combos for seating in seatings_of(combo))
    deals = math.ceil(config.games / len(seatings))
    if deals * len(seatings) > MAX_GAMES:
        deals = MAX_GAMES // len(seatings)
    schedule = DealSchedule(config.seed, seatings, deals * len(seatings))
    description = (
        f"tournament: {len(bots)} bots, {len(combos)} combinations, "
        f"{len(seatings)} games per deal; {deals} deals = {len(schedule)} games"
    )
    return Plan("tournament", bots, schedule, resolve_rules(config), description)


def plan_for(config: RunConfig, command: Literal["run", "tournament"]) -> Plan:
    """The plan a command plays: ``run`` uses the seats, or the pool when there are none."""
    if command == "run" and (config.seats or not config.bots):
        return plan_run(config)
    return plan_tournament(config)
