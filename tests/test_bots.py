"""Tests of the built-in ladder bots (greedy, planner, mcts) and their shared evaluation."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.beam import BeamBot, BeamParams
from bots.evaluation import Evaluator, Weights, available_kinds, regions_of, tables_for
from bots.mcts import MctsBot, MctsParams
from cgsim.errors import ConfigError, UnknownBotError
from cgsim.games.cottage import rules as engine
from cgsim.games.cottage.components import FULL
from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.state import State
from cgsim.play.bot_registry import list_bots, resolve_bot

FAST_MCTS = "mcts:playouts=3,width=3,depth=1"
FAST_BEAM = "beam:width=2,depth=1,branch=2,solo_width=2,solo_branch=2"
SPECS = ("greedy", "planner:width=3", FAST_MCTS, FAST_BEAM)
TINY_BEAM = BeamParams(width=2, depth=1, branch=2, solo_width=2, solo_branch=2)


def play(specs: list[str], seed: int, variant: dict[str, Any] | None = None) -> list[int]:
    """A full game; returns the actions (every one checked against the legal list)."""
    rules = GAME.make_rules(len(specs), {}, None, variant or {})
    state: State = GAME.new_game(rules, seed)
    bots = [resolve_bot(spec, "cottage-garden").create() for spec in specs]
    for seat, bot in enumerate(bots):
        bot.new_game(GAME, seat, state)
    rngs = [random.Random(seed * 7 + seat) for seat in range(len(specs))]
    actions = []
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        seat = state.seat
        action = legal[0] if len(legal) == 1 else bots[seat].choose(state, legal, rngs[seat])
        assert action in legal
        actions.append(action)
        state = GAME.apply(state, action)
    assert state.end in ("normal", "stalled")
    return actions


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_full_games_in_every_player_count(spec: str, players: int) -> None:
    others = ["greedy", "random", "greedy"][: players - 1]
    play([spec, *others], seed=players)


@pytest.mark.parametrize("spec", SPECS)
def test_children_variant(spec: str) -> None:
    play([spec, spec, "greedy"], seed=3, variant={"children": [5, 7, None]})
    play([spec, "random"], seed=4, variant={"children": [6, None]})


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_game(spec: str) -> None:
    assert play([spec, "greedy"], seed=11) == play([spec, "greedy"], seed=11)


def test_mcts_respects_its_playout_budget() -> None:
    params = MctsParams(playouts=5, width=4, depth=1)
    bot = MctsBot(params)
    rules = GAME.make_rules(2, {}, None, {})
    state = GAME.new_game(rules, 5)
    bot.new_game(GAME, 0, state)
    rng = random.Random(0)
    searches = 0
    while not GAME.is_terminal(state) and searches < 12:
        legal = GAME.legal_actions(state)
        if state.seat == 0 and len(legal) > 1:
            before = bot.playouts_done
            action = bot.choose(state, legal, rng)
            assert bot.last_playouts <= params.playouts
            assert bot.playouts_done - before == bot.last_playouts
            searches += bot.last_playouts > 0
        else:
            action = legal[0]
        state = GAME.apply(state, action)
    assert searches > 0


@pytest.mark.parametrize(
    ("spec", "error"),
    [
        ("greedy:foo=1", UnknownBotError),
        ("planner:depth=2", UnknownBotError),
        ("greedy:pots=-1", ConfigError),
        ("greedy:fill_rate=abc", ConfigError),
        ("planner:horizon=0", ConfigError),
        ("mcts:playouts=0", ConfigError),
        ("mcts:noise=1.5", ConfigError),
        ("beam:width=0", ConfigError),
        ("beam:playouts=3", UnknownBotError),
    ],
)
def test_bad_parameters_are_clear_errors(spec: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        resolve_bot(spec, "cottage-garden")


def test_parameters_are_set_from_a_spec() -> None:
    spec = resolve_bot("mcts:playouts=7,pots=1.5", "cottage-garden")
    bot = spec.create()
    assert bot.params.playouts == 7
    assert bot.params.weights().pot_value == 1.5
    assert spec.label == "mcts:playouts=7,pots=1.5"


def test_ladder_is_listed_with_descriptions() -> None:
    listed = {info.name: info for info in list_bots("cottage-garden")}
    for name in ("random", "greedy", "planner", "mcts", "beam"):
        assert name in listed
        assert listed[name].description
    assert any(p.name == "playouts" for p in listed["mcts"].params)


def test_greedy_beats_random() -> None:
    wins = 0.0
    for seed in range(10):
        for seats in (["greedy", "random"], ["random", "greedy"]):
            rules = GAME.make_rules(2, {}, None, {})
            state = GAME.new_game(rules, seed)
            bots = [resolve_bot(s, "cottage-garden").create() for s in seats]
            rng = random.Random(seed)
            while not GAME.is_terminal(state):
                legal = GAME.legal_actions(state)
                state = GAME.apply(state, bots[state.seat].choose(state, legal, rng))
            result = GAME.result(state)
            greedy_seat = seats.index("greedy")
            if greedy_seat in result.winners:
                wins += 1.0 / len(result.winners)
    assert wins / 20 >= 0.75


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=FULL))
def test_regions_partition_the_mask(mask: int) -> None:
    regions = regions_of(mask, {})
    union = 0
    for region in regions:
        assert region and not union & region
        union |= region
    assert union == mask


def test_turns_to_fill_is_zero_for_a_full_bed_and_grows_with_holes() -> None:
    rules = GAME.make_rules(1, {}, None, {})
    state = GAME.new_game(rules, 1)
    ev = Evaluator(Weights(), tables_for(rules.catalogue))
    avail = available_kinds(state)
    assert ev.turns_to_fill(0, avail, False) == 0.0
    single = ev.turns_to_fill(1, 0, False)
    assert single == Weights().token_cost
    assert ev.turns_to_fill(1, 0, True) == Weights().cat_token_cost


def test_main_moves_are_legal() -> None:
    rules = GAME.make_rules(2, {}, None, {})
    state = GAME.new_game(rules, 2)
    ev = Evaluator(Weights(), tables_for(rules.catalogue))
    legal = set(engine.legal_actions(state))
    moves = list(ev.main_moves(state))
    assert moves
    assert all(action in legal for _, action in moves)


def test_evaluators_with_different_weights_do_not_share_estimates() -> None:
    rules = GAME.make_rules(1, {}, None, {})
    tables = tables_for(rules.catalogue)
    slow = Evaluator(Weights(fill_rate=2.0), tables)
    fast = Evaluator(Weights(fill_rate=5.0), tables)
    big = (1 << 20) - 1
    assert slow.turns_to_fill(big, 0, False) == 10.0
    assert fast.turns_to_fill(big, 0, False) == 4.0


def _solo_with(bot: BeamBot, seed: int) -> tuple[State, list[float]]:
    """A solo game by ``bot``; returns the end state and the value of each plan it held."""
    rules = GAME.make_rules(1, {}, None, {})
    state: State = GAME.new_game(rules, seed)
    bot.new_game(GAME, 0, state)
    rng = random.Random(seed)
    values: list[float] = []
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        action = bot.choose(state, legal, rng)
        assert action in legal
        plan = bot.solo.plan
        if plan is not None and (not values or values[-1] != plan.value):
            values.append(plan.value)
        state = GAME.apply(state, action)
    return state, values


def test_beam_follows_its_solo_plan_to_the_predicted_score() -> None:
    bot = BeamBot(TINY_BEAM.model_copy(update={"replan": 0}))
    state, values = _solo_with(bot, seed=3)
    assert bot.solo.searches == 1
    assert values == [GAME.result(state).scores[0]]


def test_beam_replanning_only_ever_improves_the_solo_line() -> None:
    bot = BeamBot(TINY_BEAM.model_copy(update={"replan": 2}))
    state, values = _solo_with(bot, seed=5)
    assert bot.solo.searches > 1
    assert values == sorted(values)
    assert values[-1] == GAME.result(state).scores[0]


def test_beam_searches_again_each_turn_with_other_seats() -> None:
    bot = BeamBot(TINY_BEAM)
    rules = GAME.make_rules(2, {}, None, {})
    state: State = GAME.new_game(rules, 6)
    bot.new_game(GAME, 0, state)
    other = resolve_bot("random", "cottage-garden").create()
    rng = random.Random(0)
    turns_with_choice = set()
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        if state.seat == 0 and len(legal) > 1:
            turns_with_choice.add(state.players[0].turns)
            action = bot.choose(state, legal, rng)
        else:
            action = legal[0] if len(legal) == 1 else other.choose(state, legal, rng)
        state = GAME.apply(state, action)
    assert bot.multi.searches >= len(turns_with_choice)
    assert bot.solo.searches == 0


def test_plan_has_no_action_off_its_line() -> None:
    bot = BeamBot(TINY_BEAM)
    rules = GAME.make_rules(1, {}, None, {})
    state: State = GAME.new_game(rules, 2)
    bot.new_game(GAME, 0, state)
    legal = GAME.legal_actions(state)
    chosen = bot.choose(state, legal, random.Random(0))
    plan = bot.solo.plan
    assert plan is not None and plan.finished
    assert plan.action(state) == chosen
    assert plan.action(GAME.new_game(rules, 99)) is None
