"""Scores and the final result: the winner first, the others by plants, then full beds."""

from __future__ import annotations

from typing import Final

from cgsim.games.contract import GameResult
from cgsim.games.kitchen.beds import bed_full, bed_plants
from cgsim.games.kitchen.state import NONE, Phase, State

_new: Final = tuple.__new__

SCORE_PLANTS: Final = 100
"""Score = plants correctly planted * 100 + beds fully planted: plants rank first."""


def beds_full(state: State, seat: int) -> int:
    """Number of fully planted beds of a seat."""
    catalogue = state.rules.catalogue
    task = catalogue.tasks[state.tasks[seat]]
    return sum(
        bed_full(catalogue, bed, task.targets[crop], task.slots[crop])
        for crop, bed in enumerate(state.beds[seat])
    )


def plants_planted(state: State, seat: int) -> int:
    """Plants on a seat's beds (every one is in its crop's bed, so all count)."""
    catalogue = state.rules.catalogue
    return sum(bed_plants(catalogue, bed) for bed in state.beds[seat])


def seat_score(state: State, seat: int) -> int:
    """The statistics score of a seat (the same formula for winner and others)."""
    return plants_planted(state, seat) * SCORE_PLANTS + beds_full(state, seat)


def _ranks(scores: tuple[int, ...], winner: int) -> tuple[float, ...]:
    """Shared mean positions for ties; a winner is first whatever its score."""
    first = 1 if winner == NONE else 2
    others = [score for seat, score in enumerate(scores) if seat != winner]
    ranks: list[float] = []
    for seat, score in enumerate(scores):
        if seat == winner:
            ranks.append(1.0)
            continue
        ahead = sum(other > score for other in others)
        tied = sum(other == score for other in others)
        ranks.append(first + ahead + (tied - 1) / 2)
    return tuple(ranks)


def result(state: State) -> GameResult:
    """Scores, winner, ending and ranks of a finished game."""
    if state.phase != Phase.OVER:
        raise ValueError("the game is not over")
    scores = tuple(seat_score(state, seat) for seat in range(state.players))
    winners = () if state.winner == NONE else (state.winner,)
    end = "aborted" if state.aborted else "normal"
    # Built as tuples are built in the engine: a named tuple's own constructor runs as a
    # Python function, and every game of a run ends here.
    floats = tuple([float(score) for score in scores])
    return _new(GameResult, (floats, winners, end, state.turn, _ranks(scores, state.winner)))
