"""The ``cgsim report`` command: good and bad input."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from results_fixtures import GameSpec, planted_specs, write_results
from typer.testing import CliRunner

from cgsim.cli import app, main
from cgsim.errors import CgsimError

runner = CliRunner()


@pytest.fixture()
def results(tmp_path: Path) -> Path:
    return write_results(
        tmp_path / "run", planted_specs({"strong": 8.0, "weak": -8.0}, blocks=6), name="cli-run"
    )


def test_report_writes_files_and_prints_a_summary(results: Path) -> None:
    outcome = runner.invoke(app, ["report", str(results), "--bootstrap", "20"])
    assert outcome.exit_code == 0, outcome.output
    assert "Run cli-run" in outcome.output
    assert "Win rate per bot (95% block intervals):" in outcome.output
    assert "2p seat 0" in outcome.output
    assert f"html:     {results / 'report.html'}" in outcome.output
    assert (results / "report.md").is_file()
    assert (results / "tables" / "win_rate.csv").is_file()
    assert (results / "plots" / "win_rate.png").is_file()
    strong_line = next(
        line for line in outcome.output.splitlines() if line.strip().startswith("strong")
    )
    assert "[" in strong_line and "]" in strong_line
    assert len(outcome.output.splitlines()) < 40


def test_open_html_path_prints_only_the_page(results: Path) -> None:
    outcome = runner.invoke(app, ["report", str(results), "--open-html-path"])
    assert outcome.exit_code == 0, outcome.output
    assert outcome.output.strip() == str((results / "report.html").resolve())


def test_solo_summary_shows_scores(tmp_path: Path) -> None:
    results = write_results(
        tmp_path, [GameSpec(seats=["greedy"], scores=[s]) for s in (60, 70, 80)]
    )
    outcome = runner.invoke(app, ["report", str(results)])
    assert outcome.exit_code == 0, outcome.output
    assert "Score per bot" in outcome.output and "Win rate" not in outcome.output


def test_not_a_results_directory_is_a_user_error(tmp_path: Path) -> None:
    outcome = runner.invoke(app, ["report", str(tmp_path)])
    assert isinstance(outcome.exception, CgsimError)
    assert "not a results directory" in str(outcome.exception)


def test_missing_directory_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["cgsim", "report", str(tmp_path / "missing")])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: results directory") and "does not exist" in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("count", ["-1", "10001", "1000000000000"])
def test_bootstrap_out_of_range_is_rejected(results: Path, count: str) -> None:
    outcome = runner.invoke(app, ["report", str(results), "--bootstrap", count])
    assert outcome.exit_code == 2
    assert "--bootstrap" in outcome.output and "equal to" in outcome.output
