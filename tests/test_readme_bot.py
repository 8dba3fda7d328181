"""The "Write your own bot" example of docs/bots.md runs in a tournament exactly as written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cgsim.api import simulate

PAGE = Path(__file__).resolve().parent.parent / "docs" / "bots.md"


def _example_source() -> str:
    text = PAGE.read_text(encoding="utf-8")
    match = re.search(r"## Write your own bot\n.*?```python\n(.*?)```", text, re.DOTALL)
    assert match, "docs/bots.md's bot example is missing"
    return match.group(1)


def test_the_readme_bot_is_about_30_lines() -> None:
    lines = [line for line in _example_source().splitlines() if line.strip()]
    assert 15 <= len(lines) <= 40


def test_the_readme_bot_plays_a_tournament_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mybots.py").write_text(_example_source(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "mine.toml"
    config.write_text(
        'name = "mine"\nplayers = 2\nbots = ["mybots:Filler:tile_bonus=3", "random"]\n'
        "games = 4\nseed = 3\nworkers = 1\n",
        encoding="utf-8",
    )
    tables = simulate(config, out=tmp_path / "results")
    seats = tables["seats"]
    assert set(seats["bot"]) == {"mybots:Filler:tile_bonus=3.0", "random"}
    assert (tables["games"]["end"] != "error").all()
    filler = seats.filter(seats["bot"] == "mybots:Filler:tile_bonus=3.0")["score"].mean()
    assert filler is not None
    sys.modules.pop("mybots", None)
