"""Actions as ints: a kind and up to three 6-bit arguments, decoded without a table.

Identical cards are interchangeable, so actions name card *types*, not card ids: the
engine takes the lowest id of that type from a hand, the first market slot or bed slot
holding it, the most recently discarded one from the discard pile.
"""

from __future__ import annotations

from typing import Final

from cgsim.games.contract import Action

END_CONDITIONS: Final = 0
COND_WORKER: Final = 1
COND_SPECIAL: Final = 2
"""a: special type."""
COND_SLUGGARD: Final = 3
"""a: target seat."""
CANCEL_SLUGGARD: Final = 4
ACCEPT_SLUGGARD: Final = 5
HARVEST: Final = 6
PLANT: Final = 7
"""a: plant card type (its crop names the bed)."""
WEED: Final = 8
"""a: target seat, b: crop."""
WEEDING: Final = 9
"""a: crop, b: slot."""
MARKET: Final = 10
"""a: hand card type, b: market slot."""
BAZAAR: Final = 11
BAZAAR_SWAP: Final = 12
"""a: hand card type, b: market slot."""
BAZAAR_DONE: Final = 13
HOLIDAY: Final = 14
HOLIDAY_DISCARD: Final = 15
"""a: card type."""
CROW: Final = 16
"""a: card type taken from the discard pile."""
STEAL: Final = 17
"""a: target seat, b: crop, c: slot."""
CLEAN_DISCARD: Final = 18
"""a: card type."""

KIND_NAMES: Final = (
    "end-conditions",
    "cond-worker",
    "cond-special",
    "cond-sluggard",
    "cancel-sluggard",
    "accept-sluggard",
    "harvest",
    "plant",
    "weed",
    "weeding",
    "market",
    "bazaar",
    "bazaar-swap",
    "bazaar-done",
    "holiday",
    "holiday-discard",
    "crow",
    "steal",
    "clean-discard",
)


def encode(kind: int, a: int = 0, b: int = 0, c: int = 0) -> Action:
    """The action int for a kind and its arguments (each 0..63)."""
    return kind << 18 | a << 12 | b << 6 | c


def decode(action: Action) -> tuple[int, int, int, int]:
    """Unpack an action into its kind and arguments ``a``, ``b``, ``c``; the inverse of
    ``encode``. A plain tuple: the engine unpacks one for every applied action."""
    return action >> 18, (action >> 12) & 63, (action >> 6) & 63, action & 63


def kind_of(action: Action) -> int:
    """The kind of an action alone (cheaper than ``decode`` where nothing else is needed)."""
    return action >> 18
