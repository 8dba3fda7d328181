"""Hypothesis invariants over random Kitchen Garden games."""

from __future__ import annotations

import pickle
import random
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kitchen_helpers import all_cards

from cgsim.errors import IllegalActionError
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen import rules as engine
from cgsim.games.kitchen.legal import TURN_GENERATORS, has_condition_choice
from cgsim.games.kitchen.piles import discard_types, first_at_least, holds
from cgsim.games.kitchen.rules import apply, legal_actions, new_game
from cgsim.games.kitchen.settings import make_rules
from cgsim.games.kitchen.state import MIDDLE, Phase, State

games = st.tuples(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 2**32))


def play(
    players: int, seed: int, choices: int, cap: int = 120
) -> Iterator[tuple[State, int | None]]:
    rules = make_rules(players, {"turn_cap": cap})
    state = new_game(rules, seed)
    rng = random.Random(choices)
    yield state, None
    while state.phase != Phase.OVER:
        legal = legal_actions(state)
        assert legal, "a non-terminal state always offers a decision"
        action = legal[rng.randrange(len(legal))]
        yield state, action
        state = apply(state, action)
        yield state, None


@settings(max_examples=25, deadline=None)
@given(games)
def test_every_card_is_in_exactly_one_place(game: tuple[int, int, int]) -> None:
    count = None
    for state, _ in play(*game):
        cards = all_cards(state)
        count = count or state.rules.catalogue.card_count
        assert len(cards) == count and set(cards.values()) == {1}


@settings(max_examples=25, deadline=None)
@given(games)
def test_hand_limit_holds_after_cleaning_and_turns_terminate(game: tuple[int, int, int]) -> None:
    previous = None
    final = None
    for state, action in play(*game):
        if action is not None:
            continue
        if previous is not None and state.turn != previous.turn and state.phase != Phase.OVER:
            ended = previous.active
            assert len(state.hands[ended]) <= state.rules.settings.hand_limit or (
                state.active == ended
            )
        previous = state
        final = state
    assert final is not None and final.phase == Phase.OVER
    assert final.turn <= final.rules.settings.turn_cap


@settings(max_examples=15, deadline=None)
@given(games)
def test_apply_never_mutates_its_input_and_is_deterministic(game: tuple[int, int, int]) -> None:
    for state, action in play(*game):
        if action is None:
            continue
        before = pickle.dumps(state)
        first = apply(state, action)
        assert pickle.dumps(state) == before
        assert apply(state, action) == first
        assert pickle.loads(pickle.dumps(first)) == first


@settings(max_examples=15, deadline=None)
@given(games)
def test_every_legal_action_applies(game: tuple[int, int, int]) -> None:
    for state, action in play(*game, cap=40):
        if action is None:
            continue
        for other in legal_actions(state):
            apply(state, other)


@settings(max_examples=25, deadline=None)
@given(games)
def test_every_bed_can_still_be_completed_once_its_weeds_are_pulled(
    game: tuple[int, int, int],
) -> None:
    """No action leaves a bed that only weeding out a plant card could complete: its
    plant cards leave between 1 and 3 plants for each slot holding no plant card."""
    for state, action in play(*game):
        if action is not None:
            continue
        catalogue = state.rules.catalogue
        for seat, seat_beds in enumerate(state.beds):
            task = catalogue.tasks[state.tasks[seat]]
            for crop, bed in enumerate(seat_beds):
                plants = [catalogue.type_plants[catalogue.card_types[card]] for card in bed]
                unplanted = task.slots[crop] - sum(p > 0 for p in plants)
                needed = task.targets[crop] - sum(plants)
                low, high = catalogue.min_plants, catalogue.max_plants
                assert low * unplanted <= needed <= high * unplanted, (seat, crop, bed)


def test_same_seed_and_choices_give_the_same_game() -> None:
    first = [s for s, _ in play(3, 11, 12)]
    second = [s for s, _ in play(3, 11, 12)]
    assert first == second


@settings(max_examples=15, deadline=None)
@given(games)
def test_shortcuts_agree_with_the_full_generation(game: tuple[int, int, int]) -> None:
    """The quick conditions test and the memo-free legality check match the legal list."""
    for state, action in play(*game, cap=60):
        if action is None:
            continue
        legal = legal_actions(state)
        if state.phase == Phase.CONDITIONS:
            assert has_condition_choice(state) == (len(legal) > 1)
        if state.phase == Phase.ACTIONS:
            types = sorted({state.rules.catalogue.card_types[c] for c in state.hands[state.active]})
            joined = [a for _, gen in TURN_GENERATORS for a in gen(state, types)]
            assert legal == joined
        twin = replace(state)  # equal but not identical: the memo does not apply
        assert all(engine._is_legal(twin, a) for a in legal)
        for kind in range(len(A.KIND_NAMES)):
            probe = A.encode(kind, 1, 1, 1)
            assert engine._is_legal(twin, probe) == (probe in legal)


def test_an_illegal_action_is_refused_right_after_listing_the_legal_ones() -> None:
    state = new_game(make_rules(2, {}), 3)
    legal = legal_actions(state)
    illegal = next(a for a in (A.encode(k, 1, 1, 1) for k in range(19)) if a not in legal)
    with pytest.raises(IllegalActionError):
        apply(state, illegal)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 200), max_size=80))
def test_discard_types_are_the_piles_distinct_types_ascending(cards: list[int]) -> None:
    """The discard pile's types, found with a bit per type, and remembered by identity."""
    card_types = make_rules(2, {}).catalogue.card_types
    pile = tuple(card % len(card_types) for card in cards)
    expected = sorted({card_types[card] for card in pile})
    assert discard_types(card_types, pile) == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 80), max_size=12), st.integers(-1, 82))
def test_a_cards_place_in_a_hand_is_where_bisection_puts_it(cards: list[int], card: int) -> None:
    hand = tuple(sorted(cards))
    assert first_at_least(hand, card) == bisect_left(hand, card)


@given(st.lists(st.integers(-2, 3), max_size=4), st.integers(0, 3))
def test_a_special_is_held_by_its_seat_or_lies_in_the_middle(holders: list[int], seat: int) -> None:
    copies = tuple(holders)
    assert holds(copies, seat) == (seat in copies or MIDDLE in copies)
