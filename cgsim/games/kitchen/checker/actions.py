"""The action phase: every action compulsory, or lost when none is legal; the common actions."""

from __future__ import annotations

from collections.abc import Callable

from cgsim.games.kitchen.checker.catalogue import PLANT
from cgsim.games.kitchen.checker.context import TurnContext
from cgsim.games.kitchen.checker.moves import draw, swap
from cgsim.games.kitchen.checker.specials import bazaar, crow, holiday, steal
from cgsim.games.kitchen.checker.state import State

Action = Callable[[TurnContext], bool]
"""Replays one action from its first event; True when it won the game."""


def action_phase(ctx: TurnContext, actions: int) -> bool:
    """Replay ``actions`` actions; True when one of them won the game."""
    state, seat = ctx.state, ctx.seat
    for _ in range(actions):
        if not state.deck and not state.discard and legal_action(state, seat) is None:
            ctx.take("action_lost", f"seat {seat} has no legal action")
            continue
        kind = ctx.decision(ACTION_KINDS, f"seat {seat}'s action")
        if kind == "action_lost":
            ctx.take(kind)
            raise ctx.fail(f"seat {seat} has a legal action ({legal_action(state, seat)})")
        if ACTIONS[kind](ctx):
            return True
    return False


def legal_action(state: State, seat: int) -> str | None:
    """A legal action of the seat, by its event type, or None when it has none."""
    hand = state.hands[seat]
    opponents = [t for t in range(state.players) if t != seat]
    crops = range(len(state.catalogue.crops))
    if state.deck or state.discard:
        return "harvest"
    for card in hand:
        kind = state.catalogue.type_of(card)
        if kind.kind == PLANT and state.can_plant(seat, kind.crop, kind.plants):
            return "plant"
    if state.hand_has(seat, "weed") and any(
        len(state.beds[t][c]) < state.tasks[t].slots[c] for t in opponents for c in crops
    ):
        return "weed"
    if state.hand_has(seat, "worker") and any(state.beds[seat]):
        return "weeding"
    if state.can_swap(seat):
        return "market"
    for name in ("bazaar", "holiday"):
        if state.can_use(name, seat):
            return name
    if (
        state.can_use("crow", seat)
        and state.hand_has(seat, "sluggard")
        and any(state.beds[t][c] for t in opponents for c in crops)
    ):
        return "steal"
    return None


def _harvest(ctx: TurnContext) -> bool:
    """The top card of the deck to the hand (a reshuffle first when the deck is empty)."""
    deck = ctx.state.deck
    if deck and ctx.peek_kind() == "reshuffle":
        ctx.take("reshuffle")
        raise ctx.fail(f"the deck still holds {len(deck)} cards")
    card = draw(ctx, "harvest")
    event = ctx.take("harvest")
    if card is None:
        raise ctx.fail("the deck and the discard pile are both empty")
    ctx.expect(event, "card", card)
    ctx.state.hands[ctx.seat].append(card)
    return False


def _plant(ctx: TurnContext) -> bool:
    """A plant card into its crop's bed; a prize draw or the win when the bed is full."""
    state, seat = ctx.state, ctx.seat
    event = ctx.take("plant")
    card = ctx.card_field(event, "card")
    kind = ctx.catalogue.type_of(card)
    if kind.kind != PLANT:
        raise ctx.fail(f"{ctx.catalogue.describe(card)} is not a plant card")
    crop = ctx.crop_field(event)
    if crop != kind.crop:
        raise ctx.fail(f"{ctx.catalogue.describe(card)} cannot go in the {event['bed']} bed")
    ctx.from_hand(event, "card", seat)
    if not state.can_plant(seat, crop, kind.plants):
        task = state.tasks[seat]
        raise ctx.fail(
            f"{ctx.catalogue.describe(card)} leaves the {event['bed']} bed "
            f"{state.beds[seat][crop]} ({task.targets[crop]} plants in {task.slots[crop]} "
            "slots) impossible to complete"
        )
    state.beds[seat][crop].append(card)
    if not state.bed_full(seat, crop):
        return False
    if state.full_beds(seat) == len(ctx.catalogue.crops):
        win = ctx.take("win", f"every bed of seat {seat} is fully planted")
        ctx.expect(win, "seat", seat)
        state.winner = seat
        return True
    for _ in range(ctx.rules.prize_cards):
        prize = draw(ctx, "the prize")
        if prize is None:
            break
        ctx.expect(ctx.take("prize", f"the {event['bed']} bed is fully planted"), "card", prize)
        state.hands[seat].append(prize)
    return False


def _weed(ctx: TurnContext) -> bool:
    """A Weed onto an opponent's bed with a free slot."""
    state = ctx.state
    event = ctx.take("weed")
    target = ctx.opponent_field(event, "target")
    crop = ctx.crop_field(event)
    card = ctx.from_hand(event, "card", ctx.seat, "weed")
    bed = state.beds[target][crop]
    if len(bed) >= state.tasks[target].slots[crop]:
        raise ctx.fail(f"seat {target}'s {event['bed']} bed {bed} has no free slot")
    bed.append(card)
    return False


def _weeding(ctx: TurnContext) -> bool:
    """A Worker discarded to remove a card of one's own bed (both to the discard pile)."""
    state, seat = ctx.state, ctx.seat
    event = ctx.take("weeding")
    crop = ctx.crop_field(event)
    removed = ctx.card_field(event, "card")
    bed = state.beds[seat][crop]
    index = ctx.first_in(bed, removed, f"seat {seat}'s {event['bed']} bed")
    worker = ctx.from_hand(event, "worker", seat, "worker")
    del bed[index]
    state.discard.extend((worker, removed))
    return False


def _market(ctx: TurnContext) -> bool:
    swap(ctx, ctx.take("market"))
    return False


ACTIONS: dict[str, Action] = {
    "harvest": _harvest,
    "reshuffle": _harvest,
    "plant": _plant,
    "weed": _weed,
    "weeding": _weeding,
    "market": _market,
    "bazaar": bazaar,
    "holiday": holiday,
    "crow": crow,
    "steal": steal,
}
"""Each action by the type of its first event (a reshuffle can only open a Harvest)."""
ACTION_KINDS = (*ACTIONS, "action_lost")
