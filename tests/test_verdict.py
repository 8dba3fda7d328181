"""The verdict a report opens with: a planted seat advantage or a deal that decides
everything is flagged, with its figure and interval; a fair run raises no flag."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import polars as pl
from results_fixtures import planted_specs, write_results
from test_luck import _games_of, duplicate_run

from cgsim.games.contract import Schema
from cgsim.reporting.balance import balance_tables
from cgsim.reporting.balance_page import write_balance_report
from cgsim.reporting.report import build_report, summary_text, write_report
from cgsim.reporting.verdict import VERDICT_HEAD, verdict


def test_a_planted_seat_advantage_is_flagged_first(tmp_path: Path) -> None:
    specs = [
        replace(spec, scores=[spec.scores[0] + 15, *spec.scores[1:]])
        for spec in planted_specs({"A": 0.0, "B": 0.0}, blocks=30, seed=1)
    ]
    run = write_results(tmp_path / "run", specs)
    report = build_report(run, n_bootstrap=20)
    assert report.verdict[0] == VERDICT_HEAD
    first = report.verdict[1]
    assert first.startswith("FLAG: Seat 0 wins ") and first.endswith(
        "established (Holm-corrected over 2 seats)."
    )
    assert "not established" not in first
    assert "of 2-player games against a fair 50.0%" in first


def test_a_fair_run_raises_no_flag(tmp_path: Path) -> None:
    # Fair seats, deals that favour no seat, bots far enough apart for skill to matter.
    run = write_results(tmp_path / "run", planted_specs({"A": 30.0, "B": 0.0}, blocks=30))
    lines = build_report(run, n_bootstrap=20).verdict
    assert not any(line.startswith("FLAG") for line in lines)
    assert any(line.startswith("Seat ") and "not established" in line for line in lines)


def test_a_deal_that_decides_everything_is_flagged_and_noise_is_not() -> None:
    decided = duplicate_run(100, 10.0, 0.0, 0.5, seed=2)
    decided = decided.with_columns(rank=2.0 - pl.col("win_share"), end=pl.lit("normal"))
    found = verdict(balance_tables({"games": _games_of(decided), "seats": decided}, Schema()))
    flags = [f.text for f in found if f.flag]
    assert any("outcomes are mostly the deal" in text for text in flags)
    noise = duplicate_run(100, 0.0, 0.0, 1.0, seed=4)
    noise = noise.with_columns(rank=2.0 - pl.col("win_share"), end=pl.lit("normal"))
    quiet = verdict(balance_tables({"games": _games_of(noise), "seats": noise}, Schema()))
    # Equal bots: only the skill-depth flag may rise; no deal, no seat.
    assert [f.text for f in quiet if f.flag and "skill hardly matters" not in f.text] == []


def test_reports_open_with_the_verdict(tmp_path: Path) -> None:
    run = write_results(tmp_path / "run", planted_specs({"A": 20.0, "B": 0.0}, blocks=12))
    paths = write_report(run, n_bootstrap=20)
    markdown = paths.markdown.read_text().splitlines()
    assert markdown[2] == VERDICT_HEAD
    assert "stronger bot finishes ahead" in paths.markdown.read_text()
    page = paths.html.read_text()
    assert page.index(VERDICT_HEAD) < page.index("<table")
    assert VERDICT_HEAD in summary_text(build_report(run, n_bootstrap=20))
    balance = write_balance_report(run)
    assert balance["markdown"].read_text().splitlines()[2] == VERDICT_HEAD
