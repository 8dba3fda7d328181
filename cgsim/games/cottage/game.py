"""Cottage Garden behind the generic ``Game`` contract used by runs, reports and studies."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.contract import Choice, Game, GameInfo, GameSummary, Schema
from cgsim.games.cottage import rules as cottage_rules
from cgsim.games.cottage.choices import choices
from cgsim.games.cottage.components import load_catalogue
from cgsim.games.cottage.declaration import ENGINE_VERSION, INFO, schema
from cgsim.games.cottage.describe import describe_turns
from cgsim.games.cottage.picture import picture
from cgsim.games.cottage.record import CottageRecorder, replay, validate_record
from cgsim.games.cottage.render import render
from cgsim.games.cottage.scoring import result_of
from cgsim.games.cottage.settings import corner_count, make_settings
from cgsim.games.cottage.state import Rules, State
from cgsim.games.cottage.summary import CottageTally, summarize


class CottageGarden:
    """The ``Game`` object for Cottage Garden (see ``cgsim.games.contract.Game``)."""

    info: GameInfo = INFO

    def make_rules(
        self,
        players: int,
        overrides: Mapping[str, Any],
        components: Path | None = None,
        variant: Mapping[str, Any] | None = None,
    ) -> Rules:
        variant = INFO.validate_variant(variant)
        settings = make_settings(
            players, overrides, solo=variant.get("solo"), children=variant.get("children")
        )
        catalogue = load_catalogue(components)
        needed = 2 * players + 1
        if len(catalogue.boards) < needed:
            raise ConfigError(
                f"{catalogue.source}: {players} players need {needed} boards, the catalogue has {len(catalogue.boards)}"
            )
        corner_cats = sum(
            corner_count(age, players) for age in settings.children if age is not None
        )
        if settings.cats_total < players * settings.start_cats + corner_cats:
            raise ConfigError(
                f"rules.cats_total = {settings.cats_total} is too small: the players' cats and the "
                f"children's corner cats need {players * settings.start_cats + corner_cats}"
            )
        return cottage_rules.make_rules(players, settings, catalogue)

    def rules_dict(self, rules: Any) -> dict[str, Any]:
        data: dict[str, Any] = rules.settings.to_json()
        data["players"] = rules.players
        data["components"] = rules.catalogue.source
        data["components_digest"] = rules.catalogue.digest()
        benchmarks = INFO.benchmarks_for(rules.players)
        if benchmarks:
            data["score_benchmarks"] = benchmarks
        return data

    # The calls made at every decision go straight to the engine's functions (compiled,
    # where the build compiled them): no Python frame of a method in between.
    new_game = staticmethod(cottage_rules.new_game)
    current_player = staticmethod(cottage_rules.current_player)
    is_terminal = staticmethod(cottage_rules.is_over)
    legal_actions = staticmethod(cottage_rules.legal_actions)
    apply = staticmethod(cottage_rules.apply)
    observation = staticmethod(cottage_rules.observation)
    engine = cottage_rules.ENGINE
    """The same calls, made natively by the compiled loop (``cgsim.games.loop.Engine``)."""
    # Once a game, as directly: a method would put a Python call in between.
    result = staticmethod(result_of)
    tally = staticmethod(CottageTally)

    def describe_action(self, state: Any, action: int) -> str:
        return cottage_rules.describe(state, action)

    def recorder(
        self, rules: Any, seed: int, seats: Sequence[Mapping[str, Any]], state: Any
    ) -> CottageRecorder:
        return CottageRecorder(seed, seats, state, ENGINE_VERSION)

    def schema(self, rules: Rules) -> Schema:
        return schema(rules)

    def summarize(self, record: Mapping[str, Any]) -> GameSummary:
        return summarize(record)

    def render(self, state: Any) -> str:
        return render(state)

    def describe_turns(self, record: Mapping[str, Any]) -> dict[int, list[str]]:
        return describe_turns(record)

    def validate_record(self, record: Any) -> None:
        validate_record(record)

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[int, State]]:
        return replay(record)

    def picture(self, state: Any) -> dict[str, Any]:
        return picture(state)

    def drawing(self) -> str:
        return (files("cgsim.games.cottage") / "drawing.js").read_text(encoding="utf-8")

    def choices(self, view: Any, legal: Sequence[int]) -> tuple[Choice, ...]:
        return choices(view, legal)

    def render_view(self, view: Any) -> str:
        return render(view)


GAME = CottageGarden()
_CONTRACT: Game[State, Rules, State] = GAME
"""The object seen as the contract with Cottage Garden's own types, so mypy checks it."""
