"""How many deals a study needs: sample sizes for a difference of means.

A designer's question before a study is "how many games until a change of 1 point
shows?". The answer follows from the spread of the metric over deals: ``n`` deals per
side detect a difference ``effect`` at two-sided level ``alpha`` with chance ``power``
by the t test's exact power (noncentral t), with ``sd`` the standard deviation of one
deal's contribution (the paired difference, or each side's deal mean times sqrt 2
unpaired); the normal approximation only gives the starting point of the search.

From one pilot run, the spread is split into a deal part and a within-deal part (one-way
analysis of variance over the games of each deal): unpaired studies pay both, paired
studies on common seeds cancel the deal part and pay only the within-deal part twice.
That assumes a small change leaves the deal's own part alone, which is what common
random numbers rely on; a pilot that plays each deal once, or whose games of a deal
never differ, cannot split the two, and no paired figure is given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.stats as sps

from cgsim.reporting.stats import ArrayLike

MAX_DEALS = 10**9
"""Above this the answer is reported as out of reach."""


@dataclass(frozen=True, slots=True)
class Spread:
    """A metric's spread over deals: the deal part and the within-deal part of its
    variance, per game, and the games each deal was played."""

    mean: float
    between: float
    """Variance of a deal's true mean (the deal's own part)."""
    within: float
    """Variance of one game around its deal's mean (nan when each deal had one game)."""
    games_per_deal: float
    deals: int

    @property
    def unpaired_sd(self) -> float:
        """Standard deviation of one deal's mean (what an unpaired study averages)."""
        within = 0.0 if math.isnan(self.within) else self.within
        return math.sqrt(max(self.between + within / self.games_per_deal, 0.0))

    @property
    def paired_sd(self) -> float:
        """Standard deviation of one deal's paired difference on common seeds (nan when
        the pilot cannot tell: one game per deal, or games of a deal that never differ,
        as when the same deterministic bot sits in every seat)."""
        if math.isnan(self.within) or self.within == 0.0:
            return math.nan
        return math.sqrt(2.0 * self.within / self.games_per_deal)


def spread(values: ArrayLike, deals: ArrayLike) -> Spread:
    """One-way analysis of variance of ``values`` grouped by ``deals`` (method of moments,
    the deal part clipped at 0)."""
    x = np.asarray(values, dtype=np.float64).ravel()
    labels = np.asarray(deals).ravel()
    keep = ~np.isnan(x)
    x, labels = x[keep], labels[keep]
    _, codes = np.unique(labels, return_inverse=True)
    k = int(codes.max()) + 1 if x.size else 0
    if k < 2:
        return Spread(float(x.mean()) if x.size else math.nan, math.nan, math.nan, 1.0, k)
    counts = np.bincount(codes).astype(np.float64)
    means = np.bincount(codes, weights=x) / counts
    size = float(x.size / k)
    residual = float(np.sum((x - means[codes]) ** 2))
    within = residual / (x.size - k) if x.size > k else math.nan
    spread_of_means = float(np.var(means, ddof=1))
    between = spread_of_means - (0.0 if math.isnan(within) else within / size)
    return Spread(float(x.mean()), max(between, 0.0), within, size, k)


def t_power(n: int, standardized: float, alpha: float) -> float:
    """Exact power of a two-sided one-sample (or paired) t test on ``n`` units for a
    true mean of ``standardized`` units' standard deviations (noncentral t)."""
    df = n - 1
    critical = float(sps.t.ppf(1 - alpha / 2, df))
    shift = standardized * math.sqrt(n)
    return float(sps.nct.sf(critical, df, shift) + sps.nct.cdf(-critical, df, shift))


def deals_needed(sd: float, effect: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """The fewest deals (pairs, or deals per side once ``sd`` includes the factor sqrt 2)
    for a two-sided t test at ``alpha`` to find ``effect`` with chance ``power``;
    ``MAX_DEALS`` when out of reach or unknown."""
    if math.isnan(sd) or effect == 0:
        return MAX_DEALS
    if sd == 0:
        return 2
    standardized = abs(effect) / sd
    z = float(sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power))
    n = max(2, math.ceil((z / standardized) ** 2))
    if n > MAX_DEALS:
        return MAX_DEALS
    while t_power(n, standardized, alpha) < power:
        n += 1
    while n > 2 and t_power(n - 1, standardized, alpha) >= power:
        n -= 1
    return n


@dataclass(frozen=True, slots=True)
class PowerAnswer:
    """Deals needed for one metric: paired (common seeds) and unpaired (per side)."""

    metric: str
    effect: float
    paired: int
    unpaired: int
    spread: Spread


def power_answer(
    metric: str, values: ArrayLike, deals: ArrayLike, effect: float, alpha: float, power: float
) -> PowerAnswer:
    """The deals a study of ``metric`` needs, from a pilot's per-game values."""
    found = spread(values, deals)
    paired = deals_needed(found.paired_sd, effect, alpha, power)
    unpaired = deals_needed(math.sqrt(2.0) * found.unpaired_sd, effect, alpha, power)
    return PowerAnswer(metric, effect, paired, unpaired, found)


def more_deals(half_width: float, n: int, effect: float, alpha: float, power: float) -> int:
    """From a finished comparison (an interval's half-width at 95% over ``n`` deals): how
    many more deals a difference of ``effect`` needs to be found with chance ``power``."""
    if n < 2 or math.isnan(half_width):
        return MAX_DEALS
    sd = half_width / float(sps.t.ppf(0.975, n - 1)) * math.sqrt(n)
    return max(0, deals_needed(sd, effect, alpha, power) - n)


def detectable(sd: float, deals: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest difference ``deals`` deals find with chance ``power`` (normal
    approximation; what a study of that size can see)."""
    if deals < 2 or math.isnan(sd):
        return math.nan
    return float((sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)) * sd / math.sqrt(deals))
