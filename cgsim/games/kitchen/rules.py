"""The Kitchen Garden rules: setup, legal actions and ``apply``, as pure functions.

``apply`` copies the state into a small mutable work object, performs the action and
every automatic consequence that follows it (the *settle* loop: skipped conditions
phases, lost actions, forced Holiday discards, the end of a turn, Sluggard skips, the
turn cap), and freezes the result. When a ``log`` list is passed, every change is
appended to it as a record event, so records and replays use this very code.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, Protocol

from cgsim.errors import IllegalActionError
from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import BAZAAR, CROW, HOLIDAY, SPECIALS, Catalogue, type_name
from cgsim.games.kitchen.settings import KitchenRules
from cgsim.games.kitchen.state import (
    ACTIONS,
    BAZAAR_SWAPS,
    CLEANING,
    CONDITIONS,
    HOLIDAY_DISCARDS,
    MIDDLE,
    NONE,
    OVER,
    PHASE_NAMES,
    SLUGGARD_RESPONSE,
    USED,
    USED_SLUGGARD,
    USED_SPECIAL,
    USED_WORKER,
    State,
)

Event = dict[str, Any]


class _Fields(Protocol):
    """What legality checks read; both ``State`` and the work object provide it."""

    @property
    def rules(self) -> KitchenRules: ...
    @property
    def tasks(self) -> Sequence[int]: ...
    @property
    def hands(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def beds(self) -> Sequence[tuple[tuple[int, ...], ...]]: ...
    @property
    def market(self) -> Sequence[int]: ...
    @property
    def deck(self) -> Sequence[int]: ...
    @property
    def discard(self) -> Sequence[int]: ...
    @property
    def specials(self) -> Sequence[tuple[int, ...]]: ...
    @property
    def sluggards(self) -> Sequence[int]: ...
    @property
    def active(self) -> int: ...
    @property
    def flags(self) -> int: ...
    @property
    def sub_seat(self) -> int: ...


# ---------------------------------------------------------------- setup


def new_game(rules: KitchenRules, seed: int) -> State:
    """Deal tasks, hands and the market from the seed alone; seat 0 starts."""
    catalogue = rules.catalogue
    settings = rules.settings
    players = rules.players
    rng = random.Random(f"kitchen-garden:{seed}")
    tasks = tuple(rng.sample(range(len(catalogue.tasks)), players))
    deck = list(range(catalogue.card_count))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(settings.deal):
        for seat in range(players):
            hands[seat].append(deck.pop())
    market = tuple(deck.pop() for _ in range(settings.market_size))
    specials: tuple[tuple[int, ...], ...]
    if players == 2:
        specials = tuple((MIDDLE,) for _ in SPECIALS)
    else:
        specials = tuple(tuple(range(players)) for _ in SPECIALS)
    empty_beds = tuple(() for _ in catalogue.crops)
    state = State(
        rules=rules,
        seed=seed,
        tasks=tasks,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        beds=tuple(empty_beds for _ in range(players)),
        market=market,
        deck=tuple(deck),
        discard=(),
        specials=specials,
        sluggards=(NONE,) * players,
        turn=1,
        active=0,
        phase=CONDITIONS,
        flags=0,
        actions_left=settings.base_actions,
        sub=0,
        sub_seat=NONE,
        pending=NONE,
        reshuffles=0,
        winner=NONE,
        aborted=False,
    )
    work = _Work(state, None)
    _settle(work)
    return work.freeze()


# ---------------------------------------------------------------- bed arithmetic


def bed_plants(catalogue: Catalogue, bed: Sequence[int]) -> int:
    """Plants on a bed (Weeds carry none)."""
    type_plants = catalogue.type_plants
    card_types = catalogue.card_types
    return sum(type_plants[card_types[card]] for card in bed)


def can_plant(
    catalogue: Catalogue, bed: Sequence[int], target: int, slots: int, plants: int
) -> bool:
    """The planting rule: after the card, the bed can still be completed exactly."""
    free = slots - len(bed) - 1
    if free < 0:
        return False
    needed = target - bed_plants(catalogue, bed) - plants
    return catalogue.min_plants * free <= needed <= catalogue.max_plants * free


def bed_full(catalogue: Catalogue, bed: Sequence[int], target: int, slots: int) -> bool:
    """Every slot holds a plant card and the plants add up to the target."""
    if len(bed) != slots:
        return False
    card_types = catalogue.card_types
    type_crop = catalogue.type_crop
    if any(type_crop[card_types[card]] < 0 for card in bed):
        return False
    return bed_plants(catalogue, bed) == target


def beds_full(state: State, seat: int) -> int:
    """Number of fully planted beds of a seat."""
    catalogue = state.rules.catalogue
    task = catalogue.tasks[state.tasks[seat]]
    return sum(
        bed_full(catalogue, bed, task.targets[crop], task.slots[crop])
        for crop, bed in enumerate(state.beds[seat])
    )


def plants_planted(state: State, seat: int) -> int:
    """Plants on a seat's beds (every one is in its crop's bed, so all count)."""
    catalogue = state.rules.catalogue
    return sum(bed_plants(catalogue, bed) for bed in state.beds[seat])


# ---------------------------------------------------------------- legality


def _has_type(catalogue: Catalogue, hand: Sequence[int], type_id: int) -> bool:
    """Whether a hand holds a card of the type; hands are sorted and a type's ids form one
    range, so one bisection answers."""
    index = bisect_left(hand, catalogue.type_start[type_id])
    return index < len(hand) and hand[index] < catalogue.type_start[type_id + 1]


def _hand_types(card_types: Sequence[int], hand: Sequence[int]) -> list[int]:
    """Distinct card types of a sorted hand, ascending (ids are grouped by type)."""
    return list(dict.fromkeys(map(card_types.__getitem__, hand)))


def can_use_special(specials: Sequence[tuple[int, ...]], special: int, seat: int) -> bool:
    """Whether ``seat`` holds a copy of the special, or the shared copy lies in the middle."""
    return seat in specials[special] or MIDDLE in specials[special]


class _LastPile:
    """The last pile (market or discard tuple) and card-type table a derived list was
    computed for, and that list (never mutated by its users): piles are immutable tuples shared by every state until they change, so
    consecutive states usually hit by identity."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[Sequence[int] | None, Sequence[int] | None, list[int]] = (None, None, [])


_MARKET_SLOTS = _LastPile()
_DISCARD_TYPES = _LastPile()


def _market_slots(card_types: Sequence[int], market: Sequence[int]) -> list[int]:
    """``_first_slots`` of a market, remembered for the last market seen."""
    pile, types, slots = _MARKET_SLOTS.last
    if pile is not market or types is not card_types:
        slots = _first_slots(card_types, market)
        _MARKET_SLOTS.last = (market, card_types, slots)
    return slots


def _discard_types(card_types: Sequence[int], discard: Sequence[int]) -> list[int]:
    """Distinct card types of the discard pile, ascending, remembered for the last pile."""
    pile, known_types, types = _DISCARD_TYPES.last
    if pile is not discard or known_types is not card_types:
        types = sorted(set(map(card_types.__getitem__, discard)))
        _DISCARD_TYPES.last = (discard, card_types, types)
    return types


def _first_slots(card_types: Sequence[int], cards: Sequence[int]) -> list[int]:
    """Index of the first card of each distinct type (identical cards are interchangeable)."""
    seen: set[int] = set()
    slots: list[int] = []
    for index, card in enumerate(cards):
        card_type = card_types[card]
        if card_type not in seen:
            seen.add(card_type)
            slots.append(index)
    return slots


def _condition_actions(s: _Fields) -> list[Action]:
    catalogue = s.rules.catalogue
    seat = s.active
    hand = s.hands[seat]
    found = [A.encode(A.END_CONDITIONS)]
    if not s.flags & USED_WORKER and _has_type(catalogue, hand, catalogue.worker):
        found.append(A.encode(A.COND_WORKER))
    if not s.flags & USED_SPECIAL:
        for special in range(len(SPECIALS)):
            if can_use_special(s.specials, special, seat):
                found.append(A.encode(A.COND_SPECIAL, special))
    if not s.flags & USED_SLUGGARD and _has_type(catalogue, hand, catalogue.sluggard):
        for target in range(s.rules.players):
            if target != seat and s.sluggards[target] == NONE:
                found.append(A.encode(A.COND_SLUGGARD, target))
    return found


def _has_condition_choice(s: _Fields) -> bool:
    """Whether the conditions phase offers more than "no more conditions" (the same test
    as ``len(_condition_actions(s)) > 1``, without building the list)."""
    seat = s.active
    flags = s.flags
    if not flags & USED_SPECIAL:
        for holders in s.specials:
            if seat in holders or MIDDLE in holders:
                return True
    catalogue = s.rules.catalogue
    hand = s.hands[seat]
    if not flags & USED_WORKER and _has_type(catalogue, hand, catalogue.worker):
        return True
    if not flags & USED_SLUGGARD and _has_type(catalogue, hand, catalogue.sluggard):
        sluggards = s.sluggards
        return any(t != seat and sluggards[t] == NONE for t in range(s.rules.players))
    return False


def _swap_actions(s: _Fields, kind: int, hand_types: Sequence[int]) -> list[Action]:
    card_types = s.rules.catalogue.card_types
    market = s.market
    slots = _market_slots(card_types, market)
    base = kind << 18
    return [
        base | hand_type << 12 | slot << 6
        for hand_type in hand_types
        for slot in slots
        if card_types[market[slot]] != hand_type
    ]


def _harvest_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
    return [A.HARVEST << 18] if s.deck or s.discard else []


def _plant_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
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


def _weed_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
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


def _weeding_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
    catalogue = s.rules.catalogue
    card_types = catalogue.card_types
    seat = s.active
    if catalogue.worker not in hand_types:
        return []
    return [
        A.WEEDING << 18 | crop << 12 | slot << 6
        for crop, bed in enumerate(s.beds[seat])
        for slot in _first_slots(card_types, bed)
    ]


def _market_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
    return _swap_actions(s, A.MARKET, hand_types)


def _bazaar_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
    return [A.BAZAAR << 18] if can_use_special(s.specials, BAZAAR, s.active) else []


def _holiday_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
    return [A.HOLIDAY << 18] if can_use_special(s.specials, HOLIDAY, s.active) else []


def _crow_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
    if not can_use_special(s.specials, CROW, s.active):
        return []
    card_types = s.rules.catalogue.card_types
    return [A.CROW << 18 | t << 12 for t in _discard_types(card_types, s.discard)]


def _steal_actions(s: _Fields, hand_types: Sequence[int]) -> list[Action]:
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
        for slot in _first_slots(card_types, bed)
    ]


_TURN_GENERATORS = (
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
_TURN_GENERATOR_OF = dict(_TURN_GENERATORS)
"""Action-phase legal actions are the concatenation of one generator per kind, in this
order; ``apply`` checks an action against its own kind's generator only."""


def _turn_actions(s: _Fields) -> list[Action]:
    """The generators' lists joined in ``_TURN_GENERATORS`` order; a generator that
    cannot yield anything (no Weed, Worker or Sluggard in hand, special not at hand) is
    not called at all, which is where most of the time went."""
    catalogue = s.rules.catalogue
    seat = s.active
    hand_types = _hand_types(catalogue.card_types, s.hands[seat])
    found = [A.HARVEST << 18] if s.deck or s.discard else []
    found += _plant_actions(s, hand_types)
    if catalogue.weed in hand_types:
        found += _weed_actions(s, hand_types)
    if catalogue.worker in hand_types:
        found += _weeding_actions(s, hand_types)
    found += _swap_actions(s, A.MARKET, hand_types)
    specials = s.specials
    if seat in specials[BAZAAR] or MIDDLE in specials[BAZAAR]:
        found.append(A.BAZAAR << 18)
    if seat in specials[HOLIDAY] or MIDDLE in specials[HOLIDAY]:
        found.append(A.HOLIDAY << 18)
    if seat in specials[CROW] or MIDDLE in specials[CROW]:
        found += _crow_actions(s, hand_types)
        if catalogue.sluggard in hand_types:
            found += _steal_actions(s, hand_types)
    return found


def _distinct_type_actions(s: _Fields, seat: int, kind: int) -> list[Action]:
    base = kind << 18
    return [base | t << 12 for t in _hand_types(s.rules.catalogue.card_types, s.hands[seat])]


class _Memo:
    """The last state ``legal_actions`` answered for and its answer: ``apply`` on that very
    state (the usual next call) checks the action against it instead of generating again.
    States are immutable, so identity is enough; one tuple keeps reads consistent."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[State | None, tuple[Action, ...]] = (None, ())


_MEMO = _Memo()


def legal_actions(state: State) -> list[Action]:
    """Every legal action at the current decision point, in a fixed order."""
    found = _generate_legal_actions(state)
    _MEMO.last = (state, tuple(found))
    return found


def _generate_legal_actions(state: State) -> list[Action]:
    phase = state.phase
    if phase == ACTIONS:
        return _turn_actions(state)
    if phase == CONDITIONS:
        return _condition_actions(state)
    if phase == CLEANING:
        return _distinct_type_actions(state, state.active, A.CLEAN_DISCARD)
    if phase == HOLIDAY_DISCARDS:
        return _distinct_type_actions(state, state.sub_seat, A.HOLIDAY_DISCARD)
    if phase == BAZAAR_SWAPS:
        hand_types = _hand_types(state.rules.catalogue.card_types, state.hands[state.active])
        return [*_swap_actions(state, A.BAZAAR_SWAP, hand_types), A.encode(A.BAZAAR_DONE)]
    if phase == SLUGGARD_RESPONSE:
        return [A.encode(A.CANCEL_SLUGGARD), A.encode(A.ACCEPT_SLUGGARD)]
    return []


# ---------------------------------------------------------------- the work object


class _Work:
    """A mutable copy of a state for the duration of one ``apply``."""

    __slots__ = (
        "aborted",
        "actions_left",
        "active",
        "beds",
        "deck",
        "discard",
        "flags",
        "hands",
        "log",
        "market",
        "pending",
        "phase",
        "reshuffles",
        "rules",
        "seed",
        "sluggards",
        "specials",
        "sub",
        "sub_seat",
        "tasks",
        "turn",
        "winner",
    )

    def __init__(self, s: State, log: list[Event] | None) -> None:
        self.rules = s.rules
        self.seed = s.seed
        self.tasks = s.tasks
        self.hands = list(s.hands)
        self.beds = list(s.beds)
        self.market = s.market
        self.deck = s.deck
        self.discard = s.discard
        self.specials = list(s.specials)
        self.sluggards = list(s.sluggards)
        self.turn = s.turn
        self.active = s.active
        self.phase = s.phase
        self.flags = s.flags
        self.actions_left = s.actions_left
        self.sub = s.sub
        self.sub_seat = s.sub_seat
        self.pending = s.pending
        self.reshuffles = s.reshuffles
        self.winner = s.winner
        self.aborted = s.aborted
        self.log = log

    def freeze(self) -> State:
        return State(
            self.rules,
            self.seed,
            self.tasks,
            tuple(self.hands),
            tuple(self.beds),
            self.market,
            self.deck,
            self.discard,
            tuple(self.specials),
            tuple(self.sluggards),
            self.turn,
            self.active,
            self.phase,
            self.flags,
            self.actions_left,
            self.sub,
            self.sub_seat,
            self.pending,
            self.reshuffles,
            self.winner,
            self.aborted,
        )

    def emit(self, event: Event) -> None:
        """Append an event to the log, if any (the hottest call sites test ``log`` first
        so that games without a record do not even build the event)."""
        if self.log is not None:
            self.log.append(event)

    # -- cards

    def crop_name(self, crop: int) -> str:
        return self.rules.catalogue.crops[crop]

    def take_type(self, seat: int, type_id: int) -> int:
        """Remove the lowest-id card of a type from a (sorted) hand."""
        type_start = self.rules.catalogue.type_start
        hand = self.hands[seat]
        index = bisect_left(hand, type_start[type_id])
        if index < len(hand) and hand[index] < type_start[type_id + 1]:
            self.hands[seat] = hand[:index] + hand[index + 1 :]
            return hand[index]
        raise IllegalActionError(f"seat {seat} has no {type_name(self.rules.catalogue, type_id)}")

    def give(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        index = bisect_left(hand, card)
        self.hands[seat] = (*hand[:index], card, *hand[index:])

    def draw(self) -> int:
        """Top card of the deck, reshuffling the discard pile when the deck is empty."""
        if not self.deck:
            if not self.discard:
                return NONE
            cards = list(self.discard)
            random.Random(f"kitchen-garden:{self.seed}:reshuffle:{self.reshuffles}").shuffle(cards)
            self.reshuffles += 1
            self.deck = tuple(cards)
            self.discard = ()
            self.emit({"e": "reshuffle", "deck": cards[::-1]})
        card = self.deck[-1]
        self.deck = self.deck[:-1]
        return card

    def set_bed(self, seat: int, crop: int, bed: tuple[int, ...]) -> None:
        beds = self.beds[seat]
        self.beds[seat] = (*beds[:crop], bed, *beds[crop + 1 :])

    def use_special(self, special: int, seat: int) -> None:
        """Play a special card: to the used pile, or in a 2-player game to the other player."""
        holders = self.specials[special]
        copy = holders.index(seat) if seat in holders else holders.index(MIDDLE)
        if self.rules.players == 2:
            receiver = 1 - seat
            self.specials[special] = (*holders[:copy], receiver, *holders[copy + 1 :])
            self.emit({"e": "special_passes", "special": SPECIALS[special], "to": receiver})
            return
        holders = (*holders[:copy], USED, *holders[copy + 1 :])
        if all(holder == USED for holder in holders):
            holders = tuple(range(self.rules.players))
            self.emit({"e": "specials_return", "special": SPECIALS[special]})
        self.specials[special] = holders


# ---------------------------------------------------------------- apply


def _illegal(state: State, action: Action) -> IllegalActionError:
    phase = PHASE_NAMES[state.phase]
    kind = A.kind_of(action)
    if kind >= len(A.KIND_NAMES):
        return IllegalActionError(f"action {action} is not a kitchen-garden action")
    what = describe_action(state.rules, action)
    if state.phase == OVER:
        return IllegalActionError(f"{what}: the game is over")
    legal_kinds = sorted({A.KIND_NAMES[A.kind_of(a)] for a in legal_actions(state)})
    return IllegalActionError(
        f"{what} is not legal for seat {state.decider} in the {phase} phase "
        f"(legal now: {', '.join(legal_kinds)})"
    )


def _is_legal(state: State, action: Action) -> bool:
    memo_state, memo_actions = _MEMO.last
    if memo_state is state:
        return action in memo_actions
    if state.phase == ACTIONS:
        generator = _TURN_GENERATOR_OF.get(action >> 18)
        if generator is None:
            return False
        hand_types = _hand_types(state.rules.catalogue.card_types, state.hands[state.active])
        return action in generator(state, hand_types)
    return action in _generate_legal_actions(state)


def apply(state: State, action: Action, log: list[Event] | None = None) -> State:
    """The state after ``action`` and every automatic consequence; the input is untouched."""
    if not _is_legal(state, action):
        raise _illegal(state, action)
    work = _Work(state, log)
    _perform(work, action)
    _settle(work)
    return work.freeze()


def _perform(w: _Work, action: Action) -> None:
    kind = A.kind_of(action)
    a, b, c = A.args_of(action)
    catalogue = w.rules.catalogue
    settings = w.rules.settings
    seat = w.active
    if kind == A.END_CONDITIONS:
        if w.log is not None:
            w.emit({"e": "end_conditions"})
        w.phase = ACTIONS
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
        if _has_type(catalogue, w.hands[a], catalogue.worker):
            w.phase = SLUGGARD_RESPONSE
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
        w.phase = CONDITIONS
    elif kind == A.ACCEPT_SLUGGARD:
        w.sluggards[w.sub_seat] = w.pending
        w.emit({"e": "sluggard_accept", "seat": w.sub_seat})
        w.pending = NONE
        w.sub_seat = NONE
        w.phase = CONDITIONS
    else:
        _perform_action_phase(w, kind, a, b, c)


def _perform_action_phase(w: _Work, kind: int, a: int, b: int, c: int) -> None:
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
        w.phase = BAZAAR_SWAPS
        w.sub = settings.bazaar_swaps
    elif kind == A.BAZAAR_DONE:
        w.emit({"e": "bazaar_done"})
        w.sub = 0
    elif kind == A.HOLIDAY:
        w.emit({"e": "holiday"})
        w.use_special(HOLIDAY, seat)
        w.phase = HOLIDAY_DISCARDS
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


def _plant(w: _Work, seat: int, type_id: int) -> None:
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
        w.phase = OVER
        w.emit({"e": "win", "seat": seat})
        return
    for _ in range(w.rules.settings.prize_cards):
        prize = w.draw()
        if prize == NONE:
            break
        w.give(seat, prize)
        w.emit({"e": "prize", "card": prize})


# ---------------------------------------------------------------- automatic steps


def _settle(w: _Work) -> None:
    """Run every step that needs no decision, up to the next real decision or the end."""
    settings = w.rules.settings
    while True:
        phase = w.phase
        if phase == ACTIONS:
            if w.actions_left <= 0:
                w.phase = CLEANING
            elif not (w.deck or w.discard) and not _turn_actions(w):
                w.emit({"e": "action_lost"})
                w.actions_left -= 1
            else:
                return
        elif phase == CONDITIONS:
            if _has_condition_choice(w):
                return
            w.phase = ACTIONS
        elif phase == CLEANING:
            if len(w.hands[w.active]) > settings.hand_limit:
                return
            _next_turn(w)
        elif phase == BAZAAR_SWAPS:
            if w.sub > 0 and _swap_actions(
                w, A.BAZAAR_SWAP, _hand_types(w.rules.catalogue.card_types, w.hands[w.active])
            ):
                return
            w.phase = ACTIONS
            w.sub = 0
            w.actions_left -= 1
        elif phase == HOLIDAY_DISCARDS:
            if not _holiday_step(w):
                return
        else:
            return


def _holiday_step(w: _Work) -> bool:
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
    w.phase = ACTIONS
    w.actions_left -= 1
    return True


def _next_turn(w: _Work) -> None:
    """End the turn; skip the turns of Sluggarded seats; stop at the turn cap."""
    players = w.rules.players
    while True:
        if w.turn >= w.rules.settings.turn_cap:
            w.aborted = True
            w.phase = OVER
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
    w.phase = CONDITIONS
    w.flags = 0
    w.actions_left = w.rules.settings.base_actions


# ---------------------------------------------------------------- text


def describe_action(rules: KitchenRules, action: Action) -> str:
    """Short readable text of an action (for logs and errors); card types come from rules."""
    catalogue = rules.catalogue
    kind = A.kind_of(action)
    a, b, c = A.args_of(action)
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
