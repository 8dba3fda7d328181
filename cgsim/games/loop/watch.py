"""Which seat's bot code is running, and since when: a marker the parent can read.

A worker plays its games with a :class:`BotWatch` told of every bot call by the loop. Its
cells live in shared memory, so the parent can tell, without asking the worker, which
game and seat were running when the worker died (a bot that called ``os._exit`` is
blamed, not "no seat"), and whether a bot has been running for longer than the time
limit plus a grace (a bot that ignores the alarm is stopped from outside: the parent
kills the worker). A bot call costs two writes (three with a time limit).
"""

from __future__ import annotations

import time
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from typing import Any, Final

from cgsim.games.compiled import dataclass_reduce

NOBODY: Final = -1.0
GAME: Final = 0
SEAT: Final = 1
SINCE: Final = 2
CELLS: Final = 3
MIN_GRACE: Final = 1.0
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
    """How long the seat's bot has been running (0 when none is; read it only from a
    ``timed`` watch)."""

    def __reduce__(self) -> tuple[type[Running], tuple[Any, ...]]:
        return dataclass_reduce(self)


class BotWatch:
    """Told by the loop when a seat's bot code starts (:meth:`enter`) and returns
    (:meth:`leave`), it knows the running seat, and writes it to ``cells`` if given.

    ``cells``: a shared ``RawArray('d', 3)`` that the parent reads (None: nobody outside
    reads this watch, so nothing is written). ``check`` (if any) runs each time a bot
    returns: the tamper check of a suspect game. ``timed`` also writes when each bot call
    started, for a parent that stops a bot running past the time limit; without a time
    limit nobody reads it, so it is skipped.
    """

    def __init__(self, cells: Any = None) -> None:
        self.cells: Any = None
        if cells is not None:
            # Written through a typed view of the shared buffer: cheaper than ctypes.
            self.cells = memoryview(cells).cast("B").cast("d")
            self.cells[GAME] = NOBODY
            self.cells[SEAT] = NOBODY
        self.running = -1
        """The seat whose bot runs now, -1 for none."""
        self.check: Check | None = None
        self.last: int | None = None
        self.timed = False

    def game(self, game_id: int | None) -> None:
        """A game starts (None: between games)."""
        self.running = -1
        if self.cells is not None:
            self.cells[SEAT] = NOBODY
            self.cells[GAME] = NOBODY if game_id is None else float(game_id)

    def enter(self, seat: int) -> None:
        """The bot of ``seat`` is called."""
        self.last = seat
        self.running = seat
        cells = self.cells
        if cells is not None:
            if self.timed:
                cells[SINCE] = time.monotonic()
            cells[SEAT] = float(seat)

    def leave(self) -> None:
        """The bot called last has returned."""
        self.running = -1
        if self.cells is not None:
            self.cells[SEAT] = NOBODY
        if self.check is not None:
            self.check(self.last)

    @property
    def seat(self) -> int | None:
        """The seat whose bot is running now, if any."""
        return None if self.running < 0 else self.running


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
