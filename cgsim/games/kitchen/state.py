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
from typing import Any, Final

from cgsim.games.compiled import dataclass_reduce
from cgsim.games.kitchen.settings import KitchenRules

USED: Final = -1
"""A special card in the used pile (3-4 players)."""
MIDDLE: Final = -2
"""The shared special card still in the middle of the table (2 players)."""
NONE: Final = -1
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


PHASE_NAMES: Final = (
    "conditions",
    "sluggard response",
    "actions",
    "bazaar swaps",
    "holiday discards",
    "cleaning the shack",
    "over",
)
"""Readable phase names, indexed by phase."""

USED_WORKER: Final = 1
USED_SPECIAL: Final = 2
USED_SLUGGARD: Final = 4
"""Bits of ``State.flags``: which conditions-phase abilities this turn has used."""

# Every member bound once to a final name: the engine compares phases at every step,
# and on Python 3.11 reading a member off its enum class goes through the metaclass
# (compiled code reads a final name directly).
PHASE_CONDITIONS: Final = Phase.CONDITIONS
PHASE_SLUGGARD_RESPONSE: Final = Phase.SLUGGARD_RESPONSE
PHASE_ACTIONS: Final = Phase.ACTIONS
PHASE_BAZAAR_SWAPS: Final = Phase.BAZAAR_SWAPS
PHASE_HOLIDAY_DISCARDS: Final = Phase.HOLIDAY_DISCARDS
PHASE_CLEANING: Final = Phase.CLEANING
PHASE_OVER: Final = Phase.OVER


@dataclass(slots=True, unsafe_hash=True)
class State:
    """A complete Kitchen Garden position, including the hidden cards.

    Never mutated: the engine builds a new one for every change. Not a frozen dataclass
    only for speed: compiled, a frozen dataclass is built through ``object.__setattr__``
    field by field, ten times slower than this plain ``__init__``; it also pickles
    through ``__init__`` (``__reduce__``), as compiled classes need.
    """

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

    def __init__(
        self,
        rules: KitchenRules,
        seed: int,
        tasks: tuple[int, ...],
        hands: tuple[tuple[int, ...], ...],
        beds: tuple[tuple[tuple[int, ...], ...], ...],
        market: tuple[int, ...],
        deck: tuple[int, ...],
        discard: tuple[int, ...],
        specials: tuple[tuple[int, ...], ...],
        sluggards: tuple[int, ...],
        turn: int,
        active: int,
        phase: Phase,
        flags: int,
        actions_left: int,
        sub: int,
        sub_seat: int,
        pending: int,
        reshuffles: int,
        winner: int,
        aborted: bool,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.tasks = tasks
        self.hands = hands
        self.beds = beds
        self.market = market
        self.deck = deck
        self.discard = discard
        self.specials = specials
        self.sluggards = sluggards
        self.turn = turn
        self.active = active
        self.phase = phase
        self.flags = flags
        self.actions_left = actions_left
        self.sub = sub
        self.sub_seat = sub_seat
        self.pending = pending
        self.reshuffles = reshuffles
        self.winner = winner
        self.aborted = aborted

    def __reduce__(self) -> tuple[type[State], tuple[Any, ...]]:
        return dataclass_reduce(self)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def decider(self) -> int:
        """The seat that makes the next decision."""
        if self.phase == PHASE_SLUGGARD_RESPONSE or self.phase == PHASE_HOLIDAY_DISCARDS:
            return self.sub_seat
        return self.active
