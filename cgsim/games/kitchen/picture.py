"""A state as plain data for the browser viewer: market, tasks, beds, hands and piles.

Every hand is included; the page hides the ones the chosen seat may not see (its own
hand and only the counts of the others), so one page shows each seat's view.
"""

from __future__ import annotations

from typing import Any

from cgsim.games.kitchen.beds import bed_full, bed_plants
from cgsim.games.kitchen.cards import PLANT, SPECIALS, Catalogue
from cgsim.games.kitchen.scoring import beds_full, plants_planted, seat_score
from cgsim.games.kitchen.state import MIDDLE, NONE, PHASE_NAMES, USED, Phase, State


def _card(catalogue: Catalogue, card: int) -> dict[str, Any]:
    """A card as its kind, crop name and plants (``crop`` empty for the others)."""
    card_type = catalogue.types[catalogue.card_types[card]]
    crop = catalogue.crops[card_type.crop] if card_type.kind == PLANT else ""
    return {"kind": card_type.kind, "crop": crop, "plants": card_type.plants}


def _holder(holder: int) -> str | int:
    return "used" if holder == USED else "middle" if holder == MIDDLE else holder


def picture(state: State) -> dict[str, Any]:
    """Everything the viewer draws of one state, as JSON-ready data."""
    catalogue = state.rules.catalogue
    seats = []
    for seat in range(state.players):
        task = catalogue.tasks[state.tasks[seat]]
        beds = [
            {
                "crop": catalogue.crops[crop],
                "cards": [_card(catalogue, c) for c in bed],
                "slots": task.slots[crop],
                "target": task.targets[crop],
                "plants": bed_plants(catalogue, bed),
                "full": bed_full(catalogue, bed, task.targets[crop], task.slots[crop]),
            }
            for crop, bed in enumerate(state.beds[seat])
        ]
        sluggard = state.sluggards[seat]
        seats.append(
            {
                "seat": seat,
                "task": task.name,
                "score": seat_score(state, seat),
                "plants": plants_planted(state, seat),
                "full": beds_full(state, seat),
                "beds": beds,
                "hand": [_card(catalogue, c) for c in state.hands[seat]],
                "sluggard": sluggard != NONE,
            }
        )
    over = state.phase == Phase.OVER
    return {
        "turn": state.turn,
        "active": state.active,
        "decider": state.decider,
        "phase": PHASE_NAMES[state.phase],
        "actions_left": state.actions_left if state.phase == Phase.ACTIONS else None,
        "over": over,
        "winner": state.winner if over and state.winner != NONE else None,
        "aborted": state.aborted,
        "market": [_card(catalogue, c) for c in state.market],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "discard_top": _card(catalogue, state.discard[-1]) if state.discard else None,
        "reshuffles": state.reshuffles,
        "specials": [
            {"name": name, "holders": [_holder(h) for h in state.specials[i]]}
            for i, name in enumerate(SPECIALS)
        ],
        "seats": seats,
        "scores": [seat["plants"] for seat in seats],
    }
