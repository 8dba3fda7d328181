"""Sweeps: grids expand correctly, every point is checked and played on the same seeds."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from cgsim.errors import ConfigError
from cgsim.play.config import load_config, with_overrides
from cgsim.studies.sweep import SweepError, expand_sweep, run_sweep, sweep_table, write_sweep_report

COMPONENTS = Path("cgsim/games/cottage")


def config(tmp_path: Path, sweep: dict[str, object]):  # type: ignore[no-untyped-def]
    base = load_config("configs/smoke.toml", {"out": tmp_path, "games": 4, "workers": 1})
    return with_overrides(base, {"sweep": sweep})


def test_a_grid_expands_to_every_combination_in_declared_order(tmp_path: Path) -> None:
    points = expand_sweep(config(tmp_path, {"cat_limit": [1, 2, 3], "start_cats": [0, 2]}))
    assert len(points) == 6
    assert [p.values for p in points[:3]] == [
        {"cat_limit": 1, "start_cats": 0},
        {"cat_limit": 1, "start_cats": 2},
        {"cat_limit": 2, "start_cats": 0},
    ]
    assert points[0].name == "cat_limit-1__start_cats-0"
    assert points[0].config.rules == {"cat_limit": 1, "start_cats": 0}
    assert points[0].config.out == tmp_path / "smoke"
    assert {p.config.seed for p in points} == {7}
    assert all(p.config.sweep == {} for p in points)


def test_list_values_get_index_names_and_components_their_stem(tmp_path: Path) -> None:
    catalogue = COMPONENTS / "components.toml"
    points = expand_sweep(
        config(tmp_path, {"beehives": [[2, 1], [3, 1]], "components": [str(catalogue)]})
    )
    assert [p.name for p in points] == [
        f"beehives-0__components-{catalogue.stem}",
        f"beehives-1__components-{catalogue.stem}",
    ]
    assert points[1].config.components == catalogue


def test_bad_grids_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(SweepError, match=r"no \[sweep\] table"):
        expand_sweep(config(tmp_path, {}))
    with pytest.raises(ConfigError, match=r"sweep\.cat_limit"):
        expand_sweep(config(tmp_path, {"cat_limit": []}))
    with pytest.raises(ConfigError, match="sweep point cat_limit--1"):
        expand_sweep(config(tmp_path, {"cat_limit": [-1]}))
    with pytest.raises(ConfigError, match="unknown rule setting"):
        expand_sweep(config(tmp_path, {"cat_limitt": [1]}))


def test_a_sweep_runs_every_point_on_the_same_seeds_and_reports(tmp_path: Path) -> None:
    cfg = config(tmp_path, {"start_cats": [0, 2]})
    done = run_sweep(cfg, progress=False)
    seeds = [
        pl.read_parquet(result.results_dir / "games.parquet" / "*.parquet")["seed"].to_list()
        for _, result in done
    ]
    assert seeds[0] == seeds[1]
    table = sweep_table([p for p, _ in done], [r.results_dir for _, r in done])
    cats = table.filter(pl.col("metric") == "cats_used")
    assert cats["start_cats"].to_list() == ["0", "2"]
    paths = write_sweep_report(cfg, table, tmp_path / "smoke")
    assert "## mean_score" in paths["markdown"].read_text()
    assert (tmp_path / "smoke" / "plots" / "mean_score-vs-start_cats.png").is_file()


def test_a_grid_beyond_the_point_limit_is_refused(tmp_path: Path) -> None:
    grid: dict[str, object] = {"cat_limit": list(range(30)), "start_cats": list(range(20))}
    with pytest.raises(SweepError, match="sweep: 600 grid points; at most 500 are allowed"):
        expand_sweep(config(tmp_path, grid))
