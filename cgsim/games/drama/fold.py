"""Drama of one game, from its running scores turn by turn: lead changes, comebacks and
Ludii's per-game outcome measures.

A game's summary feeds :class:`Drama` each seat's running score after every turn (in
Cottage Garden the score cubes' track values and beehives, in Kitchen Garden the plants
in the beds), then the winners and the final scores; :meth:`Drama.columns` turns the
series into the per-game columns of :data:`DRAMA_COLUMNS`. Both ways of summarizing a
game (from its record, or from a tally while it is played) feed the same series, so they
give the same columns. Definitions in words: ``docs/drama.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cgsim.games.contract import Column, ColumnType

FLOAT = ColumnType.FLOAT
POINTS = (0.25, 0.5, 0.75)
"""The points of the game (share of its turns) at which the leader is looked at."""

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


def _leaders(scores: Sequence[float]) -> frozenset[int]:
    top = max(scores)
    if scores.count(top) == 1:  # the usual case, without a scan in Python
        return frozenset((scores.index(top),))
    return frozenset([seat for seat, score in enumerate(scores) if score == top])


def _sole_leader_among(scores: Sequence[float], seats: Sequence[int]) -> int | None:
    top = max(scores[seat] for seat in seats)
    leading = [seat for seat in seats if scores[seat] == top]
    return leading[0] if len(leading) == 1 else None


class Drama:
    """The running scores of one game, one observation per turn, in order."""

    def __init__(self, start: Sequence[float]) -> None:
        self.start = tuple(map(float, start))
        """Every seat's score before the first turn."""
        self.scores: list[tuple[float, ...]] = []
        """Every seat's running score after each turn."""
        self.movers: list[int] = []
        self.final_round: list[bool] = []

    def observe(self, mover: int, scores: Sequence[float], final_round: bool = False) -> None:
        """The turn of ``mover`` has ended with these running scores."""
        self.movers.append(mover)
        self.scores.append(tuple(map(float, scores)))
        self.final_round.append(bool(final_round))

    def columns(self, winners: Sequence[int], final: Sequence[float]) -> dict[str, float | None]:
        """The per-game columns; the last observation takes the final scores (end-of-game
        scoring included). All null for a single seat, no turn or no winner."""
        empty: dict[str, float | None] = dict.fromkeys(DRAMA_NAMES)
        won = frozenset(winners)
        if len(self.start) < 2 or not self.scores or not won:
            return empty
        series = [*self.scores[:-1], tuple(map(float, final))]
        turns = len(series)
        leaders = [_leaders(scores) for scores in series]
        out = dict(empty)
        out["lead_changes"] = float(_lead_changes(leaders))
        for point in POINTS:
            at = leaders[max(1, math.ceil(point * turns)) - 1]
            out[f"leader_{round(point * 100)}_won"] = len(at & won) / len(at)
        out["comeback"] = min(max(max(s) - s[w] for s in series) for w in won)
        out["winner_led"] = sum(bool(at & won) for at in leaders) / turns
        first_final = self._first_final_turn(turns)
        before_final = series[first_final - 1] if first_final > 0 else self.start
        out["decided_final_round"] = float(not _leaders(before_final) & won)
        out["kingmaker"] = self._kingmaker(series, first_final)
        out |= _ludii(self.start, series, won, [_leaders(self.start), *leaders[:-1]])
        return out

    def _first_final_turn(self, turns: int) -> int:
        """The index of the final round's first turn: the first marked final, or else the
        last round (one turn per seat)."""
        marked = [i for i, final in enumerate(self.final_round[:turns]) if final]
        return marked[0] if marked else max(0, turns - len(self.start))

    def _kingmaker(self, series: Sequence[tuple[float, ...]], first_final: int) -> float | None:
        """1 when a final-round turn of the sole last-placed seat changed the sole leader
        among the other seats; null below three seats or with a shared last place."""
        seats = len(self.start)
        final = series[-1]
        bottom = min(final)
        last = [seat for seat in range(seats) if final[seat] == bottom]
        if seats < 3 or len(last) != 1:
            return None
        others = [seat for seat in range(seats) if seat != last[0]]
        for turn in range(first_final, len(series)):
            if self.movers[turn] != last[0]:
                continue
            before = series[turn - 1] if turn > 0 else self.start
            if _sole_leader_among(before, others) != _sole_leader_among(series[turn], others):
                return 1.0
        return 0.0


def _lead_changes(leaders: Sequence[frozenset[int]]) -> int:
    """Times the sole leader passed to another seat (a shared lead keeps the last one)."""
    changes, current = 0, None
    for at in leaders:
        if len(at) != 1:
            continue
        (seat,) = at
        if current is not None and seat != current:
            changes += 1
        current = seat
    return changes


def _ludii(
    start: tuple[float, ...],
    series: Sequence[tuple[float, ...]],
    won: frozenset[int],
    leaders: Sequence[frozenset[int]],
) -> dict[str, float | None]:
    """Ludii's per-game LeadChange, Stability and Drama, on the states before each turn
    (the start, then after every turn but the last), as Ludii evaluates the state before
    each move. Ludii's state evaluation (a search's value, -1 to 1) is here each seat's
    running score divided by the largest absolute score of the game (also -1 to 1).
    ``leaders`` are those states' leaders (dividing by the scale keeps them)."""
    states = [start, *series[:-1]]
    scale = max(1.0, max(map(abs, start)), *(max(map(abs, scores)) for scores in series))
    evaluations = [[score / scale for score in scores] for scores in states]
    changes, previous = 0, frozenset[int]()
    for current in leaders:
        changes += current != previous
        previous = current
    stability = 0.0
    for values in zip(*evaluations, strict=True):
        mean = sum(values) / len(values)
        stability += sum([(value - mean) ** 2 for value in values]) / len(values)
    gaps = [sum([max(e) - e[w] for w in won]) / len(won) for e in evaluations]
    return {
        "lead_change": changes / len(states),
        "stability": stability,
        "drama": sum(gaps) / len(gaps),
    }
