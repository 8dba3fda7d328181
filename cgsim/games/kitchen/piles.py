"""Card lookups in hands and piles, shared by legality and ``apply``.

Hands are sorted and a card type's ids form one range, so a type is found by one search;
identical cards are interchangeable, so a pile is reduced to the first slot of each type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cgsim.games.kitchen.cards import Catalogue
from cgsim.games.kitchen.state import MIDDLE


def has_type(catalogue: Catalogue, hand: tuple[int, ...], type_id: int) -> bool:
    """Whether a hand holds a card of the type; hands are sorted and a type's ids form one
    range, so its first card not below the range's start answers."""
    index = first_at_least(hand, catalogue.type_start[type_id])
    return index < len(hand) and hand[index] < catalogue.type_start[type_id + 1]


def first_at_least(hand: tuple[int, ...], card: int) -> int:
    """Index of a sorted hand's first card not below ``card`` (``bisect_left``): a loop
    of plain comparisons, since hands hold a few cards and, compiled, the library call
    cost more than the whole loop."""
    for index in range(len(hand)):
        if hand[index] >= card:
            return index
    return len(hand)


def distinct_types(card_types: tuple[int, ...], hand: tuple[int, ...]) -> list[int]:
    """Distinct card types of a sorted hand, ascending (ids are grouped by type), in the
    order they first appear (a bit per type marks those seen)."""
    seen = 0
    types: list[int] = []
    for card in hand:
        card_type = card_types[card]
        if not seen >> card_type & 1:
            seen |= 1 << card_type
            types.append(card_type)
    return types


def can_use_special(specials: Sequence[tuple[int, ...]], special: int, seat: int) -> bool:
    """Whether ``seat`` holds a copy of the special, or the shared copy lies in the middle."""
    return holds(specials[special], seat)


def holds(holders: tuple[int, ...], seat: int) -> bool:
    """Whether one of a special's copies is ``seat``'s or in the middle (compiled, a loop
    of plain comparisons: ``seat in holders`` compares boxed ints the generic way)."""
    return any(holder in (seat, MIDDLE) for holder in holders)


class LastPile:
    """The last pile (market or discard tuple) and card-type table a derived list was
    computed for, and that list (never mutated by its users): piles are immutable tuples shared by every state until they change, so
    consecutive states usually hit by identity."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[tuple[int, ...] | None, tuple[int, ...] | None, list[int]] = (
            None,
            None,
            [],
        )


_MARKET_SLOTS: Final = LastPile()


def market_slots(card_types: tuple[int, ...], market: tuple[int, ...]) -> list[int]:
    """``first_slots`` of a market, remembered for the last market seen."""
    pile, types, slots = _MARKET_SLOTS.last
    if pile is not market or types is not card_types:
        slots = first_slots(card_types, market)
        _MARKET_SLOTS.last = (market, card_types, slots)
    return slots


def discard_types(card_types: tuple[int, ...], discard: tuple[int, ...]) -> list[int]:
    """Distinct card types of the discard pile, ascending (a bit per type seen: a set of
    the pile cost ten times as much). Its one caller, the Crow's actions, remembers its
    answer for the last pile."""
    seen = 0
    for card in discard:
        seen |= 1 << card_types[card]
    types: list[int] = []
    card_type = 0
    while seen:
        if seen & 1:
            types.append(card_type)
        seen >>= 1
        card_type += 1
    return types


def first_slots(card_types: tuple[int, ...], cards: tuple[int, ...]) -> list[int]:
    """Index of the first card of each distinct type (identical cards are interchangeable)."""
    seen = 0
    slots: list[int] = []
    for index in range(len(cards)):
        card_type = card_types[cards[index]]
        if not seen >> card_type & 1:
            seen |= 1 << card_type
            slots.append(index)
    return slots
