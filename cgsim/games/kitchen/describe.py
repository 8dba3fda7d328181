"""Readable text of actions, for logs and error messages."""

from __future__ import annotations

from typing import Any

from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import SPECIALS, type_name
from cgsim.games.kitchen.settings import KitchenRules


def describe_action(rules: KitchenRules, action: Action) -> str:
    """Short readable text of an action (for logs and errors); card types come from rules."""
    catalogue = rules.catalogue
    kind, a, b, c = A.decode(action)
    crops = catalogue.crops

    def card(type_id: int) -> str:
        if type_id >= len(catalogue.types):
            return f"card type {type_id}"
        return type_name(catalogue, type_id)

    def crop(index: int) -> str:
        return crops[index] if index < len(crops) else f"bed {index}"

    def special(index: int) -> str:
        return SPECIALS[index].capitalize() if index < len(SPECIALS) else f"special {index}"

    texts: dict[int, Any] = {
        A.END_CONDITIONS: lambda: "no more conditions",
        A.COND_WORKER: lambda: "discard a Worker for an extra action",
        A.COND_SPECIAL: lambda: f"discard {special(a)} for an extra action",
        A.COND_SLUGGARD: lambda: f"Sluggard on seat {a}",
        A.CANCEL_SLUGGARD: lambda: "cancel the Sluggard with a Worker",
        A.ACCEPT_SLUGGARD: lambda: "accept the Sluggard",
        A.HARVEST: lambda: "harvest (draw 1)",
        A.PLANT: lambda: f"plant {card(a)}",
        A.WEED: lambda: f"Weed on seat {a}'s {crop(b)} bed",
        A.WEEDING: lambda: f"weeding: remove slot {b} of the {crop(a)} bed",
        A.MARKET: lambda: f"market: give {card(a)}, take slot {b}",
        A.BAZAAR: lambda: "Bazaar",
        A.BAZAAR_SWAP: lambda: f"bazaar swap: give {card(a)}, take slot {b}",
        A.BAZAAR_DONE: lambda: "no more bazaar swaps",
        A.HOLIDAY: lambda: "Holiday",
        A.HOLIDAY_DISCARD: lambda: f"holiday discard {card(a)}",
        A.CROW: lambda: f"Crow: take {card(a)} from the discard pile",
        A.STEAL: lambda: f"Stealing: take slot {c} of seat {a}'s {crop(b)} bed",
        A.CLEAN_DISCARD: lambda: f"discard {card(a)}",
    }
    text = texts.get(kind)
    if text is None:
        return f"unknown action {action}"
    result: str = text()
    return result
