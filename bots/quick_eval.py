"""The shared evaluation with placements scored region by region (for the planning bots).

``Evaluator`` scores a placement by the turns the whole bed still needs after it, one
memo lookup per resulting bed; every new bed a search reaches misses that memo for
each of its placements. A placement only changes the bare-soil regions it touches, so
this evaluator subtracts their cost and adds the cost of what is left of them: the
same quantity, from lookups keyed by a few cells that recur across beds and games. The
sums run in another order, so scores may differ from ``Evaluator``'s in the last bits;
the reference bots keep theirs.
"""

from __future__ import annotations

from collections.abc import Iterator

from bots.evaluation import Evaluator, Move, regions_of
from cgsim.games.cottage.components import FULL
from cgsim.games.cottage.state import Rules


class QuickEvaluator(Evaluator):
    """``Evaluator`` with region-by-region placement scores (see the module docstring)."""

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
        w = self.weights
        t = self.tables
        turns_to_fill = self.turns_to_fill
        memo = self.turns_memo
        pot_v, cloche_v, bonus = w.pot_value, w.cloche_value, w.complete_bonus
        masks, pots, cloches = t.masks[kind], t.pot_counts[kind], t.cloche_counts[kind]
        printed = pp | pc
        empty = FULL & ~(blocked | printed)
        regions = [
            (region, turns_to_fill(region, avail, has_cat))
            for region in regions_of(empty, t.regions)
        ]
        scored: list[Move] = []
        for index in rules.fits(kind, blocked):
            m = masks[index]
            before = 0.0
            left = 0
            for region, cost in regions:
                if region & m:
                    before += cost
                    left |= region & ~m
            after = memo.get((left, avail, has_cat))
            if after is None:
                after = turns_to_fill(left, avail, has_cat)
            score = pot_v * pots[index] + cloche_v * cloches[index] - tv * (after - before)
            if m & printed:
                score -= pot_v * (pp & m).bit_count() + cloche_v * (pc & m).bit_count()
            if not empty & ~m:
                score += bonus
            scored.append((score, index))
        return iter(scored)

    def _pot_scores(self, empty: int, avail: int, has_cat: bool, tv: float) -> Iterator[Move]:
        w = self.weights
        turns_to_fill = self.turns_to_fill
        for region in regions_of(empty, self.tables.regions):
            cost = turns_to_fill(region, avail, has_cat)
            rest_cells = region
            while rest_cells:
                low = rest_cells & -rest_cells
                rest_cells ^= low
                score = w.pot_value - tv * (turns_to_fill(region ^ low, avail, has_cat) - cost)
                if not empty ^ low:
                    score += w.complete_bonus
                yield score, low.bit_length() - 1
