"""Readable text of actions and recorded events, and the notation legend."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cgsim.games.contract import Action, Term, raw_event
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import SPECIALS, Catalogue, card_name, type_name
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


# ---------------------------------------------------------------- notation and endings

NOTATION = (
    Term(
        "3 cabbage",
        "a plant card: it plants 3 cabbages in the cabbage bed (cards carry 1 to 3 plants)",
    ),
    Term("Weed, Worker, Sluggard", "the action cards; Crow, Bazaar, Holiday the special cards"),
    Term("seat 0 (rake)", "a seat and its secret task, which sets its beds' targets"),
    Term(
        "cabbage 3/5  [3 cabbage] [ ]",
        "a bed: plants in it / plants its task asks for, then its slots ([ ] is free); "
        "'full' when exactly planted",
    ),
    Term(
        "specials: crow middle",
        "where each special card is: in the middle (either player may use it), with a "
        "seat, or used",
    ),
    Term("market", "the open cards, by slot: a Market action swaps one with a hand card"),
    Term("score", "points: 100 per plant planted plus 1 per fully planted bed"),
)
"""The legend of the renderings and reports: every symbol a newcomer meets."""

ENDS = (
    Term("normal", "a player fully planted all four beds and won"),
    Term("aborted", "stopped at the turn cap (default 400 turns) without a winner"),
)


# ---------------------------------------------------------------- recorded events in words

Event = Mapping[str, Any]


def _event_texts(catalogue: Catalogue) -> dict[str, Callable[[Event, str], str]]:
    """Per event type, its sentence; ``who`` is the seat playing the turn (``seat 0``)."""

    def card(value: Any) -> str:
        if isinstance(value, int) and 0 <= value < len(catalogue.card_types):
            return card_name(catalogue, value)
        return f"card {value}"

    def cards(values: Any) -> str:
        return ", ".join(card(v) for v in values) if isinstance(values, list) else "?"

    def seat(value: Any) -> str:
        return f"seat {value}"

    return {
        "end_conditions": lambda e, who: f"{who} ends the conditions phase",
        "cond_worker": lambda e, who: f"{who} discards a Worker for an extra action",
        "cond_special": lambda e, who: (
            f"{who} discards the {str(e.get('special')).capitalize()} for an extra action"
        ),
        "sluggard": lambda e, who: f"{who} lays a Sluggard before {seat(e.get('target'))}",
        "sluggard_cancel": lambda e, who: (
            f"{seat(e.get('seat'))} cancels the Sluggard with a Worker"
        ),
        "sluggard_accept": lambda e, who: (
            f"{seat(e.get('seat'))} accepts the Sluggard (skips its next turn)"
        ),
        "harvest": lambda e, who: f"{who} harvests: draws {card(e.get('card'))}",
        "plant": lambda e, who: f"{who} plants {card(e.get('card'))} in its {e.get('bed')} bed",
        "prize": lambda e, who: f"{who} draws a prize card for a full bed: {card(e.get('card'))}",
        "win": lambda e, who: f"{seat(e.get('seat'))} has planted all its beds and wins",
        "weed": lambda e, who: f"{who} lays a Weed on {seat(e.get('target'))}'s {e.get('bed')} bed",
        "weeding": lambda e, who: (
            f"{who} uses a Worker to remove {card(e.get('card'))} from its {e.get('bed')} bed"
        ),
        "market": lambda e, who: (
            f"{who} swaps {card(e.get('give'))} for {card(e.get('take'))} at the market"
        ),
        "bazaar": lambda e, who: f"{who} plays the Bazaar: the market is discarded",
        "market_laid": lambda e, who: f"new market: {cards(e.get('market'))}",
        "bazaar_swap": lambda e, who: (
            f"{who} swaps {card(e.get('give'))} for {card(e.get('take'))} at the bazaar"
        ),
        "bazaar_done": lambda e, who: f"{who} stops swapping",
        "holiday": lambda e, who: f"{who} plays the Holiday: everyone discards, then draws",
        "discard": lambda e, who: f"{seat(e.get('seat'))} discards {card(e.get('card'))}",
        "draw": lambda e, who: f"{seat(e.get('seat'))} draws {card(e.get('card'))}",
        "crow": lambda e, who: (
            f"{who} plays the Crow: takes {card(e.get('card'))} from the discards"
        ),
        "steal": lambda e, who: (
            f"{who} steals {card(e.get('card'))} from {seat(e.get('target'))}'s {e.get('bed')} bed"
        ),
        "special_passes": lambda e, who: (
            f"the {str(e.get('special')).capitalize()} passes to {seat(e.get('to'))}"
        ),
        "specials_return": lambda e, who: (
            f"every {str(e.get('special')).capitalize()} returns to its owner"
        ),
        "reshuffle": lambda e, who: "the discard pile is shuffled into a new deck",
        "action_lost": lambda e, who: f"{who} has no legal action: the action is lost",
        "skip": lambda e, who: f"{seat(e.get('seat'))} skips this turn (Sluggard)",
        "aborted": lambda e, who: "the turn cap is reached: the game ends without a winner",
    }


def describe_turns(record: Mapping[str, Any], catalogue: Catalogue) -> dict[int, list[str]]:
    """Every recorded turn's events in words, by turn number (``seat 0 plants ...``);
    an event of a type this module does not know is shown with its raw fields."""
    texts = _event_texts(catalogue)
    turns: dict[int, list[str]] = {}
    for turn in record.get("turns", []):
        who = f"seat {turn.get('seat')}"
        lines = []
        for event in turn.get("events", []):
            if event.get("e") == "turn":
                continue
            text = texts.get(str(event.get("e")))
            lines.append(text(event, who) if text else raw_event(event))
        turns[int(turn["n"])] = lines
    return turns
