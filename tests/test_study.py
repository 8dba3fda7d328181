"""Tests of the study bot, its lean turn model and the region-by-region evaluator."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.evaluation import Evaluator, Weights, tables_for
from bots.quick_eval import QuickEvaluator
from bots.study import StudyBot, StudyParams
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


def test_study_is_listed_with_a_budget() -> None:
    listed = {info.name: info for info in list_bots("cottage-garden")}
    assert listed["study"].description
    assert any(p.name == "solo_width" for p in listed["study"].params)


def test_same_seed_same_game() -> None:
    first = _play(_bots(FAST_STUDY, "greedy"), seed=11)
    second = _play(_bots(FAST_STUDY, "greedy"), seed=11)
    assert GAME.result(first).scores == GAME.result(second).scores


def test_the_model_predicts_a_followed_solo_line_exactly() -> None:
    """Searched once and followed to the end, the line's value is the game's score: the
    model plays the bot's own turns as the engine does."""
    bot = StudyBot(TINY.model_copy(update={"replan": 0}))
    state = _play([bot], seed=3)
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
