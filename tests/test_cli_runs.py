"""The run, tournament, validate and bots commands, with good and bad input."""

from __future__ import annotations

import importlib.machinery
import json
import sys
import types
from pathlib import Path

import pytest
import toygame
from typer.testing import CliRunner

from cgsim.cli import app, main
from cgsim.errors import ConfigError, UnknownBotError
from cgsim.play.storage import ResultsStore

toygame.register()
GREEDY = toygame.target(toygame.Greedy)
WANDERER = toygame.target(toygame.Wanderer)
runner = CliRunner()


def write_config(tmp_path: Path, body: str = "", name: str = "pair") -> Path:
    text = (
        f'game = "toy"\nplayers = 2\nseats = ["{GREEDY}", "{WANDERER}:bias=0.5"]\n'
        f'bots = ["{GREEDY}", "{WANDERER}", "{WANDERER}:bias=0.9"]\n'
        f"games = 6\nchunk_size = 4\nworkers = 1\nout = '{tmp_path / 'results'}'\n{body}"
    )
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def test_run_plays_prints_a_summary_and_exits_0(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(write_config(tmp_path)), "--no-report"])
    assert result.exit_code == 0, result.output
    assert "run complete: 6/6 games" in result.stdout
    assert GREEDY in result.stdout
    assert (tmp_path / "results" / "pair" / "manifest.json").is_file()


def test_tournament_with_overrides(tmp_path: Path) -> None:
    out = tmp_path / "elsewhere"
    args = ["tournament", str(write_config(tmp_path)), "--games", "12", "--workers", "2"]
    args += ["--seed", "5", "--out", str(out), "--records", "--no-report"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "pair" / "manifest.json").read_text())
    assert (manifest["command"], manifest["games_planned"], manifest["run_seed"]) == (
        "tournament",
        12,
        5,
    )
    assert manifest["config"]["workers"] == 2 and manifest["config"]["records"] is True
    assert list((out / "pair" / "records").glob("chunk-*.jsonl.zst"))


def test_rerun_resumes_and_fresh_starts_over(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    assert runner.invoke(app, ["run", str(path), "--no-report"]).exit_code == 0
    again = runner.invoke(app, ["run", str(path), "--no-report"])
    assert again.exit_code == 0 and "played 0 games" in again.stdout
    refused = runner.invoke(app, ["run", str(path), "--seed", "9", "--no-report"])
    assert refused.exit_code != 0 and "--fresh" in str(refused.exception)
    fresh = runner.invoke(app, ["run", str(path), "--seed", "9", "--fresh", "--no-report"])
    assert fresh.exit_code == 0 and "played 6 games" in fresh.stdout


def test_error_games_exit_1_and_fail_fast_stops(tmp_path: Path) -> None:
    crash = toygame.target(toygame.Crash)
    path = write_config(tmp_path, name="crashy")
    path.write_text(path.read_text().replace(f'"{WANDERER}:bias=0.5"', f'"{crash}"', 1))
    result = runner.invoke(app, ["run", str(path), "--no-report"])
    assert result.exit_code == 1
    assert "6 ended in error" in result.stdout and "ValueError: boom" in result.stdout
    stopped = runner.invoke(app, ["run", str(path), "--fresh", "--fail-fast", "--no-report"])
    assert stopped.exit_code == 1 and "run stopped" in stopped.stdout


def test_interrupted_run_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ResultsStore, "write_chunk", stop)
    result = runner.invoke(app, ["run", str(write_config(tmp_path)), "--no-report"])
    assert result.exit_code == 130
    assert "run the same command to resume" in result.stdout


def test_report_is_written_when_available(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    written: list[Path] = []
    module = types.ModuleType("cgsim.reporting.report")
    module.__spec__ = importlib.machinery.ModuleSpec("cgsim.reporting.report", None)
    module.write_report = written.append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cgsim.reporting.report", module)
    path = write_config(tmp_path)
    assert runner.invoke(app, ["run", str(path)]).exit_code == 0
    assert written == [tmp_path / "results" / "pair"]
    assert runner.invoke(app, ["run", str(path), "--fresh", "--no-report"]).exit_code == 0
    assert len(written) == 1


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        ("colour = 'red'\n", ConfigError, "colour: unknown key; allowed keys:"),
        (
            "time_limit = -1\n",
            ConfigError,
            "time_limit = -1: allowed 0 to 3,600 (seconds per decision, 0 = none)",
        ),
    ],
)
def test_bad_configs_are_user_errors(
    tmp_path: Path, body: str, error: type[Exception], message: str
) -> None:
    for command in ("run", "tournament", "validate"):
        result = runner.invoke(app, [command, str(write_config(tmp_path, body))])
        assert isinstance(result.exception, error) and message in str(result.exception)


def test_unknown_bot_and_bad_param(tmp_path: Path) -> None:
    unknown = write_config(tmp_path, name="unknown")
    unknown.write_text(unknown.read_text().replace(f'"{GREEDY}"', '"toy-nosuch"', 1))
    result = runner.invoke(app, ["run", str(unknown)])
    assert isinstance(result.exception, UnknownBotError)
    assert "seats[0]: unknown bot 'toy-nosuch'; known bots for toy:" in str(result.exception)
    bad = write_config(tmp_path, name="bad")
    bad.write_text(bad.read_text().replace("bias=0.9", "depth=deep"))
    result = runner.invoke(app, ["tournament", str(bad)])
    assert isinstance(result.exception, ConfigError)
    assert "bots[2]: bot 'toygame:Wanderer' parameter depth='deep'" in str(result.exception)
    assert "depth (int, default 1)" in str(result.exception)


def test_user_errors_exit_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["cgsim", "run", str(write_config(tmp_path, "gmaes = 3\n"))])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_validate_prints_the_resolved_settings(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(write_config(tmp_path))])
    assert result.exit_code == 0, result.output
    assert '"rounds": 4' in result.stdout and '"name": "pair"' in result.stdout
    assert f"{WANDERER}:bias=0.9" in result.stdout
    assert "run: seats" in result.stdout and "tournament: 3 bots" in result.stdout
    assert result.stdout.rstrip().endswith("valid")
    bad_rule = write_config(tmp_path, "rules = { speed = 3 }\n", name="rule")
    result = runner.invoke(app, ["validate", str(bad_rule)])
    assert isinstance(result.exception, ConfigError) and "rules.speed" in str(result.exception)


def test_bots_lists_names_descriptions_and_parameters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = runner.invoke(app, ["bots"])
    assert result.exit_code == 0
    assert "random: uniform over the legal actions" in result.stdout
    assert "no parameters" in result.stdout
    dist = tmp_path / "demo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: demo\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[cgsim.bots]\nplugin-bot = plugin_pkg:PluginBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    toy = runner.invoke(app, ["bots", "--game", "toy"])
    assert "plugin-bot: a bot from an installed plugin" in toy.stdout
    assert "strength: int = 1  how many times to think" in toy.stdout
    assert "greedy" not in toy.stdout
    unknown = runner.invoke(app, ["bots", "--game", "chess"])
    assert isinstance(unknown.exception, ConfigError)
    assert str(unknown.exception).startswith("--game 'chess': unknown game; known games: ")
