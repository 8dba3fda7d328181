"""The shipped configs: one copy in ``configs/``, reached from the package by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import ConfigError
from cgsim.play.config import load_config
from cgsim.play.shipped import (
    DEFAULT_CONFIG,
    SHIPPED,
    config_path,
    shipped_config,
    shipped_names,
)

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def test_the_package_links_to_the_one_copy_in_configs() -> None:
    assert SHIPPED.is_symlink()
    assert SHIPPED.resolve() == (ROOT / "configs").resolve()
    assert DEFAULT_CONFIG.resolve() == (ROOT / "configs" / "default.toml").resolve()


def test_every_shipped_config_is_named_and_valid() -> None:
    names = shipped_names()
    assert {"default", "smoke", "solo", "kitchen-two", "studies/cat-limit-sweep"} <= set(names)
    assert "selfcheck/two" in names
    for name in names:
        assert load_config(name).games > 0, name


def test_a_name_finds_a_shipped_config_with_or_without_its_suffix() -> None:
    assert shipped_config("smoke") == SHIPPED / "smoke.toml"
    assert shipped_config("smoke.toml") == SHIPPED / "smoke.toml"
    assert shipped_config("studies/cat-limit-sweep") == SHIPPED / "studies" / "cat-limit-sweep.toml"
    for outside in ("", "nowhere", "../pyproject", "/etc/passwd", "./smoke", "studies/../smoke"):
        assert shipped_config(outside) is None, outside


def test_an_existing_file_wins_over_a_shipped_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert config_path("smoke") == SHIPPED / "smoke.toml"
    Path("smoke").write_text('players = 1\nvariant = { solo = true }\nseats = ["random"]\n')
    assert config_path("smoke") == Path("smoke")
    assert load_config("smoke").players == 1
    assert config_path(None) == DEFAULT_CONFIG
    assert config_path("nowhere.toml") == Path("nowhere.toml")


def test_a_config_neither_on_disk_nor_shipped_lists_the_shipped_names() -> None:
    with pytest.raises(ConfigError, match=r"'nowhere.toml' does not exist, nor .*smoke, solo"):
        load_config("nowhere.toml")


def test_validate_without_a_config_checks_the_shipped_default() -> None:
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"{DEFAULT_CONFIG}: valid"
    assert "tournament: 4 bots" in result.output


def test_compare_accepts_shipped_names() -> None:
    result = runner.invoke(app, ["compare", "smoke", "nowhere"])
    assert result.exit_code != 0
    assert "'nowhere': no such file or results directory" in str(result.exception)
