"""``kitchen-greedy``: a one-step Kitchen Garden player that plants whenever it can.

It scores every legal action with a few weighted features (plant toward beds that can
still be completed, finish beds, pull its own Weeds, weed and Sluggard the leader, take
useful cards from the market and the discard pile) and plays the best, breaking ties
with its generator. The scoring works on an observation or on a full state alike, so
the search bot reuses it as its rollout policy; it lives in the compiled
``bots.kitchen_policy``, this module keeps the bot and its validated parameters.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bots.kitchen_policy import Scorer, Weights, greedy_choice, progress
from cgsim.games.bot import Bot
from cgsim.games.contract import Action
from cgsim.games.kitchen.observation import Observation, observe
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

    def weights(self) -> Weights:
        """The same numbers for the compiled scorer (``bots.kitchen_policy``)."""
        return Weights(**self.model_dump())


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

    def __init__(self, params: BaseModel | None = None) -> None:
        super().__init__(params)
        self._weights: Weights = self.params.weights()

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        observation = as_observation(state)
        return greedy_choice(observation, observation.seat, legal_actions, self._weights, rng)


__all__ = [
    "GreedyParams",
    "KitchenGreedyBot",
    "Scorer",
    "Weights",
    "greedy_choice",
    "progress",
]
