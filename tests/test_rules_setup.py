"""Setup (rules.md section 3): the seed alone deals nursery, path, boards, cats and gardener."""

from __future__ import annotations

import pytest
from engine_helpers import game

from cgsim.games.cottage.state import Phase


@pytest.mark.parametrize(("players", "value"), [(1, 2), (2, 2), (3, 1), (4, 1)])
def test_setup_per_player_count(players: int, value: int) -> None:
    state = game(players, seed=17)
    assert sorted([*state.nursery, *state.path]) == list(range(36))
    assert -1 not in state.nursery and len(state.path) == 20
    boards = [(b.board, b.dark) for p in state.players for b in p.beds if b is not None]
    assert [dark for _, dark in boards] == [False, True] * players
    assert state.supply_board is not None and state.supply_board[1] is False
    used = [board for board, _ in boards] + [state.supply_board[0]]
    assert len(set(used)) == 2 * players + 1  # solo: 3 boards
    for p in state.players:
        assert p.cats == 2 and p.orange == (0, 0, 0) and p.blue == (0, 0, 0)
        assert p.beehive == 0 and not p.has_beehive
    assert state.supply_cats == 30 - 2 * players and state.supply_pots == 16
    assert (state.space, state.value, state.final_round) == (0, value, False)
    assert (state.turn, state.seat, state.phase) == (1, 0, Phase.PLANT)
    assert state.events == ({"e": "_turn", "n": 1, "seat": 0, "final_round": False},)


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    a, b, c = game(3, seed=5), game(3, seed=5), game(3, seed=6)
    assert a[1:] == b[1:]
    assert (a.nursery, a.path) != (c.nursery, c.path)


def test_beds_carry_their_printed_features() -> None:
    state = game(2, seed=5)
    catalogue = state.rules.catalogue
    for p in state.players:
        for bed in p.beds:
            assert bed is not None
            side = catalogue.boards[bed.board].side(bed.dark)
            assert (bed.printed_pots, bed.printed_cloches) == (side.pots, side.cloches)
            assert bed.tiles == bed.pots == bed.cats == 0 and bed.placed == ()
