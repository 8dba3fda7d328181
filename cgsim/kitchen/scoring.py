"""Final scores and ranks: the winner first, the others by plants, then full beds."""

from __future__ import annotations

from cgsim.game import GameResult
from cgsim.kitchen.rules import beds_full, plants_planted
from cgsim.kitchen.state import NONE, OVER, State

SCORE_PLANTS = 100
"""Score = plants correctly planted * 100 + beds fully planted: plants rank first."""


def seat_score(state: State, seat: int) -> int:
    """The statistics score of a seat (the same formula for winner and others)."""
    return plants_planted(state, seat) * SCORE_PLANTS + beds_full(state, seat)


def _ranks(scores: tuple[int, ...], winner: int) -> tuple[float, ...]:
    """Shared mean positions for ties; a winner is first whatever its score."""
    seats = range(len(scores))
    ranks: list[float] = [0.0] * len(scores)
    others = [seat for seat in seats if seat != winner]
    first = 1
    if winner != NONE:
        ranks[winner] = 1.0
        first = 2
    ordered = sorted(others, key=lambda seat: -scores[seat])
    index = 0
    while index < len(ordered):
        group = [s for s in ordered if scores[s] == scores[ordered[index]]]
        position = first + index
        mean = position + (len(group) - 1) / 2
        for seat in group:
            ranks[seat] = mean
        index += len(group)
    return tuple(ranks)


def result(state: State) -> GameResult:
    """Scores, winner, ending and ranks of a finished game."""
    if state.phase != OVER:
        raise ValueError("the game is not over")
    scores = tuple(seat_score(state, seat) for seat in range(state.players))
    winners = () if state.winner == NONE else (state.winner,)
    end = "aborted" if state.aborted else "normal"
    return GameResult(
        scores=tuple(float(score) for score in scores),
        winners=winners,
        end=end,
        turns=state.turn,
        ranks=_ranks(scores, state.winner),
    )
