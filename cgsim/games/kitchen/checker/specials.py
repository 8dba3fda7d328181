"""The special actions: Bazaar, Holiday, Crow and Stealing, each followed by the special
card's movement (see ``moves.use_special``)."""

from __future__ import annotations

from cgsim.games.kitchen.checker.context import TurnContext
from cgsim.games.kitchen.checker.fields import get, int_list
from cgsim.games.kitchen.checker.moves import draw, swap, use_special


def _check_usable(ctx: TurnContext, name: str) -> None:
    """The acting seat holds a copy of the special card, or the shared one is in the middle."""
    if not ctx.state.can_use(name, ctx.seat):
        raise ctx.fail(
            f"seat {ctx.seat} cannot use the {name} (holders {ctx.state.specials[name]})"
        )


def bazaar(ctx: TurnContext) -> bool:
    """The market to the discard pile, a new one drawn, then up to ``bazaar_swaps`` swaps."""
    state, seat = ctx.state, ctx.seat
    event = ctx.take("bazaar")
    _check_usable(ctx, "bazaar")
    ctx.expect(event, "discarded", state.market)
    use_special(ctx, "bazaar")
    state.discard.extend(state.market)
    state.market = []
    laid: list[int] = []
    for _ in range(ctx.rules.market_size):
        card = draw(ctx, "the new market")
        if card is None:
            break
        laid.append(card)
    event = ctx.take("market_laid")
    found = int_list(get(event, "market", "market_laid"), "market_laid.market")
    if found != laid:
        raise ctx.fail(f"market is {found}, the top of the deck gives {laid}")
    state.market = laid
    for _ in range(ctx.rules.bazaar_swaps):
        if not state.can_swap(seat):
            break
        kind = ctx.decision(("bazaar_swap", "bazaar_done"), f"seat {seat}'s Bazaar swap")
        event = ctx.take(kind)
        if kind == "bazaar_done":
            break
        swap(ctx, event)
    return False


def holiday(ctx: TurnContext) -> bool:
    """Every player discards (from the player, clockwise), then every player draws."""
    state, rules = ctx.state, ctx.rules
    ctx.take("holiday")
    _check_usable(ctx, "holiday")
    use_special(ctx, "holiday")
    order = [(ctx.seat + offset) % state.players for offset in range(state.players)]
    for seat in order:
        hand = state.hands[seat]
        if rules.holiday_cards >= len(hand):
            for card in sorted(hand):
                event = ctx.take("discard", f"seat {seat} discards its whole hand")
                ctx.expect(event, "seat", seat)
                ctx.expect(event, "card", card)
                ctx.expect(event, "why", "holiday")
            state.discard.extend(sorted(hand))
            hand.clear()
            continue
        for _ in range(rules.holiday_cards):
            ctx.decision(("discard",), f"seat {seat}'s Holiday discard")
            event = ctx.take("discard")
            ctx.expect(event, "seat", seat)
            ctx.expect(event, "why", "holiday")
            state.discard.append(ctx.from_hand(event, "card", seat))
    for seat in order:
        for _ in range(rules.holiday_cards):
            drawn = draw(ctx, "a Holiday")
            if drawn is None:
                break
            event = ctx.take("draw", f"seat {seat} draws for the Holiday")
            ctx.expect(event, "seat", seat)
            ctx.expect(event, "card", drawn)
            ctx.expect(event, "why", "holiday")
            state.hands[seat].append(drawn)
    return False


def crow(ctx: TurnContext) -> bool:
    """The most recently discarded card of a type, from the discard pile to the hand."""
    state = ctx.state
    event = ctx.take("crow")
    _check_usable(ctx, "crow")
    card = ctx.card_field(event, "card")
    pile = state.discard
    if card not in pile:
        raise ctx.fail(f"{ctx.catalogue.describe(card)} is not in the discard pile {pile}")
    same = ctx.catalogue.card_type[card]
    index = max(i for i, c in enumerate(pile) if ctx.catalogue.card_type[c] == same)
    if pile[index] != card:
        raise ctx.fail(
            f"{ctx.catalogue.describe(card)}: the most recently discarded card of that type "
            f"is {pile[index]}"
        )
    del pile[index]
    state.hands[ctx.seat].append(card)
    use_special(ctx, "crow")
    return False


def steal(ctx: TurnContext) -> bool:
    """Crow and a Sluggard: a card of an opponent's bed to the hand, the Sluggard discarded."""
    state, seat = ctx.state, ctx.seat
    event = ctx.take("steal")
    _check_usable(ctx, "crow")
    target = ctx.opponent_field(event, "target")
    crop = ctx.crop_field(event)
    card = ctx.card_field(event, "card")
    bed = state.beds[target][crop]
    index = ctx.first_in(bed, card, f"seat {target}'s {event['bed']} bed")
    sluggard = ctx.from_hand(event, "sluggard", seat, "sluggard")
    del bed[index]
    state.discard.append(sluggard)
    state.hands[seat].append(card)
    use_special(ctx, "crow")
    return False
