"""The mutable working copy of a state, alive only inside one ``apply`` (or ``new_game``).

Every engine step takes a ``Work``, changes it in place and appends events; ``freeze``
turns it back into an immutable ``State``. Nothing outside the engine sees one.

Thawing copies only the players into a list: the nursery and the path stay the state's
tuples and are rebuilt only by the steps that change them (most actions change
neither). Players and beds are rebuilt with ``tuple.__new__`` and every field in
order, never ``_replace``, whose keyword handling costs several times more.
"""

from __future__ import annotations

from typing import Final

from cgsim.games.cottage.components import Mask
from cgsim.games.cottage.state import (
    ORANGE,
    Bed,
    Event,
    Phase,
    Player,
    Rules,
    Scoring,
    State,
)

_new: Final = tuple.__new__


class Work:
    """A mutable copy of a state, alive only inside one ``apply``."""

    __slots__ = (
        "beehives_taken",
        "end",
        "events",
        "final_round",
        "had_bed",
        "kinds",
        "nursery",
        "path",
        "phase",
        "placed",
        "players",
        "rules",
        "scoring",
        "seat",
        "seed",
        "space",
        "stall",
        "supply_board",
        "supply_cats",
        "supply_pots",
        "turn",
        "turn_pending",
        "value",
    )

    rules: Rules
    seed: int
    nursery: tuple[int, ...]
    path: tuple[int, ...]
    players: list[Player]
    supply_board: tuple[int, bool] | None
    supply_cats: int
    supply_pots: int
    beehives_taken: int
    space: int
    value: int
    final_round: bool
    turn: int
    seat: int
    phase: Phase
    scoring: Scoring | None
    had_bed: bool
    placed: bool
    stall: int
    end: str | None
    events: list[Event]
    kinds: list[int]
    turn_pending: bool
    """Set by the gardener phase: the next turn starts once the current call unwinds."""

    def __init__(self, s: State) -> None:
        self.rules = s.rules
        self.seed = s.seed
        self.nursery = s.nursery
        self.path = s.path
        self.players = list(s.players)
        self.supply_board = s.supply_board
        self.supply_cats = s.supply_cats
        self.supply_pots = s.supply_pots
        self.beehives_taken = s.beehives_taken
        self.space = s.space
        self.value = s.value
        self.final_round = s.final_round
        self.turn = s.turn
        self.seat = s.seat
        self.phase = s.phase
        self.scoring = s.scoring
        self.had_bed = s.had_bed
        self.placed = s.placed
        self.stall = s.stall
        self.end = s.end
        self.events = []
        self.kinds = []
        self.turn_pending = False

    def freeze(self) -> State:
        return _new(
            State,
            (
                self.rules,
                self.seed,
                self.nursery,
                self.path,
                tuple(self.players),
                self.supply_board,
                self.supply_cats,
                self.supply_pots,
                self.beehives_taken,
                self.space,
                self.value,
                self.final_round,
                self.turn,
                self.seat,
                self.phase,
                self.scoring,
                self.had_bed,
                self.placed,
                self.stall,
                self.end,
                tuple(self.events),
                tuple(self.kinds),
            ),
        )

    @property
    def me(self) -> Player:
        return self.players[self.seat]

    # -- the nursery and the path (tuples, rebuilt on change)

    def clear_nursery_cell(self, cell: int) -> None:
        nursery = self.nursery
        self.nursery = (*nursery[:cell], -1, *nursery[cell + 1 :])

    def fill_nursery(self, cells: list[int], tiles: list[int]) -> None:
        """Put ``tiles`` on nursery ``cells`` (parallel lists) and take them off the path."""
        nursery = list(self.nursery)
        for cell, tile in zip(cells, tiles, strict=True):
            nursery[cell] = tile
        self.nursery = tuple(nursery)
        self.path = self.path[len(tiles) :]

    def extend_path(self, tiles: tuple[int, ...]) -> None:
        if tiles:
            self.path = self.path + tiles

    # -- players (rebuilt field by field)

    def set_player(
        self,
        seat: int,
        beds: tuple[Bed | None, Bed | None],
        orange: tuple[int, ...],
        blue: tuple[int, ...],
        cats: int,
        beehive: int,
        has_beehive: bool,
        turns: int,
        corners: tuple[int, ...],
    ) -> None:
        """Replace seat ``seat``'s player by one with these fields."""
        self.players[seat] = _new(
            Player, (beds, orange, blue, cats, beehive, has_beehive, turns, corners)
        )

    def set_me(self, player: Player) -> None:
        self.players[self.seat] = player

    def set_cats(self, seat: int, cats: int) -> None:
        p = self.players[seat]
        self.set_player(
            seat, p.beds, p.orange, p.blue, cats, p.beehive, p.has_beehive, p.turns, p.corners
        )

    def add_my_cats(self, delta: int) -> None:
        """Change the current player's cats in reserve by ``delta``."""
        self.set_cats(self.seat, self.players[self.seat].cats + delta)

    def start_my_turn(self) -> None:
        """Count a turn started by the current player."""
        p = self.players[self.seat]
        self.set_player(
            self.seat,
            p.beds,
            p.orange,
            p.blue,
            p.cats,
            p.beehive,
            p.has_beehive,
            p.turns + 1,
            p.corners,
        )

    def set_my_beehive(self, value: int) -> None:
        p = self.players[self.seat]
        self.set_player(
            self.seat, p.beds, p.orange, p.blue, p.cats, value, True, p.turns, p.corners
        )

    def set_my_corners(self, corners: tuple[int, ...]) -> None:
        p = self.players[self.seat]
        self.set_player(
            self.seat, p.beds, p.orange, p.blue, p.cats, p.beehive, p.has_beehive, p.turns, corners
        )

    def set_cubes(self, color: int, positions: tuple[int, ...]) -> None:
        """Replace the current player's cubes of one colour."""
        p = self.players[self.seat]
        orange, blue = (positions, p.blue) if color == ORANGE else (p.orange, positions)
        self.set_player(
            self.seat, p.beds, orange, blue, p.cats, p.beehive, p.has_beehive, p.turns, p.corners
        )

    def set_bed_of(self, seat: int, b: int, bed: Bed | None) -> None:
        p = self.players[seat]
        beds = (bed, p.beds[1]) if b == 0 else (p.beds[0], bed)
        self.set_player(
            seat, beds, p.orange, p.blue, p.cats, p.beehive, p.has_beehive, p.turns, p.corners
        )

    def set_bed(self, b: int, bed: Bed | None) -> None:
        self.set_bed_of(self.seat, b, bed)

    def tile_id(self, tile: int) -> str:
        return self.rules.tile_ids[tile]

    def emit(self, kind: int, event: Event) -> None:
        """Record an event of ``kind`` (``KIND_*`` of ``state``: the same as its "e")."""
        self.events.append(event)
        self.kinds.append(kind)


def bed_with(
    bed: Bed,
    tiles: Mask,
    tile_pots: Mask,
    tile_cloches: Mask,
    pots: Mask,
    cats: Mask,
    placed: tuple[int, ...],
    shapes: tuple[Mask, ...],
) -> Bed:
    """``bed`` with new contents (its board, side and arrival stay)."""
    return _new(
        Bed,
        (
            bed.board,
            bed.dark,
            bed.printed_pots,
            bed.printed_cloches,
            tiles,
            tile_pots,
            tile_cloches,
            pots,
            cats,
            placed,
            shapes,
            bed.born,
        ),
    )
