"""Scoring (rules.md section 4, phase 3): counts, cube moves, bonuses and clean-up."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import (
    DONE,
    EMPTY,
    at_plant,
    bonus,
    cat,
    cube,
    game,
    grid_bed,
    kinds,
    mask,
    of_kind,
    pot,
    score,
    with_player,
)

from cgsim.games.cottage.rules import apply, legal_actions
from cgsim.games.cottage.state import BLUE, ORANGE, Phase, State

ONE_HOLE = ["#####", "#####", "#####", "#####", "####."]
"""Bed rows with a single hole at (4,4): a pot there completes the bed with 1 pot."""


def ready(
    bed0: list[str] | None = None,
    bed1: list[str] | None = None,
    *,
    players: int = 2,
    cats: int = 0,
    orange: tuple[int, ...] = (0, 0, 0),
    blue: tuple[int, ...] = (0, 0, 0),
    overrides: dict[str, Any] | None = None,
    seed: int = 4,
    **state_changes: Any,
) -> State:
    """Seat 0 at planting, ready to complete bed 0 with a pot on (4,4)."""
    state = game(players, seed=seed, overrides=overrides)
    beds = (
        grid_bed(bed0 or ONE_HOLE, board=0, placed=3),
        grid_bed(bed1 or EMPTY, board=1, dark=True, placed=1) if bed1 != [] else None,
    )
    state = with_player(state, 0, beds=beds, cats=cats, orange=orange, blue=blue)
    return at_plant(state._replace(**state_changes))


COMPLETE = pot(0, 4, 4)


def featured(pots: int = 1, cloches: int = 0) -> list[str]:
    """One-hole bed rows that score ``pots`` (the completing pot included) and ``cloches``."""
    cells = ["P"] * (pots - 1) + ["C"] * cloches
    cells += ["#"] * (24 - len(cells)) + ["."]
    return ["".join(cells[r * 5 : r * 5 + 5]) for r in range(5)]


def moves(state: State) -> list[tuple[str, int, int, int]]:
    return [(e["color"], e["cube"], e["from"], e["to"]) for e in of_kind(state.events, "move")]


# --------------------------------------------------------------------------- counting


def test_complete_bed_scores_printed_token_and_tile_features() -> None:
    rows = ["P#pX.", "C#cY#", "o####", "#####", "#####"]
    # pots: printed P, tile p, token o, the new pot = 4 (X is covered);
    # cloches: printed C, tile c = 2 (Y is covered).
    state = ready(rows)
    after = apply(state, pot(0, 0, 4))
    assert of_kind(after.events, "score") == [
        {"e": "score", "bed": 0, "board": "1", "side": "light", "pots": 4, "cloches": 2}
    ]
    assert moves(after) == [("orange", 0, 0, 4), ("blue", 0, 0, 2)]


def test_incomplete_bed_is_not_scored() -> None:
    state = ready(["#####", "#####", "#####", "#####", "###.."])
    after = apply(state, pot(0, 4, 4))
    assert "score" not in kinds(after.events)


def test_bed_with_only_printed_features_uncovered_is_complete() -> None:
    # No bare soil left (only printed features): the bed is complete.
    state = ready(["P###C", "#####", "#####", "#####", "####."])
    after = apply(state, COMPLETE)
    assert of_kind(after.events, "score")[0]["pots"] == 2
    assert of_kind(after.events, "score")[0]["cloches"] == 1


def test_orange_moves_then_blue() -> None:
    state = ready(["C####", "#####", "#####", "#####", "####."])
    after = apply(state, COMPLETE)
    assert kinds(after.events)[:4] == ["take_pot", "score", "move", "move"]
    assert moves(after) == [("orange", 0, 0, 1), ("blue", 0, 0, 1)]


def test_nothing_moves_for_zero() -> None:
    # Completed with a cat (not a pot) and only a cloche: no orange move at all.
    rows = ["C####", "#####", "#####", "#####", "####."]
    state = ready(rows, cats=1)
    after = apply(state, cat(0, 4, 4))
    # A bed completed by a cat before the main action waits for the scoring phase.
    assert after.phase == Phase.PLANT
    assert "score" not in kinds(after.events)
    scored = apply(after, pot(1, 2, 2))
    assert of_kind(scored.events, "score")[0]["pots"] == 0
    assert moves(scored) == [("blue", 0, 0, 1)]


def test_complete_bed_waits_while_the_player_may_still_hunt() -> None:
    state = ready(cats=1)
    after = apply(state, COMPLETE)
    assert after.phase == Phase.AFTER
    assert DONE not in legal_actions(after)
    assert score(0) in legal_actions(after)
    assert "score" not in kinds(after.events)


def test_cube_choice_is_the_players_and_identical_positions_are_one_choice() -> None:
    rows = ["PP###", "#####", "#####", "#####", "####."]
    state = ready(rows, orange=(2, 2, 5))
    after = apply(state, COMPLETE)
    assert after.phase == Phase.CUBE
    assert list(legal_actions(after)) == [cube(ORANGE, 0), cube(ORANGE, 2)]
    moved = apply(after, cube(ORANGE, 2))
    assert moves(moved)[0] == ("orange", 2, 5, 8)
    assert moved.players[0].orange == (2, 2, 8)


def test_cube_choice_rejects_a_cube_on_target_and_duplicates() -> None:
    from cgsim.errors import IllegalActionError

    state = ready(orange=(3, 3, 16))
    after = apply(state, COMPLETE)
    # cubes 0 and 1 share a position, cube 2 is on the target: nothing to choose.
    assert moves(after)[0] == ("orange", 0, 3, 4)
    state = ready(orange=(3, 5, 16))
    after = apply(state, COMPLETE)
    assert list(legal_actions(after)) == [cube(ORANGE, 0), cube(ORANGE, 1)]
    for bad in (cube(ORANGE, 2), cube(BLUE, 0), DONE):
        with pytest.raises(IllegalActionError):
            apply(after, bad)


def test_move_stops_on_target_rest_lost() -> None:
    rows = ["PPPP#", "#####", "#####", "#####", "####."]
    state = ready(rows, orange=(14, 16, 16))
    after = apply(state, COMPLETE)
    assert moves(after)[0] == ("orange", 0, 14, 16)


def test_all_three_on_target_scores_nothing_more() -> None:
    rows = ["PPPPC", "#####", "#####", "#####", "####."]
    state = ready(rows, orange=(16, 16, 16), beehives_taken=2)
    after = apply(state, COMPLETE)
    assert moves(after) == [("blue", 0, 0, 1)]
    assert after.players[0].orange == (16, 16, 16)


def test_score_is_cube_values_plus_beehive() -> None:
    from cgsim.games.cottage.scoring import player_score

    state = ready(orange=(16, 3, 0), blue=(8, 1, 0))
    player = state.players[0]._replace(beehive=2, has_beehive=True)
    assert player_score(state.rules, player) == 20 + 3 + 20 + 2 + 2


# --------------------------------------------------------------------------- two beds


def test_two_complete_beds_player_chooses_the_order() -> None:
    state = ready(ONE_HOLE, ["#####", "#####", "##.##", "#####", "#####"], cats=1)
    after = apply(state, COMPLETE)
    assert after.phase == Phase.AFTER
    after = apply(after, cat(1, 2, 2))
    legal = list(legal_actions(after))
    assert legal == [score(0), score(1)]
    second_first = apply(after, score(1))
    assert of_kind(second_first.events, "score")[0]["bed"] == 1
    # The other complete bed is scored next, automatically (nothing else to do).
    assert [e["bed"] for e in of_kind(second_first.events, "score")] == [1, 0]


def test_red_line_cat_used_at_once_to_complete_the_other_bed() -> None:
    other = ["#####", "#####", "##.##", "#####", "#####"]
    state = ready(ONE_HOLE, other, orange=(6, 6, 6))
    after = apply(state, COMPLETE)
    # Orange 6 -> 7 crosses the red line: a cat, placeable before the phase ends.
    assert kinds(after.events) == ["take_pot", "score", "move", "gain_cat", "cleanup"]
    assert after.phase == Phase.AFTER and after.players[0].cats == 1
    assert score(1) not in legal_actions(after)
    after = apply(after, cat(1, 2, 2))
    # Bed 1 is complete and nothing else can be done: it is scored in this phase.
    assert kinds(after.events)[:2] == ["cat", "score"]
    assert of_kind(after.events, "score")[0]["bed"] == 1
    assert kinds(after.events).index("cleanup") < kinds(after.events).index("gardener")
    assert after.events[0]["e"] == "cat" and after.seat == 1


# --------------------------------------------------------------------------- bonuses


def test_red_line_crossing_forward_gives_a_cat() -> None:
    state = ready(orange=(6, 6, 6))
    supply = state.supply_cats
    after = apply(state, COMPLETE)
    assert of_kind(after.events, "gain_cat") == [{"e": "gain_cat", "why": "red_line"}]
    assert after.supply_cats == supply - 1


@pytest.mark.parametrize(
    ("orange", "pots", "expect_cat"),
    [
        ((5, 5, 5), 1, False),  # 5 -> 6 stays on the line
        ((7, 7, 7), 3, False),  # 7 -> 10 already beyond it
        ((6, 6, 6), 1, True),  # 6 -> 7 crosses
        ((2, 2, 2), 9, True),  # 2 -> 11 jumps over it
    ],
)
def test_red_line_only_when_crossing_forward(
    orange: tuple[int, ...], pots: int, expect_cat: bool
) -> None:
    state = ready(featured(pots), orange=orange)
    after = apply(state, COMPLETE)
    assert moves(after)[0] == ("orange", 0, orange[0], orange[0] + pots)
    assert bool(of_kind(after.events, "gain_cat")) is expect_cat
    assert after.players[0].cats == int(expect_cat)


def test_blue_red_line_is_between_6_and_8() -> None:
    cloche = ["C####", "#####", "#####", "#####", "####."]
    crossing = apply(ready(cloche, blue=(3, 3, 3)), COMPLETE)
    assert moves(crossing)[-1] == ("blue", 0, 3, 4)
    assert of_kind(crossing.events, "gain_cat")
    below = apply(ready(cloche, blue=(2, 2, 2)), COMPLETE)
    assert not of_kind(below.events, "gain_cat")


def test_red_line_start_to_target_crosses() -> None:
    rows = ["PPPPP", "PPPPP", "PPPPP", "P####", "####."]
    state = ready(rows, orange=(0, 16, 16), beehives_taken=2)
    after = apply(state, COMPLETE)
    assert moves(after)[0] == ("orange", 0, 0, 16)
    assert of_kind(after.events, "gain_cat")


def test_no_red_line_cat_when_the_supply_is_out() -> None:
    after = apply(ready(orange=(6, 6, 6), supply_cats=0), COMPLETE)
    assert not of_kind(after.events, "gain_cat")
    assert after.players[0].cats == 0


def test_red_line_cat_can_be_switched_off() -> None:
    state = ready(orange=(6, 6, 6), overrides={"bonus_red_line_cat": False})
    assert not of_kind(apply(state, COMPLETE).events, "gain_cat")


def test_bonuses_in_order_red_line_beehive_start_pot() -> None:
    # A short orange track: 0 -> target (20) in 3 spaces, crossing the red line.
    rows = ["PP###", "#####", "#####", "#####", "####."]
    state = ready(
        rows,
        ["#####", "#####", "##..#", "#####", "#####"],
        orange=(0, 1, 2),
        overrides={"orange_track": [0, 5, 10, 20]},
    )
    after = apply(state, COMPLETE)
    assert after.phase == Phase.CUBE
    after = apply(after, cube(ORANGE, 0))
    assert kinds(after.events) == ["move", "gain_cat", "beehive"]
    assert after.phase == Phase.BONUS
    assert list(legal_actions(after)) == [bonus(2, 2), bonus(2, 3)]
    after = apply(after, bonus(2, 3))
    assert kinds(after.events)[0] == "bonus_pot"
    assert of_kind(after.events, "bonus_pot")[0] == {"e": "bonus_pot", "bed": 1, "cell": [2, 3]}
    bed1 = after.players[0].beds[1]
    assert bed1 is not None and bed1.pots == mask([(2, 3)])


def test_start_pot_when_a_colour_leaves_the_start() -> None:
    state = ready(orange=(0, 16, 16), beehives_taken=2)
    after = apply(state, COMPLETE)
    # Bed 1 is bare: the bonus pot is the player's choice among its 25 cells.
    assert after.phase == Phase.BONUS
    assert len(legal_actions(after)) == 25
    assert kinds(after.events) == ["take_pot", "score", "move"]


def test_no_start_pot_while_another_cube_stays_on_start() -> None:
    after = apply(ready(orange=(0, 0, 4)), COMPLETE)
    assert after.phase != Phase.BONUS
    assert not of_kind(after.events, "bonus_pot")


def test_no_start_pot_while_a_cube_on_the_same_start_stays() -> None:
    # The one movable orange cube leaves the start and its twin stays: no decision, no pot.
    after = apply(ready(orange=(0, 0, 16)), COMPLETE)
    assert of_kind(after.events, "move")[0]["from"] == 0
    assert after.phase != Phase.BONUS
    assert not of_kind(after.events, "bonus_pot")


def test_no_start_pot_without_a_pot_in_the_supply() -> None:
    # The completing pot took the last one.
    after = apply(ready(orange=(0, 3, 4), supply_pots=1), COMPLETE)
    assert not of_kind(after.events, "bonus_pot")
    assert after.phase != Phase.BONUS


def test_no_start_pot_without_an_empty_cell_on_the_other_bed() -> None:
    # Both beds complete; bed 0 (1 pot) is scored first while bed 1 has no empty cell.
    state = ready(ONE_HOLE, ["#####", "#####", "##.##", "#####", "#####"], cats=1)
    after = apply(apply(state, COMPLETE), cat(1, 2, 2))
    supply = after.supply_pots
    scored = apply(after, score(0))
    assert moves(scored)[0] == ("orange", 0, 0, 1)  # the start empties...
    assert [e["bed"] for e in of_kind(scored.events, "score")] == [0, 1]
    assert not of_kind(scored.events, "bonus_pot")  # ...but bed 1 has no empty cell
    assert scored.supply_pots == supply + 1  # only the returned completing pot


def test_no_start_pot_without_another_bed() -> None:
    after = apply(ready(bed1=[], orange=(0, 3, 4)), COMPLETE)
    assert not of_kind(after.events, "bonus_pot")


def test_start_pot_can_be_switched_off() -> None:
    after = apply(ready(orange=(0, 3, 4), overrides={"bonus_start_pot": False}), COMPLETE)
    assert not of_kind(after.events, "bonus_pot")


def test_start_pot_completing_the_other_bed_scores_it_next() -> None:
    other = ["#####", "#####", "##.##", "#####", "#####"]
    state = ready(ONE_HOLE, other, orange=(0, 16, 16), beehives_taken=2)
    after = apply(state, COMPLETE)
    # A single empty cell: the bonus pot goes there by itself.
    assert kinds(after.events) == [
        "take_pot",
        "score",
        "move",
        "bonus_pot",
        "cleanup",
        "score",
        "move",
        "cleanup",
        "gardener",
    ]
    scores = of_kind(after.events, "score")
    assert [(e["bed"], e["pots"]) for e in scores] == [(0, 1), (1, 1)]
    assert moves(after) == [("orange", 0, 0, 1), ("orange", 0, 1, 2)]


def test_start_pot_for_blue_too() -> None:
    rows = ["C####", "#####", "#####", "#####", "####."]
    after = apply(ready(rows, blue=(0, 8, 8), orange=(1, 1, 1), beehives_taken=2), COMPLETE)
    assert after.phase == Phase.BONUS
    assert moves(after) == [("orange", 0, 1, 2), ("blue", 0, 0, 1)]


def test_beehive_2_then_1_to_another_player() -> None:
    rows = ["PP###", "#####", "#####", "#####", "####."]
    state = ready(rows, orange=(14, 16, 16))
    after = apply(state, COMPLETE)
    assert of_kind(after.events, "beehive") == [{"e": "beehive", "value": 2}]
    assert after.players[0].beehive == 2 and after.beehives_taken == 1
    # The same player reaching a target again takes nothing more.
    again = ready(rows, orange=(14, 14, 16), beehives_taken=1)
    again = again._replace(
        players=(again.players[0]._replace(beehive=2, has_beehive=True), *again.players[1:])
    )
    assert not of_kind(apply(again, COMPLETE).events, "beehive")
    # Another player takes the 1.
    second = ready(rows, orange=(14, 16, 16), beehives_taken=1)
    after2 = apply(second, COMPLETE)
    assert of_kind(after2.events, "beehive") == [{"e": "beehive", "value": 1}]
    # Both gone: nothing.
    third = ready(rows, orange=(14, 16, 16), beehives_taken=2)
    assert not of_kind(apply(third, COMPLETE).events, "beehive")


def test_beehive_for_blue_target() -> None:
    rows = ["CC###", "#####", "#####", "#####", "####."]
    after = apply(ready(rows, blue=(7, 8, 8), orange=(1, 1, 1)), COMPLETE)
    assert of_kind(after.events, "beehive") == [{"e": "beehive", "value": 2}]


def test_no_beehive_in_solo() -> None:
    rows = ["PP###", "#####", "#####", "#####", "####."]
    state = ready(rows, players=1, orange=(14, 16, 16))
    assert state.rules.settings.beehives == ()
    assert not of_kind(apply(state, COMPLETE).events, "beehive")


# --------------------------------------------------------------------------- clean-up


def test_cleanup_returns_tokens_tiles_in_order_and_swaps_boards() -> None:
    rows = ["om###", "#####", "#####", "#####", "####."]
    state = ready(rows, beehives_taken=2, orange=(1, 1, 1))
    bed0 = state.players[0].beds[0]
    assert bed0 is not None
    supply_board = state.supply_board
    assert supply_board is not None
    cats, pots = state.supply_cats, state.supply_pots
    after = apply(state, COMPLETE)
    cleanup = of_kind(after.events, "cleanup")[0]
    catalogue = state.rules.catalogue
    assert cleanup == {
        "e": "cleanup",
        "bed": 0,
        "to_path": [catalogue.tiles[t].id for t in bed0.placed],
        "new_board": {
            "board": catalogue.boards[supply_board[0]].id,
            "side": "dark" if supply_board[1] else "light",
        },
    }
    assert after.path[-len(bed0.placed) :] == bed0.placed
    # 2 pots (token + completing pot) and 1 cat back to the supply.
    assert after.supply_pots == pots - 1 + 2
    assert after.supply_cats == cats + 1
    # The scored board goes to the supply flipped; the supply board comes in as it lay.
    assert after.supply_board == (bed0.board, not bed0.dark)
    new = after.players[0].beds[0]
    assert new is not None
    assert (new.board, new.dark) == supply_board
    side = catalogue.boards[supply_board[0]].side(supply_board[1])
    assert (new.printed_pots, new.printed_cloches, new.tiles, new.pots, new.cats) == (
        side.pots,
        side.cloches,
        0,
        0,
        0,
    )
    assert new.placed == () and new.born == state.players[0].turns
    assert after.players[0].beds[1] == state.players[0].beds[1]


def test_cleanup_takes_the_bed_index_of_the_scored_bed() -> None:
    state = ready(EMPTY, ONE_HOLE, cats=0)
    after = apply(state, pot(1, 4, 4))
    assert of_kind(after.events, "cleanup")[0]["bed"] == 1
    assert after.players[0].beds[0] == state.players[0].beds[0]
    new = after.players[0].beds[1]
    assert new is not None and state.supply_board == (new.board, new.dark)
