"""Kitchen Garden's greedy scoring and the search's playouts, compiled with mypyc.

``kitchen-greedy`` plays ``greedy_choice`` once a decision; ``kitchen-search`` plays it
again at every step of every rollout, about two thousand times a decision, which was
most of its cost (profiled: scoring actions, not the engine). So the scorer, the
rollout and the leaf evaluation live here, in a module compiled with the engines
(``bots.COMPILED``); the bots, pydantic parameters and all, stay pure Python and call
in. The pure-Python fallback runs this same source: same moves, same rng draws.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cgsim.games.compiled import dataclass_reduce
from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.actions import BAZAAR as BAZAAR_ACTION
from cgsim.games.kitchen.actions import (
    BAZAAR_DONE,
    BAZAAR_SWAP,
    CLEAN_DISCARD,
    HARVEST,
    HOLIDAY_DISCARD,
    MARKET,
    PLANT,
    STEAL,
    WEED,
    WEEDING,
)
from cgsim.games.kitchen.actions import CROW as CROW_ACTION
from cgsim.games.kitchen.actions import HOLIDAY as HOLIDAY_ACTION
from cgsim.games.kitchen.cards import BAZAAR, CROW, SPECIALS, Catalogue
from cgsim.games.kitchen.legal import generate_legal_actions
from cgsim.games.kitchen.observation import Observation
from cgsim.games.kitchen.perform import perform
from cgsim.games.kitchen.rules import bed_full, bed_plants, can_use_special
from cgsim.games.kitchen.settle import settle
from cgsim.games.kitchen.state import NONE, PHASE_OVER, State
from cgsim.games.kitchen.work import Work

View = Work | State | Observation
"""What the scorer reads: a playout's working copy, a sampled world, or an observation
(the bots' own decisions). Compiled, each read tests the classes in this order, so the
playouts' working copy comes first."""

_MASK32 = 0xFFFFFFFF


class QuickRandom:
    """The search's own draws (worlds' deals, playouts' ties and ``epsilon`` coin): a
    32-bit xorshift generator, a few integer operations a draw.

    ``random.Random`` costs a call through Python for every draw, and seeding one (624
    words of state) for each of thousands of playouts a decision cost more than the
    ties it broke. Every playout of a world starts from one seed, so the candidates
    meet the same ties (common random numbers). Plain integer arithmetic: the compiled
    and pure-Python searches draw the same numbers."""

    __slots__ = ("bits",)

    def __init__(self, seed: int) -> None:
        self.bits = ((seed ^ (seed >> 32)) & _MASK32) or 1

    def _next(self) -> int:
        bits = self.bits
        bits ^= (bits << 13) & _MASK32
        bits ^= bits >> 17
        bits ^= (bits << 5) & _MASK32
        self.bits = bits
        return bits

    def randrange(self, n: int) -> int:
        """A draw in ``range(n)`` (the modulo's bias is below one in ten million)."""
        return self._next() % n

    def random(self) -> float:
        """A draw in [0, 1)."""
        return self._next() / 4294967296.0

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]


@dataclass(frozen=True, slots=True)
class Weights:
    """The greedy scorer's feature weights (``GreedyParams`` as plain floats)."""

    plant: float
    complete_bed: float
    pull_weed: float
    weed_leader: float
    sluggard_leader: float
    harvest: float
    swap_gain: float
    steal: float
    extra_action: float

    def __reduce__(self) -> tuple[type[Weights], tuple[Any, ...]]:
        return dataclass_reduce(self)


def progress(view: View, seat: int) -> float:
    """How far a seat is toward a fully planted garden: plants planted plus a bonus per
    fully planted bed (used by both Kitchen bots)."""
    catalogue = view.rules.catalogue
    task = catalogue.tasks[view.tasks[seat]]
    total = 0.0
    for crop, bed in enumerate(view.beds[seat]):
        total += bed_plants(catalogue, bed)
        if bed_full(catalogue, bed, task.targets[crop], task.slots[crop]):
            total += 4.0
    return total


class Scorer:
    """Feature scores of a seat's legal actions in one view (a state or an observation)."""

    def __init__(self, view: View, seat: int, weights: Weights) -> None:
        self.view = view
        self.seat = seat
        self.weights = weights
        self.catalogue: Catalogue = view.rules.catalogue
        self.beds: tuple[tuple[tuple[int, ...], ...], ...] = (
            tuple(view.beds) if isinstance(view, Work) else view.beds
        )
        self.market: tuple[int, ...] = view.market
        task = self.catalogue.tasks[view.tasks[seat]]
        self.targets: tuple[int, ...] = task.targets
        self.slots: tuple[int, ...] = task.slots
        self.hand: tuple[int, ...] = (
            view.hand if isinstance(view, Observation) else view.hands[seat]
        )
        self._leader = -1
        self._weeds = -1
        self._plantable = -1
        self._usefulness: list[float] = [-1.0] * len(self.catalogue.type_crop)
        """Per card type, its usefulness once asked (-1: not yet; every value is >= 0)."""

    @property
    def leader(self) -> int:
        """The opponent furthest along (lowest seat on ties), found when first needed."""
        if self._leader < 0:
            best, best_progress = -1, 0.0
            for other in range(self.view.rules.players):
                if other == self.seat:
                    continue
                value = progress(self.view, other)
                if best < 0 or value > best_progress:
                    best, best_progress = other, value
            self._leader = best
        return self._leader

    def usefulness(self, type_id: int) -> float:
        """How much a card of this type helps the seat (higher keeps it)."""
        cached = self._usefulness[type_id]
        if cached >= 0.0:
            return cached
        catalogue = self.catalogue
        crop = catalogue.type_crop[type_id]
        value: float
        if crop >= 0:
            value = self._plant_worth(crop, catalogue.type_plants[type_id])
        elif type_id == catalogue.worker:
            value = 9.0 if self._own_weeds() else 5.0
        elif type_id == catalogue.weed:
            value = 3.0
        else:
            value = 3.5
        self._usefulness[type_id] = value
        return value

    def _plant_worth(self, crop: int, plants: int) -> float:
        """Worth of a plant card of ``plants`` for the seat's bed of ``crop``: plantable
        now (more when it takes the last free slot), plantable once a Weed is pulled to
        free a slot, or useless. The planting rule's arithmetic (a Weed's slot is a slot
        still to plant), inlined: cheaper compiled than any memo."""
        catalogue = self.catalogue
        card_types = catalogue.card_types
        type_crop = catalogue.type_crop
        type_plants = catalogue.type_plants
        bed = self.beds[self.seat][crop]
        target = self.targets[crop]
        slots = self.slots[crop]
        plant_cards = 0
        planted = 0
        for card in bed:
            type_id = card_types[card]
            if type_crop[type_id] >= 0:
                plant_cards += 1
                planted += type_plants[type_id]
        unplanted = slots - plant_cards - 1
        needed = target - planted - plants
        if unplanted < 0 or not (
            catalogue.min_plants * unplanted <= needed <= catalogue.max_plants * unplanted
        ):
            return 0.0
        if len(bed) < slots:
            return 10.0 + plants * 0.1 + (3.0 if len(bed) + 1 == slots else 0.0)
        return 4.0

    def _plantable_count(self) -> int:
        """Crops the hand could plant now (found once per scorer)."""
        if self._plantable < 0:
            catalogue = self.catalogue
            crops = 0
            for card in self.hand:
                type_id = catalogue.card_types[card]
                crop = catalogue.type_crop[type_id]
                if crop >= 0 and self.usefulness(type_id) >= 10.0:
                    crops |= 1 << crop
            self._plantable = crops.bit_count()
        return self._plantable

    def _own_weeds(self) -> int:
        """Weeds in the seat's own beds (counted once per scorer)."""
        if self._weeds < 0:
            catalogue = self.catalogue
            card_types = catalogue.card_types
            weed = catalogue.weed
            count = 0
            for bed in self.beds[self.seat]:
                for card in bed:
                    if card_types[card] == weed:
                        count += 1
            self._weeds = count
        return self._weeds

    def score(self, action: Action) -> float:
        kind = action >> 18  # as ``decode``, unpacked in place: scored millions of times
        a = (action >> 12) & 63
        b = (action >> 6) & 63
        c = action & 63
        p = self.weights
        catalogue = self.catalogue
        if kind in (MARKET, BAZAAR_SWAP):
            market_type = catalogue.card_types[self.market[b]]
            gain = self.usefulness(market_type) - self.usefulness(a)
            return 20.0 + p.swap_gain * gain if gain > 0 else -10.0
        if kind == PLANT:
            crop = catalogue.type_crop[a]
            bed = self.beds[self.seat][crop]
            completes = (
                len(bed) + 1 == self.slots[crop]
                and bed_plants(catalogue, bed) + catalogue.type_plants[a] == self.targets[crop]
            )
            return p.plant + (p.complete_bed if completes else 0.0) + catalogue.type_plants[a]
        if kind == CROW_ACTION:
            return 12.0 + 2.0 * self.usefulness(a)
        if kind in (CLEAN_DISCARD, HOLIDAY_DISCARD):
            return -self.usefulness(a)
        if kind == WEEDING:
            card = self.beds[self.seat][a][b]
            return p.pull_weed if catalogue.card_types[card] == catalogue.weed else -50.0
        if kind == WEED:
            lead = 1.0 if a == self.leader else 0.5
            return p.weed_leader * lead + bed_plants(catalogue, self.beds[a][b])
        if kind == HARVEST:
            return p.harvest
        if kind == STEAL:
            card = self.beds[a][b][c]
            target_task = catalogue.tasks[self.view.tasks[a]]
            was_full = bed_full(
                catalogue, self.beds[a][b], target_task.targets[b], target_task.slots[b]
            )
            lead = 1.0 if a == self.leader else 0.6
            gain = self.usefulness(catalogue.card_types[card])
            return p.steal * lead + (15.0 if was_full else 0.0) + gain
        if kind == BAZAAR_ACTION:
            best = 0.0
            for index, card in enumerate(self.market):
                worth = self.usefulness(catalogue.card_types[card])
                if index == 0 or worth > best:
                    best = worth
            return 18.0 if best < 10.0 else 4.0
        if kind == HOLIDAY_ACTION:
            worth = 0.0
            for card in self.hand:
                worth += self.usefulness(catalogue.card_types[card])
            return 16.0 if worth < 4.0 * max(1, len(self.hand)) else 1.0
        if kind == BAZAAR_DONE:
            return 20.0
        return self._condition_score(kind, a)

    def _condition_score(self, kind: int, a: int) -> float:
        p = self.weights
        if kind == A.END_CONDITIONS:
            return 0.0
        if kind == A.COND_WORKER:
            if self._own_weeds():
                return -1.0
            return p.extra_action if self._plantable_count() >= 2 else -1.0
        if kind == A.COND_SPECIAL:
            if self._plantable_count() < 2:
                return -1.0
            return p.extra_action - (2.0 if a == CROW else 1.0 if a == BAZAAR else 0.0)
        if kind == A.COND_SLUGGARD:
            return p.sluggard_leader + (5.0 if a == self.leader else 0.0)
        if kind == A.CANCEL_SLUGGARD:
            return 10.0
        return 0.0


def greedy_choice(
    view: View,
    seat: int,
    legal: Sequence[Action],
    weights: Weights,
    rng: random.Random | QuickRandom,
) -> Action:
    """The best-scoring legal action for ``seat``; ties broken with ``rng``."""
    if len(legal) == 1:
        return legal[0]
    scorer = Scorer(view, seat, weights)
    best = legal[0]
    best_score = -math.inf
    ties: list[Action] = []  # the actions tied at the best score, once there are two
    for action in legal:
        value = scorer.score(action)
        if value > best_score:
            best_score = value
            best = action
            if ties:
                ties = []
        elif value == best_score:
            if not ties:
                ties.append(best)
            ties.append(action)
    return ties[rng.randrange(len(ties))] if ties else best


def rollout(
    state: State, end_turn: int, epsilon: float, weights: Weights, ties: QuickRandom
) -> State:
    """Play on with the greedy policy (``epsilon`` of the moves at random) until turn
    ``end_turn`` begins or the game ends.

    The playout runs on one working copy (``Work``), the engine's own ``perform`` and
    ``settle`` in a loop: no state is frozen between its actions, and no action is
    checked again, since each comes from the legal list just generated."""
    work = Work(state, None)
    while work.turn < end_turn and work.phase is not PHASE_OVER:
        legal = generate_legal_actions(work)
        if epsilon and ties.random() < epsilon:
            action = legal[ties.randrange(len(legal))]
        else:
            action = greedy_choice(work, work.decider, legal, weights, ties)
        perform(work, action)
        settle(work)
    return work.freeze()


def position_value(state: State, seat: int, weights: Weights) -> float:
    """Progress on the beds, the worth of the hand and usable specials, minus own Weeds."""
    scorer = Scorer(state, seat, weights)
    card_types = scorer.catalogue.card_types
    hand = 0.0
    for card in state.hands[seat]:
        hand += scorer.usefulness(card_types[card])
    specials = 0
    for special in range(len(SPECIALS)):
        if can_use_special(state.specials, special, seat):
            specials += 1
    weeds = scorer._own_weeds()
    return progress(state, seat) + 0.8 * (hand / 10.0) + 0.8 * specials - 1.5 * weeds


def evaluate(state: State, seat: int, scale: float, weights: Weights) -> float:
    """1 for a win, 0 for a loss, else a logistic of the lead over the best opponent."""
    if state.winner != NONE:
        return 1.0 if state.winner == seat else 0.0
    mine = position_value(state, seat, weights)
    best = -math.inf
    for other in range(state.players):
        if other != seat:
            value = position_value(state, other, weights)
            if value > best:
                best = value
    return 1.0 / (1.0 + math.exp(-(mine - best) / scale))
