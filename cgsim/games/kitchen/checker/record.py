"""Checking one whole record: setup, every turn in order, then the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.kitchen.checker.result import check_result
from cgsim.games.kitchen.checker.setup import read_setup
from cgsim.games.kitchen.checker.turns import play_turn
from cgsim.games.kitchen.checker.violations import Fatal, Stopped, Violation


def check_record(record: Mapping[str, Any]) -> list[Violation]:
    """Every violation of the rules found in ``record``; an empty list means it is valid.

    The replay stops at the first violation that makes the rebuilt state untrustworthy.
    """
    if not isinstance(record, Mapping):
        return [Violation(None, None, f"record is not an object: {type(record).__name__}")]
    out: list[Violation] = []
    state = read_setup(record, out)
    if state is None:
        return out
    turns = record.get("turns")
    if not (isinstance(turns, list) and turns):
        out.append(Violation(None, None, "turns: expected a non-empty list"))
        return out
    result = record.get("result")
    in_error = isinstance(result, Mapping) and result.get("end") == "error"
    end: str | None = None
    try:
        for count, turn in enumerate(turns, start=1):
            if end is not None:
                out.append(
                    Violation(count, None, f"turn after the game ended ({end}) at turn {count - 1}")
                )
                return out
            end = play_turn(state, turn, count, out, in_error and count == len(turns))
    except Fatal:
        return out
    except Stopped:
        end = "error"
    if end is None:
        out.append(
            Violation(None, None, f"result: the game has not ended after {len(turns)} turns")
        )
        return out
    check_result(result, state, end, len(turns), out)
    return out
