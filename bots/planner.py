"""The planner: looks ahead over its own next turns with everyone played greedily.

The game has no hidden information and no chance after the deal: the gardener's walk,
the nursery and the path are known. So for each of its best candidate placements (by
the greedy score) the planner simulates every seat with the greedy policy until its own
next ``horizon`` planting turns: this shows which Gardener Rows it will see, which tiles
the others take first and what the path refills. The candidate is judged by the
position reached there (its value relative to the others) plus the best placement then
available, so it prefers placements that keep room for tiles it will get, saves tiles
it will see again and values a tile it will not see again. Ramble decisions are judged
the same way; every other decision is greedy.

The simulation helpers here are shared with the Monte-Carlo bot (bots.mcts); the leaf
value also with the turn search (bots.turn_search).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field

from bots.evaluation import Evaluator
from bots.greedy import GreedyPolicy
from bots.params import EvalParams
from cgsim.games.bot import Bot
from cgsim.games.contract import Action
from cgsim.games.cottage import rules as engine
from cgsim.games.cottage.state import Phase, State

STEPS_PER_TURN = 16
"""Safety bound on simulated actions per seat turn (a turn takes a handful)."""


def searched(state: State, legal: Sequence[Action]) -> bool:
    """Whether a decision is worth a search: planting or rambling with a real choice."""
    return len(legal) > 1 and state.phase in (Phase.PLANT, Phase.RAMBLE)


def candidates(
    policy: GreedyPolicy, state: State, legal: Sequence[Action], width: int
) -> list[Action]:
    """The actions a search considers, the greedy choice first, then at most ``width - 1``
    more main moves by greedy score (both options when rambling)."""
    if state.phase == Phase.RAMBLE:
        return list(legal)
    first = policy.choose(state, legal)
    ranked = policy.evaluator(state).top_main(state, width)
    chosen = [first]
    for _, action in ranked:
        if len(chosen) >= width:
            break
        if action != first:
            chosen.append(action)
    return chosen


def noisy_choice(
    policy: GreedyPolicy, state: State, legal: Sequence[Action], rng: random.Random, noise: float
) -> Action:
    """The greedy action, or with probability ``noise`` one of the three best main moves."""
    if noise > 0.0 and state.phase == Phase.PLANT and len(legal) > 1 and rng.random() < noise:
        ranked = policy.evaluator(state).top_main(state, 3)
        if ranked:
            return ranked[rng.randrange(len(ranked))][1]
    return policy.choose(state, legal)


def simulate(
    policy: GreedyPolicy,
    state: State,
    seat: int,
    turns: int,
    rng: random.Random | None = None,
    noise: float = 0.0,
) -> State:
    """Play every seat with the policy until ``seat`` is about to plant in its ``turns``-th
    next turn (or the game ends); returns the state there.

    With ``rng`` and ``noise`` the policy sometimes plays a near-best move instead (the
    Monte-Carlo bot's rollouts); without, the simulation is deterministic.
    """
    start = state.players[seat].turns
    budget = STEPS_PER_TURN * len(state.players) * (turns + 1)
    while state.phase != Phase.OVER and budget > 0:
        if (
            state.seat == seat
            and state.phase == Phase.PLANT
            and state.players[seat].turns - start >= turns
        ):
            break
        legal = engine.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]
        elif rng is not None:
            action = noisy_choice(policy, state, legal, rng, noise)
        else:
            action = policy.choose(state, legal)
        state = engine.apply(state, action)
        budget -= 1
    return state


def leaf_value(ev: Evaluator, state: State, seat: int, opponents: float, next_move: float) -> float:
    """Worth of a simulated position to ``seat``: its value relative to the others (exact
    scores once the game is over), plus ``next_move`` times its best planting score when
    it is about to plant."""
    value = ev.relative_value(state, seat, opponents)
    if next_move and state.phase == Phase.PLANT and state.seat == seat:
        best, action = ev.best_main(state)
        if action >= 0:
            value += next_move * best
    return value


class PlannerParams(EvalParams):
    """Evaluation weights plus the lookahead's own parameters."""

    horizon: int = Field(1, ge=1, le=4, description="own future turns simulated")
    width: int = Field(6, ge=1, le=40, description="candidate actions examined")
    opponents: float = Field(
        0.5, ge=0.0, le=1.0, description="weight of the best other seat's value"
    )
    next_move: float = Field(
        1.0, ge=0.0, le=3.0, description="weight of the best placement at the horizon"
    )


class PlannerBot(Bot):
    """Greedy candidates judged by simulating the seats to its next turns."""

    name: ClassVar[str] = "planner"
    description: ClassVar[str] = (
        "looks ahead: simulates everyone greedily to its next turns to pick placements"
    )
    games: ClassVar[tuple[str, ...]] = ("cottage-garden",)
    searches: ClassVar[bool] = True
    Params: ClassVar[type[PlannerParams]] = PlannerParams

    def __init__(self, params: PlannerParams | None = None) -> None:
        super().__init__(params)
        self.policy = GreedyPolicy(self.params.weights())

    def choose(self, state: State, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if not searched(state, legal_actions):
            return self.policy.choose(state, legal_actions)
        p = self.params
        options = candidates(self.policy, state, legal_actions, p.width)
        if len(options) == 1:
            return options[0]
        ev = self.policy.evaluator(state)
        seat = state.seat
        best_value, best_action = -1e18, options[0]
        for action in options:
            leaf = simulate(self.policy, engine.apply(state, action), seat, p.horizon)
            value = leaf_value(ev, leaf, seat, p.opponents, p.next_move)
            if value > best_value:
                best_value, best_action = value, action
        return best_action
