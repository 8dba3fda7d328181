"""The verdict in words: a few plain sentences a report opens with.

Each sentence states one finding of the report's own tables with its figure and 95%
interval, and whether it is established: seat advantages are tested against the fair
share with Holm's correction over every seat of every player count (many seats, one
family); luck, drama, ties and skill depth use their tables' flags. The flags come first
(established imbalances, outcomes mostly the deal, no drama, many ties, little skill),
then the closest calls that are not established, so a reader sees what was looked at.
Nothing here is computed anew beyond the seats' p-values (from their intervals).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats as sps

from cgsim.reporting.balance import MIN_DEPTH_ELO, TIE_RATE_FLAG
from cgsim.reporting.drama import DECIDED_EARLY, decided_early
from cgsim.reporting.intervals import CONFIDENCE
from cgsim.reporting.luck import DEAL_DECIDES, deal_decides
from cgsim.reporting.stats import holm_adjust

ALPHA = 0.05
VERDICT_HEAD = "Verdict (figures with 95% intervals; flags first):"


@dataclass(frozen=True)
class Finding:
    """One sentence of the verdict; ``flag`` when it is an established problem."""

    text: str
    flag: bool


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(low: float | None, high: float | None, scale: float = 100.0) -> str:
    if low is None or high is None:
        return "[no interval: one deal block]"
    return f"[{scale * low:.1f}, {scale * high:.1f}]"


def seat_p_values(table: pl.DataFrame) -> np.ndarray:
    """Two-sided p-values of each seat's win share against the fair share, from its 95%
    interval (normal approximation; nan without an interval), Holm-adjusted together."""
    z = sps.norm.ppf(0.5 + CONFIDENCE / 2)
    raw = []
    for row in table.iter_rows(named=True):
        low, high = row["low"], row["high"]
        if low is None or high is None:
            raw.append(math.nan)
            continue
        se = (high - low) / (2 * z)
        gap = abs(row["win_share"] - row["fair"])
        raw.append(float(2 * sps.norm.sf(gap / se)) if se > 0 else float(gap == 0))
    return holm_adjust(np.asarray(raw, dtype=np.float64))


def _seats(table: pl.DataFrame) -> list[Finding]:
    """Every established seat advantage, then per player count the seat farthest from
    fair when none is established."""
    if table.is_empty():
        return []
    adjusted = seat_p_values(table)
    rows = [
        row | {"p_holm": p} for row, p in zip(table.iter_rows(named=True), adjusted, strict=True)
    ]
    family = len(rows)
    found = []
    for players in sorted({row["players"] for row in rows}):
        mine = [row for row in rows if row["players"] == players]
        hits = [row for row in mine if row["p_holm"] <= ALPHA]
        shown = hits or [max(mine, key=lambda r: abs(r["win_share"] - r["fair"]))]
        for row in shown:
            established = row["p_holm"] <= ALPHA
            verdict = "established" if established else "not established"
            found.append(
                Finding(
                    f"Seat {row['seat']} wins {_pct(row['win_share'])} "
                    f"{_interval(row['low'], row['high'])} of {players}-player games against "
                    f"a fair {_pct(row['fair'])}: {verdict} (Holm-corrected over {family} "
                    "seats).",
                    established,
                )
            )
    return found


def _luck(luck: pl.DataFrame, skill: pl.DataFrame | None) -> list[Finding]:
    found = []
    if not luck.is_empty():
        decided = set(deal_decides(luck))
        for players in sorted(set(luck["players"].to_list())):
            part = luck.filter((pl.col("players") == players) & (pl.col("value") == "win_share"))
            share = {row["component"]: row for row in part.iter_rows(named=True)}
            deal, bot = share["deal"], share["bot"]
            text = (
                f"In {players}-player games the deal explains {_pct(deal['share'])} "
                f"{_interval(deal['low'], deal['high'])} of who wins and the bots "
                f"{_pct(bot['share'])} {_interval(bot['low'], bot['high'])}"
            )
            if players in decided:
                found.append(Finding(f"{text}: outcomes are mostly the deal.", True))
            else:
                found.append(
                    Finding(
                        f"{text}: the deal deciding most outcomes (over "
                        f"{_pct(DEAL_DECIDES)}) is not established.",
                        False,
                    )
                )
    if skill is not None and not skill.is_empty():
        for row in skill.iter_rows(named=True):
            shows = row["low"] is not None and row["low"] > 0.5
            found.append(
                Finding(
                    f"On the same deal the stronger bot finishes ahead of a weaker one in "
                    f"{_pct(row['skill_share'])} {_interval(row['low'], row['high'])} of "
                    f"{row['players']}-player pairings: skill "
                    f"{'shows' if shows else 'showing is not established'}.",
                    False,
                )
            )
    return found


def _drama(drama: pl.DataFrame) -> list[Finding]:
    if drama.is_empty():
        return []
    early = set(decided_early(drama))
    found = []
    for row in drama.filter(pl.col("metric") == "leader_50_won").iter_rows(named=True):
        text = (
            f"The leader at half-time wins {_pct(row['estimate'])} "
            f"{_interval(row['low'], row['high'])} of {row['players']}-player games"
        )
        if row["players"] in early:
            found.append(Finding(f"{text}: decided by half-time, no drama.", True))
        else:
            found.append(
                Finding(
                    f"{text}: decided by half-time (over {_pct(DECIDED_EARLY)}) is not "
                    "established.",
                    False,
                )
            )
    return found


def _outcome(outcome: pl.DataFrame | None, depth: pl.DataFrame | None) -> list[Finding]:
    found = []
    if outcome is not None and not outcome.is_empty():
        for row in outcome.filter(pl.col("metric") == "tie_rate").iter_rows(named=True):
            if row["low"] is not None and row["low"] > TIE_RATE_FLAG:
                found.append(
                    Finding(
                        f"Games end in a shared win {_pct(row['estimate'])} "
                        f"{_interval(row['low'], row['high'])} of the time: many ties "
                        f"(over {_pct(TIE_RATE_FLAG)}, established).",
                        True,
                    )
                )
    if depth is not None and depth.height > 1:
        top, bottom = depth.row(0, named=True), depth.row(depth.height - 1, named=True)
        gap = float(top["rating"]) - float(bottom["rating"])
        if gap < MIN_DEPTH_ELO:
            found.append(
                Finding(
                    f"The strongest bot ({top['bot']}) rates only {gap:.0f} Elo above the "
                    f"weakest ({bottom['bot']}): skill hardly matters between these bots.",
                    True,
                )
            )
    return found


COVERED = ("p seat ", "tie_rate", "skill depth", "deal share", "half-time leader")
"""Balance flags whose measure the verdict states itself (seats with Holm's correction)."""


def _other_flags(flags: pl.DataFrame | None) -> list[Finding]:
    """The balance flags the verdict does not state itself (component comparisons, win
    rates by category, aborted games), each as its own established finding."""
    if flags is None or flags.is_empty():
        return []
    return [
        Finding(f"{row['measure']} is {row['value']:.3g}: {row['reason']}.", True)
        for row in flags.iter_rows(named=True)
        if not any(word in row["measure"] for word in COVERED)
    ]


def verdict(tables: Mapping[str, pl.DataFrame]) -> list[Finding]:
    """The verdict of a report's or a balance report's tables: flags first."""
    found = [
        *_seats(tables.get("balance_seat_advantage", pl.DataFrame())),
        *_luck(tables.get("balance_luck_skill", pl.DataFrame()), tables.get("balance_skill_share")),
        *_drama(tables.get("balance_drama", pl.DataFrame())),
        *_outcome(tables.get("balance_outcome"), tables.get("balance_skill_depth")),
        *_other_flags(tables.get("balance_flags")),
    ]
    return [f for f in found if f.flag] + [f for f in found if not f.flag]


def verdict_lines(tables: Mapping[str, pl.DataFrame]) -> list[str]:
    """The verdict as lines of text under :data:`VERDICT_HEAD`, flagged ones marked, or
    one line saying there is nothing to judge (no outcome statistics)."""
    found = verdict(tables)
    if not found:
        return [VERDICT_HEAD, "No outcome statistics to judge."]
    return [VERDICT_HEAD, *(f"{'FLAG: ' if f.flag else ''}{f.text}" for f in found)]
