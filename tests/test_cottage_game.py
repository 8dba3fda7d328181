"""The Cottage Garden game object: rules from configs, results, the contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgsim.errors import ConfigError
from cgsim.games.cottage.game import GAME


def test_solo_rules_carry_the_rulebook_score_benchmarks() -> None:
    assert GAME.rules_dict(GAME.make_rules(1, {}, None, {"solo": True}))["score_benchmarks"] == {
        "very good": 70.0,
        "exceptional": 80.0,
    }
    assert "score_benchmarks" not in GAME.rules_dict(GAME.make_rules(2, {}, None, {}))


def test_unknown_variant_options_and_too_few_boards_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError,
        match="variant option 'teams' is not one of cottage-garden's; allowed: solo, children",
    ):
        GAME.make_rules(2, {}, None, {"teams": 2})
    small = tmp_path / "small.toml"
    boards = "".join(
        f'[boards.{i}]\nlight = [".....", ".....", ".....", ".....", "....."]\n'
        f'dark = [".....", ".....", ".....", ".....", "....."]\n'
        for i in range(1, 6)
    )
    small.write_text('[tiles.1A]\ncopies = 16\nshape = ["C"]\n' + boards)
    GAME.make_rules(2, {}, small, {})
    with pytest.raises(ConfigError, match="3 players need 7 boards"):
        GAME.make_rules(3, {}, small, {})


def test_children_corner_cats_must_fit_in_the_cat_total() -> None:
    with pytest.raises(ConfigError, match="cats_total"):
        GAME.make_rules(4, {"cats_total": 10}, None, {"children": [5, 5, 5, 5]})


def test_result_ranks_share_places_and_break_ties_on_beehives() -> None:
    from cgsim.games.cottage.scoring import result_of

    rules = GAME.make_rules(3, {}, None, {})
    state = GAME.new_game(rules, 1)
    players = list(state.players)
    players[0] = players[0]._replace(orange=(16, 0, 0), beehive=2, has_beehive=True)
    players[1] = players[1]._replace(orange=(16, 2, 0))
    state = state._replace(players=tuple(players), end="normal")
    result = result_of(state)
    assert result.scores == (22.0, 22.0, 0.0)
    assert result.winners == (0,)
    assert result.ranks == (1.0, 2.0, 3.0)
