"""A plain-text picture of a Kitchen Garden state, for ``cgsim replay`` and debugging."""

from __future__ import annotations

from cgsim.games.kitchen.beds import bed_full, bed_plants
from cgsim.games.kitchen.cards import SPECIALS, card_name
from cgsim.games.kitchen.observation import Observation
from cgsim.games.kitchen.state import MIDDLE, NONE, PHASE_NAMES, USED, Phase, State


def _holder_text(holder: int) -> str:
    if holder == USED:
        return "used"
    if holder == MIDDLE:
        return "middle"
    return f"seat {holder}"


def _status(state: State | Observation) -> str:
    if state.phase == Phase.OVER:
        if state.aborted:
            return f"aborted at the turn cap after turn {state.turn}"
        return f"seat {state.winner} wins on turn {state.turn}"
    text = f"turn {state.turn}, seat {state.active} plays ({PHASE_NAMES[state.phase]}"
    if state.phase == Phase.ACTIONS:
        text += f", {state.actions_left} action{'s' if state.actions_left != 1 else ''} left"
    if state.decider != state.active:
        text += f", seat {state.decider} decides"
    return text + ")"


def render(state: State | Observation) -> str:
    """Each seat's task, beds (slots with cards), hand; the market, piles and specials.

    Given what one seat sees (an ``Observation``), other hands show only their size.
    """
    catalogue = state.rules.catalogue
    deck = len(state.deck) if isinstance(state, State) else state.deck_count

    def names(cards: tuple[int, ...]) -> str:
        return ", ".join(card_name(catalogue, card) for card in cards) or "-"

    lines = [f"Kitchen Garden: {_status(state)}"]
    top = card_name(catalogue, state.discard[-1]) if state.discard else "-"
    lines.append(
        f"deck {deck}  discard {len(state.discard)} (top {top})  reshuffles {state.reshuffles}"
    )
    lines.append("market: " + " ".join(f"[{card_name(catalogue, c)}]" for c in state.market))
    lines.append(
        "specials: "
        + "; ".join(
            f"{name} {', '.join(_holder_text(h) for h in state.specials[i])}"
            for i, name in enumerate(SPECIALS)
        )
    )
    width = max(len(crop) for crop in catalogue.crops)
    for seat in range(state.players):
        task = catalogue.tasks[state.tasks[seat]]
        marks = []
        if state.sluggards[seat] != NONE:
            marks.append("Sluggard in front")
        if seat == state.active and state.phase != Phase.OVER:
            marks.append("to play")
        suffix = f"  [{'; '.join(marks)}]" if marks else ""
        planted = sum(bed_plants(catalogue, bed) for bed in state.beds[seat])
        full = sum(
            bed_full(catalogue, bed, task.targets[crop], task.slots[crop])
            for crop, bed in enumerate(state.beds[seat])
        )
        lines.append(
            f"seat {seat} ({task.name}): {planted} plants, "
            f"{full}/{len(catalogue.crops)} beds full{suffix}"
        )
        for crop, bed in enumerate(state.beds[seat]):
            slots = [f"[{card_name(catalogue, card)}]" for card in bed]
            slots += ["[ ]"] * (task.slots[crop] - len(bed))
            done = " full" if bed_full(catalogue, bed, task.targets[crop], task.slots[crop]) else ""
            lines.append(
                f"  {catalogue.crops[crop]:<{width}} {bed_plants(catalogue, bed)}/"
                f"{task.targets[crop]}  {' '.join(slots)}{done}"
            )
        if isinstance(state, State) or seat == state.seat:
            hand = state.hands[seat] if isinstance(state, State) else state.hand
            lines.append(f"  hand ({len(hand)}): {names(hand)}")
        else:
            lines.append(f"  hand ({state.hand_counts[seat]}): hidden")
    return "\n".join(lines)
