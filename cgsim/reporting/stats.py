"""Statistics for simulation results: small pure functions over numpy arrays.

Games that share a deal (a *block*) are not independent, so every interval meant for
results has a block-aware form that treats the block, not the game, as the unit. Each
function names its method in its docstring. Undefined quantities (an interval from one
unit, a mean of nothing) are ``nan`` rather than errors, so reports degrade gracefully.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy import stats as sps

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]
ArrayLike = npt.ArrayLike

SprtDecision = Literal["H0", "H1", "continue"]

SUMMARY_QUANTILES: tuple[float, ...] = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The quantiles every distribution table reports."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with a two-sided confidence interval over ``n`` units."""

    estimate: float
    low: float
    high: float
    n: int
    """Independent units behind the interval (games, blocks or pairs)."""


@dataclass(frozen=True, slots=True)
class Difference:
    """A difference between two setups, its interval and the p-value of "no difference"."""

    estimate: float
    low: float
    high: float
    p_value: float
    n: int
    test: str
    """Name of the method, for reports (e.g. ``paired t``)."""


@dataclass(frozen=True, slots=True)
class HypothesisTest:
    """A test statistic and its p-value."""

    statistic: float
    p_value: float
    test: str


def _floats(values: ArrayLike) -> FloatArray:
    return np.asarray(values, dtype=np.float64).ravel()


def _t_quantile(confidence: float, df: int) -> float:
    return float(sps.t.ppf(0.5 + confidence / 2.0, df))


def wilson_interval(successes: float, trials: int, confidence: float = 0.95) -> Interval:
    """Wilson score interval for a binomial proportion.

    Preferred to the normal ("Wald") interval because it stays inside [0, 1] and keeps
    its coverage near 0 and 1 and for small samples. ``successes`` may be fractional
    (shared wins count as fractions).
    """
    if trials <= 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    z = float(sps.norm.ppf(0.5 + confidence / 2.0))
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2.0 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)) / denom
    # The interval always contains p; clamping only removes rounding at 0 and 1.
    low = min(p, max(0.0, centre - half))
    high = max(p, min(1.0, centre + half))
    return Interval(p, low, high, trials)


def mean_interval(values: ArrayLike, confidence: float = 0.95) -> Interval:
    """Mean with a Student t interval (independent observations)."""
    x = _floats(values)
    n = x.size
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(x.mean())
    if n < 2:
        return Interval(mean, math.nan, math.nan, n)
    half = _t_quantile(confidence, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def block_sums(values: ArrayLike, blocks: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Per-block totals and counts of ``values`` (blocks in sorted label order)."""
    x = _floats(values)
    labels = np.asarray(blocks).ravel()
    if labels.size != x.size:
        raise ValueError("values and blocks must have the same length")
    _, codes = np.unique(labels, return_inverse=True)
    totals = np.bincount(codes, weights=x).astype(np.float64)
    counts = np.bincount(codes).astype(np.float64)
    return totals, counts


def cluster_mean_interval(
    totals: ArrayLike, counts: ArrayLike, confidence: float = 0.95
) -> Interval:
    """Mean with a cluster-robust t interval, from per-block totals and sizes.

    The estimate is the plain mean of all observations (``sum(totals) / sum(counts)``);
    its variance is the cluster-robust (linearised ratio) estimate
    ``B/(B-1) * sum_b (y_b - m n_b)^2 / N^2`` with ``B - 1`` degrees of freedom, where
    ``y_b`` and ``n_b`` are a block's total and size. With equal block sizes this is exactly
    the t interval over block means; with one observation per block it is the ordinary t
    interval. One block gives no interval. Taking aggregates lets a caller compute the
    per-block sums lazily (e.g. in polars) and never hold the observations.
    """
    y, n = _floats(totals), _floats(counts)
    n_blocks = y.size
    total_n = float(n.sum())
    if n_blocks == 0 or total_n == 0.0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(y.sum() / total_n)
    if n_blocks < 2:
        return Interval(mean, math.nan, math.nan, n_blocks)
    residual = y - mean * n
    variance = n_blocks / (n_blocks - 1) * float(np.sum(residual**2)) / total_n**2
    half = _t_quantile(confidence, n_blocks - 1) * math.sqrt(variance)
    return Interval(mean, mean - half, mean + half, n_blocks)


def clip_unit(interval: Interval) -> Interval:
    """The interval with its bounds clipped to [0, 1] (for rates)."""
    if math.isnan(interval.low):
        return interval
    return Interval(interval.estimate, max(0.0, interval.low), min(1.0, interval.high), interval.n)


def block_mean_interval(values: ArrayLike, blocks: ArrayLike, confidence: float = 0.95) -> Interval:
    """Mean of observations whose blocks (games on one deal) are the independent units.

    Cluster-robust: see :func:`cluster_mean_interval`, applied to the block sums.
    """
    totals, counts = block_sums(values, blocks)
    return cluster_mean_interval(totals, counts, confidence)


def block_proportion_interval(
    values: ArrayLike, blocks: ArrayLike, confidence: float = 0.95
) -> Interval:
    """A rate (mean of values in [0, 1], e.g. win shares) with a block interval clipped
    to [0, 1] (see :func:`cluster_mean_interval`)."""
    return clip_unit(block_mean_interval(values, blocks, confidence))


def paired_difference(a: ArrayLike, b: ArrayLike, confidence: float = 0.95) -> Difference:
    """Mean of ``a - b`` over aligned pairs (same seed or block) with a paired t interval.

    Common random numbers make the pairs positively correlated, so the paired interval is
    much narrower than comparing two independent means. p-value: two-sided paired t test.
    """
    x, y = _floats(a), _floats(b)
    if x.size != y.size:
        raise ValueError("paired samples must have the same length")
    diff = x - y
    n = diff.size
    if n == 0:
        return Difference(math.nan, math.nan, math.nan, math.nan, 0, "paired t")
    mean = float(diff.mean())
    if n < 2:
        return Difference(mean, math.nan, math.nan, math.nan, n, "paired t")
    sd = float(diff.std(ddof=1))
    if sd == 0.0:
        p_value = 1.0 if mean == 0.0 else 0.0
        return Difference(mean, mean, mean, p_value, n, "paired t")
    se = sd / math.sqrt(n)
    half = _t_quantile(confidence, n - 1) * se
    p_value = float(2.0 * sps.t.sf(abs(mean / se), n - 1))
    return Difference(mean, mean - half, mean + half, p_value, n, "paired t")


def pair_by_key(
    keys_a: ArrayLike, values_a: ArrayLike, keys_b: ArrayLike, values_b: ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Per-key means of two samples, restricted to the keys both share, aligned by key.

    Prepares :func:`paired_difference` when the unit is a seed or block that holds several
    observations (e.g. every seat of a game): each key becomes one pair.
    """

    def means(keys: ArrayLike, values: ArrayLike) -> tuple[npt.NDArray[np.generic], FloatArray]:
        labels = np.asarray(keys).ravel()
        totals, counts = block_sums(values, labels)
        return np.unique(labels), totals / counts

    labels_a, mean_a = means(keys_a, values_a)
    labels_b, mean_b = means(keys_b, values_b)
    _, index_a, index_b = np.intersect1d(labels_a, labels_b, return_indices=True)
    return mean_a[index_a], mean_b[index_b]


def welch_difference(a: ArrayLike, b: ArrayLike, confidence: float = 0.95) -> Difference:
    """Difference of two independent means (``mean(a) - mean(b)``), Welch t interval and test.

    For setups that do not share seeds; unequal variances allowed (Welch-Satterthwaite df).
    """
    x, y = _floats(a), _floats(b)
    if x.size < 2 or y.size < 2:
        estimate = float(x.mean() - y.mean()) if x.size and y.size else math.nan
        return Difference(estimate, math.nan, math.nan, math.nan, x.size + y.size, "Welch t")
    va, vb = float(x.var(ddof=1)) / x.size, float(y.var(ddof=1)) / y.size
    estimate = float(x.mean() - y.mean())
    se = math.sqrt(va + vb)
    if se == 0.0:
        p_value = 1.0 if estimate == 0.0 else 0.0
        return Difference(estimate, estimate, estimate, p_value, x.size + y.size, "Welch t")
    df = (va + vb) ** 2 / (va**2 / (x.size - 1) + vb**2 / (y.size - 1))
    half = float(sps.t.ppf(0.5 + confidence / 2.0, df)) * se
    p_value = float(2.0 * sps.t.sf(abs(estimate / se), df))
    return Difference(
        estimate, estimate - half, estimate + half, p_value, x.size + y.size, "Welch t"
    )


def mann_whitney(a: ArrayLike, b: ArrayLike) -> HypothesisTest:
    """Two-sided Mann-Whitney U rank test (scipy): does one sample tend to be larger?"""
    x, y = _floats(a), _floats(b)
    if x.size == 0 or y.size == 0:
        return HypothesisTest(math.nan, math.nan, "Mann-Whitney U")
    result = sps.mannwhitneyu(x, y, alternative="two-sided")
    return HypothesisTest(float(result.statistic), float(result.pvalue), "Mann-Whitney U")


def ks_two_sample(a: ArrayLike, b: ArrayLike) -> HypothesisTest:
    """Two-sided two-sample Kolmogorov-Smirnov test (scipy): do the distributions differ?

    Scores are discrete, so ties make the test conservative (p-values too large).
    """
    x, y = _floats(a), _floats(b)
    if x.size == 0 or y.size == 0:
        return HypothesisTest(math.nan, math.nan, "Kolmogorov-Smirnov")
    result = sps.ks_2samp(x, y)
    return HypothesisTest(float(result.statistic), float(result.pvalue), "Kolmogorov-Smirnov")


def block_bootstrap_indices(
    blocks: ArrayLike, n_resamples: int, rng: np.random.Generator
) -> Iterator[IndexArray]:
    """Row indices of ``n_resamples`` block-bootstrap samples.

    Each sample draws as many blocks as there are, uniformly with replacement, and takes
    every row of each drawn block, so games on one deal stay together (the pairing that
    the duplicate format relies on is kept).
    """
    labels = np.asarray(blocks).ravel()
    _, codes = np.unique(labels, return_inverse=True)
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    members = [order[s : s + c] for s, c in zip(starts, counts, strict=True)]
    for _ in range(n_resamples):
        drawn = rng.integers(0, len(members), size=len(members))
        yield np.concatenate([members[d] for d in drawn]).astype(np.intp)


def block_bootstrap_weights(
    n_blocks: int, n_resamples: int, rng: np.random.Generator
) -> Iterator[FloatArray]:
    """How many times each block is drawn in each block-bootstrap sample.

    The same draws as :func:`block_bootstrap_indices` (``n_blocks`` uniform draws with
    replacement per sample), as weights: cheaper when a statistic is a weighted sum of
    per-block aggregates (e.g. pairwise win counts for ratings).
    """
    for _ in range(n_resamples):
        drawn = rng.integers(0, n_blocks, size=n_blocks)
        yield np.bincount(drawn, minlength=n_blocks).astype(np.float64)


def block_bootstrap(
    blocks: ArrayLike,
    statistic: Callable[[IndexArray], float | FloatArray],
    n_resamples: int = 1000,
    seed: int = 0,
) -> FloatArray:
    """Replicates of ``statistic`` (a function of row indices) over block resamples.

    Returns an array of shape ``(n_resamples, ...)``; deterministic for a given seed
    (numpy ``Generator`` from ``default_rng(seed)``). Turn it into an interval with
    :func:`percentile_interval`.
    """
    rng = np.random.default_rng(seed)
    replicates = [
        np.asarray(statistic(rows), dtype=np.float64)
        for rows in block_bootstrap_indices(blocks, n_resamples, rng)
    ]
    return np.stack(replicates) if replicates else np.empty((0,), dtype=np.float64)


def percentile_interval(
    replicates: ArrayLike, confidence: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Percentile bootstrap bounds along the first axis (low, high)."""
    r = np.asarray(replicates, dtype=np.float64)
    tail = (1.0 - confidence) / 2.0
    low = np.quantile(r, tail, axis=0)
    high = np.quantile(r, 1.0 - tail, axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's log-likelihood-ratio bounds ``(lower, upper)``.

    Stop for H0 when the LLR falls to ``log(beta / (1 - alpha))``, for H1 when it reaches
    ``log((1 - beta) / alpha)``; ``alpha`` is the false-positive and ``beta`` the
    false-negative rate.
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError("alpha and beta must lie strictly between 0 and 1")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def bernoulli_llr(successes: float, trials: int, p0: float, p1: float) -> float:
    """Log-likelihood ratio of success rate ``p1`` against ``p0`` for binomial data."""
    failures = trials - successes
    return successes * math.log(p1 / p0) + failures * math.log((1.0 - p1) / (1.0 - p0))


def normal_llr(mean: float, variance: float, n: int, mu0: float, mu1: float) -> float:
    """Log-likelihood ratio of mean ``mu1`` against ``mu0`` for ``n`` normal observations
    with sample mean ``mean`` and (known or estimated) per-observation ``variance``."""
    if n == 0:
        return 0.0
    if variance <= 0.0:
        return math.inf if abs(mean - mu1) < abs(mean - mu0) else -math.inf
    return n * (mu1 - mu0) * (2.0 * mean - mu0 - mu1) / (2.0 * variance)


def gsprt_llr(scores: ArrayLike, s0: float, s1: float) -> float:
    """Generalised SPRT log-likelihood ratio on per-game scores (chess-engine testing).

    The normal approximation used by Fishtest: the mean and variance of the observed
    scores (e.g. 1 win, 0.5 draw, 0 loss, or any paired per-seed difference) are plugged
    into :func:`normal_llr` for H1 ``mean = s1`` against H0 ``mean = s0``.
    """
    x = _floats(scores)
    if x.size < 2:
        return 0.0
    return normal_llr(float(x.mean()), float(x.var(ddof=0)), x.size, s0, s1)


def sprt_decision(llr: float, alpha: float, beta: float) -> SprtDecision:
    """``"H1"`` or ``"H0"`` once the LLR crosses a bound, else ``"continue"``."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


def holm_adjust(p_values: ArrayLike) -> FloatArray:
    """Holm-Bonferroni adjusted p-values (family-wise error control, any dependence).

    The i-th smallest p-value is multiplied by ``m - i`` (``i`` from 0), made monotone by a
    running maximum, and capped at 1; reject where the adjusted value is at most alpha.
    ``nan`` p-values are left out of the family and stay ``nan``.
    """
    p = _floats(p_values)
    adjusted = np.full(p.size, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    m = valid.size
    if m == 0:
        return adjusted
    order = valid[np.argsort(p[valid], kind="stable")]
    scaled = p[order] * (m - np.arange(m))
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted


def holm_reject(p_values: ArrayLike, alpha: float = 0.05) -> npt.NDArray[np.bool_]:
    """Which hypotheses Holm's step-down procedure rejects at family-wise level ``alpha``."""
    adjusted = holm_adjust(p_values)
    return np.asarray(np.nan_to_num(adjusted, nan=2.0) <= alpha, dtype=np.bool_)
