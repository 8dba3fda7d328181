"""``kitchen-greedy``: a one-step Kitchen Garden player that plants whenever it can.

It scores every legal action with a few weighted features (plant toward beds that can
still be completed, finish beds, pull its own Weeds, weed and Sluggard the leader, take
useful cards from the market and the discard pile) and plays the best, breaking ties
with its generator. The scoring works on an observation or on a full state alike, so
the search bot reuses it as its rollout policy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cgsim.games.bot import Bot
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
    decode,
)
from cgsim.games.kitchen.actions import CROW as CROW_ACTION
from cgsim.games.kitchen.actions import HOLIDAY as HOLIDAY_ACTION
from cgsim.games.kitchen.cards import BAZAAR, CROW, HOLIDAY, Catalogue
from cgsim.games.kitchen.observation import Observation, observe
from cgsim.games.kitchen.rules import bed_full, bed_plants, can_plant
from cgsim.games.kitchen.state import State


class GreedyParams(BaseModel):
    """Weights of the action features."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    plant: float = Field(100.0, description="planting a card")
    complete_bed: float = Field(40.0, description="planting that fully plants a bed")
    pull_weed: float = Field(90.0, description="removing a Weed from an own bed")
    weed_leader: float = Field(45.0, description="placing a Weed on the leader's bed")
    sluggard_leader: float = Field(30.0, description="placing a Sluggard on the leader")
    harvest: float = Field(25.0, description="drawing a card")
    swap_gain: float = Field(6.0, description="per point of card usefulness gained by a swap")
    steal: float = Field(35.0, description="stealing a card from the leader's bed")
    extra_action: float = Field(12.0, description="discarding for an extra action when useful")


def _hand(view: State | Observation, seat: int) -> tuple[int, ...]:
    return view.hands[seat] if isinstance(view, State) else view.hand


def progress(view: State | Observation, seat: int) -> float:
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


def _fits_later(
    catalogue: Catalogue, bed: tuple[int, ...], target: int, slots: int, v: int
) -> bool:
    """Whether a card of ``v`` plants could join the bed once its Weeds are gone."""
    card_types = catalogue.card_types
    plant_cards = [card for card in bed if catalogue.type_crop[card_types[card]] >= 0]
    free = slots - len(plant_cards) - 1
    if free < 0:
        return False
    needed = target - bed_plants(catalogue, plant_cards) - v
    return catalogue.min_plants * free <= needed <= catalogue.max_plants * free


_WORTH_CACHES: dict[int, tuple[Catalogue, dict[tuple[tuple[int, ...], int, int, int], float]]] = {}
"""Per catalogue (kept alive, so its id stays unique): plant-card worth by bed and card."""


def _plant_worth(
    catalogue: Catalogue, bed: tuple[int, ...], target: int, slots: int, plants: int
) -> float:
    """Worth of a plant card of ``plants`` for a bed: plantable now (more when it leaves
    one slot), plantable once the bed's Weeds are pulled, or useless.

    Memoised: rollouts ask the same question of the same beds thousands of times.
    """
    entry = _WORTH_CACHES.get(id(catalogue))
    if entry is None or entry[0] is not catalogue:
        entry = _WORTH_CACHES[id(catalogue)] = (catalogue, {})
    cache = entry[1]
    key = (bed, target, slots, plants)
    value = cache.get(key)
    if value is None:
        if can_plant(catalogue, bed, target, slots, plants):
            value = 10.0 + plants * 0.1 + (3.0 if len(bed) + 1 == slots else 0.0)
        elif _fits_later(catalogue, bed, target, slots, plants):
            value = 4.0
        else:
            value = 0.0
        cache[key] = value
    return value


class Scorer:
    """Feature scores of a seat's legal actions in one view."""

    def __init__(self, view: State | Observation, seat: int, params: GreedyParams) -> None:
        self.view = view
        self.seat = seat
        self.params = params
        self.catalogue = view.rules.catalogue
        self.task = self.catalogue.tasks[view.tasks[seat]]
        self.hand = _hand(view, seat)
        self._leader: int | None = None
        self._usefulness: dict[int, float] = {}

    @property
    def leader(self) -> int:
        """The opponent furthest along (lowest seat on ties), found when first needed."""
        if self._leader is None:
            view = self.view
            opponents = [s for s in range(view.rules.players) if s != self.seat]
            self._leader = max(opponents, key=lambda s: (progress(view, s), -s))
        return self._leader

    def usefulness(self, type_id: int) -> float:
        """How much a card of this type helps the seat (higher keeps it)."""
        cached = self._usefulness.get(type_id)
        if cached is not None:
            return cached
        catalogue = self.catalogue
        crop = catalogue.type_crop[type_id]
        beds = self.view.beds[self.seat]
        value: float
        if crop >= 0:
            value = _plant_worth(
                catalogue,
                beds[crop],
                self.task.targets[crop],
                self.task.slots[crop],
                catalogue.type_plants[type_id],
            )
        elif type_id == catalogue.worker:
            has_weed = any(
                catalogue.card_types[card] == catalogue.weed for bed in beds for card in bed
            )
            value = 9.0 if has_weed else 5.0
        elif type_id == catalogue.weed:
            value = 3.0
        else:
            value = 3.5
        self._usefulness[type_id] = value
        return value

    def _plantable_count(self) -> int:
        catalogue = self.catalogue
        crops = set()
        for card in self.hand:
            type_id = catalogue.card_types[card]
            crop = catalogue.type_crop[type_id]
            if crop >= 0 and self.usefulness(type_id) >= 10.0:
                crops.add(crop)
        return len(crops)

    def _own_weeds(self) -> int:
        catalogue = self.catalogue
        return sum(
            catalogue.card_types[card] == catalogue.weed
            for bed in self.view.beds[self.seat]
            for card in bed
        )

    def score(self, action: Action) -> float:
        kind, a, b, c = decode(action)
        p = self.params
        catalogue = self.catalogue
        view = self.view
        if kind in (MARKET, BAZAAR_SWAP):
            market_type = catalogue.card_types[view.market[b]]
            gain = self.usefulness(market_type) - self.usefulness(a)
            return 20.0 + p.swap_gain * gain if gain > 0 else -10.0
        if kind == PLANT:
            crop = catalogue.type_crop[a]
            bed = view.beds[self.seat][crop]
            completes = (
                len(bed) + 1 == self.task.slots[crop]
                and bed_plants(catalogue, bed) + catalogue.type_plants[a] == self.task.targets[crop]
            )
            return p.plant + (p.complete_bed if completes else 0.0) + catalogue.type_plants[a]
        if kind == CROW_ACTION:
            return 12.0 + 2.0 * self.usefulness(a)
        if kind in (CLEAN_DISCARD, HOLIDAY_DISCARD):
            return -self.usefulness(a)
        if kind == WEEDING:
            card = view.beds[self.seat][a][b]
            return p.pull_weed if catalogue.card_types[card] == catalogue.weed else -50.0
        if kind == WEED:
            lead = 1.0 if a == self.leader else 0.5
            return p.weed_leader * lead + bed_plants(catalogue, view.beds[a][b])
        if kind == HARVEST:
            return p.harvest
        if kind == STEAL:
            card = view.beds[a][b][c]
            target_task = catalogue.tasks[view.tasks[a]]
            was_full = bed_full(
                catalogue, view.beds[a][b], target_task.targets[b], target_task.slots[b]
            )
            lead = 1.0 if a == self.leader else 0.6
            gain = self.usefulness(catalogue.card_types[card])
            return p.steal * lead + (15.0 if was_full else 0.0) + gain
        if kind == BAZAAR_ACTION:
            best = max((self.usefulness(catalogue.card_types[m]) for m in view.market), default=0.0)
            return 18.0 if best < 10.0 else 4.0
        if kind == HOLIDAY_ACTION:
            worth = sum(self.usefulness(catalogue.card_types[card]) for card in self.hand)
            return 16.0 if worth < 4.0 * max(1, len(self.hand)) else 1.0
        if kind == BAZAAR_DONE:
            return 20.0
        return self._condition_score(kind, a)

    def _condition_score(self, kind: int, a: int) -> float:
        p = self.params
        if kind == A.END_CONDITIONS:
            return 0.0
        if kind == A.COND_WORKER:
            if self._own_weeds():
                return -1.0
            return p.extra_action if self._plantable_count() >= 2 else -1.0
        if kind == A.COND_SPECIAL:
            if self._plantable_count() < 2:
                return -1.0
            return p.extra_action - {HOLIDAY: 0.0, BAZAAR: 1.0, CROW: 2.0}.get(a, 0.0)
        if kind == A.COND_SLUGGARD:
            return p.sluggard_leader + (5.0 if a == self.leader else 0.0)
        if kind == A.CANCEL_SLUGGARD:
            return 10.0
        if kind == A.ACCEPT_SLUGGARD:
            return 0.0
        return 0.0


def greedy_choice(
    view: State | Observation,
    seat: int,
    legal_actions: Sequence[Action],
    params: GreedyParams,
    rng: random.Random,
) -> Action:
    """The best-scoring legal action for ``seat``; ties broken with ``rng``."""
    if len(legal_actions) == 1:
        return legal_actions[0]
    scorer = Scorer(view, seat, params)
    best: list[Action] = []
    best_score = float("-inf")
    for action in legal_actions:
        value = scorer.score(action)
        if value > best_score:
            best_score = value
            best = [action]
        elif value == best_score:
            best.append(action)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


def as_observation(state: Any) -> Observation:
    """The deciding seat's observation (a full state is reduced to it, never used whole)."""
    if isinstance(state, Observation):
        return state
    if isinstance(state, State):
        return observe(state, state.decider)
    raise TypeError(f"expected a kitchen-garden observation, got {type(state).__name__}")


class KitchenGreedyBot(Bot):
    """Plays the action with the best weighted feature score; see ``GreedyParams``."""

    name: ClassVar[str] = "kitchen-greedy"
    description: ClassVar[str] = (
        "plants toward completable beds, pulls Weeds, weeds and Sluggards the leader"
    )
    games: ClassVar[tuple[str, ...]] = ("kitchen-garden",)
    Params: ClassVar[type[BaseModel]] = GreedyParams

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        observation = as_observation(state)
        return greedy_choice(observation, observation.seat, legal_actions, self.params, rng)


__all__ = ["GreedyParams", "KitchenGreedyBot", "Scorer", "greedy_choice", "progress"]
