"""Performing a chosen (already checked) action on the working copy.

Conditions-phase choices, the Sluggard's answer, and every kind of the action phase;
planting may complete a bed (prize cards) or the whole garden (the game is won).
"""

from __future__ import annotations

from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.beds import bed_full
from cgsim.games.kitchen.cards import BAZAAR, CROW, HOLIDAY, SPECIALS
from cgsim.games.kitchen.piles import has_type
from cgsim.games.kitchen.state import (
    NONE,
    PHASE_ACTIONS,
    PHASE_BAZAAR_SWAPS,
    PHASE_CONDITIONS,
    PHASE_HOLIDAY_DISCARDS,
    PHASE_OVER,
    PHASE_SLUGGARD_RESPONSE,
    USED_SLUGGARD,
    USED_SPECIAL,
    USED_WORKER,
)
from cgsim.games.kitchen.work import Work


def perform(w: Work, action: Action) -> None:
    """Carry out an action already found legal, changing the working copy."""
    kind = action >> 18  # as ``A.decode``, unpacked in place (no tuple a step)
    a = (action >> 12) & 63
    b = (action >> 6) & 63
    c = action & 63
    if kind >= A.HARVEST:  # the kinds from HARVEST on are the action phase's
        _perform_action_phase(w, kind, a, b, c)
        return
    catalogue = w.rules.catalogue
    settings = w.rules.settings
    seat = w.active
    if kind == A.END_CONDITIONS:
        if w.log is not None:
            w.emit({"e": "end_conditions"})
        w.phase = PHASE_ACTIONS
    elif kind == A.COND_WORKER:
        card = w.take_type(seat, catalogue.worker)
        w.discard = (*w.discard, card)
        w.flags |= USED_WORKER
        w.actions_left += settings.worker_actions
        w.emit({"e": "cond_worker", "card": card})
    elif kind == A.COND_SPECIAL:
        w.flags |= USED_SPECIAL
        w.actions_left += settings.special_actions
        w.emit({"e": "cond_special", "special": SPECIALS[a]})
        w.use_special(a, seat)
    elif kind == A.COND_SLUGGARD:
        card = w.take_type(seat, catalogue.sluggard)
        w.flags |= USED_SLUGGARD
        w.emit({"e": "sluggard", "target": a, "card": card})
        if has_type(catalogue, w.hands[a], catalogue.worker):
            w.phase = PHASE_SLUGGARD_RESPONSE
            w.sub_seat = a
            w.pending = card
        else:
            w.sluggards[a] = card
            w.emit({"e": "sluggard_accept", "seat": a})
    elif kind == A.CANCEL_SLUGGARD:
        target = w.sub_seat
        worker = w.take_type(target, catalogue.worker)
        w.discard = (*w.discard, w.pending, worker)
        w.emit({"e": "sluggard_cancel", "seat": target, "worker": worker})
        w.pending = NONE
        w.sub_seat = NONE
        w.phase = PHASE_CONDITIONS
    elif kind == A.ACCEPT_SLUGGARD:
        w.sluggards[w.sub_seat] = w.pending
        w.emit({"e": "sluggard_accept", "seat": w.sub_seat})
        w.pending = NONE
        w.sub_seat = NONE
        w.phase = PHASE_CONDITIONS


def _perform_action_phase(w: Work, kind: int, a: int, b: int, c: int) -> None:
    catalogue = w.rules.catalogue
    settings = w.rules.settings
    seat = w.active
    if kind == A.HARVEST:
        card = w.draw()
        w.give(seat, card)
        if w.log is not None:
            w.emit({"e": "harvest", "card": card})
        w.actions_left -= 1
    elif kind == A.PLANT:
        _plant(w, seat, a)
    elif kind == A.WEED:
        card = w.take_type(seat, catalogue.weed)
        w.set_bed(a, b, (*w.beds[a][b], card))
        w.emit({"e": "weed", "target": a, "bed": w.crop_name(b), "card": card})
        w.actions_left -= 1
    elif kind == A.WEEDING:
        worker = w.take_type(seat, catalogue.worker)
        bed = w.beds[seat][a]
        removed = bed[b]
        w.set_bed(seat, a, bed[:b] + bed[b + 1 :])
        w.discard = (*w.discard, worker, removed)
        w.emit({"e": "weeding", "worker": worker, "bed": w.crop_name(a), "card": removed})
        w.actions_left -= 1
    elif kind == A.MARKET or kind == A.BAZAAR_SWAP:
        given = w.take_type(seat, a)
        taken = w.market[b]
        w.market = (*w.market[:b], given, *w.market[b + 1 :])
        w.give(seat, taken)
        name = "market" if kind == A.MARKET else "bazaar_swap"
        if w.log is not None:
            w.emit({"e": name, "give": given, "take": taken, "slot": b})
        if kind == A.MARKET:
            w.actions_left -= 1
        else:
            w.sub -= 1
    elif kind == A.BAZAAR:
        old = w.market
        w.emit({"e": "bazaar", "discarded": list(old)})
        w.use_special(BAZAAR, seat)
        w.discard = w.discard + old
        w.market = ()
        laid: list[int] = []
        for _ in range(settings.market_size):
            card = w.draw()
            if card == NONE:
                break
            laid.append(card)
        w.market = tuple(laid)
        w.emit({"e": "market_laid", "market": laid})
        w.phase = PHASE_BAZAAR_SWAPS
        w.sub = settings.bazaar_swaps
    elif kind == A.BAZAAR_DONE:
        w.emit({"e": "bazaar_done"})
        w.sub = 0
    elif kind == A.HOLIDAY:
        w.emit({"e": "holiday"})
        w.use_special(HOLIDAY, seat)
        w.phase = PHASE_HOLIDAY_DISCARDS
        w.sub_seat = seat
        w.sub = min(settings.holiday_cards, len(w.hands[seat]))
    elif kind == A.HOLIDAY_DISCARD:
        card = w.take_type(w.sub_seat, a)
        w.discard = (*w.discard, card)
        w.sub -= 1
        w.emit({"e": "discard", "seat": w.sub_seat, "card": card, "why": "holiday"})
    elif kind == A.CROW:
        card_types = catalogue.card_types
        pile = w.discard
        index = max(i for i, card in enumerate(pile) if card_types[card] == a)
        card = pile[index]
        w.discard = pile[:index] + pile[index + 1 :]
        w.give(seat, card)
        w.emit({"e": "crow", "card": card})
        w.use_special(CROW, seat)
        w.actions_left -= 1
    elif kind == A.STEAL:
        sluggard = w.take_type(seat, catalogue.sluggard)
        bed = w.beds[a][b]
        card = bed[c]
        w.set_bed(a, b, bed[:c] + bed[c + 1 :])
        w.discard = (*w.discard, sluggard)
        w.give(seat, card)
        w.emit(
            {"e": "steal", "target": a, "bed": w.crop_name(b), "card": card, "sluggard": sluggard}
        )
        w.use_special(CROW, seat)
        w.actions_left -= 1
    elif kind == A.CLEAN_DISCARD:
        card = w.take_type(seat, a)
        w.discard = (*w.discard, card)
        if w.log is not None:
            w.emit({"e": "discard", "seat": seat, "card": card, "why": "clean"})


def _plant(w: Work, seat: int, type_id: int) -> None:
    catalogue = w.rules.catalogue
    card = w.take_type(seat, type_id)
    crop = catalogue.type_crop[type_id]
    bed = (*w.beds[seat][crop], card)
    w.set_bed(seat, crop, bed)
    if w.log is not None:
        w.emit({"e": "plant", "card": card, "bed": w.crop_name(crop)})
    w.actions_left -= 1
    task = catalogue.tasks[w.tasks[seat]]
    if not bed_full(catalogue, bed, task.targets[crop], task.slots[crop]):
        return
    if all(
        bed_full(catalogue, other, task.targets[i], task.slots[i])
        for i, other in enumerate(w.beds[seat])
    ):
        w.winner = seat
        w.phase = PHASE_OVER
        w.emit({"e": "win", "seat": seat})
        return
    for _ in range(w.rules.settings.prize_cards):
        prize = w.draw()
        if prize == NONE:
            break
        w.give(seat, prize)
        w.emit({"e": "prize", "card": prize})
