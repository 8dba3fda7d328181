"""The Kitchen Garden state: one frozen value of ints and tuples, never mutated.

Card ids index ``rules.catalogue.card_types``. Hands are sorted tuples of card ids; a
bed is the tuple of card ids in its slots, in the order they were placed; the deck's top
card is its *last* element, so a draw is one slice. Special cards are tracked per type
and copy as the seat holding them (``USED`` once played in a 3-4 player game, ``MIDDLE``
while the shared 2-player copy still lies in the middle).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from cgsim.games.kitchen.settings import KitchenRules

USED = -1
"""A special card in the used pile (3-4 players)."""
MIDDLE = -2
"""The shared special card still in the middle of the table (2 players)."""
NONE = -1
"""No card / no seat."""


class Phase(IntEnum):
    """Decision points (``State.phase``): what the deciding seat chooses next.

    An ``IntEnum`` is an int: states compare and hash as before, and JSON writes the number.
    """

    CONDITIONS = 0
    """The active seat's conditions phase: a Worker, a special or a Sluggard, or no more."""
    SLUGGARD_RESPONSE = 1
    """The Sluggard's target: cancel it with a Worker or accept it."""
    ACTIONS = 2
    """The active seat's actions."""
    BAZAAR_SWAPS = 3
    """After a Bazaar: swaps with the new market, or done."""
    HOLIDAY_DISCARDS = 4
    """During a Holiday: ``sub_seat`` discards a card."""
    CLEANING = 5
    """Cleaning the shack: the active seat discards down to the hand limit."""
    OVER = 6
    """The game has ended."""


PHASE_NAMES = (
    "conditions",
    "sluggard response",
    "actions",
    "bazaar swaps",
    "holiday discards",
    "cleaning the shack",
    "over",
)
"""Readable phase names, indexed by phase."""

USED_WORKER = 1
USED_SPECIAL = 2
USED_SLUGGARD = 4
"""Bits of ``State.flags``: which conditions-phase abilities this turn has used."""

_SLUGGARD_RESPONSE, _HOLIDAY_DISCARDS = Phase.SLUGGARD_RESPONSE, Phase.HOLIDAY_DISCARDS
"""Bound once for ``State.decider``, asked at every decision: on Python 3.11 reading an Enum
member off its class goes through the metaclass's ``__getattr__`` hook."""


@dataclass(frozen=True, slots=True)
class State:
    """A complete Kitchen Garden position, including the hidden cards."""

    rules: KitchenRules
    seed: int
    """Game seed; with ``reshuffles`` it seeds every reshuffle of the discard pile."""
    tasks: tuple[int, ...]
    """Task index (into the catalogue) of every seat."""
    hands: tuple[tuple[int, ...], ...]
    beds: tuple[tuple[tuple[int, ...], ...], ...]
    """``beds[seat][crop]``: card ids in the bed's slots."""
    market: tuple[int, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    """The ordinary discard pile, oldest first."""
    specials: tuple[tuple[int, ...], ...]
    """``specials[type][copy]``: holder seat, ``USED`` or ``MIDDLE``."""
    sluggards: tuple[int, ...]
    """Per seat: the Sluggard card lying in front of it (it skips its next turn) or ``NONE``."""
    turn: int
    """Number of the current turn, 1-based, every seat's turns counted."""
    active: int
    """Seat whose turn it is."""
    phase: Phase
    flags: int
    actions_left: int
    sub: int
    """Bazaar swaps left, or Holiday discards left for ``sub_seat``."""
    sub_seat: int
    """Seat deciding a Sluggard response or Holiday discards, else ``NONE``."""
    pending: int
    """The Sluggard card awaiting its target's answer, else ``NONE``."""
    reshuffles: int
    winner: int
    """The seat that fully planted its garden, else ``NONE``."""
    aborted: bool

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def decider(self) -> int:
        """The seat that makes the next decision."""
        if self.phase == _SLUGGARD_RESPONSE or self.phase == _HOLIDAY_DISCARDS:
            return self.sub_seat
        return self.active
