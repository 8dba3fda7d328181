"""GAME: the Game contract, results and ranks, text."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from kitchen_helpers import position

from cgsim.games.contract import GameResult
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.scoring import result
from cgsim.games.kitchen.state import Phase
from cgsim.games.registry import get_game


def test_registered_under_its_name() -> None:
    game = get_game("kitchen-garden")
    assert game is GAME and game.info.id == "kitchen-garden"
    assert (game.info.min_players, game.info.max_players) == (2, 4)
    assert game.rules_dict(game.make_rules(2, {}))["turn_cap"] == 400


def test_result_ranks_others_by_plants_then_full_beds() -> None:
    state = position(
        players=4,
        hands=[[], [], [], []],
        beds={
            (0, "beet"): ["1 beet", "2 beet"],  # spade beet 3/2: full, 3 plants
            (1, "cabbage"): ["3 cabbage"],  # 3 plants, no full bed
            (2, "pumpkin"): ["1 pumpkin"],
            (3, "strawberry"): ["1 strawberry"],
        },
    )
    over = replace(state, phase=Phase.OVER, aborted=True)
    outcome = result(over)
    assert isinstance(outcome, GameResult)
    assert outcome.winners == () and outcome.end == "aborted"
    assert outcome.scores == (301.0, 300.0, 100.0, 100.0)
    assert outcome.ranks == (1.0, 2.0, 3.5, 3.5)
    won = result(replace(over, aborted=False, winner=3))
    assert won.winners == (3,) and won.ranks == (2.0, 3.0, 4.0, 1.0) and won.end == "normal"
    with pytest.raises(ValueError, match="the game is not over"):
        result(state)


def test_render_shows_tasks_beds_hands_market_and_specials() -> None:
    state = position(hands=[["2 beet"], ["weed"]], beds={(1, "beet"): ["3 beet"]})
    text = GAME.render(state)
    for part in (
        "seat 0 (spade)",
        "seat 1 (rake)",
        "[3 beet] [ ]",
        "hand (1): 2 beet",
        "market:",
        "specials: crow middle",
        "deck ",
    ):
        assert part in text


def test_describe_action_is_readable() -> None:
    state = position()
    assert GAME.describe_action(state, A.encode(A.HARVEST)) == "harvest (draw 1)"
    assert GAME.describe_action(state, A.encode(A.PLANT, 7)) == "plant 2 beet"
    assert GAME.describe_action(state, A.encode(A.STEAL, 1, 2, 0)).startswith("Stealing")
    assert "unknown" in GAME.describe_action(state, 60 << 18)


def test_a_whole_game_through_the_protocol() -> None:
    rules = GAME.make_rules(3, {})
    state = GAME.new_game(rules, 2)
    rng = random.Random(2)
    while not GAME.is_terminal(state):
        assert GAME.current_player(state) in range(3)
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    assert GAME.result(state).turns == state.turn
