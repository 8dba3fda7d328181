"""A turn before the final round (rules.md section 4, phases 1 and 2): refill, ramble,
planting, tokens, passes and the mouse hunt, on hand-made states."""

from __future__ import annotations

import pytest
from engine_helpers import (
    EMPTY,
    NO_RAMBLE,
    PASS,
    RAMBLE,
    at_plant,
    cat,
    clear_nursery,
    end_previous_turn,
    game,
    grid_bed,
    kinds,
    mask,
    of_kind,
    pot,
    set_row,
    tile_action,
    tile_actions,
    tile_of,
    with_player,
)

from cgsim.errors import IllegalActionError
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import cell_index, mask_cells
from cgsim.games.cottage.nursery import nursery_index
from cgsim.games.cottage.rules import apply, legal_actions
from cgsim.games.cottage.state import Phase, State

N = nursery_index


def with_empty_cells(state: State, cells: list[tuple[int, int]]) -> State:
    keep = set(range(16)) - {N(r, c) for r, c in cells}
    return clear_nursery(state, keep=keep)


# --------------------------------------------------------------------------- refill


def test_refill_mandatory_with_three_empty_fills_closest_first_from_path_front() -> None:
    state = with_empty_cells(game(2, seed=3), [(2, 0), (2, 1), (2, 3)])
    front = state.path[:3]
    # Space 6 faces row 2 from the right: (2,3) (2,2) (2,1) (2,0).
    after = end_previous_turn(state, seat=0, space=6)
    refill = of_kind(after.events, "refill")
    assert refill == [
        {
            "e": "refill",
            "cells": [[2, 3], [2, 1], [2, 0]],
            "tiles": [state.rules.catalogue.tiles[t].id for t in front],
            "ramble": False,
        }
    ]
    assert [after.nursery[N(2, c)] for c in (3, 1, 0)] == list(front)
    assert after.path == state.path[3:]
    assert after.phase == Phase.PLANT


def test_refill_four_empty_with_short_path_leaves_far_cells_empty() -> None:
    state = with_empty_cells(game(2, seed=3), [(0, 1), (1, 1), (2, 1), (3, 1)])
    path = state.path
    state = state._replace(nursery=state.nursery, path=path[:2])
    # Space 1 faces column 1 from the top: (0,1) first.
    after = end_previous_turn(state, seat=0, space=1)
    refill = of_kind(after.events, "refill")[0]
    assert refill["cells"] == [[0, 1], [1, 1]]
    assert after.nursery[N(2, 1)] == -1 and after.nursery[N(3, 1)] == -1
    assert after.path == ()


def test_refill_with_empty_path_does_nothing_and_records_nothing() -> None:
    state = with_empty_cells(game(2, seed=3), [(0, 1), (1, 1), (2, 1), (3, 1)])
    state = state._replace(path=())
    after = end_previous_turn(state, seat=0, space=1)
    assert kinds(after.events) == ["gardener"]
    assert all(after.nursery[N(r, 1)] == -1 for r in range(4))
    # Nothing to take, but a pot may still be planted.
    assert after.phase == Phase.PLANT
    assert all(act.kind_of(a) in (act.POT, act.CAT) for a in legal_actions(after))


def test_refill_on_a_four_player_diagonal_goes_closest_first() -> None:
    state = with_empty_cells(game(4, seed=2), [(2, 1), (0, 3)])
    state = state._replace(rules=state.rules)
    # 20 spaces: space 5 is the corner before side 1, diagonal (0,3) (1,2) (2,1) (3,0).
    s = state._replace(rules=state.rules)
    after = end_previous_turn(s, seat=0, space=5)
    assert after.phase == Phase.RAMBLE  # 2 empty: ramble is the player's choice
    rambled = apply(after, RAMBLE)
    assert of_kind(rambled.events, "refill")[0]["cells"] == [[0, 3], [2, 1]]


def test_refill_on_the_opposite_diagonal_reverses_the_order() -> None:
    state = with_empty_cells(game(4, seed=2), [(0, 0), (1, 1), (3, 3)])
    after = end_previous_turn(state, seat=0, space=10)
    assert of_kind(after.events, "refill")[0]["cells"] == [[3, 3], [1, 1], [0, 0]]


@pytest.mark.parametrize("empty", [1, 2])
def test_ramble_offered_with_one_or_two_empty(empty: int) -> None:
    cells = [(0, 2), (1, 2)][:empty]
    state = with_empty_cells(game(2, seed=3), cells)
    after = end_previous_turn(state, seat=0, space=2)
    assert after.phase == Phase.RAMBLE
    assert list(legal_actions(after)) == [NO_RAMBLE, RAMBLE]
    assert kinds(after.events) == ["gardener"]


def test_ramble_pays_a_cat_to_the_supply_and_refills() -> None:
    state = with_empty_cells(game(2, seed=3), [(1, 2)])
    after = end_previous_turn(state, seat=0, space=2)
    cats, supply = after.players[0].cats, after.supply_cats
    rambled = apply(after, RAMBLE)
    assert rambled.players[0].cats == cats - 1
    assert rambled.supply_cats == supply + 1
    assert of_kind(rambled.events, "refill") == [
        {
            "e": "refill",
            "cells": [[1, 2]],
            "tiles": [state.rules.catalogue.tiles[state.path[0]].id],
            "ramble": True,
        }
    ]


def test_declining_ramble_refills_nothing() -> None:
    state = with_empty_cells(game(2, seed=3), [(1, 2)])
    after = apply(end_previous_turn(state, seat=0, space=2), NO_RAMBLE)
    assert kinds(after.events) == []
    assert after.nursery[N(1, 2)] == -1
    assert after.players[0].cats == state.players[0].cats
    assert after.phase == Phase.PLANT


def test_no_ramble_with_empty_path() -> None:
    state = with_empty_cells(game(2, seed=3), [(1, 2)])._replace(path=())
    after = end_previous_turn(state, seat=0, space=2)
    assert after.phase == Phase.PLANT


def test_no_ramble_without_a_cat() -> None:
    state = with_player(with_empty_cells(game(2, seed=3), [(1, 2)]), 0, cats=0)
    after = end_previous_turn(state, seat=0, space=2)
    assert after.phase == Phase.PLANT


def test_no_ramble_when_not_enough_cats_for_its_cost() -> None:
    state = with_empty_cells(game(2, seed=3, overrides={"ramble_cost": 3}), [(1, 2)])
    after = end_previous_turn(state, seat=0, space=2)
    assert after.players[0].cats == 2
    assert after.phase == Phase.PLANT


def test_no_ramble_when_the_setting_forbids_it() -> None:
    state = with_empty_cells(game(2, seed=3, overrides={"ramble": False}), [(1, 2)])
    after = end_previous_turn(state, seat=0, space=2)
    assert after.phase == Phase.PLANT


def test_no_refill_and_no_ramble_with_a_full_row() -> None:
    after = end_previous_turn(game(2, seed=3), seat=0, space=2)
    assert kinds(after.events) == ["gardener"]
    assert after.phase == Phase.PLANT


def test_refill_threshold_is_a_setting() -> None:
    state = with_empty_cells(game(2, seed=3, overrides={"refill_mandatory": 2}), [(0, 2), (3, 2)])
    after = end_previous_turn(state, seat=0, space=2)
    assert of_kind(after.events, "refill")[0]["ramble"] is False


# --------------------------------------------------------------------------- planting


def planting(rows: list[str], tile: str, *, seat_cats: int = 2, pots: int = 16) -> State:
    """Seat 0 at planting, space 0 (column 0), one given tile at (0,0), bed 0 as drawn and
    no bed 1 (so only bed 0 can take anything)."""
    state = game(2, seed=5)
    state = clear_nursery(state)
    state = set_row(state, {N(0, 0): tile_of(state, tile)})
    state = with_player(state, 0, beds=(grid_bed(rows), None), cats=seat_cats)
    return at_plant(state._replace(supply_pots=pots))


def test_all_eight_orientations_are_offered() -> None:
    state = planting(EMPTY, "5B-1")
    orientations = set()
    catalogue = state.rules.catalogue
    kind = catalogue.kinds[catalogue.tile_kind[tile_of(state, "5B-1")]]
    for a in tile_actions(state, N(0, 0), bed=0):
        orientations.add(kind.placements[act.decode(a).place].orientation)
    assert orientations == set(range(8))


def test_orientations_differ_by_printed_feature_only() -> None:
    # A domino with a pot on one end: same cells, pot on either end = two placements.
    state = planting(EMPTY, "2A-1")
    catalogue = state.rules.catalogue
    kind = catalogue.kinds[catalogue.tile_kind[tile_of(state, "2A-1")]]
    places = [kind.placements[act.decode(a).place] for a in tile_actions(state, N(0, 0), 0)]
    keys = {(p.mask, p.pots) for p in places}
    assert len(keys) == len(places) == 2 * 40
    plain = planting(EMPTY, "2C-1")
    assert len(tile_actions(plain, N(0, 0), 0)) == 40


def test_tile_may_cover_printed_features_which_stop_counting() -> None:
    state = planting(["P####", "#####", "#####", "#####", "C...#"], "4A-1", seat_cats=0)
    action = tile_action(state, N(0, 0), 0, [(4, 0), (4, 1), (4, 2), (4, 3)])
    assert action in legal_actions(state)
    after = apply(state, action)
    # The bed is complete: the covered cloche no longer counts, the printed pot does.
    assert of_kind(after.events, "score")[0]["pots"] == 1
    assert of_kind(after.events, "score")[0]["cloches"] == 0


def test_tiles_never_go_over_tiles_or_tokens() -> None:
    rows = ["#o...", "m....", ".....", ".....", "....."]
    state = planting(rows, "4B-1")
    blocked = mask([(0, 0), (0, 1), (1, 0)])
    acts = tile_actions(state, N(0, 0), 0)
    catalogue = state.rules.catalogue
    kind = catalogue.kinds[catalogue.tile_kind[tile_of(state, "4B-1")]]
    assert acts
    assert all(not kind.placements[act.decode(a).place].mask & blocked for a in acts)
    assert len(acts) == 16 - 3  # every 2x2 square but those at (0,0), (0,1), (1,0)
    overlapping = act.encode(
        act.TILE,
        next(i for i, p in enumerate(kind.placements) if p.mask & mask([(0, 1)])),
        bed=0,
        cell=N(0, 0),
    )
    with pytest.raises(IllegalActionError, match="overlap"):
        apply(state, overlapping)


def test_tile_placements_stay_inside_the_bed() -> None:
    state = planting(EMPTY, "5F-1")
    # A straight pentomino: 5 rows + 5 columns, pot on either end: 20 placements.
    assert len(tile_actions(state, N(0, 0), 0)) == 20


def test_tokens_only_on_bare_soil_not_printed_features() -> None:
    rows = ["P#o.m", "C....", ".....", ".....", "....."]
    state = planting(rows, "5F-1")
    pot_cells = {act.decode(a).place for a in legal_actions(state) if act.kind_of(a) == act.POT}
    cat_cells = {act.decode(a).place for a in legal_actions(state) if act.kind_of(a) == act.CAT}
    bed = state.players[0].beds[0]
    assert bed is not None
    assert pot_cells == cat_cells == set(mask_cells(bed.empty))
    for r, c in [(0, 0), (1, 0), (0, 1), (0, 2), (0, 4)]:
        assert cell_index(r, c) not in pot_cells
        with pytest.raises(IllegalActionError, match="not empty soil"):
            apply(state, pot(0, r, c))
        with pytest.raises(IllegalActionError, match="not empty soil"):
            apply(state, cat(0, r, c))


def test_no_pot_action_when_the_supply_is_out() -> None:
    state = planting(EMPTY, "5F-1", pots=0)
    assert not [a for a in legal_actions(state) if act.kind_of(a) == act.POT]
    with pytest.raises(IllegalActionError, match="no pot left"):
        apply(state, pot(0, 2, 2))


def test_take_pot_places_a_token_from_the_supply() -> None:
    state = planting(EMPTY, "5F-1")
    after = apply(state, pot(0, 2, 2))
    bed = after.players[0].beds[0]
    assert bed is not None and bed.pots == mask([(2, 2)])
    assert after.supply_pots == state.supply_pots - 1
    assert of_kind(after.events, "take_pot") == [{"e": "take_pot", "bed": 0, "cell": [2, 2]}]


def test_a_tile_that_fits_nowhere_cannot_be_taken() -> None:
    # Only single isolated holes: the monomino fits, the domino does not.
    rows = [".#.##", "#####", "##.##", "#####", "####."]
    state = planting(rows, "1A-1")
    state = set_row(state, {N(1, 0): tile_of(state, "2C-1")})
    assert tile_actions(state, N(0, 0))
    assert tile_actions(state, N(1, 0)) == []
    kind2 = state.rules.catalogue.tile_kind[tile_of(state, "2C-1")]
    bed = state.players[0].beds[0]
    assert bed is not None and state.rules.fits(kind2, bed.blocked) == ()
    with pytest.raises(IllegalActionError):
        apply(state, act.encode(act.TILE, 0, bed=0, cell=N(1, 0)))


def test_tile_only_from_the_gardener_row() -> None:
    state = planting(EMPTY, "5F-1")
    state = set_row(state, {N(0, 1): tile_of(state, "2C-1")})  # not in column 0
    assert tile_actions(state, N(0, 1)) == []
    with pytest.raises(IllegalActionError, match="not in the Gardener Row"):
        apply(state, act.encode(act.TILE, 0, bed=0, cell=N(0, 1)))


def test_take_tile_event_and_bed_masks() -> None:
    state = planting(EMPTY, "2A-1")
    action = tile_action(state, N(0, 0), 0, [(3, 3), (3, 4)])
    place = state.rules.catalogue.kinds[
        state.rules.catalogue.tile_kind[tile_of(state, "2A-1")]
    ].placements[act.decode(action).place]
    after = apply(state, action)
    event = of_kind(after.events, "take_tile")[0]
    assert event["from"] == [0, 0] and event["tile"] == "2A-1" and event["bed"] == 0
    assert sorted(map(tuple, event["cells"])) == [(3, 3), (3, 4)]
    pot_cell = next(iter(event["features"]))
    assert event["features"] == {pot_cell: "pot"}
    bed = after.players[0].beds[0]
    assert bed is not None
    assert bed.tiles == place.mask and bed.tile_pots == place.pots
    assert bed.placed[-1] == tile_of(state, "2A-1")
    assert after.nursery[N(0, 0)] == -1


# --------------------------------------------------------------------------- passing


def test_pass_only_when_nothing_can_be_planted() -> None:
    rows = ["#####", "#####", "##.##", "#####", "#####"]
    state = planting(rows, "2C-1", seat_cats=0, pots=0)
    assert list(legal_actions(state)) == [PASS]
    after = apply(state, PASS)
    passes = of_kind(after.events, "pass")
    assert len(passes) == 1 and isinstance(passes[0]["reason"], str)
    assert "no pot left" in passes[0]["reason"]


def test_pass_is_illegal_while_a_pot_can_be_placed() -> None:
    rows = ["#####", "#####", "##.##", "#####", "#####"]
    state = planting(rows, "2C-1", seat_cats=0)
    assert PASS not in legal_actions(state)
    with pytest.raises(IllegalActionError, match="can still be placed"):
        apply(state, PASS)


def test_forced_pass_is_automatic_and_recorded_with_a_reason() -> None:
    # Nothing fits and no pot: the engine passes by itself when the turn reaches planting.
    state = game(2, seed=3)
    state = with_empty_cells(state, [(r, 2) for r in range(4)])._replace(path=(), supply_pots=0)
    state = with_player(state, 0, cats=0)
    after = end_previous_turn(state, seat=0, space=2)
    passes = of_kind(after.events, "pass")
    assert passes and "no tile in the Gardener Row" in passes[0]["reason"]
    assert "no pot left in the supply" in passes[0]["reason"]
    assert after.seat == 1  # the turn went on to the gardener and the next player


def test_pass_judged_after_cats_placed_before_it() -> None:
    # The monomino fits the only hole; a cat placed there first forces a pass.
    rows = ["#####", "#####", "##.##", "#####", "#####"]
    state = planting(rows, "1A-1", seat_cats=1, pots=0)
    assert PASS not in legal_actions(state)
    after = apply(state, cat(0, 2, 2))
    assert kinds(after.events)[:2] == ["cat", "pass"]
    assert "no Gardener Row tile fits a bed" in of_kind(after.events, "pass")[0]["reason"]
    # The cat completed bed 0, which is then scored in this turn.
    assert "score" in kinds(after.events)


# --------------------------------------------------------------------------- mouse hunt


def test_mouse_hunt_before_the_main_action() -> None:
    state = planting(EMPTY, "5F-1", seat_cats=2)
    after = apply(state, cat(0, 4, 4))
    assert after.phase == Phase.PLANT
    assert after.players[0].cats == 1
    assert of_kind(after.events, "cat") == [{"e": "cat", "bed": 0, "cell": [4, 4], "why": "hunt"}]
    # The main action is still to come.
    assert any(act.kind_of(a) == act.TILE for a in legal_actions(after))


def test_mouse_hunt_after_the_main_action_then_done() -> None:
    state = planting(EMPTY, "5F-1", seat_cats=2)
    after = apply(state, pot(0, 0, 4))
    assert after.phase == Phase.AFTER
    legal = list(legal_actions(after))
    assert act.encode(act.DONE) in legal
    assert not [a for a in legal if act.kind_of(a) in (act.TILE, act.POT, act.PASS)]
    after2 = apply(after, cat(0, 1, 4))
    assert after2.phase == Phase.AFTER and after2.players[0].cats == 1
    after3 = apply(after2, cat(0, 2, 4))
    # No cat left: the turn ends by itself.
    assert after3.seat == 1


def test_no_cat_action_without_cats() -> None:
    state = planting(EMPTY, "5F-1", seat_cats=0)
    assert not [a for a in legal_actions(state) if act.kind_of(a) == act.CAT]
    with pytest.raises(IllegalActionError, match="no cat in reserve"):
        apply(state, cat(0, 2, 2))


# --------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize(
    "action",
    [
        act.encode(act.DONE),
        act.encode(act.SCORE, bed=0),
        act.encode(act.RAMBLE, 1),
        act.encode(act.CUBE, 0),
    ],
)
def test_actions_of_another_phase_are_illegal(action: int) -> None:
    state = planting(EMPTY, "5F-1")
    with pytest.raises(IllegalActionError, match=r"turn .*seat 0"):
        apply(state, action)


def test_malformed_actions_are_illegal() -> None:
    state = planting(EMPTY, "5F-1")
    for bad in (-1, True):
        with pytest.raises(IllegalActionError, match="not an action"):
            apply(state, bad)
    with pytest.raises(IllegalActionError, match="outside the 5x5"):
        apply(state, act.encode(act.POT, 30, bed=0))
    with pytest.raises(IllegalActionError, match=r"nursery cell .* is empty"):
        apply(state, act.encode(act.TILE, 0, bed=0, cell=N(1, 0)))
    with pytest.raises(IllegalActionError, match="has no placement"):
        apply(state, act.encode(act.TILE, 2000, bed=0, cell=N(0, 0)))


def test_bed_not_in_play_is_illegal() -> None:
    state = planting(EMPTY, "5F-1")
    state = with_player(state, 0, beds=(state.players[0].beds[0], None))
    with pytest.raises(IllegalActionError, match="bed 1 is not in play"):
        apply(state, pot(1, 0, 0))


def test_done_is_illegal_while_a_complete_bed_waits() -> None:
    rows = ["#####", "#####", "##.##", "#####", "#####"]
    state = planting(rows, "5F-1", seat_cats=2)
    state = with_player(state, 0, beds=(grid_bed(rows), grid_bed(EMPTY, board=1)))
    after = apply(state, pot(0, 2, 2))
    assert after.phase == Phase.AFTER
    with pytest.raises(IllegalActionError, match="must be scored first"):
        apply(after, act.encode(act.DONE))
    with pytest.raises(IllegalActionError, match="bed 1 is not complete"):
        apply(after, act.encode(act.SCORE, bed=1))


def test_the_game_over_state_accepts_nothing() -> None:
    from engine_helpers import play_out

    final = play_out(game(2, seed=9, overrides={"turn_cap": 3}))
    assert len(legal_actions(final)) == 0
    with pytest.raises(IllegalActionError, match="game is over"):
        apply(final, PASS)
