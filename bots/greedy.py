"""The greedy bot: the best immediate choice by the shared evaluation (bots.evaluation).

Main action: every tile placement and pot is scored by the change it makes to its
bed's value: features kept or gained, features covered, the turns the bed still needs
(holes no remaining tile fits cost tokens), a bonus for completing the bed now.
Elsewhere:

- cats complete a bed whenever the reserve covers its last cells; a forced cat (the
  cat limit) goes where it hurts least;
- ramble only when the refilled row, which is known in advance, beats the current
  one by more than the cat is worth;
- cubes and penalties: the option whose resulting position is worth most (points, cats
  from the red line, the start-space pot, progress toward the target bonus);
- the bonus pot goes on the cell that leaves the other bed easiest to complete;
- a child marks the nursery corners the gardener passes first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic.fields import FieldInfo

from bots.evaluation import Evaluator, Weights, available_kinds
from bots.params import EvalParams
from cgsim.games.bot import Bot
from cgsim.games.contract import Action
from cgsim.games.cottage import actions as act
from cgsim.games.cottage import rules as engine
from cgsim.games.cottage.nursery import CORNERS
from cgsim.games.cottage.state import Phase, State


class GreedyPolicy:
    """The greedy decision rule for any decision point (also the search bots' rollouts)."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights
        self.evaluators: dict[int, Evaluator] = {}

    def evaluator(self, state: State) -> Evaluator:
        """The evaluator of the state's catalogue (one per catalogue object)."""
        key = id(state.rules.catalogue)
        found = self.evaluators.get(key)
        if found is None:
            found = Evaluator.for_rules(state.rules, self.weights)
            self.evaluators[key] = found
        return found

    def choose(self, state: State, legal: Sequence[Action]) -> Action:
        """The greedy action among ``legal`` (the engine's legal actions of ``state``)."""
        phase = state.phase
        if len(legal) == 1:
            return legal[0]
        if phase == Phase.PLANT:
            return self.plant(state, legal)
        if phase == Phase.AFTER:
            return self.after(state, legal)
        if phase == Phase.LIMIT:
            return self.forced_cat(state, legal)
        if phase in (Phase.CUBE, Phase.PENALTY):
            return self.best_outcome(state, legal)
        if phase == Phase.BONUS:
            return self.bonus_pot(state, legal)
        if phase == Phase.RAMBLE:
            return self.ramble(state)
        if phase == Phase.CORNERS:
            return self.corners(state, legal)
        return legal[0]

    def completing_cat(self, state: State) -> int | None:
        """A cat action that works toward completing a bed the reserve can finish."""
        player = state.players[state.seat]
        if player.cats <= 0:
            return None
        best: tuple[int, int] | None = None
        for b, bed in enumerate(player.beds):
            if bed is None or not bed.empty:
                continue
            left = bed.empty.bit_count()
            if left <= player.cats and (best is None or left < best[0]):
                best = (left, b)
        if best is None:
            return None
        bed = player.beds[best[1]]
        assert bed is not None
        low = bed.empty & -bed.empty
        return act.encode(act.CAT, low.bit_length() - 1, best[1])

    def plant(self, state: State, legal: Sequence[Action]) -> Action:
        cat = self.completing_cat(state)
        if cat is not None:
            return cat
        _, action = self.evaluator(state).best_main(state)
        if action < 0:
            return act.encode(act.PASS) if act.encode(act.PASS) in legal else legal[-1]
        return action

    def after(self, state: State, legal: Sequence[Action]) -> Action:
        cat = self.completing_cat(state)
        if cat is not None:
            return cat
        for action in legal:
            if act.kind_of(action) == act.SCORE:
                return action
        return act.encode(act.DONE)

    def forced_cat(self, state: State, legal: Sequence[Action]) -> Action:
        """The cat whose cell costs the bed least (completing a bed counts double)."""
        player = state.players[state.seat]
        ev = self.evaluator(state)
        avail = available_kinds(state)
        has_cat = player.cats > 1
        best_score, best_action = -1e18, legal[0]
        for action in legal:
            d = act.decode(action)
            bed = player.beds[d.bed]
            if bed is None:
                continue
            rest = bed.empty & ~(1 << d.place)
            before = ev.turns_to_fill(bed.empty, avail, has_cat)
            score = before - ev.turns_to_fill(rest, avail, has_cat)
            if not rest:
                score += 2.0
            if score > best_score:
                best_score, best_action = score, action
        return best_action

    def best_outcome(self, state: State, legal: Sequence[Action]) -> Action:
        """The option whose resulting position is worth most to the deciding seat."""
        ev = self.evaluator(state)
        seat = state.seat
        best_score, best_action = -1e18, legal[0]
        for action in legal:
            score = ev.player_value(engine.apply(state, action), seat)
            if score > best_score:
                best_score, best_action = score, action
        return best_action

    def bonus_pot(self, state: State, legal: Sequence[Action]) -> Action:
        scoring = state.scoring
        assert scoring is not None
        _, cell = self.evaluator(state).token_cell(state, 1 - scoring.bed)
        action = act.encode(act.BONUS_POT, cell)
        return action if cell >= 0 and action in legal else legal[0]

    def ramble(self, state: State) -> Action:
        ev = self.evaluator(state)
        stay = engine.apply(state, act.encode(act.RAMBLE, 0))
        go = engine.apply(state, act.encode(act.RAMBLE, 1))
        stay_score = ev.best_main(stay)[0] if stay.phase == Phase.PLANT else -10.0
        go_score = ev.best_main(go)[0] if go.phase == Phase.PLANT else -10.0
        return act.encode(act.RAMBLE, int(go_score - stay_score > self.weights.cat_value))

    def corners(self, state: State, legal: Sequence[Action]) -> Action:
        """The corner set the gardener reaches soonest (its cats come earliest)."""
        rules = state.rules
        spaces = rules.settings.track_spaces
        first: dict[int, int] = {}
        for ahead in range(1, spaces + 1):
            corner = rules.corner_at[(state.space + ahead) % spaces]
            if corner >= 0:
                first.setdefault(corner, ahead)
        best_score, best_action = 10**9, legal[0]
        for action in legal:
            chosen = act.decode(action).place
            score = sum(first.get(CORNERS[i], spaces) for i in range(4) if chosen >> i & 1)
            if score < best_score:
                best_score, best_action = score, action
        return best_action


def _default(name: str, value: float) -> Any:
    """The shared evaluation parameter ``name`` (its bounds and description) with another
    default."""
    return FieldInfo.merge_field_infos(EvalParams.model_fields[name], default=value)


class GreedyParams(EvalParams):
    """The evaluation weights with greedy's own defaults, found by
    ``cgsim tune configs/studies/tune-greedy.toml``: against greedy with the shared
    defaults they won 74.1% [72.7, 75.4] of 4,000 games on 2,000 fresh deals
    (docs/studies.md). ``study`` takes them too; ``planner``, ``beam`` and ``mcts`` keep
    the shared defaults they were measured with."""

    turn_value: float = _default("turn_value", 2.2)
    pots: float = _default("pots", 0.5)
    cloches: float = _default("cloches", 1.8)
    fill_rate: float = _default("fill_rate", 4.5)
    token_cost: float = _default("token_cost", 0.4)
    cats: float = _default("cats", 0.3)
    complete_bonus: float = _default("complete_bonus", 0.5)
    start_pot: float = _default("start_pot", 3.0)


class GreedyBot(Bot):
    """Best immediate choice by the shared evaluation; see the module docstring."""

    name: ClassVar[str] = "greedy"
    description: ClassVar[str] = (
        "best immediate choice: bed features kept, holes, completion, turns left"
    )
    games: ClassVar[tuple[str, ...]] = ("cottage-garden",)
    Params: ClassVar[type[EvalParams]] = GreedyParams

    def __init__(self, params: EvalParams | None = None) -> None:
        super().__init__(params)
        self.policy = GreedyPolicy(self.params.weights())

    def choose(self, state: State, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.policy.choose(state, legal_actions)
