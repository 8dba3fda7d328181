"""A lean model of whole Cottage Garden turns, for bots that plan many turns ahead.

A search over whole turns needs thousands of turns a decision. The engine plays one
through several ``apply`` calls that copy the state, build the events of a game record
and list legal actions at each stop. This model keeps only what planting needs, as plain
ints and tuples (beds as bitmasks), and plays one seat's whole turn in a single call: the
main action is given, and every other choice of the turn is made by the rules below,
which are also the choices the planning bots make in the real game (``TurnRules``):

- cats complete a bed whenever the reserve covers its last cells, before and after the
  main action; complete beds are scored lowest index first;
- a cube choice takes the cube whose move is worth most (points now, a share of the
  target bonus, a red-line cat, the start-space pot);
- the start-space pot and cats over the limit go where they cost the bed least;
- the final-round penalty moves the cube that loses least;
- ramble when the refilled row's best move beats the current one by more than a cat.

With these rules the model follows the engine's rules exactly (for every seat playing
by them), so a solo plan can be followed as long as the game matches it. The ramble
rule is the dearest to play, since it scores tiles that are mostly not taken: a model
made with ``rambles=False`` never rambles, and is exact up to the real rambles. What it
leaves out: the cats in the supply (it never runs out) and the turn cap. Other seats'
moves are the best ones by the shared evaluation.

In the children's variant a child gains a cat whenever the gardener passes one of its
nursery corners, on any seat's turn, and keeps any number of them; so a seat may start
its turn holding cats that complete a bed. The completing cats are therefore placed at
the start of the turn, before its main action is chosen (a position at a main action,
``MState``, never holds a completing cat; ``settle`` brings an engine position there).
"""

from __future__ import annotations

from typing import NamedTuple

from bots.evaluation import Evaluator, Move, Weights
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import FULL
from cgsim.games.cottage.state import Bed, Phase, Player, Rules, State

TILE_HEAD = act.TILE << 16
POT_HEAD = act.POT << 16
PASS = act.encode(act.PASS)
NO_MOVE = -1


class MBed(NamedTuple):
    """A bed as the model keeps it."""

    empty: int
    """Bare-soil cells."""
    blocked: int
    """Cells holding a tile or a token (no tile may cover them)."""
    pp: int
    """Printed pots still visible."""
    pc: int
    """Printed cloches still visible."""
    tokens: int
    """Pot tokens on the bed."""
    pots: int
    """Pots the bed scores besides its visible printed ones (tokens and tile pots)."""
    cloches: int
    """Cloches printed on its tiles."""
    placed: tuple[int, ...]
    """Tile ids in placement order (they go back to the path in this order)."""
    board: int
    dark: bool


class MPlayer(NamedTuple):
    beds: tuple[MBed | None, MBed | None]
    orange: tuple[int, ...]
    blue: tuple[int, ...]
    cats: int
    beehive: int
    has_beehive: bool


class MState(NamedTuple):
    """A position at a seat's main action (its refill and completing cats done), or the
    end of the game."""

    nursery: tuple[int, ...]
    path: tuple[int, ...]
    players: tuple[MPlayer, ...]
    space: int
    value: int
    final_round: bool
    supply_board: tuple[int, bool] | None
    supply_pots: int
    beehives_taken: int
    seat: int
    stall: int
    """Consecutive final-round turns without any placement (the stall rule)."""
    over: bool
    corners: tuple[tuple[int, ...], ...]
    """Per seat, the nursery corners holding its child's cats (empty for adults)."""


def model_bed(bed: Bed) -> MBed:
    """The model's view of an engine bed."""
    tiles = bed.tiles
    return MBed(
        bed.empty,
        tiles | bed.pots | bed.cats,
        bed.printed_pots & ~tiles,
        bed.printed_cloches & ~tiles,
        bed.pots.bit_count(),
        bed.pots.bit_count() + bed.tile_pots.bit_count(),
        bed.tile_cloches.bit_count(),
        bed.placed,
        bed.board,
        bed.dark,
    )


def model_player(player: Player) -> MPlayer:
    b0, b1 = player.beds
    return MPlayer(
        (None if b0 is None else model_bed(b0), None if b1 is None else model_bed(b1)),
        player.orange,
        player.blue,
        player.cats,
        player.beehive,
        player.has_beehive,
    )


def model_state(state: State) -> MState:
    """The model's view of an engine state at a main-action decision (``Phase.PLANT``);
    ``TurnModel.settle`` places its completing cats, if any are still to place."""
    return MState(
        state.nursery,
        state.path,
        tuple(model_player(p) for p in state.players),
        state.space,
        state.value,
        state.final_round,
        state.supply_board,
        state.supply_pots,
        state.beehives_taken,
        state.seat,
        state.stall,
        state.phase == Phase.OVER,
        tuple(p.corners for p in state.players),
    )


class Work:
    """A mutable copy of a model state while turns are played."""

    __slots__ = (
        "avail",
        "beehives_taken",
        "corners",
        "final_round",
        "had_bed",
        "nursery",
        "over",
        "path",
        "placed",
        "players",
        "seat",
        "space",
        "stall",
        "supply_board",
        "supply_pots",
        "value",
    )

    def __init__(self, ms: MState) -> None:
        self.nursery = list(ms.nursery)
        self.path = list(ms.path)
        self.players = list(ms.players)
        self.space = ms.space
        self.value = ms.value
        self.final_round = ms.final_round
        self.supply_board = ms.supply_board
        self.supply_pots = ms.supply_pots
        self.beehives_taken = ms.beehives_taken
        self.seat = ms.seat
        self.stall = ms.stall
        self.over = ms.over
        self.corners = ms.corners
        self.placed = False
        beds = ms.players[ms.seat].beds
        self.had_bed = beds[0] is not None or beds[1] is not None
        self.avail = -1

    def freeze(self) -> MState:
        return MState(
            tuple(self.nursery),
            tuple(self.path),
            tuple(self.players),
            self.space,
            self.value,
            self.final_round,
            self.supply_board,
            self.supply_pots,
            self.beehives_taken,
            self.seat,
            self.stall,
            self.over,
            self.corners,
        )

    def set_bed(self, seat: int, b: int, bed: MBed | None) -> None:
        p = self.players[seat]
        beds = (bed, p.beds[1]) if b == 0 else (p.beds[0], bed)
        self.players[seat] = MPlayer(beds, p.orange, p.blue, p.cats, p.beehive, p.has_beehive)

    def set_cats(self, seat: int, cats: int) -> None:
        p = self.players[seat]
        self.players[seat] = MPlayer(p.beds, p.orange, p.blue, cats, p.beehive, p.has_beehive)


def _with_cell(bed: MBed, cell: int, pot: bool) -> MBed:
    """The bed with a token (a pot, or a cat) on a bare-soil cell."""
    bit = 1 << cell
    return MBed(
        bed.empty & ~bit,
        bed.blocked | bit,
        bed.pp,
        bed.pc,
        bed.tokens + pot,
        bed.pots + pot,
        bed.cloches,
        bed.placed,
        bed.board,
        bed.dark,
    )


class TurnModel:
    """Whole turns under one rule set, choices by one evaluation (see the module docstring)."""

    def __init__(self, rules: Rules, ev: Evaluator, rambles: bool = True) -> None:
        s = rules.settings
        catalogue = rules.catalogue
        self.rules = rules
        self.ev = ev
        self.weights: Weights = ev.weights
        self.players = rules.players
        self.rows = rules.rows
        self.tile_kind = catalogue.tile_kind
        self.masks = ev.tables.masks
        self.pot_counts = ev.tables.pot_counts
        self.cloche_counts = ev.tables.cloche_counts
        self.sides = tuple((board.light, board.dark) for board in catalogue.boards)
        self.tracks = (s.orange_track, s.blue_track)
        self.targets = (len(s.orange_track) - 1, len(s.blue_track) - 1)
        self.red_line = s.red_line if s.bonus_red_line_cat else None
        self.start_pot = s.bonus_start_pot
        self.beehives = s.beehives
        self.cat_limit = s.cat_limit
        self.limit_seats = tuple(
            s.bonus_cat_limit and s.children[seat] is None for seat in range(rules.players)
        )
        self.corner_at = rules.corner_at
        self.children = any(age is not None for age in s.children)
        """Whether any seat is a child (whose corners give it cats)."""
        self.refill_mandatory = s.refill_mandatory
        self.ramble = s.ramble and rambles
        """Whether seats may ramble in the model (by the ramble rule)."""
        self.ramble_cost = s.ramble_cost
        self.step = s.gardener_step
        self.spaces = s.track_spaces
        self.turning = s.turning_space
        self.final_value = s.final_value
        self.discard_below = s.discard_below
        self.penalty = s.penalty_points
        self.penalty_spaces = (s.penalty_orange_spaces, s.penalty_blue_spaces)
        self.path_kinds: dict[tuple[int, ...], int] = {}

    # ------------------------------------------------------------- values

    def avail(self, nursery: tuple[int, ...] | list[int], path: tuple[int, ...] | list[int]) -> int:
        """Bitmask of the tile kinds in the nursery or on the path."""
        kinds = self.tile_kind
        bits = 0
        for tile in nursery:
            if tile >= 0:
                bits |= 1 << kinds[tile]
        for tile in path:
            bits |= 1 << kinds[tile]
        return bits

    def turn_value(self, final_round: bool) -> float:
        return float(self.penalty) if final_round else self.weights.turn_value

    def points(self, player: MPlayer) -> int:
        orange, blue = self.tracks
        return (
            sum(orange[i] for i in player.orange)
            + sum(blue[i] for i in player.blue)
            + player.beehive
        )

    def cube_potential(self, positions: tuple[int, ...], color: int) -> float:
        """A share of the target bonus for each cube of a colour, growing with progress."""
        share = self.weights.target_share
        target = self.targets[color]
        track = self.tracks[color]
        jump = track[target] - track[target - 1]
        total = 0.0
        for index in positions:
            if index != target:
                progress = index / target
                total += share * jump * progress * progress
        return total

    def player_value(self, ms: MState, seat: int, avail: int) -> float:
        """Points held plus the worth of the beds, cats and cube positions (as
        ``Evaluator.player_value``); exact points once the game is over."""
        player = ms.players[seat]
        value = float(self.points(player))
        if ms.over:
            return value
        w = self.weights
        has_cat = player.cats > 0
        tv = self.turn_value(ms.final_round)
        turns_to_fill = self.ev.turns_to_fill
        for bed in player.beds:
            if bed is not None:
                value += (
                    w.pot_value * (bed.pp.bit_count() + bed.pots)
                    + w.cloche_value * (bed.pc.bit_count() + bed.cloches)
                    - tv * turns_to_fill(bed.empty, avail, has_cat)
                )
        value += w.cat_value * min(player.cats, self.cat_limit + 1)
        if w.target_share:
            value += self.cube_potential(player.orange, 0) + self.cube_potential(player.blue, 1)
        return value

    def relative_value(self, ms: MState, seat: int, opponents: float) -> float:
        """A seat's value minus ``opponents`` times the best other seat's value."""
        avail = self.avail(ms.nursery, ms.path)
        mine = self.player_value(ms, seat, avail)
        if self.players == 1 or opponents == 0.0:
            return mine
        others = max(
            self.player_value(ms, other, avail) for other in range(self.players) if other != seat
        )
        return mine - opponents * others

    # ------------------------------------------------------------- main moves

    def moves(
        self,
        nursery: tuple[int, ...] | list[int],
        space: int,
        player: MPlayer,
        supply_pots: int,
        avail: int,
        final_round: bool,
        count: int,
    ) -> list[Move]:
        """The best ``count`` main actions ``(score, action)`` of a player, best first
        (ties in the engine's order of legal actions); empty when it must pass."""
        ev = self.ev
        rules = self.rules
        has_cat = player.cats > 0
        tv = self.turn_value(final_round)
        tile_kind = self.tile_kind
        beds = player.beds
        merged: list[Move] = []
        best_score, best_action = -1e18, NO_MOVE
        seen = 0
        for cell in self.rows[space]:
            tile = nursery[cell]
            if tile < 0:
                continue
            kind = tile_kind[tile]
            if seen >> kind & 1:
                continue
            seen |= 1 << kind
            for b in (0, 1):
                bed = beds[b]
                if bed is None:
                    continue
                top = ev.tile_group(rules, kind, bed.blocked, bed.pp, bed.pc, avail, has_cat, tv)
                if not top:
                    continue
                head = TILE_HEAD | cell << 12 | b << 11
                if count == 1:
                    if top[0][0] > best_score:
                        best_score, best_action = top[0][0], head | top[0][1]
                else:
                    merged.extend((score, head | index) for score, index in top[:count])
        if supply_pots > 0:
            for b in (0, 1):
                bed = beds[b]
                if bed is None or not bed.empty:
                    continue
                top = ev.pot_group(bed.empty, avail, has_cat, tv)
                head = POT_HEAD | b << 11
                if count == 1:
                    if top[0][0] > best_score:
                        best_score, best_action = top[0][0], head | top[0][1]
                else:
                    merged.extend((score, head | index) for score, index in top[:count])
        if count == 1:
            return [] if best_action == NO_MOVE else [(best_score, best_action)]
        merged.sort(key=_minus_score)
        return merged[:count]

    def node_moves(self, ms: MState, count: int) -> list[Move]:
        """The best ``count`` main actions of the seat to move in ``ms``."""
        player = ms.players[ms.seat]
        avail = self.avail(ms.nursery, ms.path)
        return self.moves(
            ms.nursery, ms.space, player, ms.supply_pots, avail, ms.final_round, count
        )

    # ------------------------------------------------------------- playing turns

    def play(self, ms: MState, action: int, until: int) -> MState:
        """Play ``action`` as the main action of the seat to move, finish its turn, then
        every other seat's turn with its best move until ``until`` is to move (or the end)."""
        w = Work(ms)
        w.avail = self.avail(w.nursery, w.path)
        self._main(w, action)
        self._end_turn(w)
        while not w.over and w.seat != until:
            w.avail = self.avail(w.nursery, w.path)
            self._main(w, self._best(w))
            self._end_turn(w)
        return w.freeze()

    def _best(self, w: Work) -> int:
        found = self.moves(
            w.nursery,
            w.space,
            w.players[w.seat],
            w.supply_pots,
            w.avail,
            w.final_round,
            1,
        )
        return found[0][1] if found else PASS

    def _main(self, w: Work, action: int) -> None:
        """The main action of the seat to move (its completing cats already placed)."""
        kind = action >> 16
        seat = w.seat
        if kind == act.TILE:
            index = action & act.INDEX_MASK
            b = action >> 11 & 1
            cell = action >> 12 & 15
            tile = w.nursery[cell]
            k = self.tile_kind[tile]
            m = self.masks[k][index]
            bed = w.players[seat].beds[b]
            assert bed is not None and tile >= 0 and not m & bed.blocked
            w.nursery[cell] = -1
            w.placed = True
            w.set_bed(
                seat,
                b,
                MBed(
                    bed.empty & ~m,
                    bed.blocked | m,
                    bed.pp & ~m,
                    bed.pc & ~m,
                    bed.tokens,
                    bed.pots + self.pot_counts[k][index],
                    bed.cloches + self.cloche_counts[k][index],
                    (*bed.placed, tile),
                    bed.board,
                    bed.dark,
                ),
            )
        elif kind == act.POT:
            b = action >> 11 & 1
            bed = w.players[seat].beds[b]
            assert bed is not None and w.supply_pots > 0
            w.supply_pots -= 1
            w.placed = True
            w.set_bed(seat, b, _with_cell(bed, action & act.INDEX_MASK, True))

    def settle(self, ms: MState) -> MState:
        """``ms`` with the completing cats of the seat to move placed (``ms`` itself when
        it has none): the position at which the model chooses that seat's main action."""
        if ms.over:
            return ms
        w = Work(ms)
        self._completing_cats(w)
        return w.freeze()

    def _completing_cats(self, w: Work) -> None:
        """Cats on the bed with the fewest bare cells while the reserve covers them all."""
        seat = w.seat
        while True:
            player = w.players[seat]
            cats = player.cats
            if cats <= 0:
                return
            best, best_left = -1, 99
            for b, bed in enumerate(player.beds):
                if bed is not None and bed.empty:
                    left = bed.empty.bit_count()
                    if left <= cats and left < best_left:
                        best, best_left = b, left
            if best < 0:
                return
            bed = player.beds[best]
            assert bed is not None
            filled = MBed(
                0,
                bed.blocked | bed.empty,
                bed.pp,
                bed.pc,
                bed.tokens,
                bed.pots,
                bed.cloches,
                bed.placed,
                bed.board,
                bed.dark,
            )
            w.set_bed(seat, best, filled)
            w.placed = True
            w.set_cats(seat, cats - best_left)

    def _score_complete(self, w: Work) -> None:
        """Score every complete bed of the seat to move (cats completing beds first)."""
        seat = w.seat
        while True:
            self._completing_cats(w)
            beds = w.players[seat].beds
            for b, bed in enumerate(beds):
                if bed is not None and not bed.empty:
                    self._score(w, b)
                    break
            else:
                return

    def _end_turn(self, w: Work) -> None:
        """Finish the turn, then start the next seats' turns until one has a main action
        to choose (a seat that can place nothing passes, as in the engine)."""
        self._finish(w)
        while not w.over and not self._start(w):
            self._finish(w)

    def _finish(self, w: Work) -> None:
        """Scoring, the cat limit and the gardener."""
        self._score_complete(w)
        seat = w.seat
        limited = self.limit_seats[seat] and w.had_bed
        while True:
            beds = w.players[seat].beds
            complete = [b for b, bed in enumerate(beds) if bed is not None and not bed.empty]
            if complete:
                self._score(w, complete[0])
                continue
            player = w.players[seat]
            if not limited or player.cats <= self.cat_limit:
                break
            w.avail = self.avail(w.nursery, w.path)
            found = self.limit_cat(player, w.avail)
            if found is None:
                w.set_cats(seat, self.cat_limit)
                break
            b, cell = found
            bed = player.beds[b]
            assert bed is not None
            w.set_bed(seat, b, _with_cell(bed, cell, False))
            w.placed = True
            w.set_cats(seat, player.cats - 1)
        self._gardener(w)

    # ------------------------------------------------------------- scoring

    def _score(self, w: Work, b: int) -> None:
        seat = w.seat
        bed = w.players[seat].beds[b]
        assert bed is not None and not bed.empty
        amounts = (bed.pp.bit_count() + bed.pots, bed.pc.bit_count() + bed.cloches)
        w.avail = self.avail(w.nursery, w.path)
        for color in (0, 1):
            amount = amounts[color]
            if not amount:
                continue
            player = w.players[seat]
            positions = player.orange if color == 0 else player.blue
            cube = self.pick_cube(
                positions,
                color,
                amount,
                self._pot_possible(w, b),
                player.has_beehive,
                len(self.beehives) - w.beehives_taken,
            )
            if cube >= 0:
                self._move_cube(w, b, color, cube, amount)
        bed = w.players[seat].beds[b]
        assert bed is not None
        w.path.extend(bed.placed)
        w.supply_pots += bed.tokens
        if w.final_round or w.supply_board is None:
            w.set_bed(seat, b, None)
        else:
            board, dark = w.supply_board
            w.set_bed(seat, b, self.new_bed(board, dark))
            w.supply_board = (bed.board, not bed.dark)

    def new_bed(self, board: int, dark: bool) -> MBed:
        side = self.sides[board][dark]
        return MBed(
            FULL & ~(side.pots | side.cloches), 0, side.pots, side.cloches, 0, 0, 0, (), board, dark
        )

    def _pot_possible(self, w: Work, b: int) -> bool:
        """Whether a start-space pot would find a cell on the other bed."""
        other = w.players[w.seat].beds[1 - b]
        return w.supply_pots > 0 and other is not None and other.empty != 0

    def _move_cube(self, w: Work, b: int, color: int, cube: int, amount: int) -> None:
        seat = w.seat
        p = w.players[seat]
        positions = list(p.orange if color == 0 else p.blue)
        track, target = self.tracks[color], self.targets[color]
        start = positions[cube]
        end = positions[cube] = min(start + amount, target)
        cats = p.cats
        if self.red_line is not None and track[start] <= self.red_line < track[end]:
            cats += 1
        beehive, has_beehive = p.beehive, p.has_beehive
        if end == target and not has_beehive and w.beehives_taken < len(self.beehives):
            beehive, has_beehive = self.beehives[w.beehives_taken], True
            w.beehives_taken += 1
        moved = tuple(positions)
        w.players[seat] = MPlayer(
            p.beds,
            moved if color == 0 else p.orange,
            moved if color == 1 else p.blue,
            cats,
            beehive,
            has_beehive,
        )
        if self.start_pot and start == 0 and 0 not in moved and self._pot_possible(w, b):
            other = w.players[seat].beds[1 - b]
            assert other is not None
            cell = self.token_cell(other, w.avail, w.players[seat].cats > 1)
            w.supply_pots -= 1
            w.placed = True
            w.set_bed(seat, 1 - b, _with_cell(other, cell, True))

    def pick_cube(
        self,
        positions: tuple[int, ...],
        color: int,
        amount: int,
        pot_possible: bool,
        has_beehive: bool,
        beehives_left: int,
    ) -> int:
        """The cube to move ``amount`` spaces: one per distinct position off the target,
        the one whose move is worth most (points, a share of the target bonus, a
        red-line cat, the start-space pot, a beehive); -1 when every cube is on target."""
        track, target = self.tracks[color], self.targets[color]
        w = self.weights
        share = w.target_share
        jump = track[target] - track[target - 1]
        best, best_gain = -1, -1e18
        seen = 0
        for cube, start in enumerate(positions):
            if start == target or seen >> start & 1:
                continue
            seen |= 1 << start
            end = min(start + amount, target)
            gain = float(track[end] - track[start])
            if share:
                if end != target:
                    gain += share * jump * (end / target) ** 2
                gain -= share * jump * (start / target) ** 2
            if self.red_line is not None and track[start] <= self.red_line < track[end]:
                gain += w.cat_value
            if (
                pot_possible
                and self.start_pot
                and start == 0
                and sum(1 for i in positions if i == 0) == 1
            ):
                gain += w.start_pot_value
            if end == target and not has_beehive and beehives_left:
                gain += self.beehives[len(self.beehives) - beehives_left]
            if gain > best_gain:
                best, best_gain = cube, gain
        return best

    # ------------------------------------------------------------- token cells

    def token_cell(self, bed: MBed, avail: int, has_cat: bool) -> int:
        """The bare-soil cell where a token costs the bed least (lowest cell on ties)."""
        turns_to_fill = self.ev.turns_to_fill
        empty = bed.empty
        best_score, best_cell = -1e18, -1
        rest = empty
        while rest:
            low = rest & -rest
            rest ^= low
            score = -turns_to_fill(empty ^ low, avail, has_cat)
            if score > best_score:
                best_score, best_cell = score, low.bit_length() - 1
        return best_cell

    def limit_cat(self, player: MPlayer, avail: int) -> tuple[int, int] | None:
        """Bed and cell of a cat over the limit: where it saves the most turns (a cat
        that completes a bed counts two more); None when no bare soil is left."""
        turns_to_fill = self.ev.turns_to_fill
        has_cat = player.cats > 1
        best: tuple[int, int] | None = None
        best_score = -1e18
        for b, bed in enumerate(player.beds):
            if bed is None or not bed.empty:
                continue
            empty = bed.empty
            before = turns_to_fill(empty, avail, has_cat)
            rest = empty
            while rest:
                low = rest & -rest
                rest ^= low
                left = empty ^ low
                score = before - turns_to_fill(left, avail, has_cat)
                if not left:
                    score += 2.0
                if score > best_score:
                    best_score, best = score, (b, low.bit_length() - 1)
        return best

    # ------------------------------------------------------------- gardener and turn start

    def _gardener(self, w: Work) -> None:
        was_final = w.final_round
        starts_final = False
        gains: list[int] = []
        for step in range(1, self.step + 1):
            space = (w.space + step) % self.spaces
            if not w.final_round and not starts_final and space == self.turning:
                w.value += 1
                starts_final = w.value >= self.final_value
            corner = self.corner_at[space]
            if self.children and corner >= 0:
                gains.extend(seat for seat, mine in enumerate(w.corners) if corner in mine)
        w.space = (w.space + self.step) % self.spaces
        for seat in gains:
            w.set_cats(seat, w.players[seat].cats + 1)
        if starts_final:
            w.final_round = True
            for seat, player in enumerate(w.players):
                for b, bed in enumerate(player.beds):
                    if bed is not None and len(bed.placed) < self.discard_below:
                        w.path.extend(bed.placed)
                        w.supply_pots += bed.tokens
                        w.set_bed(seat, b, None)
        if starts_final and self._nobody_has_beds(w):
            w.over = True
            return
        if was_final:
            w.stall = 0 if w.placed else w.stall + 1
            if self._nobody_has_beds(w):
                w.over = True
                return
            if w.stall >= self.players:
                for seat, player in enumerate(w.players):
                    for b, bed in enumerate(player.beds):
                        if bed is not None:
                            w.path.extend(bed.placed)
                            w.supply_pots += bed.tokens
                            w.set_bed(seat, b, None)
                w.over = True
                return
        w.seat = (w.seat + 1) % self.players

    @staticmethod
    def _nobody_has_beds(w: Work) -> bool:
        return all(bed is None for player in w.players for bed in player.beds)

    def _start(self, w: Work) -> bool:
        """Start the seat's turn: the final-round penalty, the refill (or a ramble), the
        cats that complete a bed.

        True when the seat then has a main action to choose; False when it has no bed in
        the final round or can place nothing: the caller finishes the turn (a pass).
        """
        seat = w.seat
        player = w.players[seat]
        w.placed = False
        w.had_bed = player.beds[0] is not None or player.beds[1] is not None
        if w.final_round and not w.had_bed:
            return False
        if w.final_round:
            move = self.penalty_move(player)
            if move is not None:
                self._penalise(w, *move)
        row = self.rows[w.space]
        empty = sum(1 for cell in row if w.nursery[cell] < 0)
        if empty >= self.refill_mandatory:
            self._refill(w)
        elif empty and self.ramble and w.path and w.players[seat].cats >= self.ramble_cost:
            w.avail = self.avail(w.nursery, w.path)
            if self.wants_ramble(w):
                w.set_cats(seat, w.players[seat].cats - self.ramble_cost)
                self._refill(w)
        self._completing_cats(w)
        return self._can_plant(w)

    def _can_plant(self, w: Work) -> bool:
        """Whether the seat to move may place a cat, a Gardener Row tile or a pot."""
        player = w.players[w.seat]
        bare = any(bed is not None and bed.empty for bed in player.beds)
        if bare and (player.cats > 0 or w.supply_pots > 0):
            return True
        fits = self.rules.fits
        tile_kind = self.tile_kind
        for cell in self.rows[w.space]:
            tile = w.nursery[cell]
            if tile >= 0:
                for bed in player.beds:
                    if bed is not None and fits(tile_kind[tile], bed.blocked):
                        return True
        return False

    def _refill(self, w: Work) -> None:
        for cell in self.rows[w.space]:
            if not w.path:
                return
            if w.nursery[cell] < 0:
                w.nursery[cell] = w.path.pop(0)

    def wants_ramble(self, w: Work) -> bool:
        """Ramble when the refilled row's best move beats the current row's by more than
        the cat it costs (``GreedyPolicy.ramble``'s rule)."""
        player = w.players[w.seat]
        stay = self.moves(w.nursery, w.space, player, w.supply_pots, w.avail, w.final_round, 1)
        nursery, path = list(w.nursery), list(w.path)
        for cell in self.rows[w.space]:
            if not path:
                break
            if nursery[cell] < 0:
                nursery[cell] = path.pop(0)
        cats = player.cats - self.ramble_cost
        after = MPlayer(
            player.beds, player.orange, player.blue, cats, player.beehive, player.has_beehive
        )
        go = self.moves(nursery, w.space, after, w.supply_pots, w.avail, w.final_round, 1)
        stay_score = stay[0][0] if stay else _pass_score(player)
        go_score = go[0][0] if go else _pass_score(after)
        return go_score - stay_score > self.weights.cat_value

    def penalty_move(self, player: MPlayer) -> tuple[int, int] | None:
        """The final-round penalty's (colour, cube): among the moves the rules allow (see
        ``cgsim.games.cottage.gardener.penalty_options``), the one losing least value."""
        if self.penalty <= 0:
            return None
        moves: list[tuple[int, int, int, bool, float]] = []
        for color in (0, 1):
            spaces = self.penalty_spaces[color]
            if spaces <= 0:
                continue
            track, target = self.tracks[color], self.targets[color]
            positions = player.orange if color == 0 else player.blue
            seen = 0
            for cube, index in enumerate(positions):
                if index == 0 or seen >> index & 1:
                    continue
                seen |= 1 << index
                back = max(0, index - spaces)
                loss = track[index] - track[back]
                moved = tuple(back if i == cube else p for i, p in enumerate(positions))
                cost = (
                    loss + self.cube_potential(positions, color) - self.cube_potential(moved, color)
                )
                moves.append((color, cube, loss, index == target, cost))
        tier = [m for m in moves if m[2] == self.penalty]
        if not tier:
            tier = [m for m in moves if m[3]] or moves
        if not tier:
            return None
        best = min(tier, key=lambda m: m[4])
        return best[0], best[1]

    def _penalise(self, w: Work, color: int, cube: int) -> None:
        p = w.players[w.seat]
        positions = list(p.orange if color == 0 else p.blue)
        positions[cube] = max(0, positions[cube] - self.penalty_spaces[color])
        moved = tuple(positions)
        w.players[w.seat] = MPlayer(
            p.beds,
            moved if color == 0 else p.orange,
            moved if color == 1 else p.blue,
            p.cats,
            p.beehive,
            p.has_beehive,
        )


def _pass_score(player: MPlayer) -> float:
    """The ramble rule's score of a row with no tile or pot to place: the engine then
    skips planting (-10), unless a cat may still be placed (nothing better than -1e18)."""
    can_cat = player.cats > 0 and any(bed is not None and bed.empty for bed in player.beds)
    return -1e18 if can_cat else -10.0


def _minus_score(move: Move) -> float:
    return -move[0]
