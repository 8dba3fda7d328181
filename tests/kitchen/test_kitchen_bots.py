"""The Kitchen Garden bots play whole games legally, deterministically, with checked params."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from bots.kitchen_greedy import GreedyParams, KitchenGreedyBot
from bots.kitchen_search import KitchenSearchBot, SearchParams
from cgsim.bot import Bot
from cgsim.kitchen.game import GAME
from cgsim.kitchen.state import State
from cgsim.kitchen.strength import play, wilson


def play_game(bots: list[Bot], seed: int, cap: int = 400) -> tuple[State, list[int]]:
    rules = GAME.make_rules(len(bots), {"turn_cap": cap})
    state = GAME.new_game(rules, seed)
    rngs = [random.Random(seed * 7 + s) for s in range(len(bots))]
    chosen = []
    while not GAME.is_terminal(state):
        seat = GAME.current_player(state)
        legal = GAME.legal_actions(state)
        action = bots[seat].choose(GAME.observation(state, seat), legal, rngs[seat])
        assert action in legal
        chosen.append(action)
        state = GAME.apply(state, action)
    return state, chosen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_search_play_full_games(players: int) -> None:
    bots: list[Bot] = [KitchenGreedyBot() for _ in range(players)]
    bots[-1] = KitchenSearchBot(SearchParams(playouts=4, depth=1, candidates=2))
    state, _ = play_game(bots, players, cap=120)
    assert GAME.is_terminal(state)


def test_greedy_is_deterministic_and_wins_against_itself_sometimes() -> None:
    first = play_game([KitchenGreedyBot(), KitchenGreedyBot()], 3)
    second = play_game([KitchenGreedyBot(), KitchenGreedyBot()], 3)
    assert first[1] == second[1]
    assert first[0].winner in (0, 1)


def test_params_are_validated() -> None:
    with pytest.raises(ValidationError):
        GreedyParams(unknown=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        SearchParams(playouts=0)
    assert KitchenSearchBot.games == ("kitchen-garden",)


def test_strength_helpers() -> None:
    low, high = wilson(60, 100)
    assert 0.49 < low < 0.6 < high < 0.7
    assert play([KitchenGreedyBot(), KitchenGreedyBot()], 4) in ((0,), (1,), ())
