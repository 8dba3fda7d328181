"""Statistics of a finished game, derived from its events alone.

Everything the result tables hold beyond scores and winners comes from the game's
events, so a statistic means exactly what the record shows and a stored record can be
summarised again later. One fold (``Summary``) reads the events either from a record
(``summarize``) or from the states as the game is played (``CottageTally``, for runs
that keep no record: the same tables without building the record).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from librt.vecs import append, vec
from mypy_extensions import i64

from cgsim.games.contract import GameResult, GameSummary, Row, TableRows
from cgsim.games.cottage.components import Printed, printed_cells
from cgsim.games.cottage.state import (
    EVENT_KINDS,
    KIND_BEEHIVE,
    KIND_BITS,
    KIND_BONUS_POT,
    KIND_CAT,
    KIND_CLEANUP,
    KIND_DISCARD_BED,
    KIND_GAIN_CAT,
    KIND_MASK,
    KIND_MOVE,
    KIND_OTHER,
    KIND_PASS,
    KIND_PENALTY,
    KIND_REFILL,
    KIND_SCORE,
    KIND_TAKE_POT,
    KIND_TAKE_TILE,
    KIND_TURN,
    PHASE_OVER,
    Rules,
    State,
    cleanup_code,
    cleanup_fields,
    cube_code,
    cube_fields,
    refill_code,
    refill_ramble,
    tile_code,
    tile_fields,
    turn_final,
    turn_seat,
)
from cgsim.games.drama import (
    DRAMA_NAMES,
    NOBODY,
    Drama,
    bit_count,
    floats,
    grown,
    ints,
    zeros,
)
from cgsim.games.loop.core import Fold

_SEAT_COUNTERS: Final = (
    "beds_completed",
    "pots_scored",
    "cloches_scored",
    "cats_gained",
    "cats_used",
    "pots_taken",
    "bonus_pots",
    "tiles_taken",
    "tile_cells",
    "rambles",
    "passes",
    "penalty_points",
    "turns_taken",
    "beds_discarded",
    "features_covered",
)
_COUNTERS: Final = len(_SEAT_COUNTERS)
# Each counter's index in a seat's counts (the order above).
BEDS_COMPLETED: Final = 0
POTS_SCORED: Final = 1
CLOCHES_SCORED: Final = 2
CATS_GAINED: Final = 3
CATS_USED: Final = 4
POTS_TAKEN: Final = 5
BONUS_POTS: Final = 6
TILES_TAKEN: Final = 7
TILE_CELLS: Final = 8
RAMBLES: Final = 9
PASSES: Final = 10
PENALTY_POINTS: Final = 11
TURNS_TAKEN: Final = 12
BEDS_DISCARDED: Final = 13
FEATURES_COVERED: Final = 14

_BED_COLUMNS: Final = (
    "seat",
    "board",
    "side",
    "pots",
    "cloches",
    "turns_to_complete",
    "tiles",
    "final_round",
)
_TILE_COLUMNS: Final = ("seat", "kind", "size", "covered", "turn", "final_round")

_new: Final = tuple.__new__

_GAME_COLUMNS: Final[Row] = dict.fromkeys(
    ("final_round_turns", "refills", "beds_scored", "solo", *DRAMA_NAMES)
)
"""A game's columns, in order, all null: each game's row starts as a copy (a dict copied
whole, where one built key by key, then merged with the drama's, grows a few times)."""

_BEDS: Final = 2
"""Flowerbeds in front of each seat."""


def _bed(seat: i64, bed: i64) -> i64:
    """Where seat ``seat``'s bed ``bed`` is in the summary's per-bed arrays."""
    return seat * _BEDS + bed


_SIZE: Final = 5
"""Cells per row of a bed: cell ``(r, c)`` is bit ``r * 5 + c`` of a mask (``components``)."""

_TILE_KINDS: Final[dict[str, str]] = {}
"""Each tile id's kind (the id without its copy number), as first seen: the same in every
game, and a few dozen ids in all."""

_CUBE_COLORS: Final = ("orange", "blue")
_SEAT_NAMES: Final[dict[int, tuple[str, ...]]] = {}
"""Per number of cubes, the header of a seat's row: its counters, each color's cubes'
track values (``orange_0``, ...), then its beehives. Built once, not once a game."""


def _seat_names(cubes: int) -> tuple[str, ...]:
    names = _SEAT_NAMES.get(cubes)
    if names is None:
        cube_names = [f"{color}_{cube}" for color in _CUBE_COLORS for cube in range(cubes)]
        names = _SEAT_NAMES[cubes] = (*_SEAT_COUNTERS, *cube_names, "beehives")
    return names


class SummaryStart:
    """What a game's summary starts from, the same for every game of the same rules (the
    tally's is built once per rules object: :func:`_tally_start`). Read only."""

    def __init__(
        self, players: int, orange: Sequence[int], blue: Sequence[int], cubes: int, solo: bool
    ) -> None:
        self.players = players
        self.spaces = ints([*orange, *blue])
        """The values of the orange track's spaces, then the blue track's."""
        self.blue_from: i64 = len(orange)
        """Where the blue track's values start in ``spaces``."""
        self.cubes = cubes
        self.solo = solo
        # Every cube starts on its track's first space, and nobody holds a beehive.
        first = orange[0] + blue[0]
        self.totals = [float(cubes * first)] * players
        """Every seat's running score before the first turn."""


def _tally_start(rules: Rules) -> SummaryStart:
    """The tally's summary start for ``rules``, built once and kept with them (a run's
    worker plays all its games with one rules object)."""
    start: SummaryStart | None = rules.derived_cache.get("summary_start")
    if start is None:
        s = rules.settings
        start = rules.derived_cache["summary_start"] = SummaryStart(
            rules.players, rules.orange_track, rules.blue_track, s.cubes, s.solo
        )
    return start


def _side_cells(printed: Printed, board: tuple[str, str] | None) -> int:
    """The printed cells of a board side (none for no board)."""
    return printed.get(board, 0) if board else 0


def _masks(players: int, printed: Printed, boards: list[list[tuple[str, str] | None]]) -> list[int]:
    """The printed cells of each seat's beds' board sides, two a seat (none where a seat
    has fewer beds)."""
    masks = [0] * (players * _BEDS)
    for seat, beds in enumerate(boards):
        for bed, board in enumerate(beds):
            masks[_bed(seat, bed)] = _side_cells(printed, board)
    return masks


def event_code(event: Mapping[str, Any], printed: Printed) -> int:
    """An event's code as the engine gives it beside the event (``State.kinds``), from the
    event as a record holds it (``printed``: the printed cells of each board side): how a
    record's events are fed to the fold, so a record and a tally are read alike."""
    kind = EVENT_KINDS.get(event["e"], KIND_OTHER)
    if kind == KIND_TAKE_TILE:
        cells = 0
        for row, column in event["cells"]:
            cells |= 1 << (row * _SIZE + column)
        return tile_code(event["bed"], cells)
    if kind in (KIND_MOVE, KIND_PENALTY):
        color = _CUBE_COLORS.index(event["color"])
        return cube_code(kind, color, event["cube"], event["from"], event["to"])
    if kind == KIND_CLEANUP:
        new = event["new_board"]
        side = _side_cells(printed, (str(new["board"]), new["side"])) if new else None
        return cleanup_code(event["bed"], side)
    if kind == KIND_REFILL:
        return refill_code(bool(event["ramble"]))
    return kind


class Summary:
    """The statistics fold: fed every turn start and every event of a game, in order."""

    def __init__(self, start: SummaryStart, printed: Printed, masks: list[int]) -> None:
        players = start.players
        cubes = start.cubes
        self.players = players
        self.spaces = start.spaces
        self.blue_from = start.blue_from
        """Both tracks' values, in one array (:class:`SummaryStart`)."""
        self.solo = start.solo
        self.printed = printed
        self.masks = ints(masks)
        """The printed cells (a mask) of every seat's beds' board sides, as the game goes on:
        one a bed (:func:`_bed`)."""
        self.counts = zeros(players * _COUNTERS)
        """Every seat's counters, in the order of ``_SEAT_COUNTERS``: seat ``s``'s counter
        ``c`` at ``s * _COUNTERS + c``. The counters, like the masks and beds below, are
        native ints in one array: compiled, a count is a load and a store, where a list's
        item is unboxed and boxed again."""
        self.cube_count: i64 = cubes
        self.positions = zeros(players * len(_CUBE_COLORS) * cubes)
        """The space every cube is on: seat ``s``'s cube ``k`` of colour ``c`` (0 orange, 1
        blue) at ``(s * 2 + c) * cubes + k``."""
        self.seat_names = _seat_names(cubes)
        self.arrived = zeros(players * _BEDS * 2)
        """Per seat and bed: the owner's turn count when the bed arrived, then the tiles
        placed on it, two a bed (at ``2 * _bed(s, b)`` and the next index)."""
        self.beds: list[tuple[Any, ...]] = []
        self.taken: list[tuple[Any, ...]] = []
        """A row per scored bed and per tile taken, as tuples (``_BED_COLUMNS``,
        ``_TILE_COLUMNS``)."""
        self.refills = 0
        self.final_round_turns = 0
        self.n = 0
        self.seat = 0
        self.final_round = False
        self.beehives = [0] * players
        """Per seat, the beehive points it holds so far."""
        self.totals = floats(start.totals)
        """Per seat, its running score (its cubes' track values and its beehive) kept up to
        date event by event, as unboxed floats: the drama fold reads floats."""
        self.drama = Drama(start.totals)
        self.series = players > 1
        """Whether the turns' series below is kept: a game of one seat has no drama (its
        drama columns are null, :meth:`Drama.columns`), so a solo game keeps none."""
        self.movers = vec[i64]()
        self.turn_totals = vec[float]()
        self.first_final: i64 = NOBODY
        """Every turn's mover (the current turn's included), the running scores (a value
        per seat) after every ended turn, and the index of the final round's first turn,
        handed to the drama fold at the end. Scores change on a few turns of a game, so a
        turn's row of ``turn_totals`` is written only when they are about to change
        (:meth:`_fill`) or at the end, not at every turn."""

    def turn(self, n: int, seat: int, final_round: bool) -> None:
        """A turn starts (the previous one, if any, has ended)."""
        self.n, self.seat, self.final_round = n, seat, bool(final_round)
        counts = self.counts
        at = seat * _COUNTERS + TURNS_TAKEN
        counts[at] = counts[at] + 1
        if self.final_round:
            self.final_round_turns += 1
        if self.series:
            self.movers = append(self.movers, seat)
            if self.final_round and self.first_final == NOBODY:
                self.first_final = len(self.movers) - 1

    def _fill(self, turns: i64) -> None:
        """Write the running scores as the rows of the turns up to ``turns`` (the scores
        have not changed since the last row written)."""
        if not self.series:
            return
        totals = self.totals
        seats: i64 = len(totals)
        at: i64 = len(self.turn_totals)
        end = turns * seats
        if at >= end:
            return
        # Grown once, then written by index: a row appended a turn at a time was a call
        # a turn, and most turns are written here at once, at the end of the game.
        rows = grown(self.turn_totals, end)
        while at < end:
            seat: i64 = 0
            while seat < seats:
                rows[at + seat] = totals[seat]
                seat += 1
            at += seats
        self.turn_totals = rows

    def event(self, event: dict[str, Any]) -> None:
        """One event of the current turn (as a record holds it)."""
        code = event_code(event, self.printed)
        if code != KIND_OTHER:
            self.count(code, event)

    def count(self, code: i64, event: dict[str, Any]) -> None:
        """One event of the current turn, of ``code`` (:func:`event_code`: its kind, one the
        fold counts, and the numbers the fold reads of it)."""
        kind = code & KIND_MASK
        data = code >> KIND_BITS
        seat: i64 = self.seat
        counts = self.counts
        mine = seat * _COUNTERS
        if kind == KIND_PASS:
            counts[mine + PASSES] = counts[mine + PASSES] + 1
        elif kind == KIND_TAKE_TILE:
            bed, mask = tile_fields(data)
            size = bit_count(mask)
            counts[mine + TILES_TAKEN] = counts[mine + TILES_TAKEN] + 1
            counts[mine + TILE_CELLS] = counts[mine + TILE_CELLS] + size
            placed = 2 * _bed(seat, bed) + 1
            self.arrived[placed] = self.arrived[placed] + 1
            covered = bit_count(mask & self.masks[_bed(seat, bed)])
            counts[mine + FEATURES_COVERED] = counts[mine + FEATURES_COVERED] + covered
            tile: str = event["tile"]
            shape = _TILE_KINDS.get(tile)
            if shape is None:
                shape = _TILE_KINDS[tile] = tile.rsplit("-", 1)[0]
            self.taken.append((seat, shape, size, covered, self.n, self.final_round))
        elif kind == KIND_TAKE_POT:
            counts[mine + POTS_TAKEN] = counts[mine + POTS_TAKEN] + 1
        elif kind == KIND_BONUS_POT:
            counts[mine + BONUS_POTS] = counts[mine + BONUS_POTS] + 1
        elif kind == KIND_CAT:
            counts[mine + CATS_USED] = counts[mine + CATS_USED] + 1
        elif kind == KIND_GAIN_CAT:
            gainer: i64 = event.get("seat", seat)
            at = gainer * _COUNTERS + CATS_GAINED
            counts[at] = counts[at] + 1
        elif kind == KIND_REFILL:
            self.refills += 1
            if refill_ramble(data):
                counts[mine + RAMBLES] = counts[mine + RAMBLES] + 1
        elif kind in (KIND_MOVE, KIND_PENALTY):
            color, number, start, to = cube_fields(data)
            spaces = self.spaces
            track = self.blue_from if color else 0
            if kind == KIND_PENALTY:
                lost = spaces[track + start] - spaces[track + to]
                counts[mine + PENALTY_POINTS] = counts[mine + PENALTY_POINTS] + lost
            cube = (seat * 2 + color) * self.cube_count + number
            self._fill(len(self.movers) - 1)
            gained = spaces[track + to] - spaces[track + self.positions[cube]]
            self.totals[seat] = self.totals[seat] + float(gained)
            self.positions[cube] = to
        elif kind == KIND_SCORE:
            pots: int = event["pots"]
            cloches: int = event["cloches"]
            counts[mine + BEDS_COMPLETED] = counts[mine + BEDS_COMPLETED] + 1
            counts[mine + POTS_SCORED] = counts[mine + POTS_SCORED] + pots
            counts[mine + CLOCHES_SCORED] = counts[mine + CLOCHES_SCORED] + cloches
            born = 2 * _bed(seat, event["bed"])
            self.beds.append(
                (
                    seat,
                    str(event["board"]),
                    event["side"],
                    pots,
                    cloches,
                    counts[mine + TURNS_TAKEN] - self.arrived[born],
                    self.arrived[born + 1],
                    self.final_round,
                )
            )
        elif kind == KIND_CLEANUP:
            bed, printed = cleanup_fields(data)
            born = 2 * _bed(seat, bed)
            self.arrived[born] = counts[mine + TURNS_TAKEN]
            self.arrived[born + 1] = 0
            self.masks[_bed(seat, bed)] = printed
        elif kind == KIND_DISCARD_BED:
            owner: i64 = event["seat"]
            at = owner * _COUNTERS + BEDS_DISCARDED
            counts[at] = counts[at] + 1
            self.masks[_bed(owner, event["bed"])] = 0
        elif kind == KIND_BEEHIVE:
            self._fill(len(self.movers) - 1)
            self.totals[seat] = self.totals[seat] + (event["value"] - self.beehives[seat])
            self.beehives[seat] = event["value"]

    def finish(
        self, beehives: Sequence[int], winners: Sequence[int], scores: Sequence[float]
    ) -> GameSummary:
        """The summary, once every event is in (``beehives``: each seat's beehive points;
        ``winners`` and final ``scores`` of a finished game, empty otherwise)."""
        movers = self.movers
        self._fill(len(movers))
        self.drama.observe_turns(movers, self.turn_totals, self.first_final)
        seats: list[tuple[Any, ...]] = []
        counts = self.counts
        spaces, positions, cubes = self.spaces, self.positions, self.cube_count
        for seat in range(self.players):
            mine = seat * _COUNTERS
            values: list[Any] = [counts[mine + i] for i in range(_COUNTERS)]
            for color in range(len(_CUBE_COLORS)):
                track = self.blue_from if color else 0
                first = (seat * 2 + color) * cubes
                for cube in range(cubes):
                    values.append(spaces[track + positions[first + cube]])
            values.append(beehives[seat])
            seats.append(tuple(values))
        game: Row = _GAME_COLUMNS.copy()
        game["final_round_turns"] = self.final_round_turns
        game["refills"] = self.refills
        game["beds_scored"] = len(self.beds)
        game["solo"] = self.solo
        self.drama.fill(game, winners, scores)
        tables = {
            "beds": TableRows(_BED_COLUMNS, self.beds),
            "tiles": TableRows(_TILE_COLUMNS, self.taken),
        }
        # Built as the engine builds its tuples (not through the named tuple's constructor,
        # a Python call).
        return _new(GameSummary, (game, TableRows(self.seat_names, seats), tables))


def summarize(record: Mapping[str, Any]) -> GameSummary:
    """Per-game and per-seat statistics, one row per scored bed and one per tile taken."""
    players = int(record["players"])
    rules = record["rules"]
    start = SummaryStart(
        players,
        rules["orange_track"],
        rules["blue_track"],
        int(rules["cubes"]),
        bool(rules["solo"]),
    )
    printed = printed_cells(record["components"]["boards"])
    boards: list[list[tuple[str, str] | None]] = [
        [(str(b["board"]), b["side"]) for b in seat_beds] for seat_beds in record["setup"]["beds"]
    ]
    summary = Summary(start, printed, _masks(players, printed, boards))
    for turn in record["turns"]:
        summary.turn(turn["n"], turn["seat"], turn["final_round"])
        for event in turn["events"]:
            summary.event(event)
    result = record.get("result", {})
    return summary.finish(
        result.get("beehives", [0] * players), result.get("winners", []), result.get("scores", [])
    )


class CottageTally(Fold):
    """The summary of a game as it is played, from its states' events (no record)."""

    def __init__(self, rules: Rules, state: State) -> None:
        # A side's printed cells are its pots and cloches (the board's features, bound on
        # the rules), so no board is looked up by its id and side.
        masks = [0] * (rules.players * _BEDS)
        for seat, player in enumerate(state.players):
            bed: i64 = 0
            for b in player.beds:
                if b is not None:
                    pots_light, cloches_light, pots_dark, cloches_dark = rules.board_features[
                        b.board
                    ]
                    masks[_bed(seat, bed)] = (
                        pots_dark | cloches_dark if b.dark else pots_light | cloches_light
                    )
                    bed += 1
        self.summary = Summary(_tally_start(rules), rules.catalogue.printed, masks)
        self.step(state, 0, state)  # the setup's events

    def step(self, before: Any, action: int, after: Any) -> None:
        """The events of ``after``, by their kinds: a turn marker's kind says whose turn it
        is and whether it is of the final round, and turns are numbered from 1, so only
        the events the fold counts are read."""
        state: State = after
        kinds = state.kinds
        if not kinds:
            return
        summary = self.summary
        events = state.events
        for index in range(len(kinds)):
            code: i64 = kinds[index]
            kind = code & KIND_MASK
            if kind >= KIND_TURN:
                summary.turn(summary.n + 1, turn_seat(kind), turn_final(kind))
            elif kind != KIND_OTHER:
                summary.count(code, events[index])

    def finish(self, final: Any, result: GameResult) -> GameSummary:
        state: State = final
        over = state.phase == PHASE_OVER
        return self.summary.finish(
            [p.beehive if over else 0 for p in state.players],
            result.winners if over else (),
            result.scores if over else (),
        )
