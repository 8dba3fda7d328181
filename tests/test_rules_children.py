"""The children's variant (rules.md section 8): corner cats, corner gains, no ramble, no limit."""

from __future__ import annotations

from math import comb

import pytest
from engine_helpers import DONE, clear_nursery, end_previous_turn, game, of_kind, with_player

from cgsim.errors import ConfigError, IllegalActionError
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.nursery import nursery_index
from cgsim.games.cottage.rules import apply, corner_choices, legal_actions
from cgsim.games.cottage.state import Phase, State

N = nursery_index
CORNER_BIT = {(0, 0): 1, (0, 3): 2, (3, 3): 4, (3, 0): 8}


def corners(*cells: tuple[int, int]) -> int:
    return act.encode(act.CORNERS, sum(CORNER_BIT[c] for c in cells))


@pytest.mark.parametrize(
    ("players", "age", "count"),
    [(3, 5, 3), (3, 6, 2), (3, 7, 1), (2, 5, 4), (2, 6, 3), (2, 7, 2), (4, 7, 1), (1, 6, 2)],
)
def test_corner_counts_per_age_one_more_with_exactly_two_players(
    players: int, age: int, count: int
) -> None:
    state = game(players, seed=1, children=[age] + [None] * (players - 1))
    assert state.phase == Phase.CORNERS and state.seat == 0 and state.turn == 0
    choices = corner_choices(state)
    assert all(bin(m).count("1") == count for m in choices)
    assert len(choices) == comb(4, count)
    assert len(legal_actions(state)) == comb(4, count)


def test_children_choose_in_seat_order_then_seat_0_starts() -> None:
    state = game(3, seed=1, children=[None, 7, 6])
    supply = state.supply_cats
    assert state.phase == Phase.CORNERS and state.seat == 1
    state = apply(state, corners((0, 3)))
    assert state.phase == Phase.CORNERS and state.seat == 2
    state = apply(state, corners((0, 3), (3, 0)))
    assert state.seat == 0 and state.turn == 1 and state.phase != Phase.CORNERS
    assert state.players[1].corners == (N(0, 3),)
    assert state.players[2].corners == (N(0, 3), N(3, 0))  # two children may share a corner
    assert state.supply_cats == supply - 3


def test_wrong_corner_set_is_illegal() -> None:
    state = game(3, seed=1, children=[7, None, None])
    with pytest.raises(IllegalActionError, match="corners"):
        apply(state, corners((0, 0), (0, 3)))


def test_corner_cats_limited_by_the_supply() -> None:
    # 3 players x 2 cats = 6; 7 cats in all leaves 1 for the corners.
    from cgsim.games.cottage.components import load_catalogue
    from cgsim.games.cottage.rules import make_rules, new_game
    from cgsim.games.cottage.settings import make_settings

    settings = make_settings(3, {"cats_total": 7}, children=[5, None, None])
    state = new_game(make_rules(3, settings, load_catalogue()), 1)
    state = apply(state, corners((0, 0), (0, 3), (3, 3)))
    assert len(state.players[0].corners) == 1 and state.supply_cats == 0


def child_game(players: int = 3, marked: tuple[int, ...] = (N(0, 3),), seed: int = 1) -> State:
    """Seat 0 a child (age 7) with cats on ``marked`` corners, in play."""
    state = game(players, seed=seed, children=[7] + [None] * (players - 1))
    state = state._replace(phase=Phase.PLANT, turn=1, seat=0)
    return with_player(state, 0, corners=marked)


def gains(state: State) -> list[int]:
    return [e["seat"] for e in of_kind(state.events, "gain_cat") if e["why"] == "corner"]


@pytest.mark.parametrize(
    ("space", "gain"),
    [(4, True), (5, False), (3, False), (8, False)],
)
def test_corner_passed_on_16_spaces_gives_the_child_a_cat(space: int, gain: bool) -> None:
    # Corner (0,3) lies between the top side (spaces 0-3) and the right side (4-7).
    state = child_game()
    after = end_previous_turn(state, seat=1, space=space)
    assert gains(after) == ([0] if gain else [])
    names = [e["e"] for e in after.events]
    if gain:
        assert names.index("gain_cat") == names.index("gardener") + 1
        assert after.players[0].cats == state.players[0].cats + 1


def test_corner_passed_on_20_spaces_means_onto_or_over_the_corner_space() -> None:
    state = child_game(players=4)
    assert gains(end_previous_turn(state, seat=1, space=5)) == [0]  # onto corner space 5
    assert gains(end_previous_turn(state, seat=1, space=6)) == []  # leaving it


def test_solo_child_passes_a_corner_with_a_step_of_two() -> None:
    state = game(1, seed=1, children=[6])
    state = with_player(state._replace(phase=Phase.PLANT, turn=1), 0, corners=(N(0, 0),))
    after = end_previous_turn(state, seat=0, space=1)  # 15 -> 1 passes space 0
    assert gains(after) == [0]
    assert after.value == 3


def test_several_children_served_in_seat_order_and_none_when_supply_out() -> None:
    state = game(3, seed=1, children=[7, 6, None])
    state = state._replace(phase=Phase.PLANT, turn=1)
    state = with_player(state, 0, corners=(N(3, 3),))
    state = with_player(state, 1, corners=(N(3, 3), N(0, 0)))
    after = end_previous_turn(state, seat=0, space=8)
    assert gains(after) == [0, 1]
    short = end_previous_turn(state._replace(supply_cats=1), seat=0, space=8)
    assert gains(short) == [0]
    assert short.supply_cats == 0
    out = end_previous_turn(state._replace(supply_cats=0), seat=0, space=8)
    assert gains(out) == []


def test_corner_gain_in_the_final_round_even_without_beds() -> None:
    state = child_game()._replace(final_round=True, value=6, placed=True)
    state = with_player(state, 0, beds=(None, None))
    after = end_previous_turn(state, seat=0, space=4)
    assert gains(after) == [0]


def test_nobody_may_ramble_with_a_child() -> None:
    state = game(3, seed=1, children=[None, 5, None])
    assert state.rules.settings.ramble is False
    state = state._replace(phase=Phase.PLANT, turn=1, seat=0)
    keep = set(range(16)) - {N(1, 2)}
    state = clear_nursery(state, keep=keep)
    after = end_previous_turn(state, seat=0, space=2)  # 1 empty cell, seat 0 an adult
    assert after.phase == Phase.PLANT
    with pytest.raises(ConfigError, match="ramble"):
        game(3, overrides={"ramble": True}, children=[None, 5, None])


def test_children_have_no_cat_limit() -> None:
    state = child_game()
    state = with_player(state, 0, cats=6)._replace(phase=Phase.AFTER, had_bed=True, events=())
    after = apply(state, DONE)
    assert not of_kind(after.events, "cat")
    assert after.players[0].cats == 6
    # An adult in the same game keeps the limit.
    adult = with_player(state, 1, cats=4)._replace(seat=1)
    assert apply(adult, DONE).phase == Phase.LIMIT
