"""``kitchen-search``: determinized Monte-Carlo search over the greedy bot's best moves.

For a decision it keeps the few actions the greedy scorer likes best, then repeatedly
samples the hidden cards consistently with its observation (``GAME.determinize``),
plays every candidate on that same sample followed by a short greedy rollout, and
scores the end position (a win 1, a loss 0, otherwise a logistic of its lead in
progress). The candidate with the best mean is played. Sharing each sample across the
candidates (common random numbers) makes the comparison fair with few playouts.
Discards and Bazaar swaps are left to the greedy scorer: they matter little and cost
the most decisions.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bots.kitchen_greedy import GreedyParams, Scorer, as_observation, greedy_choice, progress
from cgsim.bot import Bot
from cgsim.game import Action
from cgsim.kitchen.cards import SPECIALS
from cgsim.kitchen.game import GAME
from cgsim.kitchen.observation import Observation, unseen_cards
from cgsim.kitchen.rules import apply, can_use_special, legal_actions
from cgsim.kitchen.state import ACTIONS, CONDITIONS, NONE, OVER, SLUGGARD_RESPONSE, State

SEARCHED_PHASES = (CONDITIONS, SLUGGARD_RESPONSE, ACTIONS)


class SearchParams(BaseModel):
    """Search budget and shape."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    playouts: int = Field(60, ge=1, le=100_000, description="playouts per decision, in all")
    depth: int = Field(4, ge=0, le=1_000, description="rollout length in turns (every seat's)")
    candidates: int = Field(5, ge=1, le=100, description="greedy-best actions compared")
    epsilon: float = Field(0.1, ge=0.0, le=1.0, description="rollout chance of a random action")
    scale: float = Field(4.0, gt=0.0, description="progress lead worth e-fold odds")
    hand_bias: float = Field(
        3.0, ge=0.0, description="extra odds that an opponent holds a card it can plant"
    )
    time_ms: float | None = Field(
        None, gt=0.0, description="optional per-decision time budget, checked between samples"
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


def rollout(
    state: State, end_turn: int, epsilon: float, greedy: GreedyParams, rng: random.Random
) -> State:
    """Play on with the greedy policy (``epsilon`` of the moves at random) until turn
    ``end_turn`` begins or the game ends."""
    while state.turn < end_turn:
        if state.phase == OVER:
            break
        legal = legal_actions(state)
        if epsilon and rng.random() < epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = greedy_choice(state, state.decider, legal, greedy, rng)
        state = apply(state, action)
    return state


def biased_world(observation: Observation, rng: random.Random, weight: float) -> State:
    """A determinization whose other hands lean toward cards their owners can plant.

    Real opponents keep useful cards and discard the rest, so a uniform deal makes them
    look weaker than they are; each unseen card is drawn into an opponent's hand with
    odds ``1 + weight`` when that opponent could plant it now, else 1.
    """
    world = GAME.determinize(observation, rng)
    if weight <= 0.0:
        return world
    card_types = world.rules.catalogue.card_types
    pool = list(unseen_cards(observation))
    hands = list(world.hands)
    for other in range(world.players):
        if other == observation.seat:
            continue
        scorer = Scorer(world, other, KitchenSearchBot.greedy)
        chosen: list[int] = []
        for _ in range(len(hands[other])):
            odds = [
                1.0 + (weight if scorer.usefulness(card_types[card]) >= 10.0 else 0.0)
                for card in pool
            ]
            pick = rng.choices(range(len(pool)), weights=odds)[0]
            chosen.append(pool.pop(pick))
        hands[other] = tuple(sorted(chosen))
    rng.shuffle(pool)
    return replace(world, hands=tuple(hands), deck=tuple(pool))


class KitchenSearchBot(Bot):
    """Determinized Monte-Carlo over the top greedy candidates; see ``SearchParams``."""

    name: ClassVar[str] = "kitchen-search"
    description: ClassVar[str] = (
        "samples hidden cards and compares the best greedy moves by greedy playouts"
    )
    games: ClassVar[tuple[str, ...]] = ("kitchen-garden",)
    Params: ClassVar[type[BaseModel]] = SearchParams

    greedy = GreedyParams()

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        observation = as_observation(state)
        if len(legal_actions) == 1 or observation.phase not in SEARCHED_PHASES:
            return greedy_choice(observation, observation.seat, legal_actions, self.greedy, rng)
        candidates = self._candidates(observation, legal_actions)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(observation, candidates, rng)

    def _candidates(self, observation: Observation, legal: Sequence[Action]) -> list[Action]:
        scorer = Scorer(observation, observation.seat, self.greedy)
        ranked = sorted(legal, key=lambda action: -scorer.score(action))
        return ranked[: self.params.candidates]

    def _search(
        self, observation: Observation, candidates: list[Action], rng: random.Random
    ) -> Action:
        params: SearchParams = self.params
        seat = observation.seat
        totals = [0.0] * len(candidates)
        end_turn = observation.turn + params.depth
        samples = max(1, params.playouts // len(candidates))
        deadline = (
            time.perf_counter() + params.time_ms / 1000.0 if params.time_ms is not None else None
        )
        for _ in range(samples):
            world = biased_world(observation, rng, params.hand_bias)
            rollout_seed = rng.getrandbits(64)
            for index, action in enumerate(candidates):
                after = apply(world, action)
                final = rollout(
                    after, end_turn, params.epsilon, self.greedy, random.Random(rollout_seed)
                )
                totals[index] += evaluate(final, seat, params.scale)
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
        return candidates[best]
