"""The mutable working copy of a state, alive only inside one ``apply`` (or ``new_game``).

Every engine step takes a ``Work``, changes it in place and appends events; ``freeze``
turns it back into an immutable ``State``. Nothing outside the engine sees one.
"""

from __future__ import annotations

from typing import Any

from cgsim.games.cottage.components import cell_rc
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


class Work:
    """A mutable copy of a state, alive only inside one ``apply``."""

    __slots__ = (
        "beehives_taken",
        "end",
        "events",
        "final_round",
        "had_bed",
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
    nursery: list[int]
    path: list[int]
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
    turn_pending: bool
    """Set by the gardener phase: the next turn starts once the current call unwinds."""

    @classmethod
    def fresh(cls, **fields: Any) -> Work:
        w = cls.__new__(cls)
        defaults: dict[str, Any] = {
            "beehives_taken": 0,
            "final_round": False,
            "turn": 0,
            "seat": 0,
            "phase": Phase.PLANT,
            "scoring": None,
            "had_bed": True,
            "placed": False,
            "stall": 0,
            "end": None,
        }
        defaults.update(fields)
        for name, value in defaults.items():
            setattr(w, name, value)
        w.nursery = list(w.nursery)
        w.path = list(w.path)
        w.events = []
        w.turn_pending = False
        return w

    @classmethod
    def thaw(cls, s: State) -> Work:
        w = cls.__new__(cls)
        w.rules = s.rules
        w.seed = s.seed
        w.nursery = list(s.nursery)
        w.path = list(s.path)
        w.players = list(s.players)
        w.supply_board = s.supply_board
        w.supply_cats = s.supply_cats
        w.supply_pots = s.supply_pots
        w.beehives_taken = s.beehives_taken
        w.space = s.space
        w.value = s.value
        w.final_round = s.final_round
        w.turn = s.turn
        w.seat = s.seat
        w.phase = s.phase
        w.scoring = s.scoring
        w.had_bed = s.had_bed
        w.placed = s.placed
        w.stall = s.stall
        w.end = s.end
        w.events = []
        w.turn_pending = False
        return w

    def freeze(self) -> State:
        return State(
            self.rules,
            self.seed,
            tuple(self.nursery),
            tuple(self.path),
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
        )

    @property
    def me(self) -> Player:
        return self.players[self.seat]

    def set_me(self, player: Player) -> None:
        self.players[self.seat] = player

    def set_bed(self, b: int, bed: Bed | None) -> None:
        beds = self.me.beds
        self.set_me(self.me._replace(beds=(bed, beds[1]) if b == 0 else (beds[0], bed)))

    def set_cubes(self, color: int, positions: tuple[int, ...]) -> None:
        """Replace the current player's cubes of one colour."""
        me = self.me
        self.set_me(
            me._replace(orange=positions) if color == ORANGE else me._replace(blue=positions)
        )

    def tile_id(self, tile: int) -> str:
        return self.rules.catalogue.tiles[tile].id

    def emit(self, event: Event) -> None:
        self.events.append(event)


def rc(cell: int) -> list[int]:
    """A bed cell as events write it: ``[row, col]``."""
    return list(cell_rc(cell))
