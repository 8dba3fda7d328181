"""The automatic steps between decisions: the *settle* loop and the end of a turn.

Skipped conditions phases, lost actions, the end of Bazaar swaps, forced Holiday
discards and the Holiday draw, cleaning the shack, Sluggard skips and the turn cap all
happen here, up to the next real decision or the end of the game.
"""

from __future__ import annotations

from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.legal import has_condition_choice, swap_actions, turn_actions
from cgsim.games.kitchen.piles import distinct_types
from cgsim.games.kitchen.state import (
    NONE,
    PHASE_ACTIONS,
    PHASE_BAZAAR_SWAPS,
    PHASE_CLEANING,
    PHASE_CONDITIONS,
    PHASE_HOLIDAY_DISCARDS,
    PHASE_OVER,
)
from cgsim.games.kitchen.work import Work


def settle(w: Work) -> None:
    """Run every step that needs no decision, up to the next real decision or the end."""
    while True:
        phase = w.phase
        if phase is PHASE_ACTIONS:
            if w.actions_left <= 0:
                w.phase = PHASE_CLEANING
            elif not (w.deck or w.discard) and not turn_actions(w):
                w.emit({"e": "action_lost"})
                w.actions_left -= 1
            else:
                return
        elif phase is PHASE_CONDITIONS:
            if has_condition_choice(w):
                return
            w.phase = PHASE_ACTIONS
        elif phase is PHASE_CLEANING:
            if len(w.hands[w.active]) > w.rules.settings.hand_limit:
                return
            _next_turn(w)
        elif phase is PHASE_BAZAAR_SWAPS:
            if w.sub > 0 and swap_actions(
                w, A.BAZAAR_SWAP, distinct_types(w.rules.catalogue.card_types, w.hands[w.active])
            ):
                return
            w.phase = PHASE_ACTIONS
            w.sub = 0
            w.actions_left -= 1
        elif phase is PHASE_HOLIDAY_DISCARDS:
            if not _holiday_step(w):
                return
        else:
            return


def _holiday_step(w: Work) -> bool:
    """Advance the Holiday one step; False when ``sub_seat`` must choose a discard."""
    seat = w.sub_seat
    hand = w.hands[seat]
    if w.sub > 0:
        if w.sub < len(hand):
            return False
        for card in hand:
            w.emit({"e": "discard", "seat": seat, "card": card, "why": "holiday"})
        w.discard = w.discard + hand
        w.hands[seat] = ()
        w.sub = 0
        return True
    players = w.rules.players
    following = (seat + 1) % players
    count = w.rules.settings.holiday_cards
    if following != w.active:
        w.sub_seat = following
        w.sub = min(count, len(w.hands[following]))
        return True
    for offset in range(players):
        drawer = (w.active + offset) % players
        for _ in range(count):
            card = w.draw()
            if card == NONE:
                break
            w.give(drawer, card)
            w.emit({"e": "draw", "seat": drawer, "card": card, "why": "holiday"})
    w.sub_seat = NONE
    w.phase = PHASE_ACTIONS
    w.actions_left -= 1
    return True


def _next_turn(w: Work) -> None:
    """End the turn; skip the turns of Sluggarded seats; stop at the turn cap."""
    players = w.rules.players
    while True:
        if w.turn >= w.rules.settings.turn_cap:
            w.aborted = True
            w.phase = PHASE_OVER
            w.emit({"e": "aborted"})
            return
        w.turn += 1
        w.active = (w.active + 1) % players
        if w.log is not None:
            w.emit({"e": "turn", "n": w.turn, "seat": w.active})
        sluggard = w.sluggards[w.active]
        if sluggard == NONE:
            break
        w.sluggards[w.active] = NONE
        w.discard = (*w.discard, sluggard)
        w.emit({"e": "skip", "seat": w.active, "card": sluggard})
    w.phase = PHASE_CONDITIONS
    w.flags = 0
    w.actions_left = w.rules.settings.base_actions
