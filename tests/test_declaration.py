"""Each game declares itself: id, version, setups, variant options, ladder, schema."""

from __future__ import annotations

import pytest
import toygame

from cgsim.errors import ConfigError
from cgsim.games.contract import Breakdown, Schema
from cgsim.games.registry import game_names, get_game
from cgsim.play.bot_registry import resolve_bot


@pytest.mark.parametrize("name", game_names())
def test_every_game_declares_a_consistent_description(name: str) -> None:
    info = get_game(name).info
    assert info.id == name
    assert info.version and info.record_format and info.title
    assert 1 <= info.min_players <= info.max_players
    assert info.setups, "benches and golden games need setups"
    for setup in info.setups:
        assert info.min_players <= setup.players <= info.max_players
        assert info.validate_variant(setup.variant) == dict(setup.variant)
    for bot in info.ladder:
        resolve_bot(bot, name)  # every rung plays the game


@pytest.mark.parametrize("name", game_names())
def test_the_declared_schema_is_exactly_what_the_summary_writes(name: str) -> None:
    from cgsim.play.match import play_game

    game = get_game(name)
    setup = game.info.setups[0]
    rules = game.make_rules(setup.players, {}, None, dict(setup.variant))
    schema = game.schema(rules)
    outcome = play_game(game, rules, 3, [resolve_bot("random", name)] * setup.players)
    assert outcome.error is None
    declared_games = [c.name for c in schema.games]
    declared_seats = [c.name for c in schema.seats]
    core_games = {"game_id", "block", "seed", "game", "engine_version", "players", "seats"}
    core_games |= {"matchup", "turns", "end", "winners", "wall_time", "error", "error_seat"}
    core_seats = {"game_id", "block", "seat", "bot", "players", "score", "rank", "win_share", "end"}
    assert [c for c in outcome.game if c not in core_games] == declared_games
    assert [c for c in outcome.seats[0] if c not in core_seats] == declared_seats
    for table in schema.tables:
        rows = outcome.tables.get(table.name, [])
        for row in rows:
            extra = [c for c in row if c not in ("game_id", "block", "bot")]
            declared = [c.name for c in table.columns]
            assert extra == declared or extra == ["seat", *declared], table.name
    assert Schema.from_json(schema.to_json()) == schema


def test_variant_options_are_validated_by_the_games_model() -> None:
    cottage = get_game("cottage-garden").info
    assert cottage.validate_variant({"children": [5, "none"]}) == {"children": (5, "none")}
    with pytest.raises(ConfigError, match="variant option 'teams' is not one of cottage-garden"):
        cottage.validate_variant({"teams": 2})
    with pytest.raises(ConfigError, match="variant option solo = 'maybe'"):
        cottage.validate_variant({"solo": "maybe"})
    kitchen = get_game("kitchen-garden").info
    with pytest.raises(ConfigError, match="allowed: none"):
        kitchen.validate_variant({"solo": True})


def test_breakdowns_select_columns_in_declared_order() -> None:
    schema = toygame.SCHEMA
    assert schema.with_breakdown("seats", Breakdown.COUNT, Breakdown.ECONOMY) == (
        "takes",
        "passes",
    )
    assert schema.with_breakdown("seats", Breakdown.CATEGORY) == ("parity",)
    assert schema.columns("moves")[0].name == "seat"
    assert schema.columns("nosuch") == ()


def test_benchmarks_apply_to_their_player_count() -> None:
    info = get_game("cottage-garden").info
    assert info.benchmarks_for(1) == {"very good": 70.0, "exceptional": 80.0}
    assert info.benchmarks_for(2) == {}
