"""The README's "Write your own bot" example runs in a tournament exactly as written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cgsim.api import simulate

README = Path(__file__).resolve().parent.parent / "README.md"


def _example_source() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Write your own bot", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "the README's bot example is missing"
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
