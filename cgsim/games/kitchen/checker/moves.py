"""Moves shared by several actions: drawing (with the reshuffle), a used special card, a swap."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cgsim.games.kitchen.checker.context import TurnContext
from cgsim.games.kitchen.checker.fields import get, get_int, int_list
from cgsim.games.kitchen.checker.state import MIDDLE, USED


def draw(ctx: TurnContext, why: str) -> int | None:
    """The top card of the deck, after a ``reshuffle`` event when the deck is empty; None
    when the deck and the discard pile are both empty."""
    state = ctx.state
    if not state.deck:
        if not state.discard:
            return None
        event = ctx.take("reshuffle", f"the deck is empty when {why} draws")
        listed = int_list(get(event, "deck", "reshuffle"), "reshuffle.deck")
        if sorted(listed) != sorted(state.discard):
            extra = sorted((Counter(listed) - Counter(state.discard)).elements())
            missing = sorted((Counter(state.discard) - Counter(listed)).elements())
            raise ctx.fail(
                f"deck is not the discard pile shuffled: it adds {extra} and lacks {missing}"
            )
        state.deck = listed
        state.discard = []
    return state.deck.pop(0)


def use_special(ctx: TurnContext, name: str) -> None:
    """A special card just played: 2 players, it passes to the other player; 3-4 players,
    the seat's copy is used and, once every copy is, all return to their owners."""
    state, seat = ctx.state, ctx.seat
    holders = state.specials[name]
    if state.players == 2:
        other = 1 - seat
        event = ctx.take("special_passes", f"the used {name} goes to seat {other}")
        ctx.expect(event, "special", name)
        ctx.expect(event, "to", other)
        holders[holders.index(seat) if seat in holders else holders.index(MIDDLE)] = other
        return
    holders[holders.index(seat)] = USED
    if all(holder == USED for holder in holders):
        event = ctx.take("specials_return", f"every {name} has been used")
        ctx.expect(event, "special", name)
        holders[:] = range(state.players)


def swap(ctx: TurnContext, event: Mapping[str, Any]) -> None:
    """A Market or Bazaar swap: hand card ``give`` into market ``slot``, ``take`` to the hand.

    ``take`` is the first market card of its type, of another type than ``give``.
    """
    state = ctx.state
    slot = get_int(event, "slot", str(event["e"]))
    if not 0 <= slot < len(state.market):
        raise ctx.fail(f"slot {slot} is not a market slot (the market holds {len(state.market)})")
    taken = ctx.card_field(event, "take")
    if ctx.first_in(state.market, taken, "the market") != slot:
        raise ctx.fail(f"take {taken} is not in slot {slot} of the market {state.market}")
    given = ctx.from_hand(event, "give", ctx.seat)
    types = ctx.catalogue.card_type
    if types[given] == types[taken]:
        raise ctx.fail(
            f"give {given} and take {taken} are identical cards: the swap changes nothing"
        )
    state.market[slot] = given
    state.hands[ctx.seat].append(taken)
