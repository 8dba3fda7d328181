"""Shared evaluation of Cottage Garden positions for the built-in bots.

One model, used by every bot of the ladder so that each idea has one implementation:

- A bed is worth the points its visible features will bring when it is scored
  (``pot_value`` per pot, ``cloche_value`` per cloche) minus the turns still needed to
  complete it, each turn costing ``turn_value`` points (the final-round penalty once the
  final round has begun).
- The turns a bed still needs come from its regions of bare soil (4-connected). A large
  region costs ``size / fill_rate`` turns; a small one (up to ``SMALL_REGION`` cells) is
  tiled exactly, by a memoised search, with the tile kinds still in the nursery or on the
  path: a region no remaining tile fits (a *hole*) needs tokens, each costing
  ``token_cost`` turns (``cat_token_cost`` while the player holds a cat).
- Cubes are worth their points plus a share of the target bonus they are close to.

Everything works on the engine's bitmasks; per-catalogue tables are built once, and
region costs are memoised, so one evaluation is a few dictionary lookups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cgsim.games.compiled import dataclass_reduce
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import FULL, Catalogue
from cgsim.games.cottage.scoring import player_score
from cgsim.games.cottage.state import Bed, Phase, Player, Rules, State

SMALL_REGION = 6
"""Regions up to this many cells are tiled exactly; larger ones are costed by area."""
CACHE_LIMIT = 200_000
"""Memo tables are cleared when they grow past this many entries."""
TOP_MOVES = 8
"""Best moves kept per group (a tile kind on a bed, or pots on a bed) in the move memo."""
MOVES_LIMIT = 50_000
"""The move memo is cleared when it grows past this many groups."""

Move = tuple[float, int]
"""A scored main action or part of one: ``(score, action or index)``."""
MovesKey = tuple[int, int, int, int, int, bool, float]
"""What a group's scores depend on: tile kind (-1 for pots), blocked cells (the bare soil
for pots), visible printed pots and cloches, tile kinds to come, cat held, turn value."""


def _minus_score(move: Move) -> float:
    return -move[0]


_COLUMNS = tuple(sum(1 << (r * 5 + c) for r in range(5)) for c in range(5))
_NOT_COL0 = sum(1 << (r * 5) for r in range(5)) ^ FULL
_NOT_COL4 = sum(1 << (r * 5 + 4) for r in range(5)) ^ FULL


@dataclass(frozen=True, slots=True)
class Weights:
    """The numbers of the evaluation (bots expose them as parameters)."""

    turn_value: float = 1.8
    """Points one turn is worth before the final round."""
    pot_value: float = 1.0
    """Points a visible pot brings when its bed is scored."""
    cloche_value: float = 2.0
    """Points a visible cloche brings when its bed is scored."""
    fill_rate: float = 4.0
    """Cells a turn fills, on average, in a large region."""
    token_cost: float = 0.9
    """Turns a cell no tile can fill costs (a pot token takes a turn)."""
    cat_token_cost: float = 0.35
    """Turns such a cell costs while the player holds a cat."""
    cat_value: float = 0.7
    """Points a cat in reserve is worth."""
    complete_bonus: float = 1.0
    """Extra points for completing a bed now rather than later."""
    target_share: float = 0.5
    """Share of a colour's target bonus credited to a cube in proportion to its progress."""
    start_pot_value: float = 1.5
    """Points of the start-space pot bonus (a pot that also fills a cell)."""

    def __reduce__(self) -> tuple[type[Weights], tuple[Any, ...]]:
        return dataclass_reduce(self)


class Tables:
    """Per-catalogue lookup tables, built once per catalogue object."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.tile_kind = catalogue.tile_kind
        kinds = catalogue.kinds
        self.masks = tuple(tuple(p.mask for p in k.placements) for k in kinds)
        self.pot_counts = tuple(tuple(p.pots.bit_count() for p in k.placements) for k in kinds)
        self.cloche_counts = tuple(
            tuple(p.cloches.bit_count() for p in k.placements) for k in kinds
        )
        by_low: list[list[tuple[int, int, int]]] = [[] for _ in range(25)]
        for k, kind in enumerate(kinds):
            seen: set[int] = set()
            for p in kind.placements:
                if p.mask in seen:
                    continue
                seen.add(p.mask)
                low = (p.mask & -p.mask).bit_length() - 1
                by_low[low].append((p.mask.bit_count(), k, p.mask))
        self.by_low = tuple(tuple(sorted(entries, reverse=True)) for entries in by_low)
        self.regions: dict[int, tuple[int, ...]] = {}
        self.shapes: dict[int, tuple[int, int]] = {}
        """Small region -> (its shape moved to the top-left corner, the kinds that fit in it)."""
        self.shape_kinds: dict[int, int] = {}
        self.fill_parts: dict[int, tuple[tuple[int, int, int], ...]] = {}
        self.tiling: dict[tuple[int, int, float], float] = {}
        self.turn_memos: dict[Weights, dict[tuple[int, int, bool], float]] = {}
        """Per weight set (the estimate depends on them): turns to fill, by bed mask."""
        self.move_memos: dict[tuple[str, Weights], dict[MovesKey, tuple[Move, ...]]] = {}
        """Per evaluator class and weight set: the best moves of each group, by what their
        scores depend on."""

    def parts_of(self, empty: int) -> tuple[tuple[int, int, int], ...]:
        """``(size, shape, kinds)`` of each region of ``empty`` in ``regions_of`` order:
        a small region's shape and kinds (see :meth:`shape_of`), -1 and 0 for a large
        one (memoised: what the turns to fill a bed depend on besides the kinds to come)."""
        found = self.fill_parts.get(empty)
        if found is not None:
            return found
        parts = []
        for region in regions_of(empty, self.regions):
            size = region.bit_count()
            if size > SMALL_REGION:
                parts.append((size, -1, 0))
            else:
                parts.append((size, *self.shape_of(region)))
        found = tuple(parts)
        if len(self.fill_parts) > CACHE_LIMIT:
            self.fill_parts.clear()
        self.fill_parts[empty] = found
        return found

    def shape_of(self, region: int) -> tuple[int, int]:
        """A small region's shape moved to the top-left corner, and the bitmask of the tile
        kinds with a placement inside it (memoised).

        Its exact tiling cost depends only on these: the same shape anywhere on the bed
        has the same tilings, and no other kind can take part in one.
        """
        found = self.shapes.get(region)
        if found is not None:
            return found
        low = (region & -region).bit_length() - 1
        col = next(c for c in range(5) if region & _COLUMNS[c])
        shape = region >> (low // 5 * 5 + col)
        kinds = self.shape_kinds.get(shape)
        if kinds is None:
            kinds = 0
            for entries in self.by_low:
                for _, kind, placed in entries:
                    if not placed & ~shape:
                        kinds |= 1 << kind
            self.shape_kinds[shape] = kinds
        found = (shape, kinds)
        self.shapes[region] = found
        return found


_TABLES: dict[int, Tables] = {}


def tables_for(catalogue: Catalogue) -> Tables:
    """The tables of a catalogue, built on first use and kept for the process."""
    found = _TABLES.get(id(catalogue))
    if found is None or found.catalogue is not catalogue:
        found = Tables(catalogue)
        _TABLES[id(catalogue)] = found
    return found


def regions_of(free: int, cache: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """The 4-connected regions of a cell mask (memoised in ``cache``)."""
    found = cache.get(free)
    if found is not None:
        return found
    regions = []
    rest = free
    while rest:
        region = rest & -rest
        while True:
            grown = (
                region
                | (region << 1 & _NOT_COL0)
                | (region >> 1 & _NOT_COL4)
                | region << 5
                | region >> 5
            ) & rest
            if grown == region:
                break
            region = grown
        regions.append(region)
        rest ^= region
    found = tuple(regions)
    if len(cache) > CACHE_LIMIT:
        cache.clear()
    cache[free] = found
    return found


def available_kinds(state: State) -> int:
    """Bitmask of the tile kinds in the nursery or on the path (tiles still to come)."""
    kinds = state.rules.catalogue.tile_kind
    bits = 0
    for tile in state.nursery:
        if tile >= 0:
            bits |= 1 << kinds[tile]
    for tile in state.path:
        bits |= 1 << kinds[tile]
    return bits


def _groups(state: State, player: Player) -> Iterator[tuple[int, int, Bed]]:
    """``(action head, tile kind, bed)`` of each group of main actions, in generation
    order: each Gardener Row cell whose tile kind is not offered yet on each bed, then pots
    (kind -1) on each bed with bare soil when the supply has any."""
    tile_kind = state.rules.catalogue.tile_kind
    beds = player.beds
    seen: set[int] = set()
    for cell in state.rules.rows[state.space]:
        tile = state.nursery[cell]
        if tile < 0:
            continue
        kind = tile_kind[tile]
        if kind in seen:
            continue
        seen.add(kind)
        for b, bed in enumerate(beds):
            if bed is not None:
                yield act.encode(act.TILE, 0, b, cell), kind, bed
    if state.supply_pots > 0:
        for b, bed in enumerate(beds):
            if bed is not None and bed.empty:
                yield act.encode(act.POT, 0, b), -1, bed


@dataclass(slots=True)
class Evaluator:
    """The evaluation model of the module docstring, for one catalogue and weight set."""

    weights: Weights
    tables: Tables
    turns_memo: dict[tuple[int, int, bool], float] = field(init=False, repr=False)
    moves_memo: dict[MovesKey, tuple[Move, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.turns_memo = self.tables.turn_memos.setdefault(self.weights, {})
        key = (type(self).__name__, self.weights)
        self.moves_memo = self.tables.move_memos.setdefault(key, {})

    @classmethod
    def for_rules(cls, rules: Rules, weights: Weights) -> Evaluator:
        return cls(weights, tables_for(rules.catalogue))

    # ----------------------------------------------------------------- beds

    def _tile_cost(self, mask: int, avail: int, token: float) -> float:
        """Fewest turns to fill ``mask`` exactly with available kinds and tokens."""
        if not mask:
            return 0.0
        key = (mask, avail, token)
        memo = self.tables.tiling
        found = memo.get(key)
        if found is not None:
            return found
        low = mask & -mask
        best = token + self._tile_cost(mask ^ low, avail, token)
        size = mask.bit_count()
        for cells, kind, placed in self.tables.by_low[low.bit_length() - 1]:
            if cells > size or placed & ~mask or not avail >> kind & 1:
                continue
            cost = 1.0 + self._tile_cost(mask ^ placed, avail, token)
            if cost < best:
                best = cost
        if len(memo) > CACHE_LIMIT:
            memo.clear()
        memo[key] = best
        return best

    def turns_to_fill(self, empty: int, avail: int, has_cat: bool) -> float:
        """Estimated turns to cover every bare-soil cell of ``empty``."""
        key = (empty, avail, has_cat)
        memo = self.turns_memo
        found = memo.get(key)
        if found is not None:
            return found
        w = self.weights
        token = w.cat_token_cost if has_cat else w.token_cost
        fill_rate = w.fill_rate
        tiling = self.tables.tiling
        parts = self.tables.fill_parts.get(empty)
        if parts is None:
            parts = self.tables.parts_of(empty)
        total = 0.0
        for size, shape, kinds in parts:
            if shape < 0:
                total += size / fill_rate
            else:
                usable = avail & kinds
                cost = tiling.get((shape, usable, token))
                if cost is None:
                    cost = self._tile_cost(shape, usable, token)
                total += cost
        if len(memo) > CACHE_LIMIT:
            memo.clear()
        memo[key] = total
        return total

    def bed_value(self, bed: Bed, avail: int, has_cat: bool, turn_value: float) -> float:
        """Feature points of a bed minus the cost of the turns it still needs."""
        w = self.weights
        features = w.pot_value * bed.count_pots() + w.cloche_value * bed.count_cloches()
        return features - turn_value * self.turns_to_fill(bed.empty, avail, has_cat)

    def turn_value(self, state: State) -> float:
        """Points a turn of the current player is worth: the penalty in the final round."""
        if state.final_round:
            return float(state.rules.settings.penalty_points)
        return self.weights.turn_value

    # ----------------------------------------------------------------- main action

    def main_moves(self, state: State) -> Iterator[tuple[float, int]]:
        """``(score, action)`` for the tile and pot actions of a planting decision.

        Two nursery cells holding the same tile kind give the same beds, so only the
        first is offered. The score is the change of the bed's value the action makes (plus
        ``complete_bonus`` when it completes the bed): comparable across beds and kinds.
        Generation order: row cells, beds, placements, then pots by bed and cell.
        """
        for head, scores in self._move_groups(state):
            for score, index in scores():
                yield score, head | index

    def best_main(self, state: State) -> tuple[float, int]:
        """The best tile or pot action by :meth:`main_moves`, ``(score, action)``; the first
        of equal scores in generation order.

        When no tile or pot can be placed the action is ``-1`` (a pass).
        """
        best_score, best_action = -1e18, -1
        for head, top in self._top_groups(state):
            if top and top[0][0] > best_score:
                best_score, best_action = top[0][0], head | top[0][1]
        return best_score, best_action

    def ranked_main(self, state: State) -> list[tuple[float, int]]:
        """:meth:`main_moves`, best first (ties in generation order, as :meth:`best_main`)."""
        return sorted(self.main_moves(state), key=_minus_score)

    def top_main(self, state: State, count: int) -> list[tuple[float, int]]:
        """The first ``count`` of :meth:`ranked_main`, from the memo of each group's best."""
        if count > TOP_MOVES:
            return self.ranked_main(state)[:count]
        merged = [
            (score, head | index)
            for head, top in self._top_groups(state)
            for score, index in top[:count]
        ]
        merged.sort(key=_minus_score)
        return merged[:count]

    def _move_groups(self, state: State) -> Iterator[tuple[int, Callable[[], Iterator[Move]]]]:
        """The main actions in groups sharing one action head: one tile kind on one bed,
        or pots on one bed; each with the generator of its ``(score, index)`` pairs."""
        rules = state.rules
        player = state.players[state.seat]
        avail = available_kinds(state)
        has_cat = player.cats > 0
        tv = self.turn_value(state)
        for head, kind, bed in _groups(state, player):
            if kind >= 0:
                tiles = bed.tiles
                yield (
                    head,
                    partial(
                        self._tile_scores,
                        rules,
                        kind,
                        tiles | bed.pots | bed.cats,
                        bed.printed_pots & ~tiles,
                        bed.printed_cloches & ~tiles,
                        avail,
                        has_cat,
                        tv,
                    ),
                )
            else:
                yield head, partial(self._pot_scores, bed.empty, avail, has_cat, tv)

    def _top_groups(self, state: State) -> list[tuple[int, tuple[Move, ...]]]:
        """Each group of :meth:`_move_groups` with its best ``TOP_MOVES`` pairs, best first
        (ties in generation order), memoised by what the scores depend on."""
        rules = state.rules
        player = state.players[state.seat]
        avail = available_kinds(state)
        has_cat = player.cats > 0
        tv = self.turn_value(state)
        groups: list[tuple[int, tuple[Move, ...]]] = []
        for head, kind, bed in _groups(state, player):
            if kind >= 0:
                tiles = bed.tiles
                top = self.tile_group(
                    rules,
                    kind,
                    tiles | bed.pots | bed.cats,
                    bed.printed_pots & ~tiles,
                    bed.printed_cloches & ~tiles,
                    avail,
                    has_cat,
                    tv,
                )
            else:
                top = self.pot_group(bed.empty, avail, has_cat, tv)
            groups.append((head, top))
        return groups

    def tile_group(
        self,
        rules: Rules,
        kind: int,
        blocked: int,
        pp: int,
        pc: int,
        avail: int,
        has_cat: bool,
        tv: float,
    ) -> tuple[Move, ...]:
        """The best ``(score, placement index)`` pairs of a tile kind on a bed, best first
        (ties in placement order), memoised: the bed is given by its blocked cells and its
        visible printed pots ``pp`` and cloches ``pc``."""
        key = (kind, blocked, pp, pc, avail, has_cat, tv)
        top = self.moves_memo.get(key)
        if top is None:
            scores = self._tile_scores(rules, kind, blocked, pp, pc, avail, has_cat, tv)
            top = self._remember(key, scores)
        return top

    def pot_group(self, empty: int, avail: int, has_cat: bool, tv: float) -> tuple[Move, ...]:
        """The best ``(score, cell)`` pairs of a pot on a bed's bare soil ``empty``, as
        :meth:`tile_group`."""
        key = (-1, empty, 0, 0, avail, has_cat, tv)
        top = self.moves_memo.get(key)
        if top is None:
            top = self._remember(key, self._pot_scores(empty, avail, has_cat, tv))
        return top

    def _remember(self, key: MovesKey, scores: Iterator[Move]) -> tuple[Move, ...]:
        memo = self.moves_memo
        if len(memo) > MOVES_LIMIT:
            memo.clear()
        top = tuple(sorted(scores, key=_minus_score)[:TOP_MOVES])
        memo[key] = top
        return top

    def _tile_scores(
        self,
        rules: Rules,
        kind: int,
        blocked: int,
        pp: int,
        pc: int,
        avail: int,
        has_cat: bool,
        tv: float,
    ) -> Iterator[Move]:
        """``(score, placement index)`` of every placement of a tile kind on a bed."""
        w = self.weights
        t = self.tables
        turns_to_fill = self.turns_to_fill
        pot_v, cloche_v, bonus = w.pot_value, w.cloche_value, w.complete_bonus
        masks, pots, cloches = t.masks[kind], t.pot_counts[kind], t.cloche_counts[kind]
        empty = FULL & ~(blocked | pp | pc)
        base = turns_to_fill(empty, avail, has_cat)
        for index in rules.fits(kind, blocked):
            m = masks[index]
            rest = empty & ~m
            score = (
                pot_v * (pots[index] - (pp & m).bit_count())
                + cloche_v * (cloches[index] - (pc & m).bit_count())
                - tv * (turns_to_fill(rest, avail, has_cat) - base)
            )
            if not rest:
                score += bonus
            yield score, index

    def _pot_scores(self, empty: int, avail: int, has_cat: bool, tv: float) -> Iterator[Move]:
        """``(score, cell)`` of a pot on each bare-soil cell of a bed, lowest cell first."""
        w = self.weights
        turns_to_fill = self.turns_to_fill
        base = turns_to_fill(empty, avail, has_cat)
        rest_cells = empty
        while rest_cells:
            low = rest_cells & -rest_cells
            rest_cells ^= low
            rest = empty ^ low
            score = w.pot_value - tv * (turns_to_fill(rest, avail, has_cat) - base)
            if not rest:
                score += w.complete_bonus
            yield score, low.bit_length() - 1

    def token_cell(self, state: State, bed_index: int) -> tuple[float, int]:
        """The bare-soil cell of a bed where a token hurts least: ``(score, cell)``."""
        player = state.players[state.seat]
        bed = player.beds[bed_index]
        assert bed is not None
        avail = available_kinds(state)
        has_cat = player.cats > 1
        empty = bed.empty
        best_score, best_cell = -1e18, -1
        rest_cells = empty
        while rest_cells:
            low = rest_cells & -rest_cells
            rest_cells ^= low
            score = -self.turns_to_fill(empty ^ low, avail, has_cat)
            if score > best_score:
                best_score, best_cell = score, low.bit_length() - 1
        return best_score, best_cell

    # ----------------------------------------------------------------- players

    def cube_potential(self, rules: Rules, player: Player) -> float:
        """A share of each colour's target bonus, growing with each cube's progress."""
        share = self.weights.target_share
        if share == 0.0:
            return 0.0
        total = 0.0
        s = rules.settings
        for positions, track in ((player.orange, s.orange_track), (player.blue, s.blue_track)):
            target = len(track) - 1
            jump = track[target] - track[target - 1]
            for index in positions:
                if index != target:
                    progress = index / target
                    total += share * jump * progress * progress
        return total

    def player_value(self, state: State, seat: int, avail: int | None = None) -> float:
        """Points a seat holds plus the worth of its beds, cats and cube positions."""
        rules = state.rules
        player = state.players[seat]
        value = float(player_score(rules, player))
        if state.phase == Phase.OVER:
            return value
        if avail is None:
            avail = available_kinds(state)
        has_cat = player.cats > 0
        tv = self.turn_value(state)
        for bed in player.beds:
            if bed is not None:
                value += self.bed_value(bed, avail, has_cat, tv)
        value += self.weights.cat_value * min(player.cats, rules.settings.cat_limit + 1)
        value += self.cube_potential(rules, player)
        if state.phase == Phase.BONUS and state.seat == seat:
            value += self.weights.start_pot_value
        return value

    def relative_value(self, state: State, seat: int, opponents: float) -> float:
        """A seat's value minus ``opponents`` times the best other seat's value."""
        avail = available_kinds(state)
        mine = self.player_value(state, seat, avail)
        if len(state.players) == 1 or opponents == 0.0:
            return mine
        others = max(
            self.player_value(state, other, avail)
            for other in range(len(state.players))
            if other != seat
        )
        return mine - opponents * others
