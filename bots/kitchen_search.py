"""``kitchen-search``: determinized Monte-Carlo that improves on the greedy bot's move.

For a decision it takes the greedy bot's own pick and the few other actions the greedy
scorer likes best. It samples up to ``worlds`` full states agreeing with its
observation and with what it has seen go into other hands (``cgsim.games.kitchen.knowledge``),
dealing each opponent's unknown cards with measured odds for what that opponent's last
move says of its hand (``HAND_ODDS``: after a Harvest it had nothing to plant). It plays
every candidate in every world followed by a greedy rollout of ``depth`` turns, and
scores the end (a win 1, a loss 0, otherwise a logistic of its lead in position value).
All candidates share the same worlds and rollout seeds (common random numbers), so
their per-world differences are compared, not their noisy means. Worlds come in
batches; after each, an alternative whose lead cannot plausibly clear the margin is
dropped, and sampling stops when only greedy's pick is left, so easy decisions cost
little and the budget goes to close ones. The bot leaves greedy's pick only for a
candidate whose mean lead over it exceeds ``margin`` and ``z`` standard errors;
otherwise it plays as greedy would. Every decision with a choice is searched, discards
and Bazaar swaps included: which card to keep matters as much as what to play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bots.kitchen_greedy import GreedyParams, Scorer, as_observation, greedy_choice
from bots.kitchen_policy import evaluate as evaluate
from bots.kitchen_policy import rollout as rollout
from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.knowledge import Knowledge, sample_world
from cgsim.games.kitchen.observation import Observation
from cgsim.games.kitchen.rules import apply
from cgsim.games.kitchen.state import Phase, State


class SearchParams(BaseModel):
    """Search budget and shape (no wall-clock budget: the same rng gives the same move)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    worlds: int = Field(
        96, ge=1, le=10_000, description="most sampled hidden-card deals per decision"
    )
    batch: int = Field(16, ge=1, le=10_000, description="deals sampled between pruning checks")
    prune: float = Field(
        2.0, ge=0.0, description="standard errors above its lead an alternative stays hopeful"
    )
    depth: int = Field(8, ge=0, le=1_000, description="rollout length in turns (every seat's)")
    candidates: int = Field(4, ge=1, le=100, description="greedy-best actions compared")
    epsilon: float = Field(0.0, ge=0.0, le=1.0, description="rollout chance of a random action")
    scale: float = Field(4.0, gt=0.0, description="position-value lead worth e-fold odds")
    margin: float = Field(
        0.02, ge=0.0, description="mean lead over greedy's pick an alternative needs"
    )
    z: float = Field(1.0, ge=0.0, description="standard errors of the lead an alternative needs")
    knowledge: bool = Field(True, description="keep seen cards in their holders' hands")
    hand_model: float = Field(
        1.0,
        ge=0.0,
        description="trust in the measured odds of what opponents hold (0: uniform deal)",
    )


CARD_CLASSES = ("plant-now", "plant-later", "plant-dead", "worker", "weed", "sluggard")
"""How a hidden card stands for the opponent who may hold it (see ``card_class``)."""

MODELLED_MOVES = (A.HARVEST, A.PLANT, A.MARKET, A.WEED, A.WEEDING, A.CROW)
"""Last moves whose odds are measured; after any other move the deal is uniform."""

HAND_ODDS: dict[int, tuple[float, ...]] = {
    A.HARVEST: (0.32, 3.1, 1.2, 1.9, 0.42, 0.34),
    A.PLANT: (0.46, 2.3, 1.2, 1.9, 1.3, 0.3),
    A.WEED: (0.02, 3.3, 1.2, 3.3, 0.066, 0.02),
    A.WEEDING: (0.71, 4.4, 1.2, 0.82, 0.38, 0.02),
    A.MARKET: (1.4, 3.4, 0.11, 2.9, 2.3, 0.52),
    A.CROW: (0.98, 1.2, 0.86, 3.2, 0.11, 0.02),
}
"""Odds that a hidden card of each class (``CARD_CLASSES`` order) lies in an opponent's
hand rather than the deck, by the opponent's last action-phase move.

Measured by ``python -m bots.kitchen_odds --games 3000`` (``kitchen-greedy`` self-play,
every hidden card at every decision): a player who just Harvested had nothing to
plant, so a card it could plant now is three times less likely in its hand than in the
deck; one who took from the market keeps what it swapped for. With no such move seen
yet, the deal is uniform. Measured with two players, used at every table size.
"""


def card_class(scorer: Scorer, type_id: int) -> int:
    """Index into ``CARD_CLASSES`` of a card type for the scorer's seat."""
    catalogue = scorer.catalogue
    if catalogue.type_crop[type_id] >= 0:
        worth = scorer.usefulness(type_id)
        return 0 if worth >= 10.0 else 1 if worth > 0.0 else 2
    if type_id == catalogue.worker:
        return 3
    return 4 if type_id == catalogue.weed else 5


def lean_hands(
    world: State,
    observation: Observation,
    knowledge: Knowledge,
    last_moves: Sequence[int],
    trust: float,
    rng: random.Random,
) -> State:
    """The world with the unknown cards of other hands re-dealt from the same hidden pool,
    each card weighted by ``HAND_ODDS`` (raised to ``trust``) for the holder's last move.

    A uniform deal ignores what an opponent's moves say about its hand: after a Harvest
    it had nothing to plant. Known cards stay where they are; ``last_moves`` holds each
    seat's last action-phase kind, or -1 when none was seen.
    """
    if trust <= 0.0 or not any(move in HAND_ODDS for move in last_moves):
        return world
    card_types = world.rules.catalogue.card_types
    seat = observation.seat
    known = knowledge.known
    fixed = {card for cards in known for card in cards}
    pool = [
        card
        for other, hand in enumerate(world.hands)
        if other != seat
        for card in hand
        if card not in fixed
    ]
    pool.extend(world.deck)
    hands = list(world.hands)
    for other in range(world.players):
        if other == seat:
            continue
        odds = HAND_ODDS.get(last_moves[other])
        chosen = list(known[other])
        if odds is None:
            while len(chosen) < len(hands[other]) and pool:
                chosen.append(pool.pop(rng.randrange(len(pool))))
        else:
            scorer = Scorer(world, other, KitchenSearchBot.weights)
            by_type = {card_types[card] for card in pool}
            weight_of = {t: odds[card_class(scorer, t)] ** trust for t in by_type}
            while len(chosen) < len(hands[other]) and pool:
                weights = [weight_of[card_types[card]] for card in pool]
                chosen.append(pool.pop(rng.choices(range(len(pool)), weights=weights)[0]))
        hands[other] = tuple(sorted(chosen))
    rng.shuffle(pool)
    return replace(world, hands=tuple(hands), deck=tuple(pool))


def lead_stats(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """Mean per-world lead of ``values`` over ``base`` and its standard error."""
    worlds = len(base)
    leads = [value - first for value, first in zip(values, base, strict=True)]
    mean = sum(leads) / worlds
    if worlds < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((lead - mean) ** 2 for lead in leads) / (worlds - 1) / worlds)


def hopeful(values: Sequence[float], base: Sequence[float], margin: float, prune: float) -> bool:
    """Whether an alternative could still clear the margin: its lead plus ``prune``
    standard errors exceeds it."""
    mean, error = lead_stats(values, base)
    return mean + prune * error > margin


def preferred(values: Sequence[Sequence[float]], margin: float, z: float) -> int:
    """Index of the candidate to play given per-world values (row 0: greedy's pick).

    An alternative is chosen only when its mean per-world lead over row 0 exceeds both
    ``margin`` and ``z`` standard errors of that lead; among those, the largest lead.
    """
    chosen, best_lead = 0, 0.0
    for index in range(1, len(values)):
        mean, spread = lead_stats(values[index], values[0])
        if mean > margin and mean > z * spread and mean > best_lead:
            chosen, best_lead = index, mean
    return chosen


class KitchenSearchBot(Bot):
    """Determinized Monte-Carlo over the top greedy candidates; see ``SearchParams``."""

    name: ClassVar[str] = "kitchen-search"
    description: ClassVar[str] = (
        "samples hidden cards and plays a better move than greedy's when playouts agree"
    )
    games: ClassVar[tuple[str, ...]] = ("kitchen-garden",)
    searches: ClassVar[bool] = True
    Params: ClassVar[type[BaseModel]] = SearchParams

    greedy = GreedyParams()
    weights = greedy.weights()

    def __init__(self, params: BaseModel | None = None) -> None:
        super().__init__(params)
        self._last: Observation | None = None
        self._knowledge: Knowledge | None = None
        self._last_moves: list[int] = []

    def new_game(self, game: AnyGame, seat: int, state: Any) -> None:
        super().new_game(game, seat, state)
        self._last = as_observation(state)
        self._knowledge = Knowledge.empty(self._last)
        self._last_moves = [-1] * self._last.players

    def observe(self, state: Any, seat: int, action: Action) -> None:
        """Learn which open cards went into other hands with the action just played."""
        after = as_observation(state)
        last, knowledge = self._last, self._knowledge
        if last is not None and knowledge is not None and last.seat == after.seat:
            self._knowledge = knowledge.update(last, seat, action, after)
            if last.phase == Phase.ACTIONS and seat != after.seat and seat < len(self._last_moves):
                self._last_moves[seat] = A.kind_of(action)
        self._last = after

    @property
    def last_moves(self) -> tuple[int, ...]:
        """Each seat's last action-phase move kind seen by this bot (-1: none yet)."""
        return tuple(self._last_moves)

    def knowledge_for(self, observation: Observation) -> Knowledge:
        """What this bot knows of other hands, valid for ``observation`` (or nothing)."""
        if not self.params.knowledge or self._knowledge is None:
            return Knowledge.empty(observation)
        return self._knowledge.consistent(observation)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        observation = as_observation(state)
        pick = greedy_choice(observation, observation.seat, legal_actions, self.weights, rng)
        if len(legal_actions) == 1:
            return pick
        candidates = self._candidates(observation, legal_actions, pick)
        if len(candidates) == 1:
            return pick
        return self._search(observation, candidates, rng)

    def _candidates(
        self, observation: Observation, legal: Sequence[Action], pick: Action
    ) -> list[Action]:
        """Greedy's pick first, then the best-scored others, ``candidates`` in all."""
        scorer = Scorer(observation, observation.seat, self.weights)
        others = sorted((a for a in legal if a != pick), key=lambda a: -scorer.score(a))
        return [pick, *others[: self.params.candidates - 1]]

    def _search(
        self, observation: Observation, candidates: list[Action], rng: random.Random
    ) -> Action:
        params: SearchParams = self.params
        seat = observation.seat
        knowledge = self.knowledge_for(observation)
        end_turn = observation.turn + params.depth
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        sampled = 0
        while sampled < params.worlds and len(alive) > 1:
            for _ in range(min(params.batch, params.worlds - sampled)):
                world = sample_world(observation, knowledge, rng)
                world = lean_hands(
                    world, observation, knowledge, self._last_moves, params.hand_model, rng
                )
                rollout_seed = rng.getrandbits(64)
                for index in alive:
                    final = rollout(
                        apply(world, candidates[index]),
                        end_turn,
                        params.epsilon,
                        self.weights,
                        random.Random(rollout_seed),
                    )
                    values[index].append(evaluate(final, seat, params.scale, self.weights))
                sampled += 1
            alive = [0] + [
                index
                for index in alive[1:]
                if hopeful(values[index], values[0], params.margin, params.prune)
            ]
        chosen = preferred([values[index] for index in alive], params.margin, params.z)
        return candidates[alive[chosen]]
