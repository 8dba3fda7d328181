"""What the checker reports, and the signals that stop a replay."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Violation:
    """One way a record breaks the rules or the record format.

    ``turn`` is the turn's ``n`` (None for the setup and the result), ``event`` the index of
    the offending event within that turn (None when the fault is the turn itself).
    """

    turn: int | None
    event: int | None
    message: str


class Fatal(Exception):
    """A violation after which the replayed state can no longer be trusted."""

    def __init__(self, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.event = event


class Stopped(Exception):
    """The record of a game stopped in error ends here, at a decision nobody took."""
