"""One turn being replayed: a cursor over its events and the helpers every phase shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.cottage.checker.fields import get_cell, get_int, get_str
from cgsim.games.cottage.checker.geometry import BED_SIZE, Cell
from cgsim.games.cottage.checker.state import Bed, Player, State
from cgsim.games.cottage.checker.violations import Fatal, Violation


class TurnContext:
    """The state, the turn's events, the position reached, and the turn's own facts."""

    def __init__(
        self, state: State, events: list[Any], turn: int, seat: int, out: list[Violation]
    ) -> None:
        self.state = state
        self.rules = state.rules
        self.events = events
        self.turn = turn
        self.seat = seat
        self.player: Player = state.players[seat]
        self.out = out
        self.position = 0
        self.current = 0
        self.placed = False
        """Whether a tile, a pot or a cat was placed this turn (the stall rule)."""

    def peek(self) -> Mapping[str, Any] | None:
        """The next event, or None at the end of the turn."""
        if self.position >= len(self.events):
            return None
        event = self.events[self.position]
        if not (isinstance(event, Mapping) and isinstance(event.get("e"), str)):
            self.current = self.position
            raise Fatal(f"event is not an object with a string 'e': {event!r}")
        return event

    def peek_kind(self) -> str | None:
        """The next event's type, or None at the end of the turn."""
        event = self.peek()
        return None if event is None else str(event["e"])

    def take(self, kind: str, reason: str = "") -> Mapping[str, Any]:
        """Consume the next event, which must be of type ``kind``."""
        event = self.peek()
        self.current = self.position
        if event is None or event["e"] != kind:
            found = "the end of the turn" if event is None else f"a {event['e']} event"
            why = f" ({reason})" if reason else ""
            raise Fatal(f"expected a {kind} event{why}, found {found}")
        self.position += 1
        return event

    def fail(self, message: str) -> Fatal:
        """A fatal violation at the current event."""
        event = self.events[self.current] if self.current < len(self.events) else None
        prefix = f"{event['e']}: " if isinstance(event, Mapping) and "e" in event else ""
        return Fatal(prefix + message, self.current)

    def note(self, message: str) -> None:
        """A violation that leaves the replay trustworthy."""
        event = self.current if self.current < len(self.events) else None
        self.out.append(Violation(self.turn, event, message))

    def bed_of(self, event: Mapping[str, Any], kind: str) -> tuple[int, Bed]:
        """The player's bed named by the event's ``bed`` field."""
        index = get_int(event, "bed", kind)
        if index not in (0, 1):
            raise self.fail(f"bed {index} is not 0 or 1")
        bed = self.player.beds[index]
        if bed is None:
            raise self.fail(f"seat {self.seat} has no bed {index}")
        return index, bed

    def bed_cell(self, event: Mapping[str, Any], kind: str) -> Cell:
        """The event's ``cell`` field, a cell of a bed."""
        return get_cell(event, "cell", kind, BED_SIZE)

    def place_token(self, kind: str, token: str) -> tuple[int, Bed, Cell]:
        """Consume a ``kind`` event that puts a ``token`` on an empty cell of a bed."""
        return self.put_token(self.take(kind), kind, token)

    def put_token(self, event: Mapping[str, Any], kind: str, token: str) -> tuple[int, Bed, Cell]:
        """Put the ``token`` of an already consumed event on an empty cell of a bed."""
        index, bed = self.bed_of(event, kind)
        cell = self.bed_cell(event, kind)
        if not bed.is_empty(cell):
            raise self.fail(
                f"cell {list(cell)} of bed {index} is not empty ({describe(bed, cell)})"
            )
        bed.tokens[cell] = token
        self.placed = True
        return index, bed, cell

    def place_cat(self, why: str) -> None:
        """Consume a ``cat`` event with the given ``why``."""
        event = self.peek()
        if event is not None and event.get("e") == "cat":
            self.current = self.position
            found = get_str(event, "why", "cat")
            if found != why:
                raise self.fail(f"why is {found!r}, expected {why!r} at this point of the turn")
        if self.player.reserve < 1:
            self.current = self.position
            raise Fatal(f"cat: seat {self.seat} has no cat in reserve", self.current)
        self.place_token("cat", "cat")
        self.player.reserve -= 1

    def complete_beds(self) -> list[int]:
        """Indexes of the player's complete beds."""
        return [
            i for i, bed in enumerate(self.player.beds) if bed is not None and bed.is_complete()
        ]


def describe(bed: Bed, cell: Cell) -> str:
    """What lies on a cell, for messages."""
    if cell in bed.tiles:
        return f"tile {bed.tiles[cell]}"
    if cell in bed.tokens:
        return f"{bed.tokens[cell]} token"
    if cell in bed.printed:
        return f"printed {bed.printed[cell]}"
    return "empty"
