"""Drama of one game, from its running scores turn by turn: lead changes, comebacks and
Ludii's per-game outcome measures.

A game's summary feeds :class:`Drama` each seat's running score after every turn (in
Cottage Garden the score cubes' track values and beehives, in Kitchen Garden the plants
in the beds), then the winners and the final scores; :meth:`Drama.columns` turns the
series into the per-game columns of :data:`DRAMA_COLUMNS`. Both ways of summarizing a
game (from its record, or from a tally while it is played) feed the same series, so they
give the same columns. Definitions in words: ``docs/drama.md``.

It runs once per game of every run, so it keeps the series flat (``seats`` values a
turn) in a ``vec[float]``, an array of unboxed floats: compiled, reading a value is a
load, where a list's boxed float costs a few dozen instructions, and each value is read
three or four times. A set of seats is a bit mask. The summaries build their series as
vecs too and hand them over whole.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from librt.vecs import append, extend, vec
from mypy_extensions import i64

from cgsim.games.contract import Column, ColumnType

FLOAT = ColumnType.FLOAT
POINTS = (0.25, 0.5, 0.75)
"""The points of the game (share of its turns) at which the leader is looked at."""
_POINT_NAMES: Final = tuple(f"leader_{round(point * 100)}_won" for point in POINTS)
NOBODY: Final = -1
"""No sole leader."""

DRAMA_COLUMNS = (
    Column("lead_changes", FLOAT, "times the sole leader by running score changed"),
    Column("leader_25_won", FLOAT, "the leader(s) after a quarter of the turns won (share)"),
    Column("leader_50_won", FLOAT, "the leader(s) after half of the turns won (share)"),
    Column("leader_75_won", FLOAT, "the leader(s) after three quarters of the turns won (share)"),
    Column("comeback", FLOAT, "the winner's largest deficit behind the leader (score units)"),
    Column("winner_led", FLOAT, "share of turns after which the winner led (alone or tied)"),
    Column("decided_final_round", FLOAT, "no winner led when the final round began"),
    Column("kingmaker", FLOAT, "a final-round turn of the last-placed seat changed the leader"),
    Column("lead_change", FLOAT, "Ludii LeadChange: leader-set changes per turn"),
    Column("stability", FLOAT, "Ludii Stability: summed variance of the seats' evaluations"),
    Column("drama", FLOAT, "Ludii Drama: mean gap from the best evaluation to the winner's"),
)
"""The per-game drama columns every game adds to its ``games`` table (null where a game
has no winner or a single seat)."""
DRAMA_NAMES = tuple(column.name for column in DRAMA_COLUMNS)
_NO_COLUMNS: Final[dict[str, float | None]] = dict.fromkeys(DRAMA_NAMES)
"""Every column null: a game's columns start as a copy."""


def bit_count(mask: i64) -> i64:
    """How many bits a mask sets (seats in a set of seats, cells in a bed mask): compiled,
    a loop over native ints, where ``int.bit_count`` is a call through Python."""
    count: i64 = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def _appended_zeros(count: i64) -> vec[i64]:
    """``count`` native zeros, built by appends: a vec made from a list first asks the
    list for a buffer, which raises and clears a TypeError (about a thousand
    instructions)."""
    values = vec[i64](capacity=count)
    # A native counter: compiled, ``for _ in range(count)`` boxes every index.
    made: i64 = 0
    while made < count:
        values = append(values, 0)
        made += 1
    return values


_ZEROS: Final = _appended_zeros(256)
"""Zeros enough for the arrays of a game's summary: :func:`zeros` copies a slice."""


def zeros(count: i64) -> vec[i64]:
    """``count`` native zeros, a new array: a slice of :data:`_ZEROS` (one copy, where
    appends cost a call each, several dozen a game) when it is long enough."""
    if count <= len(_ZEROS):
        return _ZEROS[:count]
    return _appended_zeros(count)


def ints(values: Sequence[int]) -> vec[i64]:
    """``values`` as native ints, built by appends (see :func:`zeros`)."""
    out = vec[i64](capacity=len(values))
    for value in values:
        out = append(out, value)
    return out


def floats(values: Sequence[float]) -> vec[float]:
    """``values`` as native floats, built by appends (see :func:`zeros`)."""
    out = vec[float](capacity=len(values))
    for value in values:
        out = append(out, float(value))
    return out


_FLOAT_ZEROS: Final = floats([0.0] * 256)
"""Zeros to grow arrays of floats with (:func:`grown`)."""


def grown(values: vec[float], count: i64) -> vec[float]:
    """``values`` with zeros added up to ``count`` values (as it is when as long): an
    array written by index as it fills, grown by a block at a time, where one appended
    to value by value costs a call a value."""
    missing = count - len(values)
    while missing > 0:
        block = min(missing, len(_FLOAT_ZEROS))
        values = extend(values, _FLOAT_ZEROS[:block])
        missing -= block
    return values


def _first(mask: i64) -> i64:
    """The lowest seat a (non-empty) mask holds: the seat whose score a row's top is."""
    seat: i64 = 0
    while not mask >> seat & 1:
        seat += 1
    return seat


def _leaders(series: vec[float], seats: i64, sole: i64) -> tuple[vec[i64], float, float]:
    """Every row's leaders (a mask of the seats with its top score), the scale of the
    scores (the largest absolute score, at least 1), and, for a sole winner ``sole`` (a
    seat, else ``NOBODY``), its comeback: its largest gap behind a row's top score after
    the start, in one pass."""
    end: i64 = len(series)
    leaders = zeros(end // seats)
    row: i64 = 0
    scale = 1.0
    worst = -math.inf
    at: i64 = 0
    while at < end:
        top = series[at]
        if abs(top) > scale:
            scale = abs(top)
        mask: i64 = 1
        seat: i64 = 1
        while seat < seats:
            value = series[at + seat]
            if abs(value) > scale:
                scale = abs(value)
            if value > top:
                top, mask = value, i64(1) << seat
            elif value == top:
                mask |= i64(1) << seat
            seat += 1
        leaders[row] = mask
        row += 1
        if sole != NOBODY and at > 0 and top - series[at + sole] > worst:
            worst = top - series[at + sole]
        at += seats
    return leaders, scale, worst


def _comeback(series: vec[float], leaders: vec[i64], seats: i64, won: i64) -> float:
    """The least, over the winners, of the largest gap behind a row's top score after the
    start."""
    best = math.inf
    rows: i64 = len(leaders)
    for winner in range(seats):
        if not won >> winner & 1:
            continue
        worst = -math.inf
        row: i64 = 1
        while row < rows:
            at = row * seats
            gap = series[at + _first(leaders[row])] - series[at + winner]
            if gap > worst:
                worst = gap
            row += 1
        if worst < best:
            best = worst
    return best


def _sole_leader_among(values: vec[float], at: i64, seats: i64, skip: i64) -> i64:
    """The one seat but ``skip`` with the top score of the row at ``at``, else NOBODY."""
    top = -math.inf
    leader: i64 = NOBODY
    tied = False
    for seat in range(seats):
        if seat == skip:
            continue
        value = values[at + seat]
        if leader == NOBODY or value > top:
            top, leader, tied = value, seat, False
        elif value == top:
            tied = True
    return NOBODY if tied else leader


class Drama:
    """The running scores of one game, one observation per turn, in order."""

    def __init__(self, start: Sequence[float]) -> None:
        self.seats: i64 = len(start)
        self.start = floats(start)
        """Every seat's score before the first turn."""
        self.scores = vec[float]()
        """Every seat's running score after each turn, ``seats`` values a turn, as floats
        (every column is a float)."""
        self.movers = vec[i64]()
        self.first_final: i64 = NOBODY
        """The index of the first turn of the final round, NOBODY before one is seen."""

    def observe(self, mover: i64, scores: Sequence[float], final_round: bool = False) -> None:
        """The turn of ``mover`` has ended with these running scores (``final_round``:
        the turn was one of the final round)."""
        if final_round and self.first_final == NOBODY:
            self.first_final = len(self.movers)
        self.movers = append(self.movers, mover)
        for score in scores:
            self.scores = append(self.scores, float(score))

    def observe_turns(
        self, movers: vec[i64], scores: vec[float], first_final: i64 = NOBODY
    ) -> None:
        """Many turns at once, as :meth:`observe` one by one (``scores``: ``seats`` values
        a turn; ``first_final``: the index among these turns of the final round's first,
        or NOBODY). A game's summary keeps its own series as it goes and hands it over
        here in one call: a call into this module from a game's costs more than an
        append."""
        if first_final != NOBODY and self.first_final == NOBODY:
            self.first_final = len(self.movers) + first_final
        self.movers = extend(self.movers, movers)
        self.scores = extend(self.scores, scores)

    def columns(self, winners: Sequence[int], final: Sequence[float]) -> dict[str, float | None]:
        """The per-game columns; the last observation takes the final scores (end-of-game
        scoring included). All null for a single seat, no turn or no winner."""
        out = _NO_COLUMNS.copy()
        self.fill(out, winners, final)
        return out

    def fill(self, out: dict[str, Any], winners: Sequence[int], final: Sequence[float]) -> None:
        """:meth:`columns` written into ``out``, a game's row that already holds every
        column, null (a copy of a row with them all, where merging the columns into a
        row grows it a few times): the null ones are left as they are."""
        seats: i64 = self.seats
        turns: i64 = len(self.movers)
        won: i64 = 0
        for winner in winners:
            won |= i64(1) << winner
        if seats < 2 or turns == 0 or won == 0:
            return
        # The series: the start row, then every turn's row, the last one final.
        series = vec[float](capacity=(turns + 1) * seats)
        series = extend(series, self.start)
        series = extend(series, self.scores[: (turns - 1) * seats])
        for score in final:
            series = append(series, float(score))
        count = float(turns)
        sole: i64 = NOBODY if won & (won - 1) else _first(won)
        leaders, scale, comeback = _leaders(series, seats, sole)
        lead_changes, led, changes = _lead_counts(leaders, won, turns)
        out["lead_changes"] = float(lead_changes)
        points = POINTS
        for index in range(len(points)):
            at: i64 = leaders[max(1, math.ceil(points[index] * count))]
            out[_POINT_NAMES[index]] = float(bit_count(at & won)) / float(bit_count(at))
        out["comeback"] = comeback if sole != NOBODY else _comeback(series, leaders, seats, won)
        out["winner_led"] = float(led) / count
        first_final = self._first_final_turn(turns)
        out["decided_final_round"] = 0.0 if leaders[first_final] & won else 1.0
        out["kingmaker"] = self._kingmaker(series, first_final)
        # Ludii's measures, on the states before each turn (the start, then after every
        # turn but the last), as Ludii evaluates the state before each move.
        out["lead_change"] = float(changes) / count
        out["stability"] = _stability(series, seats, turns, scale)
        out["drama"] = _drama(series, leaders, seats, turns, won, scale)

    def _first_final_turn(self, turns: i64) -> i64:
        """The index of the final round's first turn: the first marked final, or else the
        last round (one turn per seat)."""
        if self.first_final != NOBODY:
            return self.first_final
        return max(0, turns - self.seats)

    def _kingmaker(self, series: vec[float], first_final: i64) -> float | None:
        """1 when a final-round turn of the sole last-placed seat changed the sole leader
        among the other seats; null below three seats or with a shared last place."""
        seats: i64 = self.seats
        if seats < 3:
            return None
        turns: i64 = len(self.movers)
        at_final = turns * seats
        loser: i64 = 0
        tied = False
        for seat in range(1, seats):
            if series[at_final + seat] < series[at_final + loser]:
                loser, tied = seat, False
            elif series[at_final + seat] == series[at_final + loser]:
                tied = True
        if tied:
            return None
        for turn in range(first_final, turns):
            if self.movers[turn] != loser:
                continue
            before = _sole_leader_among(series, turn * seats, seats, loser)
            if before != _sole_leader_among(series, (turn + 1) * seats, seats, loser):
                return 1.0
        return 0.0


def _lead_counts(leaders: vec[i64], won: i64, turns: i64) -> tuple[i64, i64, i64]:
    """From the rows' leaders: the times the sole leader passed to another seat after the
    start (a shared lead keeps the last one); the turns after which a winner led; and
    Ludii's changes of the leaders over the states before each turn (the start counts as
    a change from no leader)."""
    lead_changes: i64 = 0
    led: i64 = 0
    changes: i64 = 0
    current: i64 = 0
    previous: i64 = 0
    rows: i64 = len(leaders)
    for row in range(rows):
        at: i64 = leaders[row]
        if row < turns and at != previous:
            changes += 1
        previous = at
        if row > 0:
            if at & won:
                led += 1
            if not at & (at - 1):
                if current and at != current:
                    lead_changes += 1
                current = at
    return lead_changes, led, changes


def _stability(series: vec[float], seats: i64, turns: i64, scale: float) -> float:
    """Ludii's Stability: each seat's variance over the states before each turn of its
    evaluation (its running score divided by ``scale``, the largest absolute score of the
    game, at least 1: -1 to 1 like Ludii's search values), summed over the seats."""
    stability = 0.0
    count = float(turns)
    end = turns * seats
    for seat in range(seats):
        total = 0.0
        at: i64 = seat
        while at < end:
            total += series[at] / scale
            at += seats
        mean = total / count
        spread = 0.0
        at = seat
        while at < end:
            deviation = series[at] / scale - mean
            spread += deviation * deviation
            at += seats
        stability += spread / count
    return stability


def _drama(
    series: vec[float], leaders: vec[i64], seats: i64, turns: i64, won: i64, scale: float
) -> float:
    """Ludii's Drama: over the states before each turn, the mean gap from the top
    evaluation to the winners' (the top evaluation is the top score divided by the
    scale)."""
    winners = float(bit_count(won))
    gaps = 0.0
    for row in range(turns):
        at = row * seats
        top = series[at + _first(leaders[row])] / scale
        gap = 0.0
        for seat in range(seats):
            if won >> seat & 1:
                gap += top - series[at + seat] / scale
        gaps += gap / winners
    return gaps / float(turns)
