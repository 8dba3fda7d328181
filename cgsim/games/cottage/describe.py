"""Readable text of actions and recorded events, the notation legend, and the error
raised for an illegal action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cgsim.errors import IllegalActionError
from cgsim.games.contract import Term, raw_event
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import cell_rc
from cgsim.games.cottage.nursery import CORNERS, NURSERY_CELLS, nursery_rc
from cgsim.games.cottage.state import COLOR_NAMES, State


def describe(state: State, action: int) -> str:
    """A short readable text for an action in a state (for logs and errors)."""
    d = act.decode(action)
    catalogue = state.rules.catalogue
    if d.kind == act.TILE:
        tile = state.nursery[d.cell] if d.cell < NURSERY_CELLS else -1
        name = catalogue.tiles[tile].id if tile >= 0 else "?"
        r, c = nursery_rc(d.cell)
        if tile >= 0 and d.place < len(catalogue.kinds[catalogue.tile_kind[tile]].placements):
            place = catalogue.kinds[catalogue.tile_kind[tile]].placements[d.place]
            return (
                f"take {name} from nursery [{r},{c}] to bed {d.bed}, orientation {place.orientation} "
                f"at [{place.row},{place.col}]"
            )
        return f"take tile from nursery [{r},{c}] to bed {d.bed}, placement {d.place}"
    if d.kind in (act.POT, act.CAT):
        r, c = cell_rc(d.place)
        return f"{d.name} on bed {d.bed} [{r},{c}]"
    if d.kind == act.BONUS_POT:
        r, c = cell_rc(d.place)
        return f"bonus pot on the other bed [{r},{c}]"
    if d.kind in (act.CUBE, act.PENALTY):
        color_index, cube = act.cube_of(d.place)
        color = COLOR_NAMES[color_index] if color_index < 2 else "?"
        verb = "move" if d.kind == act.CUBE else "penalty on"
        return f"{verb} {color} cube {cube}"
    if d.kind == act.SCORE:
        return f"score bed {d.bed}"
    if d.kind == act.RAMBLE:
        return "ramble" if d.place else "no ramble"
    if d.kind == act.CORNERS:
        return "corners " + " ".join(
            str(list(nursery_rc(CORNERS[i]))) for i in range(len(CORNERS)) if d.place >> i & 1
        )
    return d.name


def illegal(state: State, action: int, why: str) -> IllegalActionError:
    """The error for an illegal action: turn, seat, the action in words and why."""
    return IllegalActionError(
        f"turn {state.turn}, seat {state.seat}: action {describe(state, action)}: {why}"
    )


# ---------------------------------------------------------------- notation and endings

NOTATION = (
    Term(
        "1A ... 6H",
        "flower tile kinds: the digit is the tile's size in cells, the letter tells the "
        "shapes of that size apart (a tile id adds its copy number: 6B-1)",
    ),
    Term(
        "[6D]",
        "nursery cells in brackets form the Gardener Row, the row or column the gardener "
        "stands beside: the tiles a player may take this turn",
    ),
    Term("board 4l, 6d", "flowerbed board 4 on its light side (l) or dark side (d)"),
    Term(
        "bed cells",
        ". soil, P/C a printed flowerpot/cloche, a-z the tiles in placement order "
        "(p/c a flowerpot/cloche printed on the tile, x a tile covering a printed one), "
        "O a flowerpot token, M a cat",
    ),
    Term(
        "orange 3, 0, T20 | blue ...",
        "each of a player's cubes by the points it stands on in its scoring track; T20 is "
        "a cube on the track's target space (20 points)",
    ),
    Term(
        "gardener: space 3 of 16, value 2/6",
        "the gardener's space on the walk around the nursery and the die value it raises; "
        "the final round starts when the value reaches the final value",
    ),
    Term("path", "the tiles waiting in line to refill the nursery"),
    Term("score", "points: the values of the player's cubes plus its beehive points"),
    Term("[r,c]", "a cell by row and column, counted from 0 at the top left"),
)
"""The legend of the renderings and reports: every symbol a newcomer meets."""

ENDS = (
    Term("normal", "the final round was played until every bed was scored or given up"),
    Term(
        "stalled",
        "in the final round, as many turns in a row as there are players placed nothing "
        "(no tile, pot or cat): the remaining beds were given up and the game ended",
    ),
    Term("aborted", "stopped at the turn cap (default 500 turns) without a normal end"),
)


# ---------------------------------------------------------------- recorded events in words


def _cell(value: Any) -> str:
    return f"[{value[0]},{value[1]}]" if isinstance(value, Sequence) and len(value) == 2 else "?"


def _track_value(rules: Mapping[str, Any], color: str, index: Any) -> str:
    track = rules.get(f"{color}_track")
    if isinstance(track, Sequence) and isinstance(index, int) and 0 <= index < len(track):
        return str(track[index])
    return f"space {index}"


Event = Mapping[str, Any]


def _event_texts(rules: Mapping[str, Any]) -> dict[str, Callable[[Event, str], str]]:
    """Per event type, its sentence; ``who`` is the seat playing the turn (``seat 0``)."""

    def move(e: Event, verb: str) -> str:
        color = e.get("color", "?")
        start = _track_value(rules, color, e.get("from"))
        end = _track_value(rules, color, e.get("to"))
        return f"{verb} {color} cube {e.get('cube', 0) + 1}: {start} -> {end} points"

    def new_board(e: Event) -> str:
        board = e.get("new_board")
        return (
            f", new board {board.get('board')} {board.get('side')}"
            if isinstance(board, Mapping)
            else ""
        )

    return {
        "penalty": lambda e, who: move(e, f"{who} final-round penalty: moves back"),
        "refill": lambda e, who: (
            f"{who} {'rambles (pays cats) and ' if e.get('ramble') else ''}refills the "
            f"nursery with {len(e.get('tiles', []))} tiles from the path"
        ),
        "take_tile": lambda e, who: (
            f"{who} plants tile {e.get('tile')} from nursery {_cell(e.get('from'))} on bed "
            f"{e.get('bed')}, covering {len(e.get('cells', []))} cells"
        ),
        "take_pot": lambda e, who: (
            f"{who} takes a flowerpot onto bed {e.get('bed')} {_cell(e.get('cell'))}"
        ),
        "cat": lambda e, who: (
            f"{who} places a cat on bed {e.get('bed')} {_cell(e.get('cell'))}"
            + (" (cat limit)" if e.get("why") == "limit" else "")
        ),
        "pass": lambda e, who: f"{who} passes: nothing can be planted ({e.get('reason')})",
        "score": lambda e, who: (
            f"{who} completes bed {e.get('bed')} (board {e.get('board')} {e.get('side')}): "
            f"{e.get('pots')} flowerpots, {e.get('cloches')} cloches"
        ),
        "move": lambda e, who: move(e, f"{who} moves"),
        "gain_cat": lambda e, who: (
            f"seat {e.get('seat')} gains a cat (its corner of the nursery)"
            if e.get("why") == "corner"
            else f"{who} gains a cat (crossed the red line)"
        ),
        "bonus_pot": lambda e, who: (
            f"{who} places a bonus flowerpot on bed {e.get('bed')} {_cell(e.get('cell'))}"
        ),
        "beehive": lambda e, who: f"{who} takes a beehive worth {e.get('value')} points",
        "cleanup": lambda e, who: (
            f"{who} clears bed {e.get('bed')}: {len(e.get('to_path', []))} tiles back to "
            f"the path{new_board(e)}"
        ),
        "discard_bed": lambda e, who: (
            f"seat {e.get('seat')} gives up bed {e.get('bed')} "
            f"({len(e.get('to_path', []))} tiles back to the path)"
        ),
        "return_cats": lambda e, who: f"{who} returns {e.get('count')} cats (no room left)",
        "gardener": lambda e, who: (
            f"the gardener moves to space {e.get('space')}, value {e.get('value')}"
            + (": the final round begins" if e.get("final_round") else "")
        ),
    }


def describe_turns(record: Mapping[str, Any]) -> dict[int, list[str]]:
    """Every recorded turn's events in words, by turn number (``seat 0 plants ...``);
    an event of a type this module does not know is shown with its raw fields."""
    rules = record.get("rules")
    texts = _event_texts(rules if isinstance(rules, Mapping) else {})
    turns: dict[int, list[str]] = {}
    for turn in record.get("turns", []):
        who = f"seat {turn.get('seat')}"
        lines = []
        for event in turn.get("events", []):
            text = texts.get(str(event.get("e")))
            lines.append(text(event, who) if text else raw_event(event))
        turns[int(turn["n"])] = lines
    return turns
