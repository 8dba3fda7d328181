"""Invariants of random legal play over seeds, player counts, variants and settings."""

from __future__ import annotations

import pickle
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cgsim.games.cottage.components import FULL, load_catalogue
from cgsim.games.cottage.rules import apply, legal_actions, make_rules, new_game
from cgsim.games.cottage.scoring import player_score, result_of
from cgsim.games.cottage.settings import make_settings
from cgsim.games.cottage.state import Phase, Rules, State

OVERRIDES: list[dict[str, Any]] = [
    {},
    {"cat_limit": 1, "start_cats": 3},
    {"bonus_red_line_cat": False, "bonus_start_pot": False, "bonus_cat_limit": False},
    {"orange_track": [0, 3, 6, 9, 20], "blue_track": [0, 5, 10, 20], "penalty_points": 3},
    {"refill_mandatory": 1, "discard_below": 1, "final_value": 4},
    {"pots_total": 2, "cats_total": 12, "turn_cap": 60},
]


@st.composite
def setups(draw: st.DrawFn) -> tuple[Rules, int]:
    players = draw(st.integers(1, 4))
    children = [draw(st.sampled_from([None, None, 5, 6, 7])) for _ in range(players)]
    overrides = draw(st.sampled_from(OVERRIDES))
    seed = draw(st.integers(0, 2**32 - 1))
    rules = make_rules(
        players, make_settings(players, overrides, children=children), load_catalogue()
    )
    return rules, seed


def check_invariants(state: State) -> None:
    """Every tile, cat and pot accounted for; bed masks consistent; scores add up."""
    rules, s = state.rules, state.rules.settings
    catalogue = rules.catalogue
    seen = [t for t in state.nursery if t >= 0] + list(state.path)
    for player in state.players:
        for bed in player.beds:
            if bed is None:
                continue
            seen += bed.placed
            assert len(bed.placed) == len(bed.shapes)
            union = 0
            for shape in bed.shapes:
                assert not union & shape, "two tiles overlap"
                union |= shape
            assert union == bed.tiles
            printed = bed.printed_pots | bed.printed_cloches
            side = catalogue.boards[bed.board].side(bed.dark)
            assert (bed.printed_pots, bed.printed_cloches) == (side.pots, side.cloches)
            assert not (bed.pots | bed.cats) & (bed.tiles | printed), "token off bare soil"
            assert not bed.pots & bed.cats
            assert (bed.tile_pots | bed.tile_cloches) & ~bed.tiles == 0
            assert bed.tiles | bed.pots | bed.cats | printed | bed.empty == FULL
    assert sorted(seen) == list(range(len(catalogue.tiles))), "a tile is lost or doubled"
    cats = state.supply_cats + sum(
        p.cats + len(p.corners) + sum(b.cats.bit_count() for b in p.beds if b is not None)
        for p in state.players
    )
    assert cats == s.cats_total
    pots = state.supply_pots + sum(
        b.pots.bit_count() for p in state.players for b in p.beds if b is not None
    )
    assert pots == s.pots_total
    assert min(state.supply_cats, state.supply_pots) >= 0
    hives = [p.beehive for p in state.players if p.has_beehive]
    assert sorted(hives, reverse=True) == sorted(s.beehives[: state.beehives_taken], reverse=True)
    for p in state.players:
        assert p.cats >= 0
        assert all(0 <= i <= rules.orange_target for i in p.orange)
        assert all(0 <= i <= rules.blue_target for i in p.blue)
        values = sum(s.orange_track[i] for i in p.orange) + sum(s.blue_track[i] for i in p.blue)
        assert player_score(rules, p) == values + p.beehive
    assert (state.phase == Phase.OVER) == (state.end is not None)


def play(rules: Rules, seed: int, choices: random.Random, check: bool = True) -> list[Any]:
    """Play a random game; returns every event; checks invariants after every action."""
    state = new_game(rules, seed)
    events = list(state.events)
    while True:
        if check:
            check_invariants(state)
        legal = legal_actions(state)
        if len(legal) == 0:
            assert state.phase == Phase.OVER
            return events
        assert state.phase != Phase.OVER
        state = apply(state, legal[choices.randrange(len(legal))])
        events += state.events


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), choice_seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_every_invariant_and_ends(
    setup: tuple[Rules, int], choice_seed: int
) -> None:
    rules, seed = setup
    events = play(rules, seed, random.Random(choice_seed))
    assert any(e["e"] == "gardener" for e in events) or rules.settings.turn_cap <= 1


@settings(max_examples=40, deadline=None)
@given(setup=setups(), choice_seed=st.integers(0, 2**32 - 1))
def test_same_seed_and_choices_same_events(setup: tuple[Rules, int], choice_seed: int) -> None:
    rules, seed = setup
    first = play(rules, seed, random.Random(choice_seed), check=False)
    second = play(rules, seed, random.Random(choice_seed), check=False)
    assert first == second


@settings(max_examples=8, deadline=None)
@given(setup=setups(), choice_seed=st.integers(0, 2**32 - 1))
def test_input_state_never_mutated_and_every_legal_action_applies(
    setup: tuple[Rules, int], choice_seed: int
) -> None:
    rules, seed = setup
    rng = random.Random(choice_seed)
    state = new_game(rules, seed)
    step = 0
    while state.phase != Phase.OVER:
        legal = legal_actions(state)
        before = pickle.dumps(state)
        if step % 7 == 0:
            for action in legal:
                check_invariants(apply(state, action))
        state_next = apply(state, legal[rng.randrange(len(legal))])
        assert pickle.dumps(state) == before
        state = state_next
        step += 1


class RandomGame(RuleBasedStateMachine):
    """A game driven one action at a time by hypothesis' own choices."""

    state: State

    @initialize(setup=setups())
    def start(self, setup: tuple[Rules, int]) -> None:
        rules, seed = setup
        self.state = new_game(rules, seed)

    @precondition(lambda self: self.state.phase != Phase.OVER)
    @rule(pick=st.integers(0, 10_000))
    def act(self, pick: int) -> None:
        legal = legal_actions(self.state)
        assert len(legal) > 0
        self.state = apply(self.state, legal[pick % len(legal)])

    @precondition(lambda self: self.state.phase == Phase.OVER)
    @rule()
    def finished(self) -> None:
        result = result_of(self.state)
        assert result.end == self.state.end and result.winners
        assert result.scores == tuple(
            float(player_score(self.state.rules, p)) for p in self.state.players
        )

    @invariant()
    def accounted(self) -> None:
        if hasattr(self, "state"):
            check_invariants(self.state)
            assert (len(legal_actions(self.state)) == 0) == (self.state.phase == Phase.OVER)


RandomGame.TestCase.settings = settings(max_examples=30, stateful_step_count=150, deadline=None)
test_random_game_machine = RandomGame.TestCase
