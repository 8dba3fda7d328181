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
batches; after each, an alternative whose lead cannot plausibly clear the margin (by
``slack`` more) is dropped, and sampling stops when only greedy's pick is left, or
once an alternative clears the margin by ``accept`` standard errors: easy decisions
cost little either way, and the budget goes to close ones. The bot leaves greedy's pick
only for a candidate whose mean lead over it exceeds ``margin`` and ``z`` standard
errors; otherwise it plays as greedy would. Every decision with a choice is searched, discards
and Bazaar swaps included: which card to keep matters as much as what to play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bots import kitchen_worlds
from bots.kitchen_greedy import GreedyParams, Scorer, as_observation, greedy_choice
from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.knowledge import Knowledge
from cgsim.games.kitchen.observation import Observation
from cgsim.games.kitchen.state import Phase


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
    slack: float = Field(
        0.02,
        ge=0.0,
        description="lead beyond the margin an alternative must still hope for to stay sampled",
    )
    accept: float = Field(
        2.0,
        ge=0.0,
        description=(
            "stop sampling once an alternative's lead minus this many standard errors"
            " clears the margin (0: never stop early)"
        ),
    )
    knowledge: bool = Field(True, description="keep seen cards in their holders' hands")
    hand_model: float = Field(
        1.0,
        ge=0.0,
        description="trust in the measured odds of what opponents hold (0: uniform deal)",
    )


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
        self.rollouts = 0
        """Rollouts the last search played (pruning makes easy decisions cheap)."""

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
        p: SearchParams = self.params
        shape = (p.worlds, p.batch, p.depth, p.epsilon, p.scale, p.margin, p.prune, p.z, p.slack)
        chosen, self.rollouts = kitchen_worlds.search(
            observation,
            self.knowledge_for(observation).known,
            candidates,
            self._last_moves,
            (*shape, p.accept, p.hand_model),
            self.weights,
            rng,
        )
        return candidates[chosen]
