"""The record's ``result`` against the replayed end of the game (rules.md section 6)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.cottage.checker.state import State
from cgsim.games.cottage.checker.violations import Violation


def expected_result(state: State, end: str, turns: int) -> dict[str, Any]:
    """Scores, beehives, winners, turns and end as the rules compute them."""
    rules = state.rules
    beehives = [player.beehive or 0 for player in state.players]
    scores = [
        sum(rules.orange_track[i] for i in player.cubes["orange"])
        + sum(rules.blue_track[i] for i in player.cubes["blue"])
        + beehive
        for player, beehive in zip(state.players, beehives, strict=True)
    ]
    best = max(scores)
    tied = [seat for seat, score in enumerate(scores) if score == best]
    most_bees = max(beehives[seat] for seat in tied)
    winners = [seat for seat in tied if beehives[seat] == most_bees]
    return {"scores": scores, "beehives": beehives, "winners": winners, "turns": turns, "end": end}


def check_result(raw: Any, state: State, end: str, turns: int, out: list[Violation]) -> None:
    """One violation per field of ``result`` that differs from the replay."""
    if not isinstance(raw, Mapping):
        out.append(Violation(None, None, f"result: expected an object, got {raw!r}"))
        return
    for key, value in expected_result(state, end, turns).items():
        found = raw.get(key)
        if key == "winners" and isinstance(found, list) and all(isinstance(s, int) for s in found):
            found = sorted(found) if len(set(found)) == len(found) else found
        if found != value:
            out.append(
                Violation(None, None, f"result.{key} is {raw.get(key)!r}, expected {value!r}")
            )
