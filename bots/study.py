"""The study bot: beam search over whole turns in the lean turn model (bots.turn_model).

The beam bot's idea (bots.beam) at a fraction of its cost. A node is a position at one
of the bot's main actions; its children are the positions at the bot's next main
action, one per main action among the ``branch`` best by the shared evaluation, the
rest of the turn played by the model's rules and the other seats by their best move;
the children of a depth are merged (equal positions once), ranked by the evaluation
(a finished game by its exact score) and the best ``width`` kept.

The search starts at the bot's first decision of a turn. When that is a ramble or a
final-round penalty, each option is a root of its own (applied by the engine up to the
main action), so the search chooses among them too. The bot plays the line's choices
and its first main action, and every other decision by the model's rules
(bots.model_policy), so the model predicts its own turns exactly.

- In the solo game the search reaches the end of the game (or ``solo_depth`` turns)
  and the bot follows its line while the game matches it, searching afresh every
  ``replan`` turns and keeping whichever line ends with the higher value.
- With other seats it searches ``depth`` of its turns at the start of each of its turns.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from pydantic import Field

from bots.greedy import GreedyParams
from bots.model_policy import ModelPolicy
from bots.turn_model import PASS, MState, TurnModel, model_state
from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.cottage import rules as engine
from cgsim.games.cottage.state import Phase, State

TURN_START = (Phase.RAMBLE, Phase.PENALTY)
"""Decisions before the main action whose options the search compares."""


class StudyParams(GreedyParams):
    """Evaluation weights (greedy's tuned ones) plus the shape of the search.

    The 2-player shape is the cheapest that keeps level with ``beam`` (README, "Strength of
    the ladder"): with the tuned weights, two positions kept over two turns, three main
    actions each."""

    width: int = Field(2, ge=1, le=1000, description="positions kept per turn (with others)")
    depth: int = Field(2, ge=1, le=200, description="own turns searched (with others)")
    branch: int = Field(3, ge=1, le=8, description="main actions tried per position")
    solo_width: int = Field(16, ge=1, le=10_000, description="positions kept per turn (solo)")
    solo_branch: int = Field(6, ge=1, le=8, description="main actions tried (solo)")
    solo_depth: int = Field(
        0, ge=0, le=200, description="own turns searched in the solo game (0: to the end)"
    )
    replan: int = Field(4, ge=0, le=200, description="solo turns between fresh searches (0: never)")
    opponents: float = Field(
        1.0, ge=0.0, le=1.0, description="weight of the best other seat's value"
    )
    model_rambles: bool = Field(
        False, description="let the model's seats ramble by rule (costly; the bot itself may)"
    )


@dataclass(frozen=True, slots=True)
class Node:
    """A position at one of the searching seat's main actions, with how it was reached."""

    state: MState
    value: float
    parent: Node | None
    action: int
    """The seat's main action in the parent's position that led here (roots: their index)."""


@dataclass(frozen=True, slots=True)
class Line:
    """The best line of a search: the root it starts from and the seat's main action in
    each position along it."""

    root: int
    """Index of the root the line starts from."""
    actions: dict[MState, int]
    value: float
    finished: bool
    """Whether the line reaches the end of the game."""

    def action(self, state: MState) -> int | None:
        return self.actions.get(state)


def search(
    model: TurnModel,
    roots: Sequence[MState],
    width: int,
    depth: int,
    branch: int,
    opponents: float,
) -> Line:
    """The best line from any of ``roots`` (positions at the same seat's main action)
    over at most ``depth`` of that seat's turns."""
    seat = roots[0].seat
    frontier = [Node(root, 0.0, None, index) for index, root in enumerate(roots)]
    finished: list[Node] = []
    for _ in range(depth):
        merged: dict[MState, Node] = {}
        for parent in frontier:
            moves = model.node_moves(parent.state, branch)
            for _, action in moves or [(0.0, PASS)]:
                child = model.play(parent.state, action, seat)
                if child not in merged:
                    value = model.relative_value(child, seat, opponents)
                    merged[child] = Node(child, value, parent, action)
        live: list[Node] = []
        for reached in merged.values():
            (finished if reached.state.over else live).append(reached)
        if not live:
            frontier = []
            break
        live.sort(key=_minus_value)
        frontier = live[:width]
    best = max(frontier + finished, key=_value)
    actions: dict[MState, int] = {}
    node = best
    while node.parent is not None:
        actions[node.parent.state] = node.action
        node = node.parent
    return Line(node.action, actions, best.value, best.state.over)


def _value(node: Node) -> float:
    return node.value


def _minus_value(node: Node) -> float:
    return -node.value


def turn_roots(state: State, legal: Sequence[Action]) -> list[tuple[Action, State]]:
    """Each option of a turn-start decision with the position it leads to at the seat's
    main action (through a further turn-start decision, the first of its options that
    gets there); options that reach no main action of this turn are left out."""
    seat = state.seat
    found: list[tuple[Action, State]] = []
    for action in legal:
        after = engine.apply(state, action)
        while after.seat == seat and after.phase in TURN_START:
            after = engine.apply(after, engine.legal_actions(after)[0])
        if after.seat == seat and after.phase == Phase.PLANT:
            found.append((action, after))
    return found


class StudyBot(Bot):
    """Beam search over whole turns in the turn model; see the module docstring."""

    name: ClassVar[str] = "study"
    description: ClassVar[str] = (
        "beam search over whole turns in a lean model of the game; cheap enough for studies"
    )
    games: ClassVar[tuple[str, ...]] = ("cottage-garden",)
    searches: ClassVar[bool] = True
    budget_params: ClassVar[tuple[str, ...]] = ("width", "solo_width")
    Params: ClassVar[type[StudyParams]] = StudyParams

    def __init__(self, params: StudyParams | None = None) -> None:
        super().__init__(params)
        self.policy = ModelPolicy(self.params.weights(), self.params.model_rambles)
        self.line: Line | None = None
        self.line_turn = -1
        """The turn the line was searched in."""
        self.search_count = 0
        """Searches made so far (lets tests check when the bot plans)."""

    def new_game(self, game: AnyGame, seat: int, state: object) -> None:
        super().new_game(game, seat, state)
        self.line = None
        self.line_turn = -1

    def choose(self, state: State, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = state.phase
        if phase == Phase.PLANT and self.policy.completing_cat(state) is None:
            return self.planned(state, [(PASS, state)])
        if phase in TURN_START:
            roots = turn_roots(state, legal_actions)
            if roots:
                return self.planned(state, roots)
        return self.policy.choose(state, legal_actions)

    def planned(self, state: State, options: list[tuple[Action, State]]) -> Action:
        """The option (or, at the main action, the main action) of the line, searching
        first when no line covers the position or a fresh search is due."""
        p = self.params
        model = self.policy.model(state.rules)
        roots = [model.settle(model_state(after)) for _, after in options]
        turn = state.players[state.seat].turns
        solo = len(state.players) == 1
        old = self.line if solo or self.line_turn == turn else None
        chosen = _covered(old, roots)
        due = solo and p.replan > 0 and self.line_turn != turn and turn % p.replan == 0
        if chosen is None or due:
            if solo:
                width, depth, branch = p.solo_width, p.solo_depth or 1000, p.solo_branch
            else:
                width, depth, branch = p.width, p.depth, p.branch
            fresh = search(model, roots, width, depth, branch, 0.0 if solo else p.opponents)
            self.search_count += 1
            self.line_turn = turn
            keep = (
                chosen is not None
                and old is not None
                and old.finished
                and fresh.finished
                and old.value >= fresh.value
            )
            if not keep:
                self.line = fresh
                chosen = fresh.root
        assert chosen is not None and self.line is not None
        if state.phase != Phase.PLANT:
            return options[chosen][0]
        action = self.line.action(roots[0])
        return PASS if action is None else action


def _covered(line: Line | None, roots: Sequence[MState]) -> int | None:
    """Index of the first root the line goes through, or None."""
    if line is None:
        return None
    for index, root in enumerate(roots):
        if root in line.actions:
            return index
    return None
