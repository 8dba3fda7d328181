"""The compatibility matrix's cells: every bot in every declared setup of every game it
plays, isolated or not, compiled or pure Python, on the local pool or on Dask.

The cells come from the declarations alone: the games of the registry
(:func:`~cgsim.games.registry.game_names`, those registered at run time included), each
game's declared setups (``GameInfo.setups``: player counts and variants), and the bots of
the bot registry (built-ins and plugins) that say they play the game (``Bot.games``). A
new bot, game or setup joins the matrix by being declared; a bot that does not play a
game has no cell there.

The full product is what ``make matrix`` plays. ``make test`` plays an all-pairs slice of
it (:func:`all_pairs`): a covering array in which every pair of dimension values that
some cell holds is held by a chosen cell, picked greedily by pairs covered per estimated
second, so the slice is small and cheap. A generic covering-array library would not do:
the dimensions are not independent (a setup belongs to one game, a bot plays only some),
and the pairs to cover are those of the allowed cells, not of a free product.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Literal

from cgsim.games.registry import game_names, get_game
from cgsim.play.backend import KINDS, Kind
from cgsim.play.bot_registry import known_bots

Build = Literal["compiled", "pure"]
BUILDS: tuple[Build, ...] = ("compiled", "pure")
"""The compiled engines and bots (mypyc), and their pure-Python sources."""
ISOLATION: tuple[bool, ...] = (False, True)
BACKENDS: tuple[Kind, ...] = KINDS
DIMENSIONS = ("game", "setup", "bot", "isolate", "build", "backend")


@dataclass(frozen=True, order=True, slots=True)
class Cell:
    """One combination: ``bot`` in every seat of ``game``'s declared ``setup``."""

    game: str
    setup: str
    bot: str
    isolate: bool
    build: Build
    backend: Kind

    def values(self) -> tuple[Hashable, ...]:
        """Its value in each of :data:`DIMENSIONS`; a setup is its game's (two games may
        both declare "2 players")."""
        return (
            self.game,
            (self.game, self.setup),
            self.bot,
            self.isolate,
            self.build,
            self.backend,
        )

    def columns(self) -> tuple[str, ...]:
        """The cell in words, one per dimension."""
        isolation = "isolated" if self.isolate else "in-process"
        return (self.game, self.setup, self.bot, isolation, self.build, self.backend)

    @property
    def label(self) -> str:
        """The cell in words on one line."""
        return " | ".join(self.columns())


def cell_seed(cell: Cell, seed: int) -> int:
    """The run seed of ``cell`` in a matrix of ``seed``: from the cell's identity, so
    that each cell deals games of its own (a bot meets as many deals of a setup as it
    has cells there) and the same ones in the slice and in the full product, whatever
    else is declared."""
    digest = hashlib.sha256(f"{seed}|{cell.label}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def full_matrix() -> list[Cell]:
    """Every allowed cell, in a stable order: games as registered, setups as declared,
    bots by name, then isolation, build and backend."""
    bots = known_bots()
    cells = []
    for game in game_names():
        players = [name for name, (cls, _) in bots.items() if cls.plays(game)]
        for setup in get_game(game).info.setups:
            for bot, isolate, build, backend in product(players, ISOLATION, BUILDS, BACKENDS):
                cells.append(Cell(game, setup.name, bot, isolate, build, backend))
    return cells


def pairs(values: Sequence[Hashable]) -> set[tuple[int, Hashable, int, Hashable]]:
    """Every pair of dimension values of one row, tagged by the two dimensions."""
    return {(i, values[i], j, values[j]) for i, j in combinations(range(len(values)), 2)}


def covering(rows: Sequence[Sequence[Hashable]], cost: Callable[[int], float]) -> list[int]:
    """Indexes of rows that together hold every pair of values some row holds.

    Greedy weighted set cover: each step takes the row covering the most pairs not yet
    covered per unit of ``cost(index)`` (ties: the earlier row), so the same rows always
    give the same answer.
    """
    covers = [pairs(row) for row in rows]
    uncovered = set().union(*covers) if covers else set()
    chosen: list[int] = []
    while uncovered:
        best = max(
            range(len(rows)),
            key=lambda index: (len(covers[index] & uncovered) / cost(index), -index),
        )
        chosen.append(best)
        uncovered -= covers[best]
    # A row taken early may be covered by those taken after it: drop the dearest first.
    for index in sorted(chosen, key=lambda index: (-cost(index), -index)):
        others = [covers[other] for other in chosen if other != index]
        if covers[index] <= set().union(*others):
            chosen.remove(index)
    return sorted(chosen)


ISOLATION_SECONDS = 1.0
"""Estimated start of one bot process (a fresh interpreter importing the engine)."""
PURE_FACTOR = 5.0
"""Estimated slowdown of a game in pure Python."""


def estimated_seconds(cell: Cell, players: int, table: int, searches: bool) -> float:
    """A rough cost of a cell of ``players`` seats, in a game of ``table`` seats at most,
    for choosing cheap cells (searching bots and pure Python are slow, bot processes
    slow to start); never a prediction to report."""
    # A searching bot alone plans to the end of the game: as dear as a full table.
    seats = table if players == 1 else players
    game = 2.0 * seats if searches else 0.05 * players
    if cell.build == "pure":
        game *= PURE_FACTOR
    start = ISOLATION_SECONDS * players if cell.isolate else 0.0
    return 0.2 + game + start


def estimated_costs(cells: Sequence[Cell]) -> list[float]:
    """:func:`estimated_seconds` of each cell, from its setup's and bot's declarations."""
    bots = known_bots()
    costs = []
    for cell in cells:
        info = get_game(cell.game).info
        players = info.setup(cell.setup).players
        searches = bots[cell.bot][0].searches
        costs.append(estimated_seconds(cell, players, info.max_players, searches))
    return costs


def all_pairs(cells: Sequence[Cell]) -> list[Cell]:
    """The all-pairs slice of ``cells``: every pair of dimension values of any cell is in
    a chosen cell, the choice leaning to cheap cells (:func:`estimated_seconds`)."""
    costs = estimated_costs(cells)
    chosen = covering([cell.values() for cell in cells], costs.__getitem__)
    return [cells[index] for index in chosen]
