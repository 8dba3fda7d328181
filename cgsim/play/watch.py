"""Which seat's bot code is running, and since when: a marker the parent can read.

A worker plays its games with a :class:`BotWatch` as the loop's ``bot_call`` hook. Its
cells live in shared memory, so the parent can tell, without asking the worker, which
game and seat were running when the worker died (a bot that called ``os._exit`` is
blamed, not "no seat"), and whether a bot has been running for longer than the time
limit plus a grace (a bot that ignores the alarm is stopped from outside: the parent
kills the worker). Writing three floats per bot call costs well under a microsecond.
"""

from __future__ import annotations

import time
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass

NOBODY = -1.0
GAME, SEAT, SINCE = 0, 1, 2
CELLS = 3
MIN_GRACE = 1.0
"""Least grace, in seconds, past the time limit before a bot is stopped from outside."""

Check = Callable[[int | None], None]
"""Run each time a bot call returns, with the seat (may raise ``BotFault``)."""


def grace_deadline(time_limit: float) -> float:
    """Seconds a bot call may last before it is stopped from outside: the limit plus a
    grace of the limit again, at least :data:`MIN_GRACE` (the alarm inside the worker
    ends a late decision at the limit; this is for a bot that defeats the alarm)."""
    return time_limit + max(MIN_GRACE, time_limit)


@dataclass(frozen=True, slots=True)
class Running:
    """What a watch says: the game being played and the seat whose bot is running."""

    game_id: int | None
    seat: int | None
    seconds: float
    """How long the seat's bot has been running (0 when none is)."""


class BotWatch:
    """The loop's ``bot_call`` hook, writing the running seat to ``cells``.

    ``cells`` is a plain list, or a shared ``RawArray('d', 3)`` that the parent reads.
    ``check`` (if any) runs each time a bot returns: the tamper check of a suspect game.
    """

    def __init__(self, cells: MutableSequence[float] | None = None) -> None:
        self.cells: MutableSequence[float] = cells if cells is not None else [NOBODY, NOBODY, 0.0]
        self.cells[GAME] = self.cells[SEAT] = NOBODY
        self.check: Check | None = None
        self.last: int | None = None

    def game(self, game_id: int | None) -> None:
        """A game starts (None: between games)."""
        self.cells[SEAT] = NOBODY
        self.cells[GAME] = NOBODY if game_id is None else float(game_id)

    def __call__(self, seat: int | None) -> None:
        if seat is None:
            self.cells[SEAT] = NOBODY
            if self.check is not None:
                self.check(self.last)
        else:
            self.last = seat
            self.cells[SINCE] = time.monotonic()
            self.cells[SEAT] = float(seat)

    @property
    def seat(self) -> int | None:
        """The seat whose bot is running now, if any."""
        seat = self.cells[SEAT]
        return None if seat == NOBODY else int(seat)


def read(cells: MutableSequence[float]) -> Running:
    """The state of a watch from another process (seat first: a torn read only makes the
    running time look shorter, never longer)."""
    seat = cells[SEAT]
    since = cells[SINCE]
    game = cells[GAME]
    running = seat != NOBODY
    return Running(
        game_id=None if game == NOBODY else int(game),
        seat=int(seat) if running else None,
        seconds=max(0.0, time.monotonic() - since) if running else 0.0,
    )
