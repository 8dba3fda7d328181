"""The plain-text picture of a state: gardener, nursery row, beds, cubes and scores."""

from __future__ import annotations

from engine_helpers import game, grid_bed, play_out, with_player

from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.nursery import nursery_index
from cgsim.games.cottage.render import LEGEND, render, render_nursery
from cgsim.games.cottage.state import Phase


def test_render_shows_turn_gardener_and_each_seat() -> None:
    state = game(2, seed=4)
    text = render(state)
    lines = text.splitlines()
    assert lines[0] == "turn 1 - seat 0 to play (plant)"
    assert lines[1].startswith("gardener: space 0 of 16, value 2/6; path: 20 tiles")
    assert "supply: 26 cats, 16 pots" in lines[1]
    assert "seat 0: score 0, cats 2; orange 0, 0, 0 | blue 0, 0, 0" in text
    assert "seat 1: score 0" in text
    assert lines[-1] == LEGEND
    assert "\x1b" not in text
    assert GAME.render(state) == text


def test_nursery_marks_the_gardener_row() -> None:
    state = game(2, seed=4)
    lines = render_nursery(state)
    assert len(lines) == 4
    # Space 0 faces column 0: the first cell of every line is bracketed.
    assert all(line.startswith("[") for line in lines)
    assert all(line.count("[") == 1 for line in lines)
    empty = state._replace(nursery=(-1,) * 16)
    assert render_nursery(empty)[0].startswith("[..]")
    assert nursery_index(0, 0) == 0


def test_bed_cells_drawn_with_their_marks() -> None:
    state = game(2, seed=4)
    bed = grid_bed(["P#pX.", "C#cYo", "m....", ".....", "....."], placed=2)
    state = with_player(state, 0, beds=(bed, None), orange=(16, 3, 0), beehive=2, has_beehive=True)
    lines = render(state).splitlines()
    top = lines.index("seat 0: score 25, beehive 2, cats 2; orange T20, 3, 0 | blue 0, 0, 0")
    assert lines[top + 1].split() == ["bed", "0", "board", "1l:", "bed", "1:", "(none)"]
    # Tiles by placement order (a, b), p/c features on tiles, x covered printed features,
    # O pot token, M cat, P/C printed features, . soil.
    assert lines[top + 2].strip() == "P  a  bp bx ."
    assert lines[top + 3].strip() == "C  b  bc bx O"
    assert lines[top + 4].strip() == "M  .  .  .  ."


def test_render_final_state_and_children() -> None:
    state = game(2, seed=4, children=[6, None])
    assert "(corners)" in render(state).splitlines()[0]
    final = play_out(game(2, seed=4, overrides={"turn_cap": 4}))
    assert "game over (aborted)" in render(final).splitlines()[0]
    child = with_player(game(2, seed=4, children=[6, None])._replace(phase=Phase.PLANT, turn=1), 0)
    assert "seat 0 (child 6)" in render(child)
