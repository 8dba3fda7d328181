"""The drama fold against the columns' definitions written the plain way: on random
series (ties, several winners, a marked final round or none), every column is the same,
bit for bit. The fold keeps flat lists and bit masks for speed; this is what it must mean."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from librt.vecs import vec
from mypy_extensions import i64

from cgsim.games.drama import (
    DRAMA_NAMES,
    NOBODY,
    POINTS,
    Drama,
    bit_count,
    floats,
    grown,
    ints,
    zeros,
)


def _leaders(scores: Sequence[float]) -> frozenset[int]:
    top = max(scores)
    return frozenset(seat for seat, score in enumerate(scores) if score == top)


def _sole_leader_among(scores: Sequence[float], seats: Sequence[int]) -> int | None:
    top = max(scores[seat] for seat in seats)
    leading = [seat for seat in seats if scores[seat] == top]
    return leading[0] if len(leading) == 1 else None


def reference_columns(
    start: Sequence[float],
    observed: Sequence[tuple[int, Sequence[float], bool]],
    winners: Sequence[int],
    final: Sequence[float],
) -> dict[str, float | None]:
    """docs/drama.md, as directly as it can be written."""
    out: dict[str, float | None] = dict.fromkeys(DRAMA_NAMES)
    seats, won = len(start), frozenset(winners)
    if seats < 2 or not observed or not won:
        return out
    movers = [mover for mover, _, _ in observed]
    series = [tuple(map(float, s)) for _, s, _ in observed[:-1]] + [tuple(map(float, final))]
    turns = len(series)
    leaders = [_leaders(scores) for scores in series]
    changes, current = 0, None
    for at in leaders:
        if len(at) == 1:
            (seat,) = at
            changes += current is not None and seat != current
            current = seat
    out["lead_changes"] = float(changes)
    for point in POINTS:
        at = leaders[max(1, math.ceil(point * turns)) - 1]
        out[f"leader_{round(point * 100)}_won"] = len(at & won) / len(at)
    out["comeback"] = min(max(max(s) - s[w] for s in series) for w in won)
    out["winner_led"] = sum(bool(at & won) for at in leaders) / turns
    marked = [i for i, (_, _, final_round) in enumerate(observed) if final_round]
    first_final = marked[0] if marked else max(0, turns - seats)
    before_final = series[first_final - 1] if first_final > 0 else tuple(start)
    out["decided_final_round"] = float(not _leaders(before_final) & won)
    last = [seat for seat in range(seats) if series[-1][seat] == min(series[-1])]
    if seats >= 3 and len(last) == 1:
        others = [seat for seat in range(seats) if seat != last[0]]
        out["kingmaker"] = 0.0
        for turn in range(first_final, turns):
            before = series[turn - 1] if turn > 0 else tuple(start)
            if movers[turn] == last[0] and _sole_leader_among(before, others) != _sole_leader_among(
                series[turn], others
            ):
                out["kingmaker"] = 1.0
                break
    states = [tuple(map(float, start)), *series[:-1]]
    scale = max(1.0, *(abs(score) for scores in [*states, series[-1]] for score in scores))
    evaluations = [[score / scale for score in scores] for scores in states]
    state_leaders = [_leaders(start), *leaders[:-1]]
    out["lead_change"] = sum(
        a != b for a, b in zip(state_leaders, [frozenset[int](), *state_leaders[:-1]], strict=True)
    ) / len(states)
    stability = 0.0
    for values in zip(*evaluations, strict=True):
        mean = sum(values) / len(values)
        stability += sum([(value - mean) * (value - mean) for value in values]) / len(values)
    out["stability"] = stability
    gaps = [sum([max(e) - e[w] for w in sorted(won)]) / len(won) for e in evaluations]
    out["drama"] = sum(gaps) / len(gaps)
    return out


scores = st.one_of(st.integers(-3, 12), st.floats(-50, 120, allow_nan=False))


@st.composite
def games(draw: st.DrawFn) -> tuple[Any, ...]:
    seats = draw(st.integers(1, 4))
    start = draw(st.lists(st.integers(-2, 3), min_size=seats, max_size=seats))
    turns = draw(st.integers(0, 30))
    final_from = draw(st.one_of(st.none(), st.integers(0, max(0, turns))))
    observed = [
        (
            turn % seats,
            draw(st.lists(scores, min_size=seats, max_size=seats)),
            final_from is not None and turn >= final_from,
        )
        for turn in range(turns)
    ]
    winners = draw(st.lists(st.integers(0, seats - 1), max_size=seats, unique=True))
    final = draw(st.lists(scores, min_size=seats, max_size=seats))
    return start, observed, winners, final


def _observed(
    start: Sequence[float], observed: Sequence[tuple[int, Sequence[float], bool]]
) -> Drama:
    """A fold fed ``observed`` turn by turn."""
    drama = Drama(start)
    for mover, row, final_round in observed:
        drama.observe(mover, row, final_round)
    return drama


@settings(max_examples=300, deadline=None)
@given(games())
def test_the_fold_gives_the_defined_columns_exactly(game: tuple[Any, ...]) -> None:
    start, observed, winners, final = game
    got = _observed(start, observed).columns(winners, final)
    assert got == reference_columns(start, observed, winners, final)
    assert all(type(value) is float for value in got.values() if value is not None)


@settings(max_examples=200, deadline=None)
@given(games(), st.integers(0, 30))
def test_turns_handed_over_at_once_give_the_columns_of_turns_observed_one_by_one(
    game: tuple[Any, ...], split: int
) -> None:
    # A game's summary hands its turns over in one call, with the index of the final
    # round's first turn: the columns must be those of the same turns observed one by one.
    start, observed, winners, final = game
    one_by_one = _observed(start, observed)
    at_once = Drama(start)
    for part in (observed[:split], observed[split:]):
        marked = [i for i, (_, _, final_round) in enumerate(part) if final_round]
        at_once.observe_turns(
            vec[i64]([mover for mover, _, _ in part]),
            vec[float]([float(score) for _, row, _ in part for score in row]),
            marked[0] if marked else NOBODY,
        )
    assert at_once.columns(winners, final) == one_by_one.columns(winners, final)


@settings(max_examples=100, deadline=None)
@given(games())
def test_columns_filled_into_a_row_are_the_columns_in_their_place(game: tuple[Any, ...]) -> None:
    # A game's row starts as a copy of a row holding every column, null, and the fold
    # fills its own in place: the row is its columns then the fold's, as a merge gives.
    start, observed, winners, final = game
    drama = _observed(start, observed)
    own = {"refills": 3, "solo": False}
    filled: dict[str, Any] = {**own, **dict.fromkeys(DRAMA_NAMES)}
    drama.fill(filled, winners, final)
    merged = {**own, **drama.columns(winners, final)}
    assert filled == merged and list(filled) == list(merged)


@given(st.lists(st.floats(-1e6, 1e6), max_size=40), st.integers(0, 700))
def test_an_array_grown_keeps_its_values_and_gains_zeros(values: list[float], count: int) -> None:
    # A summary's series is grown by blocks of zeros (several for a long game), then
    # written by index.
    before = floats(values)
    after = grown(before, count)
    assert list(after) == values + [0.0] * max(0, count - len(values))


@given(st.integers(0, 2**62))
def test_a_masks_bit_count_is_its_number_of_set_bits(mask: int) -> None:
    assert bit_count(mask) == mask.bit_count()


@given(st.lists(st.integers(-(2**40), 2**40), max_size=40))
def test_native_arrays_hold_what_they_are_built_from(values: list[int]) -> None:
    """The summaries' arrays are built by appends (no buffer asked of a list): the same
    values, in order, whatever their number."""
    assert list(zeros(len(values))) == [0] * len(values)
    assert list(ints(values)) == values
    assert list(floats(values)) == [float(value) for value in values]
    assert all(type(value) is float for value in floats(values))


@given(st.integers(0, 600), st.integers(0, 600))
def test_each_array_of_zeros_is_its_own(count: int, other: int) -> None:
    # Short ones are copied from one array of zeros, long ones appended: writing into
    # one never shows in another, nor in the next one made.
    first = zeros(count)
    for index in range(count):
        first[index] = index + 1
    assert list(zeros(other)) == [0] * other
    assert list(first) == list(range(1, count + 1))
