"""Tests of the study bot, its lean turn model and the region-by-region evaluator."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.evaluation import Evaluator, Weights, tables_for
from bots.model_policy import ModelPolicy
from bots.quick_eval import QuickEvaluator
from bots.study import StudyBot, StudyParams
from bots.turn_model import PASS, MState, model_state
from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.state import Phase, State
from cgsim.play.bot_registry import list_bots, resolve_bot

FAST_STUDY = "study:width=2,depth=1,branch=2,solo_width=2,solo_branch=2"
TINY = StudyParams(width=2, depth=1, branch=2, solo_width=2, solo_branch=2)


def _play(bots: list[Any], seed: int, variant: dict[str, Any] | None = None) -> State:
    """A full game by ``bots`` (each action checked against the legal list)."""
    rules = GAME.make_rules(len(bots), {}, None, variant or {})
    state: State = GAME.new_game(rules, seed)
    for seat, bot in enumerate(bots):
        bot.new_game(GAME, seat, state)
    rngs = [random.Random(seed * 7 + seat) for seat in range(len(bots))]
    while not GAME.is_terminal(state):
        legal = GAME.legal_actions(state)
        seat = state.seat
        action = legal[0] if len(legal) == 1 else bots[seat].choose(state, legal, rngs[seat])
        assert action in legal
        state = GAME.apply(state, action)
    assert state.end in ("normal", "stalled")
    return state


def _bots(*specs: str) -> list[Any]:
    return [resolve_bot(spec, "cottage-garden").create() for spec in specs]


@pytest.mark.parametrize("players", [1, 2, 4])
def test_full_games_in_several_player_counts(players: int) -> None:
    _play(_bots(FAST_STUDY, *["greedy", "random", "greedy"][: players - 1]), seed=players)


def test_children_variant() -> None:
    _play(_bots(FAST_STUDY, FAST_STUDY, "greedy"), seed=3, variant={"children": [5, 7, None]})


@pytest.mark.parametrize(
    ("seats", "children", "seed"),
    [
        (("study", "study", "greedy"), [5, None, 7], 4),  # another seat's cats complete a bed
        (("study", "greedy"), [5, None], 12),  # its own, after the final-round penalty
    ],
)
def test_study_with_children_finishes_games_it_failed(
    seats: tuple[str, ...], children: list[int | None], seed: int
) -> None:
    """These games stopped on an assertion in the turn model: a child holding cats (from
    its corners) that complete a bed had its main action chosen before placing them."""
    _play(_bots(*seats), seed=seed, variant={"children": children})


AGES = st.sampled_from([None, 5, 6, 7])


@st.composite
def children_setups(draw: st.DrawFn, least: int = 1) -> tuple[list[int | None], int]:
    """A player count, each seat's age (at least one child) and a seed."""
    players = draw(st.integers(least, 4))
    children = draw(st.lists(AGES, min_size=players, max_size=players))
    children[draw(st.integers(0, players - 1))] = draw(st.sampled_from([5, 6, 7]))
    return children, draw(st.integers(0, 10_000))


@settings(max_examples=6, deadline=None)
@given(children_setups(least=2))
def test_study_never_faults_with_children(setup: tuple[list[int | None], int]) -> None:
    children, seed = setup
    seats = [FAST_STUDY, FAST_STUDY, "greedy", FAST_STUDY][: len(children)]
    _play(_bots(*seats), seed=seed, variant={"children": children})


@settings(max_examples=6, deadline=None)
@given(children_setups())
def test_the_model_predicts_each_round_with_children(setup: tuple[list[int | None], int]) -> None:
    """Every seat played by the model's rules: from each main action of seat 0, the model
    reaches the position at its next one exactly, corner cats and completing cats included.
    The model leaves out the cat supply, so a round in which it ran out is not compared
    (four children of 5 empty it)."""
    children, seed = setup
    policy = ModelPolicy(Weights())
    rules = GAME.make_rules(len(children), {}, None, {"children": children})
    model = policy.model(rules)
    state: State = GAME.new_game(rules, seed)
    predicted: MState | None = None
    dry = False
    checked = 0
    while not GAME.is_terminal(state):
        dry = dry or state.supply_cats == 0
        legal = GAME.legal_actions(state)
        action = legal[0] if len(legal) == 1 else policy.choose(state, legal)
        main = state.phase == Phase.PLANT and list(legal) != [PASS]
        if state.seat == 0 and main and policy.completing_cat(state) is None:
            position = model_state(state)
            if predicted is not None and not dry:
                assert predicted == position
                checked += 1
            predicted, dry = model.play(position, action, 0), state.supply_cats == 0
        state = GAME.apply(state, action)
    assert checked > 10, checked


def test_study_is_listed_with_a_budget() -> None:
    listed = {info.name: info for info in list_bots("cottage-garden")}
    assert listed["study"].description
    assert any(p.name == "solo_width" for p in listed["study"].params)


def test_same_seed_same_game() -> None:
    first = _play(_bots(FAST_STUDY, "greedy"), seed=11)
    second = _play(_bots(FAST_STUDY, "greedy"), seed=11)
    assert GAME.result(first).scores == GAME.result(second).scores


@pytest.mark.parametrize("children", [None, [5]])
def test_the_model_predicts_a_followed_solo_line_exactly(children: list[int] | None) -> None:
    """Searched once and followed to the end, the line's value is the game's score: the
    model plays the bot's own turns as the engine does (a child's corner cats too)."""
    bot = StudyBot(TINY.model_copy(update={"replan": 0}))
    state = _play([bot], seed=3, variant={"children": children} if children else None)
    assert bot.search_count == 1
    assert bot.line is not None and bot.line.finished
    assert bot.line.value == GAME.result(state).scores[0]


def test_replanning_keeps_the_better_solo_line() -> None:
    bot = StudyBot(TINY.model_copy(update={"replan": 2}))
    state = _play([bot], seed=5)
    assert bot.search_count > 1
    assert bot.line is not None
    assert bot.line.value == GAME.result(state).scores[0]


def test_searches_each_turn_with_other_seats() -> None:
    bot = StudyBot(TINY)
    _play([bot, resolve_bot("greedy", "cottage-garden").create()], seed=6)
    assert bot.search_count >= 10


def test_quick_scores_match_the_reference_evaluation() -> None:
    """Region by region, the placement scores are the reference's up to rounding."""
    rules = GAME.make_rules(2, {}, None, {})
    reference = Evaluator(Weights(), tables_for(rules.catalogue))
    quick = QuickEvaluator(Weights(), tables_for(rules.catalogue))
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        state: State = GAME.new_game(rules, seed)
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            if state.phase == Phase.PLANT:
                want = reference._top_groups(state)
                got = quick._top_groups(state)
                assert [head for head, _ in want] == [head for head, _ in got]
                for (_, a), (_, b) in zip(want, got, strict=True):
                    assert sorted(s for s, _ in a) == pytest.approx(sorted(s for s, _ in b))
                checked += 1
            state = GAME.apply(state, rng.choice(legal))
    assert checked > 20
