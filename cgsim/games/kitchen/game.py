"""``GAME``: Kitchen Garden behind the ``cgsim.games.contract.Game`` contract.

Everything above the game (runner, tournaments, storage, reports) reaches the rules
through this object only. Beyond the protocol it offers ``determinize`` for search
bots: a full state sampled to agree with an observation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from cgsim.games.contract import Action, Choice, Game, GameInfo, GameSummary, Schema
from cgsim.games.kitchen import record as records
from cgsim.games.kitchen import rules as kitchen_rules
from cgsim.games.kitchen.declaration import INFO, VERSION, schema
from cgsim.games.kitchen.describe import describe_turns
from cgsim.games.kitchen.observation import Observation, determinize, observe
from cgsim.games.kitchen.picture import picture
from cgsim.games.kitchen.render import render
from cgsim.games.kitchen.scoring import result as result_of
from cgsim.games.kitchen.settings import KitchenRules, make_rules
from cgsim.games.kitchen.settings import settings_dict as _settings_dict
from cgsim.games.kitchen.state import State
from cgsim.games.kitchen.summary import KitchenTally, summarize


class KitchenGarden:
    """The Kitchen Garden game object (stateless; states carry their rules)."""

    info: GameInfo = INFO

    def make_rules(
        self,
        players: int,
        overrides: Mapping[str, Any],
        components: Path | None = None,
        variant: Mapping[str, Any] | None = None,
    ) -> KitchenRules:
        return make_rules(players, overrides, components, INFO.validate_variant(variant))

    def rules_dict(self, rules: KitchenRules) -> dict[str, Any]:
        return _settings_dict(rules)

    # The calls made at every decision go straight to the engine's functions (compiled,
    # where the build compiled them): no Python frame of a method in between.
    new_game = staticmethod(kitchen_rules.new_game)
    current_player = staticmethod(kitchen_rules.current_player)
    is_terminal = staticmethod(kitchen_rules.is_over)
    legal_actions = staticmethod(kitchen_rules.legal_actions)
    apply = staticmethod(kitchen_rules.apply)
    observation = staticmethod(observe)
    engine = kitchen_rules.ENGINE
    """The same calls, made natively by the compiled loop (``cgsim.games.loop.Engine``)."""
    # Once a game, as directly: a method would put a Python call in between.
    result = staticmethod(result_of)

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with ``observation``, hidden cards dealt by ``rng``."""
        return determinize(observation, rng)

    def describe_action(self, state: State | Observation, action: Action) -> str:
        return kitchen_rules.describe_action(state.rules, action)

    def recorder(
        self, rules: KitchenRules, seed: int, seats: Sequence[Mapping[str, Any]], state: State
    ) -> records.KitchenRecorder:
        return records.KitchenRecorder(rules, seed, seats, state, VERSION)

    def tally(self, rules: KitchenRules, state: State) -> KitchenTally:
        return KitchenTally(state)

    def schema(self, rules: KitchenRules) -> Schema:
        return schema(rules)

    def summarize(self, record: Mapping[str, Any]) -> GameSummary:
        return summarize(record)

    def render(self, state: State) -> str:
        return render(state)

    def describe_turns(self, record: Mapping[str, Any]) -> dict[int, list[str]]:
        return describe_turns(record, records.rules_from_record(record).catalogue)

    def validate_record(self, record: Any) -> None:
        records.validate_record(record)

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[int, State]]:
        return records.replay(record)

    def picture(self, state: Any) -> dict[str, Any]:
        return picture(state)

    def drawing(self) -> str:
        return (files("cgsim.games.kitchen") / "drawing.js").read_text(encoding="utf-8")

    def choices(self, view: State | Observation, legal: Sequence[Action]) -> tuple[Choice, ...]:
        """Few actions at a time: each by its description."""
        return tuple(Choice(kitchen_rules.describe_action(view.rules, a), a) for a in legal)

    def render_view(self, view: State | Observation) -> str:
        return render(view)


GAME = KitchenGarden()
_CONTRACT: Game[State, KitchenRules, Observation] = GAME
"""The object seen as the contract with Kitchen Garden's own types, so mypy checks it."""
