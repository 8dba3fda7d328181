"""The turn model's rules as choices in the real game (see ``bots.turn_model``).

A bot that plans with the model makes every decision other than its main actions by the
same rules the model plays, so the model predicts its own turns exactly: a completing
cat, the lowest complete bed to score, the cube worth most, the cheapest cell for a
token, the final-round penalty losing least, the ramble rule. The main action is the
caller's (its search's, or the best by the shared evaluation).
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.evaluation import Weights, tables_for
from bots.greedy import GreedyPolicy
from bots.quick_eval import QuickEvaluator
from bots.turn_model import MPlayer, TurnModel, Work, model_player, model_state
from cgsim.games.contract import Action
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.state import Phase, Rules, State


class ModelPolicy:
    """The model's rule for each decision point, and the model of each rule set."""

    def __init__(self, weights: Weights, rambles: bool = True) -> None:
        self.weights = weights
        self.rambles = rambles
        self.greedy = GreedyPolicy(weights)
        self.models: dict[int, TurnModel] = {}

    def model(self, rules: Rules) -> TurnModel:
        """The turn model of a rule set (one per rules object); seats ramble in it by the
        ramble rule only when the policy was made with ``rambles``."""
        found = self.models.get(id(rules))
        if found is None or found.rules is not rules:
            ev = QuickEvaluator(self.weights, tables_for(rules.catalogue))
            found = TurnModel(rules, ev, self.rambles)
            self.models[id(rules)] = found
        return found

    def completing_cat(self, state: State) -> int | None:
        """A cat on the bed with the fewest bare cells, when the reserve covers them all."""
        return self.greedy.completing_cat(state)

    def best_main(self, state: State) -> Action:
        """The best main action by the shared evaluation (a pass when nothing fits)."""
        model = self.model(state.rules)
        found = model.node_moves(model_state(state), 1)
        return found[0][1] if found else act.encode(act.PASS)

    def choose(self, state: State, legal: Sequence[Action]) -> Action:
        """The rule's action at any decision point; planting takes the best main action."""
        if len(legal) == 1:
            return legal[0]
        phase = state.phase
        if phase == Phase.PLANT:
            cat = self.completing_cat(state)
            return cat if cat is not None else self.best_main(state)
        if phase == Phase.AFTER:
            return self.after(state)
        if phase == Phase.CUBE:
            return self.cube(state)
        if phase == Phase.LIMIT:
            return self.limit(state)
        if phase == Phase.BONUS:
            return self.bonus(state)
        if phase == Phase.PENALTY:
            return self.penalty(state)
        if phase == Phase.RAMBLE:
            return act.encode(act.RAMBLE, int(self.ramble(state)))
        return self.greedy.choose(state, legal)

    def after(self, state: State) -> Action:
        cat = self.completing_cat(state)
        if cat is not None:
            return cat
        for b, bed in enumerate(state.players[state.seat].beds):
            if bed is not None and not bed.empty:
                return act.encode(act.SCORE, bed=b)
        return act.encode(act.DONE)

    def cube(self, state: State) -> Action:
        sc = state.scoring
        assert sc is not None
        model = self.model(state.rules)
        player = state.players[state.seat]
        color = sc.step
        positions = player.orange if color == 0 else player.blue
        other = player.beds[1 - sc.bed]
        pot_possible = state.supply_pots > 0 and other is not None and other.empty != 0
        amount = sc.pots if color == 0 else sc.cloches
        left = len(state.rules.settings.beehives) - state.beehives_taken
        cube = model.pick_cube(positions, color, amount, pot_possible, player.has_beehive, left)
        return act.encode(act.CUBE, act.cube_code(color, cube))

    def limit(self, state: State) -> Action:
        model = self.model(state.rules)
        player = model_player(state.players[state.seat])
        found = model.limit_cat(player, model.avail(state.nursery, state.path))
        assert found is not None
        b, cell = found
        return act.encode(act.CAT, cell, b)

    def bonus(self, state: State) -> Action:
        sc = state.scoring
        assert sc is not None
        model = self.model(state.rules)
        player: MPlayer = model_player(state.players[state.seat])
        other = player.beds[1 - sc.bed]
        assert other is not None
        avail = model.avail(state.nursery, state.path)
        return act.encode(act.BONUS_POT, model.token_cell(other, avail, player.cats > 1))

    def penalty(self, state: State) -> Action:
        model = self.model(state.rules)
        move = model.penalty_move(model_player(state.players[state.seat]))
        assert move is not None
        return act.encode(act.PENALTY, act.cube_code(*move))

    def ramble(self, state: State) -> bool:
        model = self.model(state.rules)
        w = Work(model_state(state))
        w.avail = model.avail(w.nursery, w.path)
        return model.wants_ramble(w)
