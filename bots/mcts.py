"""Monte-Carlo search: UCB1 over the best candidate actions with noisy greedy rollouts.

At a planting or ramble decision with a real choice, the candidates are the greedy
choice and the next best main moves by the greedy score (pruning the hundreds of
placements to ``width``). Each playout picks a candidate by UCB1, applies it to the
engine's immutable state (nothing is copied) and plays every seat with the greedy
policy, which now and then (``noise``) plays one of its three best main moves instead,
until the searching seat has planted ``depth`` more turns; the truncated rollout is
scored by the shared evaluation relative to the best other seat. The decision is the
candidate with the best mean. The budget is ``playouts`` per decision, and ``ms`` (when
not 0) stops the search earlier once that many milliseconds have passed. Every other
decision is greedy.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field

from bots.greedy import GreedyPolicy
from bots.params import EvalParams
from bots.planner import candidates, leaf_value, searched, simulate
from cgsim.games.bot import Bot
from cgsim.games.contract import Action
from cgsim.games.cottage import rules as engine
from cgsim.games.cottage.state import State


class MctsParams(EvalParams):
    """Evaluation weights plus the search's budget and shape."""

    playouts: int = Field(16, ge=1, le=100_000, description="playouts per decision")
    ms: float = Field(
        0.0, ge=0.0, le=600_000.0, description="time budget per decision in ms (0: none)"
    )
    width: int = Field(6, ge=1, le=40, description="candidate actions searched")
    depth: int = Field(2, ge=1, le=40, description="own turns a rollout plays")
    noise: float = Field(
        0.15, ge=0.0, le=1.0, description="chance a rollout move is a near-best one"
    )
    exploration: float = Field(2.0, ge=0.0, le=100.0, description="UCB1 exploration constant")
    opponents: float = Field(
        0.5, ge=0.0, le=1.0, description="weight of the best other seat's value"
    )
    next_move: float = Field(
        1.0, ge=0.0, le=3.0, description="weight of the best placement at a rollout's end"
    )


class MctsBot(Bot):
    """UCB1 over pruned candidates with truncated, noisy greedy rollouts."""

    name: ClassVar[str] = "mcts"
    description: ClassVar[str] = (
        "Monte-Carlo search over the best greedy candidates with greedy rollouts"
    )
    games: ClassVar[tuple[str, ...]] = ("cottage-garden",)
    searches: ClassVar[bool] = True
    budget_params: ClassVar[tuple[str, ...]] = ("playouts",)
    Params: ClassVar[type[MctsParams]] = MctsParams

    def __init__(self, params: MctsParams | None = None) -> None:
        super().__init__(params)
        self.policy = GreedyPolicy(self.params.weights())
        self.playouts_done = 0
        """Playouts of all decisions so far (lets tests check the budget)."""
        self.last_playouts = 0
        """Playouts of the last searched decision."""

    def choose(self, state: State, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        self.last_playouts = 0
        if not searched(state, legal_actions):
            return self.policy.choose(state, legal_actions)
        p = self.params
        options = candidates(self.policy, state, legal_actions, p.width)
        if len(options) == 1:
            return options[0]
        deadline = time.perf_counter() + p.ms / 1000.0 if p.ms > 0 else math.inf
        ev = self.policy.evaluator(state)
        seat = state.seat
        children = [engine.apply(state, action) for action in options]
        visits = [0] * len(options)
        totals = [0.0] * len(options)
        for done in range(p.playouts):
            if done and time.perf_counter() >= deadline:
                break
            pick = done if done < len(options) else self._ucb(visits, totals, done)
            leaf = simulate(self.policy, children[pick], seat, p.depth, rng, p.noise)
            visits[pick] += 1
            totals[pick] += leaf_value(ev, leaf, seat, p.opponents, p.next_move)
            self.last_playouts += 1
        self.playouts_done += self.last_playouts
        best = max(
            range(len(options)),
            key=lambda i: (totals[i] / visits[i] if visits[i] else -math.inf, -i),
        )
        return options[best]

    def _ucb(self, visits: list[int], totals: list[float], done: int) -> int:
        """The UCB1 pick; values are spread by their own range so the constant is unitless."""
        means = [t / v for t, v in zip(totals, visits, strict=True)]
        low, high = min(means), max(means)
        spread = high - low if high > low else 1.0
        log_n = math.log(done)
        c = self.params.exploration
        scores = [
            (m - low) / spread + c * math.sqrt(log_n / v)
            for m, v in zip(means, visits, strict=True)
        ]
        return max(range(len(scores)), key=scores.__getitem__)
