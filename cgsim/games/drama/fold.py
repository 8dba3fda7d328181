"""Drama of one game, from its running scores turn by turn: lead changes, comebacks and
Ludii's per-game outcome measures.

A game's summary feeds :class:`Drama` each seat's running score after every turn (in
Cottage Garden the score cubes' track values and beehives, in Kitchen Garden the plants
in the beds), then the winners and the final scores; :meth:`Drama.columns` turns the
series into the per-game columns of :data:`DRAMA_COLUMNS`. Both ways of summarizing a
game (from its record, or from a tally while it is played) feed the same series, so they
give the same columns. Definitions in words: ``docs/drama.md``.

It runs once per game of every run, so it keeps the series flat (one list of floats,
``seats`` per turn) and a set of seats as a bit mask: a game's columns then cost a few
microseconds, not the hundreds that tuples and sets of seats per turn cost.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

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


def _members(mask: int) -> int:
    """How many seats a mask holds."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def _tops(
    series: list[float], seats: int, sole: int
) -> tuple[list[float], list[int], float, float]:
    """Every row's top score and the seats that have it (a mask), the scale of the
    scores (the largest absolute score, at least 1), and, for a sole winner ``sole`` (a
    seat, else ``NOBODY``), its comeback as :func:`_comeback` finds it, in one pass."""
    tops: list[float] = []
    leaders: list[int] = []
    top, mask, seat = 0.0, 0, 0
    scale = 1.0
    mine, worst, row = 0.0, -math.inf, 0
    for value in series:
        if abs(value) > scale:
            scale = abs(value)
        if seat == sole:
            mine = value
        if seat == 0:
            top, mask = value, 1
        elif value > top:
            top, mask = value, 1 << seat
        elif value == top:
            mask |= 1 << seat
        seat += 1
        if seat == seats:
            tops.append(top)
            leaders.append(mask)
            if row > 0 and top - mine > worst:
                worst = top - mine
            row += 1
            seat = 0
    return tops, leaders, scale, worst


def _comeback(series: list[float], tops: list[float], seats: int, won: int) -> float:
    """The least, over the winners, of the largest gap behind a turn's top score."""
    best = math.inf
    for winner in range(seats):
        if not won >> winner & 1:
            continue
        column = series[winner::seats]
        worst = -math.inf
        for row in range(1, len(tops)):
            gap = tops[row] - column[row]
            if gap > worst:
                worst = gap
        if worst < best:
            best = worst
    return best


def _sole_leader_among(values: list[float], at: int, seats: int, skip: int) -> int:
    """The one seat but ``skip`` with the top score of the row at ``at``, else NOBODY."""
    top = -math.inf
    leader, tied = NOBODY, False
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
        self.seats = len(start)
        self.start: list[float] = [float(score) for score in start]
        """Every seat's score before the first turn."""
        self.scores: list[float] = []
        """Every seat's running score after each turn, ``seats`` values a turn, as floats
        (every column is a float)."""
        self.movers: list[int] = []
        self.first_final = NOBODY
        """The index of the first turn of the final round, NOBODY before one is seen."""

    def observe(self, mover: int, scores: Sequence[float], final_round: bool = False) -> None:
        """The turn of ``mover`` has ended with these running scores (``final_round``:
        the turn was one of the final round)."""
        if final_round and self.first_final == NOBODY:
            self.first_final = len(self.movers)
        self.movers.append(mover)
        self.scores.extend([float(score) for score in scores])

    def observe_turns(
        self, movers: Sequence[int], scores: Sequence[float], first_final: int = NOBODY
    ) -> None:
        """Many turns at once, as :meth:`observe` one by one (``scores``: ``seats`` floats
        a turn, taken as they are; ``first_final``: the index among these turns of the
        final round's first, or NOBODY). A game's summary keeps its own series as it goes
        and hands it over here in one call: a call into this module from a game's costs
        more than a list append."""
        if first_final != NOBODY and self.first_final == NOBODY:
            self.first_final = len(self.movers) + first_final
        self.movers.extend(movers)
        self.scores.extend(scores)

    def columns(self, winners: Sequence[int], final: Sequence[float]) -> dict[str, float | None]:
        """The per-game columns; the last observation takes the final scores (end-of-game
        scoring included). All null for a single seat, no turn or no winner."""
        out = _NO_COLUMNS.copy()
        seats, turns = self.seats, len(self.movers)
        won = 0
        for winner in winners:
            won |= 1 << winner
        if seats < 2 or turns == 0 or won == 0:
            return out
        # The series: the start row, then every turn's row, the last one final (joined as
        # lists: the floats are shared, not unboxed and boxed again one by one).
        series = self.start + self.scores[: (turns - 1) * seats]
        for score in final:
            series.append(float(score))
        sole = NOBODY if won & (won - 1) else won.bit_length() - 1
        tops, leaders, scale, comeback = _tops(series, seats, sole)
        out["lead_changes"] = float(_lead_changes(leaders))
        for name, point in zip(_POINT_NAMES, POINTS, strict=True):
            at = leaders[max(1, math.ceil(point * turns))]
            out[name] = _members(at & won) / _members(at)
        out["comeback"] = comeback if sole != NOBODY else _comeback(series, tops, seats, won)
        led = 0
        for row in range(1, turns + 1):
            if leaders[row] & won:
                led += 1
        out["winner_led"] = led / turns
        first_final = self._first_final_turn(turns)
        out["decided_final_round"] = 0.0 if leaders[first_final] & won else 1.0
        out["kingmaker"] = self._kingmaker(series, first_final)
        lead_change, stability, drama = _ludii(series, tops, seats, turns, won, leaders, scale)
        out["lead_change"] = lead_change
        out["stability"] = stability
        out["drama"] = drama
        return out

    def _first_final_turn(self, turns: int) -> int:
        """The index of the final round's first turn: the first marked final, or else the
        last round (one turn per seat)."""
        if self.first_final != NOBODY:
            return self.first_final
        return max(0, turns - self.seats)

    def _kingmaker(self, series: list[float], first_final: int) -> float | None:
        """1 when a final-round turn of the sole last-placed seat changed the sole leader
        among the other seats; null below three seats or with a shared last place."""
        seats = self.seats
        if seats < 3:
            return None
        turns = len(self.movers)
        at_final = turns * seats
        bottom = min(series[at_final : at_final + seats])
        last = [seat for seat in range(seats) if series[at_final + seat] == bottom]
        if len(last) != 1:
            return None
        loser = last[0]
        for turn in range(first_final, turns):
            if self.movers[turn] != loser:
                continue
            before = _sole_leader_among(series, turn * seats, seats, loser)
            if before != _sole_leader_among(series, (turn + 1) * seats, seats, loser):
                return 1.0
        return 0.0


def _lead_changes(leaders: list[int]) -> int:
    """Times the sole leader passed to another seat after the start (a shared lead keeps
    the last one)."""
    changes, current = 0, 0
    for row in range(1, len(leaders)):
        at = leaders[row]
        if at & (at - 1):
            continue
        if current and at != current:
            changes += 1
        current = at
    return changes


def _ludii(
    series: list[float],
    tops: list[float],
    seats: int,
    turns: int,
    won: int,
    leaders: list[int],
    scale: float,
) -> tuple[float, float, float]:
    """Ludii's per-game LeadChange, Stability and Drama, on the states before each turn
    (the start, then after every turn but the last), as Ludii evaluates the state before
    each move. Ludii's state evaluation (a search's value, -1 to 1) is here each seat's
    running score divided by ``scale``, the largest absolute score of the game (at least
    1: also -1 to 1). ``tops`` and ``leaders`` are the rows' top scores and leaders
    (dividing by the scale keeps them: the top evaluation is the top score divided)."""
    changes, previous = 0, 0
    for row in range(turns):
        if leaders[row] != previous:
            changes += 1
        previous = leaders[row]
    stability = 0.0
    for seat in range(seats):
        column = series[seat : turns * seats : seats]
        total = 0.0
        for value in column:
            total += value / scale
        mean = total / turns
        spread = 0.0
        for value in column:
            deviation = value / scale - mean
            spread += deviation * deviation
        stability += spread / turns
    members = [seat for seat in range(seats) if won >> seat & 1]
    winners = len(members)
    gaps = 0.0
    for row in range(turns):
        at = row * seats
        top = tops[row] / scale
        gap = 0.0
        for seat in members:
            gap += top - series[at + seat] / scale
        gaps += gap / winners
    return changes / turns, stability, gaps / turns
