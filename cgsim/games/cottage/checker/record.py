"""Checking one whole record: setup, every turn in order, then the result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.cottage.checker.result import check_result
from cgsim.games.cottage.checker.setup import read_setup
from cgsim.games.cottage.checker.turns import play_turn
from cgsim.games.cottage.checker.violations import Fatal, Violation


def check_record(record: Mapping[str, Any]) -> list[Violation]:
    """Every violation of the rules found in ``record``; an empty list means it is valid.

    The replay stops at the first violation that makes the rebuilt state untrustworthy.
    A record without ``result`` is of a game stopped before its end (a person quit): its
    turns, every one complete, are checked, and it need not reach the end of the game.
    """
    out: list[Violation] = []
    if not isinstance(record, Mapping):
        return [Violation(None, None, f"record is not an object: {type(record).__name__}")]
    state = read_setup(record, out)
    if state is None:
        return out
    turns = record.get("turns")
    if not isinstance(turns, list):
        out.append(Violation(None, None, "turns: expected a list"))
        return out
    end: str | None = None
    stopped = "result" not in record
    try:
        for count, turn in enumerate(turns, start=1):
            if end is not None:
                out.append(
                    Violation(count, None, f"turn after the game ended ({end}) at turn {count - 1}")
                )
                return out
            end = play_turn(state, turn, count, out)
    except Fatal:
        return out
    if end is None and stopped:
        return out  # a game stopped before its end (no result): valid as far as it goes
    if end is None:
        out.append(
            Violation(None, None, f"result: the game has not ended after {len(turns)} turns")
        )
        return out
    check_result(record.get("result"), state, end, len(turns), out)
    return out
