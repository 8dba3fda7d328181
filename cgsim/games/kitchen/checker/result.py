"""The record's ``result`` against the replayed end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.kitchen.checker.fields import is_int
from cgsim.games.kitchen.checker.state import State
from cgsim.games.kitchen.checker.violations import Violation

SCORE_PLANTS = 100
"""Score = plants planted * 100 + beds fully planted, for every seat."""


def expected_result(state: State, end: str, turns: int) -> dict[str, Any]:
    """The result fields as the rules compute them; a game stopped in error has no scores."""
    seats = range(state.players)
    plants = [state.plants(seat) for seat in seats]
    full = [state.full_beds(seat) for seat in seats]
    per_seat = {"plants": plants, "beds_full": full, "hands": [len(h) for h in state.hands]}
    winners = [] if state.winner is None else [state.winner]
    if end == "error":
        return {"end": end, "turns": turns, "winners": winners, **per_seat}
    scores = [float(p * SCORE_PLANTS + f) for p, f in zip(plants, full, strict=True)]
    return {
        "scores": scores,
        "winners": winners,
        "ranks": _ranks(scores, state.winner),
        "turns": turns,
        "end": end,
        **per_seat,
    }


def _ranks(scores: list[float], winner: int | None) -> list[float]:
    """The winner first; the others by score, a tie sharing the mean of its positions."""
    others = [score for seat, score in enumerate(scores) if seat != winner]
    first = 1 if winner is None else 2
    ranks = []
    for seat, score in enumerate(scores):
        if seat == winner:
            ranks.append(1.0)
            continue
        above = sum(other > score for other in others)
        tied = sum(other == score for other in others)
        ranks.append(first + above + (tied - 1) / 2)
    return ranks


def check_result(raw: Any, state: State, end: str, turns: int, out: list[Violation]) -> None:
    """One violation per field of ``result`` that differs from the replay."""
    if not isinstance(raw, Mapping):
        out.append(Violation(None, None, f"result: expected an object, got {raw!r}"))
        return
    expected = expected_result(state, end, turns)
    for key, value in expected.items():
        if not _same(raw.get(key), value):
            out.append(
                Violation(None, None, f"result.{key} is {raw.get(key)!r}, expected {value!r}")
            )
    for key in sorted(set(raw) - set(expected)):
        out.append(Violation(None, None, f"result: unexpected field {key!r}"))


def _same(found: Any, expected: Any) -> bool:
    """Equal; where a float is expected an integer of the same value will do (1402 for
    1402.0), where an integer is expected only an integer."""
    if isinstance(expected, list):
        return (
            isinstance(found, list)
            and len(found) == len(expected)
            and all(_same(f, e) for f, e in zip(found, expected, strict=True))
        )
    if isinstance(expected, float):
        return (is_int(found) or isinstance(found, float)) and found == expected
    if is_int(expected):
        return is_int(found) and found == expected
    return bool(found == expected)
