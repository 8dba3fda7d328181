"""Kitchen Garden through the generic machinery: tournament, report, compare, sweep, replay."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from cgsim.cli import app

runner = CliRunner()


def _config(folder: Path, name: str, extra: str = "") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\ngame = "kitchen-garden"\nplayers = 2\n'
        'bots = ["kitchen-greedy", "random"]\ngames = 8\nseed = 4\nworkers = 1\n' + extra,
        encoding="utf-8",
    )
    return path


def test_a_kitchen_tournament_writes_results_and_a_report(tmp_path: Path) -> None:
    config = _config(tmp_path, "kg")
    result = runner.invoke(app, ["tournament", str(config), "--out", str(tmp_path), "--records"])
    assert result.exit_code == 0, result.output
    report = (tmp_path / "kg" / "report.md").read_text(encoding="utf-8")
    assert "Win rate per bot" in report and "Win rate by task" in report
    records = sorted((tmp_path / "kg" / "records").glob("*.jsonl.zst"))
    replayed = runner.invoke(app, ["replay", str(records[0]), "--turn", "3"])
    assert replayed.exit_code == 0, replayed.output
    assert "=== turn 3 ===" in replayed.output


def test_kitchen_setups_compare_and_sweep_on_common_seeds(tmp_path: Path) -> None:
    a = _config(tmp_path, "a")
    b = _config(tmp_path, "b", "[rules]\nhand_limit = 6\n")
    compared = runner.invoke(app, ["compare", str(a), str(b), "--out", str(tmp_path / "cmp")])
    assert compared.exit_code == 0, compared.output
    assert (tmp_path / "cmp" / "compare.csv").is_file()
    sweep = _config(tmp_path, "sw", "[sweep]\nhand_limit = [4, 6]\n")
    swept = runner.invoke(app, ["sweep", str(sweep), "--out", str(tmp_path / "sweeps")])
    assert swept.exit_code == 0, swept.output
