"""Beam search over whole turns, the engine of the search bots' plans.

Cottage Garden has no hidden information and no chance after the deal: the nursery,
the path and the gardener's walk are known, so what every row will hold is known
too, and the solo game is a deterministic puzzle. A search over whole turns can
therefore plan a game (or the next several turns) exactly:

- a *node* is the position at the start of one of the searching seat's turns;
- its children are the positions at the start of the seat's next turn, one per
  *turn line*: the ``branch`` best main actions by the shared evaluation (the greedy
  choice always among them), both ramble options, every penalty option and, with
  ``cube_branch``, every distinct cube choice; every other choice of the turn is
  greedy, and the other seats answer with the greedy policy;
- the children of all nodes of a depth are merged (equal positions once), ranked by
  the evaluation (a finished game by its exact score) and the best ``width`` kept.

The result is the best line found: the actions of the seat along it, keyed by the
position each is chosen in, so a bot can follow the plan while the game stays on it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from bots.greedy import GreedyPolicy
from bots.planner import leaf_value
from cgsim.games.contract import Action
from cgsim.games.cottage import rules as engine
from cgsim.games.cottage.state import Phase, State

STEPS_PER_TURN = 64
"""Safety bound on the actions of one simulated turn of every seat."""


def state_key(state: State) -> Hashable:
    """What identifies a position (everything but the rules, the seed and the events)."""
    return state[2:20]


@dataclass(frozen=True, slots=True)
class Node:
    """A position at the start of a turn of the searching seat, with how it was reached."""

    state: State
    value: float
    parent: Node | None
    steps: tuple[tuple[State, Action], ...]
    """The seat's decisions from the parent's position to this one."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The best line of a search: the seat's action in each position along it."""

    actions: dict[Hashable, Action]
    value: float
    """The line's end value (the exact score when it reaches the end of the game)."""
    finished: bool
    """Whether the line reaches the end of the game."""
    expanded: int
    """Nodes the search expanded (its cost)."""

    def action(self, state: State) -> Action | None:
        """The planned action in ``state``, or None when the game has left the plan."""
        return self.actions.get(state_key(state))


class TurnSearch:
    """Beam search over whole turns for one seat (see the module docstring)."""

    def __init__(
        self,
        policy: GreedyPolicy,
        branch: int,
        cube_branch: bool,
        opponents: float,
        next_move: float,
    ) -> None:
        self.policy = policy
        self.branch = branch
        self.cube_branch = cube_branch
        self.opponents = opponents
        self.next_move = next_move

    # ------------------------------------------------------------- one turn

    def options(self, state: State, legal: Sequence[Action]) -> list[Action]:
        """The choices of a decision that start separate turn lines."""
        phase = state.phase
        if len(legal) == 1:
            return [legal[0]]
        if phase in (Phase.RAMBLE, Phase.PENALTY) or (phase == Phase.CUBE and self.cube_branch):
            return list(legal)
        if phase != Phase.PLANT or self.branch <= 1:
            return [self.policy.choose(state, legal)]
        cat = self.policy.completing_cat(state)
        if cat is not None:
            return [cat]
        ranked = self.policy.evaluator(state).top_main(state, self.branch)
        if not ranked:
            return [self.policy.choose(state, legal)]
        return [action for _, action in ranked]

    def turn_lines(
        self, state: State, seat: int
    ) -> list[tuple[State, tuple[tuple[State, Action], ...]]]:
        """Every position at the start of the seat's next turn (or the end), with the
        seat's decisions on the way."""
        start = state.players[seat].turns
        out: list[tuple[State, tuple[tuple[State, Action], ...]]] = []
        stack: list[tuple[State, tuple[tuple[State, Action], ...]]] = [(state, ())]
        while stack:
            current, steps = stack.pop()
            if current.phase == Phase.OVER:
                out.append((current, steps))
                continue
            if current.seat != seat or current.players[seat].turns != start:
                out.append((self.others(current, seat), steps))
                continue
            legal = engine.legal_actions(current)
            choices = self.options(current, legal)
            for action in reversed(choices):
                record = steps if len(legal) == 1 else (*steps, (current, action))
                stack.append((engine.apply(current, action), record))
        return out

    def others(self, state: State, seat: int) -> State:
        """Play the other seats greedily until the seat's next decision (or the end)."""
        policy = self.policy
        budget = STEPS_PER_TURN * len(state.players)
        while state.phase != Phase.OVER and state.seat != seat and budget > 0:
            legal = engine.legal_actions(state)
            action = legal[0] if len(legal) == 1 else policy.choose(state, legal)
            state = engine.apply(state, action)
            budget -= 1
        return state

    # ------------------------------------------------------------- values

    def value(self, state: State, seat: int) -> float:
        """Worth of a position to the seat: exact at the end, else the evaluation."""
        ev = self.policy.evaluator(state)
        return leaf_value(ev, state, seat, self.opponents, self.next_move)

    # ------------------------------------------------------------- the beam

    def search(self, root: State, seat: int, width: int, turns: int) -> Plan:
        """The best line from ``root`` over at most ``turns`` of the seat's turns."""
        frontier = [Node(root, 0.0, None, ())]
        finished: list[Node] = []
        expanded = 0
        for _ in range(turns):
            merged: dict[Hashable, Node] = {}
            for parent in frontier:
                expanded += 1
                for child, steps in self.turn_lines(parent.state, seat):
                    key = state_key(child)
                    if key not in merged:
                        merged[key] = Node(child, self.value(child, seat), parent, steps)
            live: list[Node] = []
            for reached in merged.values():
                (finished if reached.state.phase == Phase.OVER else live).append(reached)
            if not live:
                frontier = []
                break
            live.sort(key=lambda n: -n.value)
            frontier = live[:width]
        best = max(frontier + finished, key=lambda n: n.value)
        actions: dict[Hashable, Action] = {}
        node: Node | None = best
        while node is not None:
            for position, action in node.steps:
                actions[state_key(position)] = action
            node = node.parent
        return Plan(actions, best.value, best.state.phase == Phase.OVER, expanded)
