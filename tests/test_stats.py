"""Known-answer and error-rate tests for cgsim.reporting.stats."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from cgsim.reporting import stats

NULL_TRIALS = 400
ALPHA = 0.05
RATE_TOLERANCE = 0.03  # about 2.75 binomial standard deviations at n = 400, p = 0.05


# ---------------------------------------------------------------- intervals


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611)],
)
def test_wilson_matches_newcombe_1998(successes: int, trials: int, low: float, high: float) -> None:
    interval = stats.wilson_interval(successes, trials)
    assert interval.estimate == pytest.approx(successes / trials)
    assert interval.low == pytest.approx(low, abs=5e-5)
    assert interval.high == pytest.approx(high, abs=5e-5)


def test_wilson_without_trials_is_undefined() -> None:
    assert math.isnan(stats.wilson_interval(0, 0).estimate)


@given(st.integers(1, 500), st.floats(0.0, 1.0))
def test_wilson_stays_in_unit_interval_and_covers_estimate(trials: int, fraction: float) -> None:
    successes = round(trials * fraction)
    interval = stats.wilson_interval(successes, trials)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def test_mean_interval_matches_scipy_t_interval() -> None:
    values = np.array([3.0, 5.0, 4.0, 8.0, 6.0, 7.0])
    expected = sps.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=sps.sem(values))
    interval = stats.mean_interval(values)
    assert (interval.low, interval.high) == pytest.approx(expected)
    assert interval.n == 6


def test_mean_interval_of_one_value_has_no_bounds() -> None:
    interval = stats.mean_interval([2.0])
    assert interval.estimate == 2.0
    assert math.isnan(interval.low) and math.isnan(interval.high)


def test_block_interval_with_equal_blocks_is_t_interval_over_block_means() -> None:
    rng = np.random.default_rng(3)
    values = rng.normal(size=40)
    blocks = np.repeat(np.arange(10), 4)
    block_means = values.reshape(10, 4).mean(axis=1)
    expected = stats.mean_interval(block_means)
    interval = stats.block_mean_interval(values, blocks)
    assert interval.estimate == pytest.approx(values.mean())
    assert (interval.low, interval.high) == pytest.approx((expected.low, expected.high))
    assert interval.n == 10


def test_block_interval_with_singleton_blocks_is_plain_t_interval() -> None:
    values = np.array([1.0, 0.0, 1.0, 1.0, 0.0, 0.5])
    plain = stats.mean_interval(values)
    blocked = stats.block_mean_interval(values, np.arange(6))
    assert (blocked.low, blocked.high) == pytest.approx((plain.low, plain.high))


def test_block_interval_of_unequal_blocks_estimates_mean_of_all_observations() -> None:
    interval = stats.block_mean_interval([1.0, 1.0, 1.0, 0.0], [0, 0, 0, 1])
    assert interval.estimate == pytest.approx(0.75)
    assert interval.n == 2


def test_cluster_interval_from_aggregates_equals_interval_from_values() -> None:
    values = np.array([1.0, 0.5, 0.0, 0.0, 1.0, 1.0, 0.0])
    blocks = np.array([0, 0, 1, 1, 2, 2, 2])
    totals, counts = stats.block_sums(values, blocks)
    assert stats.cluster_mean_interval(totals, counts) == stats.block_mean_interval(values, blocks)


def test_one_block_gives_no_interval() -> None:
    interval = stats.block_mean_interval([1.0, 0.0, 1.0], [5, 5, 5])
    assert interval.estimate == pytest.approx(2 / 3)
    assert math.isnan(interval.low)


def test_block_proportion_interval_is_clipped() -> None:
    interval = stats.block_proportion_interval([1.0, 1.0, 0.0, 1.0], [0, 1, 2, 3])
    assert interval.low >= 0.0 and interval.high <= 1.0


def test_block_interval_keeps_coverage_where_a_naive_interval_loses_it() -> None:
    """Games on one deal share a deal effect: only the block interval covers at 95%."""
    rng = np.random.default_rng(11)
    blocks = np.repeat(np.arange(15), 6)
    block_hits = naive_hits = 0
    for _ in range(NULL_TRIALS):
        deal = rng.normal(0.0, 1.0, size=15)[blocks]
        values = deal + rng.normal(0.0, 0.5, size=blocks.size)
        blocked = stats.block_mean_interval(values, blocks)
        naive = stats.mean_interval(values)
        block_hits += blocked.low <= 0.0 <= blocked.high
        naive_hits += naive.low <= 0.0 <= naive.high
    assert abs(block_hits / NULL_TRIALS - 0.95) <= RATE_TOLERANCE
    assert naive_hits / NULL_TRIALS < 0.85


# ---------------------------------------------------------------- comparisons


def test_paired_difference_finds_a_planted_difference() -> None:
    rng = np.random.default_rng(1)
    seed_effect = rng.normal(50.0, 10.0, size=200)
    a = seed_effect + 0.5 + rng.normal(0.0, 1.0, size=200)
    b = seed_effect + rng.normal(0.0, 1.0, size=200)
    difference = stats.paired_difference(a, b)
    assert difference.low <= 0.5 <= difference.high
    assert difference.low > 0.0
    assert difference.p_value < 1e-3
    assert difference.n == 200


def test_identical_setups_are_flagged_at_the_stated_false_positive_rate() -> None:
    rng = np.random.default_rng(2024)
    paired = welch = mann_whitney = 0
    for _ in range(NULL_TRIALS):
        seed_effect = rng.normal(0.0, 5.0, size=60)
        a = seed_effect + rng.normal(size=60)
        b = seed_effect + rng.normal(size=60)
        paired += stats.paired_difference(a, b).p_value < ALPHA
        x, y = rng.normal(size=60), rng.normal(size=60)
        welch += stats.welch_difference(x, y).p_value < ALPHA
        mann_whitney += stats.mann_whitney(x, y).p_value < ALPHA
    for rejections in (paired, welch, mann_whitney):
        assert abs(rejections / NULL_TRIALS - ALPHA) <= RATE_TOLERANCE


def test_paired_difference_of_identical_samples_is_zero_with_p_one() -> None:
    difference = stats.paired_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert (difference.estimate, difference.p_value) == (0.0, 1.0)


def test_paired_difference_needs_aligned_samples() -> None:
    with pytest.raises(ValueError, match="same length"):
        stats.paired_difference([1.0, 2.0], [1.0])


def test_pair_by_key_averages_per_key_and_keeps_shared_keys() -> None:
    a, b = stats.pair_by_key([1, 1, 2, 3], [2.0, 4.0, 5.0, 9.0], [3, 2, 2, 4], [1.0, 6.0, 8.0, 0.0])
    np.testing.assert_allclose(a, [5.0, 9.0])
    np.testing.assert_allclose(b, [7.0, 1.0])


def test_welch_difference_matches_scipy() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.normal(1.0, 1.0, 30), rng.normal(0.0, 3.0, 50)
    difference = stats.welch_difference(x, y)
    assert difference.p_value == pytest.approx(sps.ttest_ind(x, y, equal_var=False).pvalue)
    assert difference.estimate == pytest.approx(x.mean() - y.mean())


def test_rank_and_distribution_tests_find_a_shift() -> None:
    rng = np.random.default_rng(9)
    x, y = rng.normal(0.0, 1.0, 300), rng.normal(0.5, 1.0, 300)
    assert stats.mann_whitney(x, y).p_value < 1e-3
    ks = stats.ks_two_sample(x, y)
    assert ks.p_value < 1e-3
    assert ks.test == "Kolmogorov-Smirnov"


def test_tests_on_empty_samples_are_undefined() -> None:
    assert math.isnan(stats.mann_whitney([], [1.0]).p_value)
    assert math.isnan(stats.ks_two_sample([1.0], []).p_value)


# ---------------------------------------------------------------- bootstrap


def test_block_bootstrap_draws_whole_blocks() -> None:
    blocks = np.array([7, 7, 7, 2, 2, 9, 9, 9, 9])
    sizes = {7: 3, 2: 2, 9: 4}
    for rows in stats.block_bootstrap_indices(blocks, 50, np.random.default_rng(0)):
        drawn = blocks[rows]
        for label, count in zip(*np.unique(drawn, return_counts=True), strict=True):
            assert count % sizes[int(label)] == 0
        assert len({int(b) for b in drawn}) <= 3


def test_block_bootstrap_is_deterministic_for_a_seed() -> None:
    values = np.arange(12, dtype=float)
    blocks = np.repeat(np.arange(4), 3)

    def mean(rows: stats.IndexArray) -> float:
        return float(values[rows].mean())

    first = stats.block_bootstrap(blocks, mean, n_resamples=100, seed=4)
    again = stats.block_bootstrap(blocks, mean, n_resamples=100, seed=4)
    other = stats.block_bootstrap(blocks, mean, n_resamples=100, seed=5)
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, other)
    low, high = stats.percentile_interval(first)
    assert low <= values.mean() <= high


def test_bootstrap_weights_and_indices_draw_the_same_blocks() -> None:
    blocks = np.repeat(np.arange(5), 2)
    weights = list(stats.block_bootstrap_weights(5, 20, np.random.default_rng(8)))
    indices = list(stats.block_bootstrap_indices(blocks, 20, np.random.default_rng(8)))
    for w, rows in zip(weights, indices, strict=True):
        np.testing.assert_array_equal(np.bincount(blocks[rows], minlength=5), 2 * w)


# ---------------------------------------------------------------- SPRT


def test_sprt_bounds_follow_wald() -> None:
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-math.log(19), math.log(19)))
    with pytest.raises(ValueError):
        stats.sprt_bounds(0.0, 0.1)


def test_bernoulli_llr_known_value() -> None:
    llr = stats.bernoulli_llr(6, 10, 0.5, 0.6)
    assert llr == pytest.approx(6 * math.log(1.2) + 4 * math.log(0.8))


def test_gsprt_llr_is_the_normal_llr_of_the_sample() -> None:
    scores = np.array([1.0, 0.5, 0.0, 1.0, 1.0, 0.5])
    expected = stats.normal_llr(scores.mean(), scores.var(), scores.size, 0.5, 0.55)
    assert stats.gsprt_llr(scores, 0.5, 0.55) == pytest.approx(expected)


def _run_sprt(
    rng: np.random.Generator,
    p_true: float,
    p0: float,
    p1: float,
    alpha: float,
    beta: float,
    limit: int = 20_000,
) -> str:
    wins = 0
    for n in range(1, limit + 1):
        wins += rng.random() < p_true
        decision = stats.sprt_decision(stats.bernoulli_llr(wins, n, p0, p1), alpha, beta)
        if decision != "continue":
            return decision
    return "continue"


def test_sprt_decisions_keep_their_error_rates() -> None:
    rng = np.random.default_rng(77)
    trials = 200
    false_h1 = sum(_run_sprt(rng, 0.5, 0.5, 0.6, ALPHA, ALPHA) == "H1" for _ in range(trials))
    false_h0 = sum(_run_sprt(rng, 0.6, 0.5, 0.6, ALPHA, ALPHA) == "H0" for _ in range(trials))
    assert false_h1 / trials <= ALPHA + RATE_TOLERANCE
    assert false_h0 / trials <= ALPHA + RATE_TOLERANCE


def test_sprt_decision_thresholds() -> None:
    assert stats.sprt_decision(3.0, 0.05, 0.05) == "H1"
    assert stats.sprt_decision(-3.0, 0.05, 0.05) == "H0"
    assert stats.sprt_decision(0.0, 0.05, 0.05) == "continue"


# ---------------------------------------------------------------- Holm


def test_holm_known_example() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(stats.holm_adjust(p), [0.03, 0.06, 0.06, 0.02])
    assert stats.holm_reject(p, 0.05).tolist() == [True, False, False, True]


def test_holm_leaves_missing_p_values_out() -> None:
    adjusted = stats.holm_adjust([0.02, float("nan"), 0.04])
    assert math.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2]], [0.04, 0.04])
    assert stats.holm_reject([float("nan")]).tolist() == [False]


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20))
def test_holm_adjusted_values_dominate_raw_and_keep_their_order(p_values: list[float]) -> None:
    adjusted = stats.holm_adjust(p_values)
    raw = np.array(p_values)
    assert np.all(adjusted >= raw - 1e-12)
    assert np.all(adjusted <= 1.0)
    order = np.argsort(raw, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-12)
