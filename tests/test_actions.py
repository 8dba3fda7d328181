"""Action encoding and the lazy legal-action sequence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgsim.games.cottage import actions as act
from cgsim.games.cottage.actions import LegalActions


@given(
    kind=st.sampled_from(sorted(act.KIND_NAMES)),
    index=st.integers(0, act.INDEX_MASK),
    bed=st.integers(0, 1),
    cell=st.integers(0, 15),
)
def test_encode_decode_round_trip(kind: int, index: int, bed: int, cell: int) -> None:
    a = act.encode(kind, index, bed=bed, cell=cell)
    assert act.decode(a) == act.Decoded(kind, index, bed, cell)
    assert act.kind_of(a) == kind
    assert act.decode(a).name == act.KIND_NAMES[kind]


def test_cube_code_and_unknown_kind_name() -> None:
    assert act.cube_code(1, 2) == 0b1010
    assert act.decode(act.encode(15)).name == "unknown(15)"


def test_legal_actions_sequence() -> None:
    legal = LegalActions([(0x100000, (1, 2)), (0x200000, ()), (0x300000, (5,))])
    assert len(legal) == 3
    assert list(legal) == [0x100001, 0x100002, 0x300005]
    assert legal[0] == 0x100001 and legal[-1] == 0x300005 and legal[2] == 0x300005
    assert legal[0:2] == [0x100001, 0x100002]
    assert 0x100002 in legal and 0x100003 not in legal and 0x200000 not in legal
    assert object() not in legal
    with pytest.raises(IndexError):
        legal[3]
    with pytest.raises(IndexError):
        legal[-4]
    assert repr(legal) == "LegalActions(3 actions)"
    assert len(LegalActions([])) == 0


def test_membership_is_the_same_before_and_after_an_action_is_handed_out() -> None:
    # The last action handed out by index is known legal without a scan: membership
    # must not change with it, for a negative int (the mark of "none handed out yet")
    # least of all.
    legal = LegalActions([(0x100000, (1, 2)), (0x300000, (5,))])
    assert -1 not in legal and 0x100001 in legal and 0x300004 not in legal
    assert legal[2] == 0x300005
    assert 0x300005 in legal and 0x100002 in legal and -1 not in legal
    assert 0x300004 not in legal and True not in legal
    assert legal[0] == 1 | 0x100000 and 0x100001 in legal and 0x300005 in legal
    fresh = LegalActions([(0, (1,))])
    assert True in fresh and -1 not in fresh and 0 not in fresh


def test_describe_names_every_kind_of_action_in_words() -> None:
    from cgsim.games.cottage import actions as act
    from cgsim.games.cottage.game import GAME
    from cgsim.games.cottage.rules import describe

    state = GAME.new_game(GAME.make_rules(2, {}), 1)
    tile = next(a for a in GAME.legal_actions(state) if act.kind_of(a) == act.TILE)
    assert describe(state, tile).startswith("take ") and "to bed" in describe(state, tile)
    assert describe(state, act.encode(act.CAT, 7, bed=1)) == "cat on bed 1 [1,2]"
    assert describe(state, act.encode(act.POT, 0)) == "pot on bed 0 [0,0]"
    assert describe(state, act.encode(act.BONUS_POT, 24)) == "bonus pot on the other bed [4,4]"
    assert describe(state, act.encode(act.CUBE, act.cube_code(1, 2))) == "move blue cube 2"
    assert (
        describe(state, act.encode(act.PENALTY, act.cube_code(0, 0))) == "penalty on orange cube 0"
    )
    assert describe(state, act.encode(act.SCORE, bed=1)) == "score bed 1"
    assert describe(state, act.encode(act.RAMBLE, 1)) == "ramble"
    assert describe(state, act.encode(act.RAMBLE, 0)) == "no ramble"
    assert describe(state, act.encode(act.CORNERS, 0b0101)) == "corners [0, 0] [3, 3]"
    assert describe(state, act.encode(act.DONE)) == "done"
