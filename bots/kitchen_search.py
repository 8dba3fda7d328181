"""``kitchen-search``: determinized Monte-Carlo that improves on the greedy bot's move.

For a decision it takes the greedy bot's own pick and the few other actions the greedy
scorer likes best. It samples ``worlds`` full states agreeing with its observation and
with what it has seen go into other hands (``cgsim.kitchen.knowledge``), plays every
candidate in every world followed by a greedy rollout of ``depth`` turns, and scores
the end (a win 1, a loss 0, otherwise a logistic of its lead in position value). All
candidates share the same worlds and rollout seeds (common random numbers), so their
per-world differences are compared, not their noisy means. Worlds come in batches;
after each, an alternative whose lead cannot plausibly clear the margin is dropped, and
sampling stops when only greedy's pick is left, so easy decisions cost little and the
budget goes to close ones. The bot leaves greedy's pick only for a candidate whose mean
lead over it exceeds ``margin`` and ``z`` standard errors; otherwise it plays as greedy
would. Every decision with a choice is searched, discards and Bazaar swaps included:
which card to keep matters as much as what to play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bots.kitchen_greedy import GreedyParams, Scorer, as_observation, greedy_choice, progress
from cgsim.bot import Bot
from cgsim.game import Action, Game
from cgsim.kitchen.cards import SPECIALS
from cgsim.kitchen.knowledge import Knowledge, sample_world
from cgsim.kitchen.observation import Observation
from cgsim.kitchen.rules import apply, can_use_special, legal_actions
from cgsim.kitchen.state import NONE, OVER, State


class SearchParams(BaseModel):
    """Search budget and shape (no wall-clock budget: the same rng gives the same move)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    worlds: int = Field(
        32, ge=1, le=10_000, description="most sampled hidden-card deals per decision"
    )
    batch: int = Field(8, ge=1, le=10_000, description="deals sampled between pruning checks")
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
    hand_bias: float = Field(
        3.0, ge=0.0, description="extra odds that an unknown opponent card is one it can plant"
    )


def position_value(state: State, seat: int) -> float:
    """Progress on the beds, the worth of the hand and usable specials, minus own Weeds."""
    scorer = Scorer(state, seat, KitchenSearchBot.greedy)
    catalogue = state.rules.catalogue
    card_types = catalogue.card_types
    hand = sum(scorer.usefulness(card_types[card]) for card in state.hands[seat]) / 10.0
    specials = sum(
        can_use_special(state.specials, special, seat) for special in range(len(SPECIALS))
    )
    weeds = sum(card_types[card] == catalogue.weed for bed in state.beds[seat] for card in bed)
    return progress(state, seat) + 0.8 * hand + 0.8 * specials - 1.5 * weeds


def evaluate(state: State, seat: int, scale: float) -> float:
    """1 for a win, 0 for a loss, else a logistic of the lead over the best opponent."""
    if state.winner != NONE:
        return 1.0 if state.winner == seat else 0.0
    mine = position_value(state, seat)
    best = max(position_value(state, other) for other in range(state.players) if other != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / scale))


def lean_hands(
    world: State, observation: Observation, knowledge: Knowledge, weight: float, rng: random.Random
) -> State:
    """The world with the unknown cards of other hands re-dealt from the same hidden pool,
    each with odds ``1 + weight`` when its holder could plant it now, else 1.

    Players keep useful cards and discard the rest, so a uniform deal makes opponents
    look weaker than they are. Known cards stay where they are.
    """
    if weight <= 0.0:
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
        scorer = Scorer(world, other, KitchenSearchBot.greedy)
        chosen = list(known[other])
        while len(chosen) < len(hands[other]) and pool:
            odds = [
                1.0 + (weight if scorer.usefulness(card_types[card]) >= 10.0 else 0.0)
                for card in pool
            ]
            chosen.append(pool.pop(rng.choices(range(len(pool)), weights=odds)[0]))
        hands[other] = tuple(sorted(chosen))
    rng.shuffle(pool)
    return replace(world, hands=tuple(hands), deck=tuple(pool))


def rollout(
    state: State, end_turn: int, epsilon: float, greedy: GreedyParams, rng: random.Random
) -> State:
    """Play on with the greedy policy (``epsilon`` of the moves at random) until turn
    ``end_turn`` begins or the game ends."""
    while state.turn < end_turn and state.phase != OVER:
        legal = legal_actions(state)
        if epsilon and rng.random() < epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = greedy_choice(state, state.decider, legal, greedy, rng)
        state = apply(state, action)
    return state


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
    Params: ClassVar[type[BaseModel]] = SearchParams

    greedy = GreedyParams()

    def __init__(self, params: BaseModel | None = None) -> None:
        super().__init__(params)
        self._last: Observation | None = None
        self._knowledge: Knowledge | None = None

    def new_game(self, game: Game, seat: int, state: Any) -> None:
        super().new_game(game, seat, state)
        self._last = as_observation(state)
        self._knowledge = Knowledge.empty(self._last)

    def observe(self, state: Any, seat: int, action: Action) -> None:
        """Learn which open cards went into other hands with the action just played."""
        after = as_observation(state)
        last, knowledge = self._last, self._knowledge
        if last is not None and knowledge is not None and last.seat == after.seat:
            self._knowledge = knowledge.update(last, seat, action, after)
        self._last = after

    def knowledge_for(self, observation: Observation) -> Knowledge:
        """What this bot knows of other hands, valid for ``observation`` (or nothing)."""
        if not self.params.knowledge or self._knowledge is None:
            return Knowledge.empty(observation)
        return self._knowledge.consistent(observation)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        observation = as_observation(state)
        pick = greedy_choice(observation, observation.seat, legal_actions, self.greedy, rng)
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
        scorer = Scorer(observation, observation.seat, self.greedy)
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
                world = lean_hands(world, observation, knowledge, params.hand_bias, rng)
                rollout_seed = rng.getrandbits(64)
                for index in alive:
                    final = rollout(
                        apply(world, candidates[index]),
                        end_turn,
                        params.epsilon,
                        self.greedy,
                        random.Random(rollout_seed),
                    )
                    values[index].append(evaluate(final, seat, params.scale))
                sampled += 1
            alive = [0] + [
                index
                for index in alive[1:]
                if hopeful(values[index], values[0], params.margin, params.prune)
            ]
        chosen = preferred([values[index] for index in alive], params.margin, params.z)
        return candidates[alive[chosen]]
