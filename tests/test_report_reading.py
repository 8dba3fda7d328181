"""The report reads without help: contrast in the heatmap, axes zoomed to the bots that
matter, numbers with a sensible precision, tables that never run off the page, and the
game's notation, endings and score unit on the page."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from results_fixtures import planted_specs, write_results
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import ConfigError
from cgsim.reporting import plots
from cgsim.reporting.pages import decimals_for, html_table, markdown_table
from cgsim.reporting.report import build_report, write_report


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    strengths = {"random": -400.0, "weak": 0.0, "mid": 5.0, "strong": 10.0}
    specs = planted_specs(strengths, blocks=6, noise=8.0)
    return write_results(tmp_path_factory.mktemp("reading") / "run", specs, name="reading")


def test_heatmap_numbers_are_white_on_dark_cells_and_black_on_light_ones() -> None:
    assert plots._readable_on((0.02, 0.19, 0.38, 1.0)) == "white"  # dark blue
    assert plots._readable_on((0.4, 0.0, 0.12, 1.0)) == "white"  # dark red
    assert plots._readable_on((0.97, 0.97, 0.97, 1.0)) == "black"  # the middle, near white
    assert plots._readable_on((0.57, 0.77, 0.87, 1.0)) == "black"  # light blue


def test_a_bot_far_from_the_others_is_off_the_scale() -> None:
    far = {"random": -985.0, "greedy": 178.0, "planner": 315.0, "beam": 493.0}
    assert plots.off_scale(far) == {"random"}
    assert plots.off_scale({"a": -50.0, "b": 0.0, "c": 60.0}) == set()
    assert plots.off_scale({"a": -900.0, "b": 900.0}) == set()  # two bots: nothing to zoom to
    assert plots.off_scale({"a": -900.0, "b": 0.0, "c": 5.0, "d": 900.0}) == {"a", "d"}


def test_the_ratings_plot_says_what_it_zooms_past_and_leaves_out(run: Path, tmp_path: Path) -> None:
    report = build_report(run, n_bootstrap=20)
    ratings = report.tables["ratings"]
    assert ratings.filter(pl.col("bot") == "random")["rating"][0] < -400
    section = next(s for s in report.sections if s.title == "Ratings")
    assert "random lies far from the others and is marked at the edge" in section.text
    left = build_report(run, n_bootstrap=20, leave_out=["random"])
    section = next(s for s in left.sections if s.title == "Ratings")
    assert "Left out of the plot (not of the fit): random." in section.text
    assert left.tables["ratings"].height == 4
    png = plots.plot_ratings(ratings, tmp_path / "r.png", ["random"])
    assert png.stat().st_size > 0
    with pytest.raises(ConfigError, match="--leave-out 'nobody': not a bot of this run"):
        build_report(run, leave_out=["nobody"])


def test_report_command_takes_leave_out(run: Path) -> None:
    result = CliRunner().invoke(
        app, ["report", str(run), "--bootstrap", "10", "--leave-out", "random"]
    )
    assert result.exit_code == 0, result.output
    assert "Left out of the plot (not of the fit): random." in (run / "report.md").read_text()
    assert (run / "plots" / "ratings.png").is_file()


def test_numbers_keep_about_four_significant_digits() -> None:
    assert [decimals_for(v) for v in (0.8666, 9.99, 59.683, -985.4, 1448.0)] == [3, 3, 2, 1, 1]
    mixed = pl.DataFrame({"metric": ["margin", "tie_rate"], "estimate": [371.49, 0.025]})
    assert markdown_table(mixed).splitlines()[2:] == [
        "| margin | 371.5 |",
        "| tie_rate | 0.025 |",
    ]
    wins = pl.DataFrame(
        {"bot": ["a", "b", "c"], "wins": [52.0, 29.5, 0.0], "rate": [1.0, 0.5, 0.0]}
    )
    assert markdown_table(wins).splitlines()[2:] == [
        "| a | 52.00 | 1.000 |",
        "| b | 29.50 | 0.500 |",
        "| c | 0.00 | 0.000 |",
    ]


def test_wide_tables_scroll_in_their_own_box_and_numbers_align_right() -> None:
    table = pl.DataFrame({"bot": ["a"], "games": [3], "note": ["x"]})
    cells = html_table(table)
    assert cells.startswith('<div class="scroll"><table>') and cells.endswith("</table></div>")
    assert '<td>a</td><td class="num">3</td><td>x</td>' in cells


def test_the_page_explains_the_game_and_its_units(run: Path, tmp_path: Path) -> None:
    report = build_report(run, n_bootstrap=10)
    assert report.sections[0].title == "Notation of Cottage Garden"
    notation = report.tables["notation"]
    assert "1A ... 6H" in notation["term"].to_list()
    assert "Scores are in points (cube values plus beehives)." in report.notes
    ends = {row["end"]: row["meaning"] for row in report.tables["end_status"].iter_rows(named=True)}
    assert ends["stalled"].startswith("in the final round, as many turns in a row")
    assert ends["error"].startswith("a bot failed")
    lengths = report.tables["game_length"]
    assert lengths.columns[:2] == ["metric", "meaning"]
    assert lengths.row(0, named=True)["meaning"] == "turns per game, every seat's"
    markdown = write_report(run, n_bootstrap=10, out_dir=tmp_path).markdown.read_text()
    assert "| T20 |" not in markdown and "T20 is a cube" in markdown
