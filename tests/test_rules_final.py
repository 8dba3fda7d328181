"""Cat limit, gardener, final round, endings and winners (rules.md sections 4.4 to 6)."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import (
    DONE,
    EMPTY,
    PASS,
    at_plant,
    bonus,
    cat,
    clear_nursery,
    end_previous_turn,
    game,
    grid_bed,
    kinds,
    of_kind,
    penalty,
    play_out,
    pot,
    score,
    set_row,
    tile_actions,
    with_player,
)

from cgsim.games.cottage import actions as act
from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.rules import apply, legal_actions, penalty_options
from cgsim.games.cottage.scoring import result_of
from cgsim.games.cottage.state import BLUE, ORANGE, Bed, Phase, State

ONE_HOLE = ["P####", "#####", "#####", "#####", "####."]
"""A bed one cat or pot away from complete, with one printed pot."""


def after_phase(
    state: State, seat: int = 0, **player: Any
) -> State:  # the after-planting decision of ``seat``
    state = with_player(state, seat, **player)
    return state._replace(seat=seat, phase=Phase.AFTER, scoring=None, had_bed=True, events=())


# --------------------------------------------------------------------------- cat limit


def test_cat_limit_places_one_at_a_time_until_exactly_the_limit() -> None:
    state = after_phase(game(2, seed=2), cats=4)
    limited = apply(state, DONE)
    assert limited.phase == Phase.LIMIT
    assert all(act.kind_of(a) == act.CAT for a in legal_actions(limited))
    assert act.encode(act.DONE) not in legal_actions(limited)
    once = apply(limited, cat(0, 1, 1))
    assert once.phase == Phase.LIMIT and once.players[0].cats == 3
    assert of_kind(once.events, "cat") == [{"e": "cat", "bed": 0, "cell": [1, 1], "why": "limit"}]
    twice = apply(once, cat(1, 1, 1))
    assert twice.players[0].cats == 2
    assert kinds(twice.events)[:2] == ["cat", "gardener"]
    assert twice.seat == 1


def test_cat_limit_at_the_limit_does_nothing() -> None:
    state = after_phase(game(2, seed=2), cats=2)
    after = apply(state, DONE)
    assert kinds(after.events) == ["gardener"]


def test_cat_limit_completing_a_bed_scores_it_at_once_and_gained_cats_count() -> None:
    state = game(2, seed=2)
    state = after_phase(
        state,
        cats=3,
        orange=(6, 6, 6),
        beds=(grid_bed(ONE_HOLE, placed=3), grid_bed(EMPTY, board=1)),
    )
    limited = apply(state, DONE)
    after = apply(limited, cat(0, 4, 4))
    # The cat completes bed 0: scored at once; the red-line cat brings the reserve back to 3.
    assert kinds(after.events) == ["cat", "score", "move", "gain_cat", "cleanup"]
    assert after.phase == Phase.LIMIT and after.players[0].cats == 3
    done = apply(after, cat(1, 0, 0))
    assert done.players[0].cats == 2 and done.seat == 1


def test_cat_limit_with_no_empty_cell_returns_extra_cats_to_supply() -> None:
    # Final round: the limit cat completes the only bed, which leaves; 1 extra cat returns.
    state = game(2, seed=2)._replace(final_round=True, value=6)
    state = after_phase(state, cats=4, beds=(grid_bed(ONE_HOLE, placed=3), None))
    supply = state.supply_cats
    after = apply(state, DONE)
    assert kinds(after.events)[:4] == ["cat", "score", "move", "cleanup"]
    assert of_kind(after.events, "cleanup")[0]["new_board"] is None
    assert of_kind(after.events, "return_cats") == [{"e": "return_cats", "count": 1}]
    assert kinds(after.events).index("return_cats") < kinds(after.events).index("gardener")
    assert after.players[0].cats == 2
    assert after.players[0].beds == (None, None)
    assert after.supply_cats == supply + 1 + 1  # the returned cat and the bed's cat


def test_cat_limit_is_a_setting_and_can_be_switched_off() -> None:
    state = after_phase(game(2, seed=2, overrides={"cat_limit": 3}), cats=3)
    assert kinds(apply(state, DONE).events) == ["gardener"]
    state = after_phase(game(2, seed=2, overrides={"bonus_cat_limit": False}), cats=7)
    after = apply(state, DONE)
    assert kinds(after.events) == ["gardener"] and after.players[0].cats == 7


def test_cat_limit_skipped_for_a_player_without_bed_at_turn_start() -> None:
    state = game(2, seed=2)._replace(final_round=True, value=6, placed=True)
    state = with_player(state, 0, beds=(None, None), cats=5)
    after = end_previous_turn(state, seat=0, space=3)
    # Seat 0 has no bed: its turn is only the gardener move, with its 5 cats kept.
    assert [e["e"] for e in after.events] == ["gardener", "_turn", "gardener", "_turn"]
    assert after.players[0].cats == 5
    assert after.seat == 1


# --------------------------------------------------------------------------- gardener


def test_gardener_moves_one_space_clockwise() -> None:
    state = after_phase(game(2, seed=2))._replace(space=6)
    after = apply(state, DONE)
    assert of_kind(after.events, "gardener") == [
        {"e": "gardener", "space": 7, "value": 2, "final_round": False}
    ]


def test_value_rises_on_landing_on_the_turning_space() -> None:
    state = after_phase(game(2, seed=2))._replace(space=15)
    after = apply(state, DONE)
    assert (after.space, after.value) == (0, 3)


def test_solo_gardener_moves_two_and_passing_the_turning_space_counts() -> None:
    state = after_phase(game(1, seed=2), seat=0)._replace(space=15)
    after = apply(state, DONE)
    assert of_kind(after.events, "gardener")[0] == {
        "e": "gardener",
        "space": 1,
        "value": 3,
        "final_round": False,
    }
    # From 14, two spaces land on 0: counted once.
    after = apply(after_phase(game(1, seed=2))._replace(space=14), DONE)
    assert (after.space, after.value) == (0, 3)


def test_three_player_turning_space_is_14() -> None:
    state = game(3, seed=2)
    assert state.value == 1
    after = apply(after_phase(state)._replace(space=13), DONE)
    assert (after.space, after.value) == (14, 2)
    after = apply(after_phase(state)._replace(space=15), DONE)
    assert (after.space, after.value) == (0, 1)


def test_four_players_walk_twenty_spaces() -> None:
    state = game(4, seed=2)
    after = apply(after_phase(state)._replace(space=19), DONE)
    assert (after.space, after.value) == (0, 2)
    after = apply(after_phase(state)._replace(space=15), DONE)
    assert (after.space, after.value) == (16, 1)


def test_final_round_begins_after_the_move_that_makes_the_value_6() -> None:
    kept = grid_bed(["###..", ".....", ".....", ".....", "....."], placed=3)
    state = with_player(game(2, seed=2), 1, beds=(kept, None))
    state = after_phase(state)._replace(space=15, value=5)
    after = apply(state, DONE)
    assert of_kind(after.events, "gardener")[0] == {
        "e": "gardener",
        "space": 0,
        "value": 6,
        "final_round": True,
    }
    assert after.final_round
    marker = next(e for e in after.events if e["e"] == "_turn")
    assert marker["final_round"] is True
    # The value no longer changes in the final round.
    again = apply(after_phase(after)._replace(space=15, placed=True), DONE)
    assert again.value == 6


def turn_that_starts_the_final_round(state: State) -> int:
    """Play (cheaply, always the first legal action) until the final round begins."""
    while True:
        before = state
        state = apply(state, legal_actions(state)[0])
        turn = before.turn
        for event in state.events:
            if event["e"] == "_turn":
                turn = event["n"]
            elif event["e"] == "gardener" and event["final_round"]:
                return turn


@pytest.mark.parametrize(
    ("players", "turns"),
    [(1, 32), (2, 64), (3, 14 + 4 * 16), (4, 5 * 20)],
)
def test_turns_before_the_final_round(players: int, turns: int) -> None:
    # Solo: value 2, 2 spaces a turn: 4 laps of 8 turns. 2 players: 4 laps of 16.
    # 3 players: value 1, first rise on space 14, then a lap each. 4 players: 5 laps of 20.
    assert turn_that_starts_the_final_round(game(players, seed=11)) == turns


# --------------------------------------------------------------------------- final round start


def test_final_round_discards_beds_with_fewer_than_3_tiles_in_seat_then_bed_order() -> None:
    state = game(2, seed=2)
    few = grid_bed(["##oo.", "mm...", ".....", ".....", "....."], placed=2)  # tokens don't count
    three = grid_bed(["###..", ".....", ".....", ".....", "....."], placed=3)
    state = with_player(state, 0, beds=(few, three))
    state = with_player(state, 1, beds=(few, few))
    state = after_phase(state, seat=1)._replace(space=15, value=5)
    b00, b10, b11 = state.players[0].beds[0], state.players[1].beds[0], state.players[1].beds[1]
    assert b00 is not None and b10 is not None and b11 is not None
    pots, cats, path = state.supply_pots, state.supply_cats, state.path
    after = apply(state, DONE)
    names = state.rules.catalogue.tiles
    discards = of_kind(after.events, "discard_bed")
    assert discards == [
        {"e": "discard_bed", "seat": 0, "bed": 0, "to_path": [names[t].id for t in b00.placed]},
        {"e": "discard_bed", "seat": 1, "bed": 0, "to_path": [names[t].id for t in b10.placed]},
        {"e": "discard_bed", "seat": 1, "bed": 1, "to_path": [names[t].id for t in b11.placed]},
    ]
    assert kinds(after.events)[:4] == ["gardener", "discard_bed", "discard_bed", "discard_bed"]
    assert after.path == path + b00.placed + b10.placed + b11.placed
    assert after.supply_pots == pots + 6 and after.supply_cats == cats + 6
    assert after.players[0].beds == (None, state.players[0].beds[1])
    assert after.players[1].beds == (None, None)
    assert not after.end


def test_final_round_ends_at_once_when_nobody_keeps_a_bed() -> None:
    state = game(2, seed=2)
    few = grid_bed(["##...", ".....", ".....", ".....", "....."], placed=2)
    state = with_player(state, 0, beds=(few, None))
    state = with_player(state, 1, beds=(few, few))
    state = after_phase(state, seat=1)._replace(space=15, value=5)
    after = apply(state, DONE)
    assert after.end == "normal" and after.phase == Phase.OVER
    assert len(legal_actions(after)) == 0


# --------------------------------------------------------------------------- penalty


def final_turn(
    orange: tuple[int, ...],
    blue: tuple[int, ...],
    overrides: dict[str, Any] | None = None,
    beds: tuple[Bed | None, Bed | None] | None = None,
    **player: Any,
) -> State:
    """Seat 0's final-round turn just started (the previous seat finished its turn)."""
    state = game(2, seed=2, overrides=overrides)._replace(final_round=True, value=6, placed=True)
    beds = beds or (grid_bed(ONE_HOLE, placed=3), grid_bed(EMPTY, board=1))
    state = with_player(state, 0, orange=orange, blue=blue, beds=beds, **player)
    return end_previous_turn(state, seat=0, space=3)


def penalties(state: State) -> list[tuple[str, int, int, int]]:
    return [(e["color"], e["cube"], e["from"], e["to"]) for e in of_kind(state.events, "penalty")]


def test_penalty_exact_two_points_is_forced_when_unique() -> None:
    after = final_turn((5, 0, 0), (0, 0, 0))
    assert penalties(after) == [("orange", 0, 5, 3)]
    marker = [e["e"] for e in after.events].index("_turn")
    assert after.events[marker + 1]["e"] == "penalty"


def test_penalty_choice_among_moves_losing_exactly_two() -> None:
    after = final_turn((5, 16, 0), (2, 0, 8))
    assert after.phase == Phase.PENALTY
    assert list(legal_actions(after)) == [penalty(ORANGE, 0), penalty(BLUE, 0)]
    chosen = apply(after, penalty(BLUE, 0))
    assert penalties(chosen) == [("blue", 0, 2, 1)]
    from cgsim.errors import IllegalActionError

    with pytest.raises(IllegalActionError, match="penalty"):
        apply(after, penalty(ORANGE, 1))


def test_penalty_orange_two_spaces_blue_one_space_target_counts_as_one() -> None:
    rules = game(2).rules
    player = game(2).players[0]
    # Orange 20 -> 14 (two spaces back from the target) loses 6.
    assert penalty_options(rules, player._replace(orange=(16, 0, 0), blue=(0, 0, 0))) == [
        (ORANGE, 0)
    ]
    after = final_turn((16, 0, 0), (0, 0, 0))
    assert penalties(after) == [("orange", 0, 16, 14)]
    after = final_turn((0, 0, 0), (8, 0, 0))
    assert penalties(after) == [("blue", 0, 8, 7)]


def test_penalty_target_preferred_over_orange_on_one() -> None:
    after = final_turn((1, 16, 0), (0, 0, 0))
    assert penalties(after) == [("orange", 1, 16, 14)]
    after = final_turn((1, 1, 16), (8, 0, 0))
    assert after.phase == Phase.PENALTY
    assert list(legal_actions(after)) == [penalty(ORANGE, 2), penalty(BLUE, 0)]


def test_penalty_orange_on_one_goes_back_to_start() -> None:
    after = final_turn((1, 0, 0), (0, 0, 0))
    assert penalties(after) == [("orange", 0, 1, 0)]


def test_no_penalty_when_every_cube_is_on_start() -> None:
    after = final_turn((0, 0, 0), (0, 0, 0))
    assert penalties(after) == []


def test_penalty_tiers_hold_with_changed_settings_and_never_below_start() -> None:
    over = {"penalty_points": 4, "penalty_orange_spaces": 3, "penalty_blue_spaces": 2}
    # Orange 6 -> 3 loses 3, blue 3 (6) -> 1 (2) loses 4: exactly the penalty.
    after = final_turn((6, 0, 0), (3, 0, 0), overrides=over)
    assert penalties(after) == [("blue", 0, 3, 1)]
    # Nothing exact, nothing on a target: any cube off the start; never below start.
    after = final_turn((2, 0, 0), (0, 0, 0), overrides=over)
    assert penalties(after) == [("orange", 0, 2, 0)]
    # A penalty of 0 points is no penalty.
    after = final_turn((6, 0, 0), (3, 0, 0), overrides={"penalty_points": 0})
    assert penalties(after) == []


def test_penalty_across_the_red_line_gives_no_cat() -> None:
    after = final_turn((7, 16, 16), (8, 8, 8), cats=1)
    assert penalties(after) == [("orange", 0, 7, 5)]
    assert not of_kind(after.events, "gain_cat")
    assert after.players[0].cats == 1


def test_crossing_the_red_line_again_gives_a_cat_again() -> None:
    beds = (grid_bed(["PP###", "#####", "#####", "#####", "####."], placed=3), grid_bed(EMPTY))
    after = final_turn((7, 16, 16), (8, 8, 8), beds=beds, cats=0)
    after = apply(after, pot(0, 4, 4))  # 3 pots: 5 -> 8
    assert of_kind(after.events, "move")[0]["from"] == 5
    assert of_kind(after.events, "gain_cat") == [{"e": "gain_cat", "why": "red_line"}]


def test_a_zero_point_penalty_asks_for_no_decision() -> None:
    after = final_turn((6, 0, 0), (3, 0, 0), overrides={"penalty_points": 0})
    assert after.phase != Phase.PENALTY and penalties(after) == []


def test_start_pot_again_after_a_cube_returned_to_start() -> None:
    after = final_turn((2, 16, 16), (8, 8, 8), cats=0)
    assert penalties(after) == [("orange", 0, 2, 0)]
    after = apply(after, pot(0, 4, 4))  # 2 pots: 0 -> 2, the start empties again
    assert after.phase == Phase.BONUS
    assert kinds(after.events)[-1] == "move"


def test_player_without_beds_only_moves_the_gardener_no_penalty() -> None:
    state = game(2, seed=2)._replace(final_round=True, value=6, placed=True)
    state = with_player(state, 0, beds=(None, None), orange=(5, 5, 5))
    after = end_previous_turn(state, seat=0, space=3)
    marker = [e["e"] for e in after.events].index("_turn")
    assert [e["e"] for e in after.events[marker : marker + 3]] == ["_turn", "gardener", "_turn"]
    assert after.players[0].orange == (5, 5, 5)


# --------------------------------------------------------------------------- final-round scoring


def test_completed_bed_is_removed_without_replacement() -> None:
    after = final_turn((0, 0, 0), (0, 0, 0), cats=0)
    supply_board = after.supply_board
    done = apply(after, pot(0, 4, 4))
    cleanup = of_kind(done.events, "cleanup")[0]
    assert cleanup["new_board"] is None
    assert done.players[0].beds[0] is None
    assert done.players[0].beds[1] == after.players[0].beds[1]
    assert done.supply_board == supply_board


def test_game_ends_after_the_turn_in_which_the_last_bed_leaves() -> None:
    state = game(2, seed=2)._replace(final_round=True, value=6, placed=True)
    state = with_player(state, 0, beds=(grid_bed(ONE_HOLE, placed=3), None), cats=4)
    state = with_player(state, 1, beds=(None, None))
    state = at_plant(state)
    after = apply(state, pot(0, 4, 4))
    # The bed leaves; the cat limit (no empty cell) and the gardener still run, then the end.
    assert kinds(after.events)[-2:] == ["return_cats", "gardener"]
    assert after.end == "normal" and after.phase == Phase.OVER
    assert after.players[0].cats == 2
    assert GAME.result(after).end == "normal"


# --------------------------------------------------------------------------- stall and cap


def stalling(stall: int, **player: Any) -> State:
    """Seat 0 in the final round, at planting, with nothing to plant but maybe cats."""
    state = game(2, seed=2)._replace(final_round=True, value=6, supply_pots=0, stall=stall)
    state = clear_nursery(state)
    player.setdefault("beds", (grid_bed(["#....", ".....", ".....", ".....", "....."]), None))
    player.setdefault("cats", 0)
    state = with_player(state, 0, **player)
    state = with_player(
        state, 1, beds=(grid_bed(["###..", ".....", ".....", ".....", "....."], board=2), None)
    )
    return at_plant(state)._replace(placed=False)


def test_stall_ends_the_game_after_as_many_empty_turns_as_players() -> None:
    state = stalling(stall=1)
    assert list(legal_actions(state)) == [PASS]
    after = apply(state, PASS)
    assert after.end == "stalled" and after.phase == Phase.OVER
    discards = of_kind(after.events, "discard_bed")
    assert [(e["seat"], e["bed"]) for e in discards] == [(0, 0), (1, 0)]
    assert kinds(after.events)[-3:] == ["gardener", "discard_bed", "discard_bed"]
    assert all(bed is None for p in after.players for bed in p.beds)


def test_one_empty_turn_is_not_yet_a_stall() -> None:
    after = apply(stalling(stall=0), PASS)
    assert after.end is None and after.stall == 1


def test_a_placement_resets_the_stall_count() -> None:
    state = stalling(stall=1, cats=1)
    after = apply(state, cat(0, 2, 2))
    assert after.end is None and after.stall == 0


def test_a_limit_cat_counts_as_a_placement() -> None:
    state = stalling(stall=1, cats=3)
    after = apply(state, PASS)
    assert after.phase == Phase.AFTER
    after = apply(after, DONE)
    assert after.phase == Phase.LIMIT
    after = apply(after, cat(0, 4, 4))
    assert of_kind(after.events, "cat")[0]["why"] == "limit"
    assert after.end is None and after.stall == 0


def test_a_pot_token_and_a_tile_count_as_placements() -> None:
    after = apply(stalling(stall=1)._replace(supply_pots=1), pot(0, 2, 2))
    assert after.end is None and after.stall == 0
    state = stalling(stall=1)
    cell = state.rules.rows[state.space][0]
    state = set_row(state, {cell: state.path[0]})
    after = apply(state, tile_actions(state, cell, bed=0)[0])
    assert of_kind(after.events, "take_tile")
    assert after.end is None and after.stall == 0


def test_a_bonus_pot_counts_as_a_placement() -> None:
    # Seat 0 scores a bed already complete: the start-space pot is its only placement.
    full = grid_bed(["P####"] + ["#####"] * 4, placed=3)
    state = stalling(stall=1, orange=(0, 16, 16), beds=(full, grid_bed(EMPTY, board=1)))
    after = apply(state._replace(phase=Phase.AFTER, supply_pots=1), score(0))
    assert after.phase == Phase.BONUS
    after = apply(after, bonus(2, 2))
    assert of_kind(after.events, "bonus_pot") and not of_kind(after.events, "cat")
    assert after.end is None and after.stall == 0


def test_the_turn_that_starts_the_final_round_does_not_count_toward_the_stall() -> None:
    state = clear_nursery(game(2, seed=2)._replace(value=5, supply_pots=0, stall=0))
    three = ["###..", ".....", ".....", ".....", "....."]
    state = with_player(state, 0, beds=(grid_bed(three, placed=3), None), cats=0)
    state = with_player(state, 1, beds=(grid_bed(three, board=2, placed=3), None))
    after = apply(at_plant(state, space=15)._replace(placed=False), PASS)
    assert of_kind(after.events, "gardener")[0]["final_round"] is True
    assert after.end is None and after.stall == 0


def test_turns_of_players_without_beds_count_toward_the_stall() -> None:
    state = stalling(stall=0)
    state = with_player(state, 1, beds=(None, None))
    after = apply(state, PASS)  # seat 0 passes; seat 1 has no bed and only moves the gardener
    assert after.end == "stalled"
    assert of_kind(after.events, "discard_bed") == [
        {
            "e": "discard_bed",
            "seat": 0,
            "bed": 0,
            "to_path": [state.rules.catalogue.tiles[t].id for t in state.players[0].beds[0].placed],  # type: ignore[union-attr]
        }
    ]


def test_turn_cap_aborts_and_is_recorded() -> None:
    final = play_out(game(2, seed=3, overrides={"turn_cap": 7}))
    assert final.end == "aborted" and final.turn == 7
    assert GAME.result(final).end == "aborted"


def test_normal_wins_over_stalled_and_aborted() -> None:
    # A hand-made turn that meets all three: the last bed has gone, the stall count and the
    # turn cap are both reached.
    state = game(2, seed=2, overrides={"turn_cap": 5})._replace(
        final_round=True, value=6, stall=1, placed=False, turn=5
    )
    state = with_player(state, 0, beds=(None, None))
    state = with_player(state, 1, beds=(None, None))
    state = state._replace(seat=0, phase=Phase.AFTER, had_bed=True)
    after = apply(state, DONE)
    assert after.end == "normal"


def test_stalled_wins_over_aborted() -> None:
    state = stalling(stall=1)._replace(turn=500)
    after = apply(state, PASS)
    assert after.end == "stalled"


def test_aborted_when_nothing_else_ends_the_game() -> None:
    state = stalling(stall=0)._replace(turn=500)
    after = apply(state, PASS)
    assert after.end == "aborted"


# --------------------------------------------------------------------------- winners


def finished(scores: list[tuple[tuple[int, int, int], int]]) -> State:
    state = game(len(scores), seed=2)
    for seat, (orange, hive) in enumerate(scores):
        state = with_player(state, seat, orange=orange, beehive=hive, has_beehive=hive > 0)
    return state._replace(phase=Phase.OVER, end="normal")


def test_highest_score_wins() -> None:
    result = result_of(finished([((5, 5, 5), 0), ((5, 5, 6), 0)]))
    assert result.scores == (15.0, 16.0) and result.winners == (1,)
    assert result.ranks == (2.0, 1.0)


def test_tie_broken_by_beehive_points() -> None:
    result = result_of(finished([((5, 5, 4), 1), ((5, 5, 3), 2), ((5, 5, 5), 0)]))
    assert result.scores == (15.0, 15.0, 15.0)
    assert result.winners == (1,)


def test_remaining_tie_is_a_shared_win() -> None:
    result = result_of(finished([((5, 5, 5), 0), ((5, 5, 5), 0), ((1, 1, 1), 0)]))
    assert result.winners == (0, 1)
    assert result.ranks == (1.5, 1.5, 3.0)
