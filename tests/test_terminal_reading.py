"""Terminal figures a designer reads without help: the bench says when a measurement is
noisy, and the strength bench speaks in the game's own unit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cgsim.reporting.stats import Interval
from cgsim.studies import bench
from cgsim.studies.strength import PairResult, StrengthReport, format_report


def _lines(monkeypatch: pytest.MonkeyPatch, seconds: list[float]) -> list[str]:
    """The parallel figure's lines when the rounds (1 worker, 2 workers, 1, 2) take these
    seconds for 100 games each, on 2 cores."""
    times: Iterator[float] = iter(seconds)
    monkeypatch.setattr("cgsim.play.limits.cpu_count", lambda: 2)
    monkeypatch.setattr(bench, "runner_round", lambda *args: (100, next(times)))
    out: list[str] = []
    bench.parallel_bench(200, 1, out.append, bench.parallel_config("cottage-garden"))
    return out


def test_a_steady_measurement_is_not_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _lines(monkeypatch, [10.0, 5.2, 10.1, 5.3])
    assert "noisy" not in "\n".join(out)
    assert out[-1] == "parallel efficiency on 2 cores: 0.96"
    assert out[1].startswith("1 worker:") and "rounds: 10.0, 9.9; spread 1%" in out[1]


def test_an_efficiency_above_1_and_a_large_spread_are_called_noisy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = _lines(monkeypatch, [12.0, 4.0, 9.0, 4.2])
    text = "\n".join(out)
    assert "1 worker:" in text and "noisy: the rounds differ by 29% (over 10%)" in text
    assert "parallel efficiency on 2 cores: 1.28" in text
    assert "noisy: an efficiency above 1 is not real" in text


def test_strength_speaks_in_the_games_lead_unit() -> None:
    pair = PairResult(
        "random",
        "kitchen-greedy",
        Interval(0.98, 0.97, 0.99, 500),
        Interval(1438.9, 1400.0, 1480.0, 500),
    )
    report = StrengthReport((pair,), (), (), 1.0, "kitchen-garden", has_solo=False)
    text = format_report(report)
    assert "plants ahead" in text and "14.4 [14.0, 14.8]" in text and "1438.9" not in text
    assert "score: points (100 per plant, +1 per full bed)" in text
    cottage = StrengthReport((pair,), (), (), 1.0, "cottage-garden")
    assert "points ahead" in format_report(cottage)
    assert "1438.9 [1400.0, 1480.0]" in format_report(cottage)
