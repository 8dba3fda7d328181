"""The beam bot: plans whole turns ahead with a beam search and follows its plan.

The game has no hidden information and no chance after the deal, so a plan made now
stays valid as long as the game follows it (bots.turn_search):

- In the solo game the plan reaches the end of the game: the bot follows it and
  every ``replan`` turns searches afresh from the current position, keeping whichever
  of the two lines ends with the higher score. A search from a later position spends
  its whole beam on the rest of the game, so the line only improves.
- With other seats the search covers the bot's next ``depth`` turns, the others
  answering greedily; their real answers differ, so the bot searches again at the
  start of each of its turns (and whenever the game leaves the plan).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field

from bots.greedy import GreedyPolicy
from bots.params import EvalParams
from bots.turn_search import Plan, TurnSearch
from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.cottage.state import State


class BeamParams(EvalParams):
    """Evaluation weights plus the shape of the beam search."""

    width: int = Field(4, ge=1, le=1000, description="positions kept per turn (with others)")
    depth: int = Field(3, ge=1, le=200, description="own turns searched (with others)")
    branch: int = Field(4, ge=1, le=40, description="main actions tried per position")
    solo_width: int = Field(16, ge=1, le=1000, description="positions kept per turn (solo)")
    solo_branch: int = Field(6, ge=1, le=40, description="main actions tried (solo)")
    replan: int = Field(4, ge=0, le=200, description="solo turns between fresh searches (0: never)")
    cube_branch: bool = Field(False, description="also search every cube choice")
    opponents: float = Field(
        1.0, ge=0.0, le=1.0, description="weight of the best other seat's value"
    )
    next_move: float = Field(
        0.0, ge=0.0, le=3.0, description="weight of the best placement at a searched node"
    )


class Planning:
    """A seat's current plan and when to renew it (shared by the bots that plan)."""

    def __init__(self, search: TurnSearch, width: int, depth: int, replan: int) -> None:
        self.search = search
        self.width = width
        self.turns = depth or 1000
        self.replan = replan
        self.plan: Plan | None = None
        self.planned_turn = -1
        self.searches = 0
        """Searches made so far (lets tests check when the bot plans)."""

    def reset(self) -> None:
        self.plan = None
        self.planned_turn = -1

    def action(self, state: State) -> Action:
        """The plan's action for ``state``, searching first when needed."""
        seat = state.seat
        turn = state.players[seat].turns
        planned = self.plan.action(state) if self.plan is not None else None
        due = self.replan > 0 and turn != self.planned_turn and turn % self.replan == 0
        if planned is None or due:
            fresh = self.search.search(state, seat, self.width, self.turns)
            self.searches += 1
            self.planned_turn = turn
            old = self.plan
            keep = (
                planned is not None
                and old is not None
                and old.finished
                and fresh.finished
                and old.value >= fresh.value
            )
            if not keep:
                self.plan = fresh
                planned = fresh.action(state)
        assert planned is not None
        return planned


class BeamBot(Bot):
    """Beam search over whole turns; follows its plan, renews it now and then."""

    name: ClassVar[str] = "beam"
    description: ClassVar[str] = (
        "beam search over whole turns (solo: to the end); follows and renews its plan"
    )
    games: ClassVar[tuple[str, ...]] = ("cottage-garden",)
    searches: ClassVar[bool] = True
    budget_params: ClassVar[tuple[str, ...]] = ("width", "solo_width")
    Params: ClassVar[type[BeamParams]] = BeamParams

    def __init__(self, params: BeamParams | None = None) -> None:
        super().__init__(params)
        p = self.params
        self.policy = GreedyPolicy(p.weights())
        solo = TurnSearch(self.policy, p.solo_branch, p.cube_branch, p.opponents, p.next_move)
        multi = TurnSearch(self.policy, p.branch, p.cube_branch, p.opponents, p.next_move)
        self.solo = Planning(solo, p.solo_width, 0, p.replan)
        self.multi = Planning(multi, p.width, p.depth, 1)

    def new_game(self, game: AnyGame, seat: int, state: object) -> None:
        super().new_game(game, seat, state)
        self.solo.reset()
        self.multi.reset()

    def planning(self, state: State) -> Planning:
        """The solo planning or the one with other seats."""
        return self.solo if len(state.players) == 1 else self.multi

    def choose(self, state: State, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.planning(state).action(state)
