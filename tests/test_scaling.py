"""Player counts: every count the game allows is played on its seed, the measures follow
the game's known structure (the toy's length grows with the count by construction), a
seat's edge is measured where there are seats to compare, and bad input is one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.play.config import RunConfig, validate_config
from cgsim.studies.scaling import ScalingError, run_scaling, scaling_points, write_scaling_report

toygame.register()
GREEDY = toygame.target(toygame.Greedy)


def make_config(out: Path, **fields: Any) -> RunConfig:
    base: dict[str, Any] = {
        "name": "counts",
        "game": "toy",
        "players": 2,
        "seats": [GREEDY, GREEDY],
        "games": 24,
        "seed": 4,
        "workers": 1,
        "out": out,
    }
    return validate_config(base | fields)


def test_every_count_is_played_and_charted(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    assert [p.players for p in scaling_points(config)] == [1, 2, 3, 4]
    table = run_scaling(config, progress=False)
    turns = table.filter(pl.col("metric") == "turns").sort("players")
    # 4 rounds of one turn per seat: the toy's length is exactly 4 turns per player.
    assert turns["estimate"].to_list() == [4.0, 8.0, 12.0, 16.0]
    waiting = table.filter(pl.col("metric") == "waiting_turns").sort("players")
    assert waiting["estimate"].to_list() == [0.0, 4.0, 8.0, 12.0]
    edge = table.filter(pl.col("metric") == "first_seat_edge")
    assert edge["players"].to_list() == [2, 3, 4]
    fairness = table.filter(pl.col("metric") == "seat_fairness")
    pairs = zip(fairness["estimate"].to_list(), edge["estimate"].to_list(), strict=True)
    assert all(worst >= abs(first) - 1e-12 for worst, first in pairs)
    paths = write_scaling_report(config, table, tmp_path / "counts")
    assert (tmp_path / "counts" / "plots" / "turns-by-players.png").is_file()
    assert "waiting_turns" in paths["markdown"].read_text()


def test_bad_scaling_input_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ScalingError, match="give seats"):
        scaling_points(make_config(tmp_path, seats=[]))
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nplayers = 2\nvariant = { children = [5, "none"] }\n')
    assert_refused(run_cli(["scaling", str(bad)]), "variant")
