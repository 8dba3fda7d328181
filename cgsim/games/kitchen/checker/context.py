"""One turn being replayed: a cursor over its events and the card checks every phase shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgsim.games.kitchen.checker.fields import get_int, get_str
from cgsim.games.kitchen.checker.state import State
from cgsim.games.kitchen.checker.violations import Fatal, Stopped, Violation


class TurnContext:
    """The state, the turn's events, the position reached, and the acting seat."""

    def __init__(
        self,
        state: State,
        events: list[Any],
        turn: int,
        seat: int,
        out: list[Violation],
        may_stop: bool,
    ) -> None:
        self.state = state
        self.rules = state.rules
        self.catalogue = state.catalogue
        self.events = events
        self.turn = turn
        self.seat = seat
        self.out = out
        self.may_stop = may_stop
        """The record ends in error: it may stop at a decision of this turn."""
        self.position = 0
        self.current = 0

    # -- the cursor

    def peek(self) -> Mapping[str, Any] | None:
        """The next event, or None at the end of the turn."""
        if self.position >= len(self.events):
            return None
        event = self.events[self.position]
        if not (isinstance(event, Mapping) and isinstance(event.get("e"), str)):
            self.current = self.position
            raise Fatal(f"event is not an object with a string 'e': {event!r}", self.position)
        return event

    def peek_kind(self) -> str | None:
        """The next event's type, or None at the end of the turn."""
        event = self.peek()
        return None if event is None else str(event["e"])

    def take(self, kind: str, reason: str = "") -> Mapping[str, Any]:
        """Consume the next event, which the rules force to be of type ``kind``."""
        event = self.peek()
        self.current = self.position
        if event is None or event["e"] != kind:
            why = f" ({reason})" if reason else ""
            raise Fatal(f"expected {an(kind)} event{why}, found {_found(event)}", self.position)
        self.position += 1
        return event

    def decision(self, kinds: Sequence[str], who: str) -> str:
        """The type of the next event, a decision that must be one of ``kinds`` (not consumed).

        A record of a game stopped in error may end here, at the last turn's decision.
        """
        event = self.peek()
        self.current = self.position
        if event is None and self.may_stop:
            raise Stopped
        if event is None or event["e"] not in kinds:
            raise Fatal(
                f"expected {who} ({', '.join(kinds)}), found {_found(event)}", self.position
            )
        return str(event["e"])

    def fail(self, message: str) -> Fatal:
        """A fatal violation at the current event, prefixed with its type."""
        event = self.events[self.current] if self.current < len(self.events) else None
        prefix = f"{event['e']}: " if isinstance(event, Mapping) and "e" in event else ""
        return Fatal(prefix + message, self.current)

    # -- fields naming seats, beds and cards

    def seat_field(self, event: Mapping[str, Any], key: str) -> int:
        """A seat number field."""
        seat = get_int(event, key, str(event["e"]))
        if not 0 <= seat < self.state.players:
            raise self.fail(f"{key} {seat} is not a seat (0 to {self.state.players - 1})")
        return seat

    def opponent_field(self, event: Mapping[str, Any], key: str) -> int:
        """A seat field that must name another player than the acting one."""
        seat = self.seat_field(event, key)
        if seat == self.seat:
            raise self.fail(f"{key} is seat {seat} itself, it must be another player")
        return seat

    def crop_field(self, event: Mapping[str, Any]) -> int:
        """The ``bed`` field: a crop name, as its index."""
        name = get_str(event, "bed", str(event["e"]))
        if name not in self.catalogue.crops:
            raise self.fail(f"bed {name!r} is not a crop of components.crops")
        return self.catalogue.crops.index(name)

    def card_field(self, event: Mapping[str, Any], key: str) -> int:
        """A card id field."""
        card = get_int(event, key, str(event["e"]))
        if not 0 <= card < self.catalogue.card_count:
            raise self.fail(f"{key} {card} is not a card id (0 to {self.catalogue.card_count - 1})")
        return card

    def from_hand(
        self, event: Mapping[str, Any], key: str, seat: int, kind: str | None = None
    ) -> int:
        """Remove the card a field names from a hand: it must be there, of ``kind`` if
        given, and the lowest id of its type there (identical cards are interchangeable)."""
        card = self.card_field(event, key)
        hand = self.state.hands[seat]
        name = self.catalogue.describe(card)
        name = name if key == "card" else f"{key} {name}"
        if kind is not None and self.state.kind_of(card) != kind:
            raise self.fail(f"{name} is not a {kind.capitalize()}")
        if card not in hand:
            raise self.fail(f"{name} is not in seat {seat}'s hand {sorted(hand)}")
        same = self.catalogue.card_type[card]
        lowest = min(c for c in hand if self.catalogue.card_type[c] == same)
        if card != lowest:
            raise self.fail(f"{name}: the lowest id of that type in the hand is {lowest}")
        hand.remove(card)
        return card

    def first_in(self, cards: list[int], card: int, where: str) -> int:
        """The index of ``card`` in a bed or the market, which must be the first of its type
        there (identical cards are interchangeable: the first one is taken)."""
        name = self.catalogue.describe(card)
        if card not in cards:
            raise self.fail(f"{name} is not in {where} {cards}")
        same = self.catalogue.card_type[card]
        first = next(i for i, c in enumerate(cards) if self.catalogue.card_type[c] == same)
        if cards[first] != card:
            raise self.fail(f"{name}: the first card of that type in {where} is {cards[first]}")
        return first

    def expect(self, event: Mapping[str, Any], key: str, value: Any) -> None:
        """A field whose value the rules fix."""
        found = event.get(key)
        if found != value or isinstance(found, bool) != isinstance(value, bool):
            raise self.fail(f"{key} is {found!r}, expected {value!r}")


def _found(event: Mapping[str, Any] | None) -> str:
    return "the end of the turn" if event is None else an(f"{event['e']} event")


def an(noun: str) -> str:
    """``noun`` with its indefinite article."""
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
