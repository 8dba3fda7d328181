"""The legal actions of every decision point, generated in a fixed order.

The conditions phase, the action phase (one generator per kind, joined in
``TURN_GENERATORS`` order) and the small decision points (discards, Bazaar swaps, the
Sluggard's answer). Generators read the ``Fields`` that both ``State`` and the working
copy (``Work``) provide, so the automatic steps ask the same questions as
``legal_actions``.
"""

from __future__ import annotations

from typing import Final

from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.beds import can_plant
from cgsim.games.kitchen.cards import BAZAAR, CROW, HOLIDAY, SPECIALS
from cgsim.games.kitchen.piles import (
    LastPile,
    can_use_special,
    discard_types,
    distinct_types,
    first_slots,
    has_type,
    holds,
    market_slots,
)
from cgsim.games.kitchen.state import (
    NONE,
    PHASE_ACTIONS,
    PHASE_BAZAAR_SWAPS,
    PHASE_CLEANING,
    PHASE_CONDITIONS,
    PHASE_HOLIDAY_DISCARDS,
    PHASE_SLUGGARD_RESPONSE,
    USED_SLUGGARD,
    USED_SPECIAL,
    USED_WORKER,
    State,
)
from cgsim.games.kitchen.work import Work

Fields = Work | State
"""What legality checks read: the working copy inside ``apply`` or a playout, or a state.
A union of the two classes, not a protocol: compiled, each read is then a type test and
a direct field access, where a protocol's went through Python's generic attribute
lookup. The working copy comes first: the tests run in this order, and playouts ask
about nothing else."""


def condition_actions(s: Fields) -> list[Action]:
    catalogue = s.rules.catalogue
    seat = s.active
    hand = s.hands[seat]
    flags = s.flags
    found = [A.END_CONDITIONS << 18]
    if not flags & USED_WORKER and has_type(catalogue, hand, catalogue.worker):
        found.append(A.COND_WORKER << 18)
    if not flags & USED_SPECIAL:
        specials = s.specials
        for special in range(len(SPECIALS)):
            if holds(specials[special], seat):
                found.append(A.COND_SPECIAL << 18 | special << 12)
    if not flags & USED_SLUGGARD and has_type(catalogue, hand, catalogue.sluggard):
        sluggards = s.sluggards
        for target in range(s.rules.players):
            if target != seat and sluggards[target] == NONE:
                found.append(A.COND_SLUGGARD << 18 | target << 12)
    return found


def has_condition_choice(s: Fields) -> bool:
    """Whether the conditions phase offers more than "no more conditions" (the same test
    as ``len(condition_actions(s)) > 1``, without building the list)."""
    seat = s.active
    flags = s.flags
    if not flags & USED_SPECIAL:
        for holders in s.specials:
            if holds(holders, seat):
                return True
    catalogue = s.rules.catalogue
    hand = s.hands[seat]
    if not flags & USED_WORKER and has_type(catalogue, hand, catalogue.worker):
        return True
    if not flags & USED_SLUGGARD and has_type(catalogue, hand, catalogue.sluggard):
        sluggards = s.sluggards
        return any(t != seat and sluggards[t] == NONE for t in range(s.rules.players))
    return False


def swap_actions(s: Fields, kind: int, hand_types: list[int]) -> list[Action]:
    card_types = s.rules.catalogue.card_types
    market = s.market
    slots = market_slots(card_types, market)
    base = kind << 18
    return [
        base | hand_type << 12 | slot << 6
        for hand_type in hand_types
        for slot in slots
        if card_types[market[slot]] != hand_type
    ]


def _harvest_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    return [A.HARVEST << 18] if s.deck or s.discard else []


def _plant_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    catalogue = s.rules.catalogue
    type_crop = catalogue.type_crop
    type_plants = catalogue.type_plants
    seat = s.active
    task = catalogue.tasks[s.tasks[seat]]
    own_beds = s.beds[seat]
    found: list[Action] = []
    for hand_type in hand_types:
        crop = type_crop[hand_type]
        if crop >= 0 and can_plant(
            catalogue, own_beds[crop], task.targets[crop], task.slots[crop], type_plants[hand_type]
        ):
            found.append(A.PLANT << 18 | hand_type << 12)
    return found


def _weed_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    catalogue = s.rules.catalogue
    seat = s.active
    if catalogue.weed not in hand_types:
        return []
    found: list[Action] = []
    for target in range(s.rules.players):
        if target == seat:
            continue
        target_slots = catalogue.tasks[s.tasks[target]].slots
        for crop, bed in enumerate(s.beds[target]):
            if len(bed) < target_slots[crop]:
                found.append(A.WEED << 18 | target << 12 | crop << 6)
    return found


def _weeding_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    catalogue = s.rules.catalogue
    card_types = catalogue.card_types
    seat = s.active
    if catalogue.worker not in hand_types:
        return []
    return [
        A.WEEDING << 18 | crop << 12 | slot << 6
        for crop, bed in enumerate(s.beds[seat])
        for slot in first_slots(card_types, bed)
    ]


def _market_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    return swap_actions(s, A.MARKET, hand_types)


def _bazaar_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    return [A.BAZAAR << 18] if can_use_special(s.specials, BAZAAR, s.active) else []


def _holiday_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    return [A.HOLIDAY << 18] if can_use_special(s.specials, HOLIDAY, s.active) else []


def _crow_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    if not can_use_special(s.specials, CROW, s.active):
        return []
    return list(crow_actions(s.rules.catalogue.card_types, s.discard))


_CROW_ACTIONS: Final = LastPile()


def crow_actions(card_types: tuple[int, ...], discard: tuple[int, ...]) -> list[Action]:
    """The Crow's actions for a discard pile (one per type in it), remembered for the
    last pile: never mutated by its users, it saves building the action ints again
    while the pile stays the same."""
    pile, known_types, actions = _CROW_ACTIONS.last
    if pile is not discard or known_types is not card_types:
        actions = [A.CROW << 18 | t << 12 for t in discard_types(card_types, discard)]
        _CROW_ACTIONS.last = (discard, card_types, actions)
    return actions


def _steal_actions(s: Fields, hand_types: list[int]) -> list[Action]:
    catalogue = s.rules.catalogue
    card_types = catalogue.card_types
    seat = s.active
    if catalogue.sluggard not in hand_types or not can_use_special(s.specials, CROW, seat):
        return []
    return [
        A.STEAL << 18 | target << 12 | crop << 6 | slot
        for target in range(s.rules.players)
        if target != seat
        for crop, bed in enumerate(s.beds[target])
        for slot in first_slots(card_types, bed)
    ]


TURN_GENERATORS: Final = (
    (A.HARVEST, _harvest_actions),
    (A.PLANT, _plant_actions),
    (A.WEED, _weed_actions),
    (A.WEEDING, _weeding_actions),
    (A.MARKET, _market_actions),
    (A.BAZAAR, _bazaar_actions),
    (A.HOLIDAY, _holiday_actions),
    (A.CROW, _crow_actions),
    (A.STEAL, _steal_actions),
)
TURN_GENERATOR_OF: Final = dict(TURN_GENERATORS)
"""Action-phase legal actions are the concatenation of one generator per kind, in this
order; ``apply`` checks an action against its own kind's generator only."""


def turn_actions(s: Fields) -> list[Action]:
    """The generators' lists joined in ``TURN_GENERATORS`` order; a generator that
    cannot yield anything (no Weed, Worker or Sluggard in hand, special not at hand) is
    not called at all, which is where most of the time went."""
    catalogue = s.rules.catalogue
    seat = s.active
    hand_types = distinct_types(catalogue.card_types, s.hands[seat])
    found = [A.HARVEST << 18] if s.deck or s.discard else []
    found += _plant_actions(s, hand_types)
    if catalogue.weed in hand_types:
        found += _weed_actions(s, hand_types)
    if catalogue.worker in hand_types:
        found += _weeding_actions(s, hand_types)
    found += swap_actions(s, A.MARKET, hand_types)
    specials = s.specials
    if holds(specials[BAZAAR], seat):
        found.append(A.BAZAAR << 18)
    if holds(specials[HOLIDAY], seat):
        found.append(A.HOLIDAY << 18)
    if holds(specials[CROW], seat):
        found += crow_actions(catalogue.card_types, s.discard)
        if catalogue.sluggard in hand_types:
            found += _steal_actions(s, hand_types)
    return found


def _distinct_type_actions(s: Fields, seat: int, kind: int) -> list[Action]:
    base = kind << 18
    return [base | t << 12 for t in distinct_types(s.rules.catalogue.card_types, s.hands[seat])]


def _cleaning_actions(state: Fields) -> list[Action]:
    return _distinct_type_actions(state, state.active, A.CLEAN_DISCARD)


def _holiday_discard_actions(state: Fields) -> list[Action]:
    return _distinct_type_actions(state, state.sub_seat, A.HOLIDAY_DISCARD)


def _bazaar_swap_actions(state: Fields) -> list[Action]:
    hand_types = distinct_types(state.rules.catalogue.card_types, state.hands[state.active])
    return [*swap_actions(state, A.BAZAAR_SWAP, hand_types), A.encode(A.BAZAAR_DONE)]


def _sluggard_response_actions(state: Fields) -> list[Action]:
    return [A.encode(A.CANCEL_SLUGGARD), A.encode(A.ACCEPT_SLUGGARD)]


def generate_legal_actions(state: Fields) -> list[Action]:
    """Every legal action at the current decision point, in a fixed order (a chain of
    comparisons, not a table of functions: compiled, each branch is a direct call). A
    playout asks it of its working copy, with no state frozen between its actions."""
    phase = state.phase
    if phase == PHASE_ACTIONS:
        return turn_actions(state)
    if phase == PHASE_CONDITIONS:
        return condition_actions(state)
    if phase == PHASE_CLEANING:
        return _cleaning_actions(state)
    if phase == PHASE_HOLIDAY_DISCARDS:
        return _holiday_discard_actions(state)
    if phase == PHASE_BAZAAR_SWAPS:
        return _bazaar_swap_actions(state)
    if phase == PHASE_SLUGGARD_RESPONSE:
        return _sluggard_response_actions(state)
    return []
