"""The notebook API returns the same tables the command line stores."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
import toygame

from cgsim.api import load_results, simulate
from cgsim.errors import ConfigError
from cgsim.play.config import validate_config

toygame.register()
CONFIG = {
    "name": "notebook",
    "game": "toy",
    "players": 2,
    "bots": [toygame.target(toygame.Greedy), toygame.target(toygame.Wanderer)],
    "games": 8,
    "workers": 1,
}


def test_simulate_returns_the_tables() -> None:
    result = simulate(CONFIG, games=4, seed=9)
    assert set(result) == {"games", "seats", "moves"}
    assert result["games"]["game_id"].to_list() == [0, 1, 2, 3]
    assert result["seats"].height == 8


def test_simulate_into_a_directory_then_load(tmp_path: Path) -> None:
    config = validate_config(CONFIG)
    result = simulate(config, out=tmp_path)
    loaded = load_results(tmp_path / "notebook")
    for name in result:
        assert result[name].equals(loaded[name])


def test_simulate_a_toml_file_as_a_run(tmp_path: Path) -> None:
    path = tmp_path / "pair.toml"
    seats = f'"{toygame.target(toygame.Greedy)}", "{toygame.target(toygame.Wanderer)}"'
    path.write_text(f'game = "toy"\nseats = [{seats}]\ngames = 4\nworkers = 1\n')
    result = simulate(path)
    assert result["games"].filter(pl.col("end") == "normal").height == 4
    with pytest.raises(ConfigError, match="bots: a tournament needs"):
        simulate(path, command="tournament")


def test_simulate_reraises_an_interruption(monkeypatch: pytest.MonkeyPatch) -> None:
    from cgsim.play.storage import ResultsStore

    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ResultsStore, "write_chunk", stop)
    with pytest.raises(KeyboardInterrupt):
        simulate(CONFIG)


def test_the_notebook_api_is_reachable_from_the_package() -> None:
    import cgsim
    from cgsim import api

    assert cgsim.simulate is api.simulate
    assert cgsim.load_results is api.load_results
