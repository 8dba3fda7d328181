"""Report contents against hand-computed aggregates, and the files it writes.

Also covers the results reader (cgsim.play.results) that the report is built on.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from results_fixtures import GameSpec, planted_specs, write_results

from cgsim.play.results import ResultsError, load_tables, read_manifest, scan, table_names
from cgsim.reporting.pages import markdown_table
from cgsim.reporting.report import (
    Report,
    build_report,
    score_benchmarks,
    summary_text,
    write_report,
)
from cgsim.reporting.stats import wilson_interval

# Six decided games of bots A and B over three deals (seats swapped within a deal), plus
# one error game. Hand-computed below.
TINY = [
    GameSpec(seats=["A", "B"], scores=[50, 40], block=0, turns=30),  # A wins from seat 0
    GameSpec(seats=["B", "A"], scores=[45, 45], block=0, turns=32),  # tie: 0.5 each
    GameSpec(seats=["A", "B"], scores=[30, 35], block=1, turns=34),  # B wins from seat 1
    GameSpec(seats=["B", "A"], scores=[60, 50], block=1, turns=36),  # B wins from seat 0
    GameSpec(seats=["A", "B"], scores=[70, 20], block=2, turns=38),  # A wins from seat 0
    GameSpec(seats=["B", "A"], scores=[40, 41], block=2, turns=40),  # A wins from seat 1
    GameSpec(
        seats=["A", "B"],
        scores=[0, 0],
        block=3,
        end="error",
        error="bot 'B' raised ValueError: boom",
        error_seat=1,
        seed=4242,
    ),
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_results(tmp_path_factory.mktemp("tiny") / "run", TINY, name="tiny-run")


@pytest.fixture(scope="module")
def tiny_report(tiny: Path) -> Report:
    return build_report(tiny, n_bootstrap=50)


def rows_by(table: pl.DataFrame, key: str) -> dict[object, dict[str, object]]:
    return {row[key]: row for row in table.iter_rows(named=True)}


# ---------------------------------------------------------------- hand-computed aggregates


def test_win_rates_per_bot(tiny_report: Report) -> None:
    win = rows_by(tiny_report.tables["win_rate"], "bot")
    assert win["A"]["wins"] == pytest.approx(3.5)
    assert win["A"]["win_rate"] == pytest.approx(3.5 / 6)
    assert win["B"]["win_rate"] == pytest.approx(2.5 / 6)
    assert (win["A"]["games"], win["A"]["blocks"]) == (6, 3)
    assert tiny_report.tables["win_rate"]["bot"].to_list() == ["A", "B"]
    # Block means of A: 0.75, 0, 1 -> t interval over three blocks, clipped to [0, 1].
    assert (win["A"]["low"], win["A"]["high"]) == (0.0, 1.0)


def test_head_to_head(tiny_report: Report) -> None:
    long = {
        (r["bot"], r["opponent"]): r
        for r in tiny_report.tables["head_to_head"].iter_rows(named=True)
    }
    a_vs_b = long[("A", "B")]
    assert (a_vs_b["games"], a_vs_b["ahead"], a_vs_b["tied"], a_vs_b["behind"]) == (6, 3, 1, 2)
    assert a_vs_b["score"] == pytest.approx(3.5 / 6)
    assert long[("B", "A")]["score"] == pytest.approx(2.5 / 6)
    matrix = rows_by(tiny_report.tables["head_to_head_matrix"], "bot")
    assert matrix["A"]["B"] == pytest.approx(3.5 / 6)
    assert matrix["A"]["A"] is None


def test_seat_win_rates(tiny_report: Report) -> None:
    seat = rows_by(tiny_report.tables["balance_seat_advantage"], "seat")
    assert seat[0]["win_share"] == pytest.approx(3.5 / 6)
    assert seat[1]["win_share"] == pytest.approx(2.5 / 6)
    assert seat[0]["fair"] == 0.5
    assert seat[0]["excess"] == pytest.approx(3.5 / 6 - 0.5)
    by_bot = {
        (r["bot"], r["seat"]): r["win_rate"]
        for r in tiny_report.tables["seat_win_rate_by_bot"].iter_rows(named=True)
    }
    # A in seat 0: games 0, 2, 4 -> 1, 0, 1; A in seat 1: games 1, 3, 5 -> 0.5, 0, 1.
    assert by_bot[("A", 0)] == pytest.approx(2 / 3)
    assert by_bot[("A", 1)] == pytest.approx(1.5 / 3)
    assert by_bot[("B", 0)] == pytest.approx(1.5 / 3)


def test_tie_rate_and_positions(tiny_report: Report) -> None:
    ties = rows_by(tiny_report.tables["balance_outcome"], "metric")["tie_rate"]
    assert ties["estimate"] == pytest.approx(1 / 6)
    assert ties["games"] == 6
    position = rows_by(tiny_report.tables["finishing_position"], "bot")
    assert position["A"]["mean_rank"] == pytest.approx(8.5 / 6)
    assert position["B"]["mean_rank"] == pytest.approx(9.5 / 6)


def test_score_and_length_distributions(tiny_report: Report) -> None:
    scores = rows_by(tiny_report.tables["score_by_bot"], "bot")
    a_scores = [50, 45, 30, 50, 70, 41]
    assert scores["A"]["n"] == 6
    assert scores["A"]["mean"] == pytest.approx(sum(a_scores) / 6)
    assert scores["A"]["q50"] == pytest.approx(47.5)
    assert (scores["A"]["min"], scores["A"]["max"]) == (30.0, 70.0)
    by_seat = {
        (r["players"], r["seat"]): r
        for r in tiny_report.tables["score_by_seat"].iter_rows(named=True)
    }
    assert by_seat[(2, 0)]["mean"] == pytest.approx((50 + 45 + 30 + 60 + 70 + 40) / 6)
    length = rows_by(tiny_report.tables["game_length"], "metric")
    assert length["turns"]["mean"] == pytest.approx(35.0)
    assert length["turns"]["n"] == 6
    assert "final_round_turns" in length


def test_each_figure_is_shown_once(tiny: Path, tiny_report: Report, tmp_path: Path) -> None:
    shown = [name for section in tiny_report.sections for name in section.tables]
    assert len(shown) == len(set(shown)) and set(shown) == set(tiny_report.tables)
    # Seat win rates and the tie rate live in the balance tables; skill depth repeats the
    # win rates and ratings per bot.
    assert {"seat_win_rate", "tie_rate", "balance_skill_depth"}.isdisjoint(tiny_report.tables)
    markdown = write_report(tiny, n_bootstrap=10, out_dir=tmp_path).markdown.read_text()
    assert markdown.count("| tie_rate |") == 1
    assert markdown.count("## Win rate by seat") == 1
    assert "Seat advantage" not in markdown
    text = summary_text(tiny_report)
    assert "Tie rate: 0.167" in text and "2p seat 0  0.583" in text


def test_ratings_present(tiny_report: Report) -> None:
    ratings = tiny_report.tables["ratings"]
    assert ratings["bot"].to_list() == ["A", "B"]
    assert ratings["rating"][0] > 0 > ratings["rating"][1]


def test_end_status_and_errors(tiny_report: Report) -> None:
    ends = rows_by(tiny_report.tables["end_status"], "end")
    assert ends["normal"]["games"] == 6
    assert ends["error"]["games"] == 1
    assert ends["aborted"]["games"] == 0
    assert ends["error"]["share"] == pytest.approx(1 / 7)
    errors = tiny_report.tables["errors"]
    assert errors.to_dicts() == [
        {
            "game_id": 6,
            "seed": 4242,
            "seat": 1,
            "bot": "B",
            "reason": "bot 'B' raised ValueError: boom",
            "traceback": None,  # the run's folder keeps none for it
        }
    ]
    assert any("error" in note for note in tiny_report.notes)


def test_game_specific_columns_are_summarised_when_present(tiny_report: Report) -> None:
    seat_columns = tiny_report.tables["seat_columns_by_measure"]
    measures = seat_columns["measure"].to_list()
    assert {"beehives", "beds_completed", "orange_0", "blue_2"} <= set(measures)
    assert seat_columns.columns == ["measure", "meaning", "A (6 games)", "B (6 games)"]
    beehives = seat_columns.row(measures.index("beehives"), named=True)
    assert beehives["meaning"] == "beehive points"
    beds = rows_by(tiny_report.tables["beds_by_bot"], "bot")
    # beds_completed = int(score) % 3 per seat (fixture rule); error game left out.
    assert beds["A"]["rows"] == sum(s % 3 for s in [50, 45, 30, 50, 70, 41])
    assert "pots" in beds["A"]


def test_overview_header(tiny_report: Report) -> None:
    overview = dict(tiny_report.overview)
    assert overview["Run"] == "tiny-run"
    assert overview["Game"] == "cottage-garden"
    assert overview["Engine version"] == "test-1"
    assert overview["Games"].startswith("7 in tables")
    assert overview["Wall time"].startswith("60.0 s")
    assert overview["Deal blocks"] == "4"


# ---------------------------------------------------------------- written files


def test_written_files(tiny: Path, tmp_path: Path) -> None:
    paths = write_report(tiny, n_bootstrap=20, out_dir=tmp_path / "out")
    assert paths.markdown.is_file() and paths.html.is_file()
    for name, csv in paths.tables.items():
        assert csv == tmp_path / "out" / "tables" / f"{name}.csv"
        assert csv.is_file()
    assert pl.read_csv(paths.tables["win_rate"])["bot"].to_list() == ["A", "B"]
    assert set(paths.plots) == {
        "win_rate",
        "ratings",
        "head_to_head",
        "seat_win_rate",
        "score_by_bot",
        "score_by_seat",
        "game_length",
    }
    for png in paths.plots.values():
        assert png.read_bytes().startswith(b"\x89PNG")
    markdown = paths.markdown.read_text()
    for link in re.findall(r"\]\((plots/[^)]+)\)", markdown):
        assert (tmp_path / "out" / link).is_file()
    assert "| A | 6 | 3 | 3.500 | 0.583 |" in markdown


def test_html_is_self_contained(tiny: Path, tmp_path: Path) -> None:
    paths = write_report(tiny, n_bootstrap=20, out_dir=tmp_path)
    page = paths.html.read_text()
    sources = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert sources, "the page shows its plots"
    assert all(s.startswith("data:image/png;base64,") for s in sources)
    text = re.sub(r'src="data:image/png;base64,[^"]*"', "", page)  # base64 may spell it
    assert "http" not in text.lower().replace("http-equiv", "")
    assert "<script" not in page and "<link" not in page
    assert len(re.findall(r"<img ", page)) == len(paths.plots)


def test_report_is_deterministic(tiny: Path, tmp_path: Path) -> None:
    first = write_report(tiny, n_bootstrap=30, out_dir=tmp_path / "a")
    second = write_report(tiny, n_bootstrap=30, out_dir=tmp_path / "b")
    for name, path in first.tables.items():
        assert path.read_bytes() == second.tables[name].read_bytes()
    assert first.markdown.read_text() == second.markdown.read_text()


def test_rewriting_removes_files_of_an_earlier_report(tiny: Path, tmp_path: Path) -> None:
    stale = tmp_path / "tables" / "old_table.csv"
    stale.parent.mkdir(parents=True)
    stale.write_text("x\n")
    write_report(tiny, n_bootstrap=10, out_dir=tmp_path)
    assert not stale.exists()


# ---------------------------------------------------------------- other shapes of run


def test_solo_run_shows_scores_and_benchmarks(tmp_path: Path) -> None:
    specs = [GameSpec(seats=["greedy"], scores=[s]) for s in (55, 65, 70, 72, 79, 80, 85, 90)]
    results = write_results(
        tmp_path, specs, manifest={"score_benchmarks": {"very good": 70, "exceptional": 80}}
    )
    report = build_report(results)
    assert "win_rate" not in report.tables and "ratings" not in report.tables
    assert "head_to_head" not in report.tables and "seat_win_rate" not in report.tables
    benchmarks = {
        r["benchmark"]: r for r in report.tables["score_benchmarks"].iter_rows(named=True)
    }
    assert benchmarks["very good"]["share"] == pytest.approx(6 / 8)
    assert benchmarks["exceptional"]["share"] == pytest.approx(3 / 8)
    wilson = wilson_interval(3, 8)
    assert (benchmarks["exceptional"]["low"], benchmarks["exceptional"]["high"]) == (
        wilson.low,
        wilson.high,
    )
    assert any(s.title == "Score benchmarks" for s in report.sections)
    assert any("Solo" in note for note in report.notes)
    text = summary_text(report)
    assert "greedy" in text and "74.500" in text
    paths = write_report(results)
    assert "score_by_bot" in paths.plots and "win_rate" not in paths.plots


def test_benchmarks_only_when_the_manifest_has_them(tmp_path: Path) -> None:
    results = write_results(tmp_path, [GameSpec(seats=["greedy"], scores=[60])])
    report = build_report(results)
    assert "score_benchmarks" not in report.tables
    assert score_benchmarks({"rules": {"score_benchmarks": {"good": 50}}}) == {"good": 50.0}
    assert score_benchmarks({}) == {}


def test_four_players(tmp_path: Path) -> None:
    specs = planted_specs({"w": 6.0, "x": 2.0, "y": -2.0, "z": -6.0}, players=4, blocks=8, seed=3)
    report = build_report(write_results(tmp_path, specs), n_bootstrap=30)
    seat = report.tables["balance_seat_advantage"]
    assert seat["seat"].to_list() == [0, 1, 2, 3]
    assert seat["win_share"].sum() == pytest.approx(1.0)
    assert seat["fair"].to_list() == [0.25] * 4
    assert report.tables["head_to_head_matrix"].shape == (4, 5)
    assert report.tables["win_rate"]["wins"].sum() == pytest.approx(len(specs))
    assert report.tables["ratings"]["bot"][0] == "w"


def test_run_without_game_specific_columns(tmp_path: Path) -> None:
    results = write_results(tmp_path, planted_specs({"x": 1.0, "y": 0.0}, blocks=3), cottage=False)
    report = build_report(results, n_bootstrap=10)
    assert "seat_columns_by_measure" not in report.tables
    assert "beds_by_bot" not in report.tables
    assert report.tables["game_length"]["metric"].to_list() == ["turns"]
    write_report(results, n_bootstrap=10)


def test_empty_run(tmp_path: Path) -> None:
    results = write_results(tmp_path, [])
    report = build_report(results)
    assert report.sections == []
    assert any("no games" in note for note in report.notes)
    paths = write_report(results)
    assert paths.plots == {}
    assert "no games" in paths.markdown.read_text()
    assert "no games" in paths.html.read_text()
    assert "no games" in summary_text(report)


def test_all_error_run(tmp_path: Path) -> None:
    specs = [
        GameSpec(
            seats=["x", "y"], scores=[0, 0], end="error", error="illegal action 7", error_seat=0
        )
        for _ in range(3)
    ]
    results = write_results(tmp_path, specs)
    report = build_report(results)
    assert "win_rate" not in report.tables
    assert rows_by(report.tables["end_status"], "end")["error"]["games"] == 3
    assert report.tables["errors"]["bot"].to_list() == ["x", "x", "x"]
    assert any("None of the 3 games" in note for note in report.notes)
    paths = write_report(results)
    assert "illegal action 7" in paths.markdown.read_text()


def test_long_tables_are_cut_in_the_page_but_whole_in_the_csv(tmp_path: Path) -> None:
    specs = [
        GameSpec(seats=["x", "y"], scores=[0, 0], end="error", error=f"e{i}", error_seat=1)
        for i in range(60)
    ]
    paths = write_report(write_results(tmp_path, specs, chunk_size=7))
    assert pl.read_csv(paths.tables["errors"]).height == 60
    assert "First 50 of 60 rows" in paths.markdown.read_text()


def test_markdown_table_escapes_pipes() -> None:
    table = pl.DataFrame({"name": ["a|b"], "value": [1.23456]})
    assert markdown_table(table).splitlines()[-1] == "| a\\|b | 1.235 |"


# ---------------------------------------------------------------- reading results


def test_load_tables_reads_every_table_and_the_manifest_its_name(tiny: Path) -> None:
    loaded = load_tables(tiny)
    assert set(loaded) == {"games", "seats", "beds"}
    assert loaded["games"].height == 7
    assert loaded["seats"].height == 14
    assert read_manifest(tiny)["name"] == "tiny-run"
    assert table_names(tiny) == ["games", "seats", "beds"]


def test_scan_of_a_missing_table_is_empty_with_core_columns(tmp_path: Path) -> None:
    results = write_results(tmp_path, [])
    games = scan(results, "games").collect()
    assert games.is_empty() and "winners" in games.columns
    assert scan(results, "beds").collect().is_empty()


def test_missing_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match="does not exist"):
        read_manifest(tmp_path / "nowhere")
    with pytest.raises(ResultsError, match="does not exist"):
        build_report(tmp_path / "nowhere")


def test_directory_without_manifest_is_not_a_results_directory(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match="not a results directory"):
        load_tables(tmp_path)


def test_unreadable_manifest_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(ResultsError, match="cannot read"):
        read_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps([1, 2]))
    with pytest.raises(ResultsError, match="JSON object"):
        read_manifest(tmp_path)


def test_a_file_is_not_a_results_directory(tmp_path: Path) -> None:
    file = tmp_path / "manifest.json"
    file.write_text("{}")
    with pytest.raises(ResultsError, match="is not a directory"):
        read_manifest(file)
