"""The study commands end to end: good inputs write their outputs, bad ones give a single
clear line and exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cgsim.cli import app, main
from cgsim.reporting.verdict import VERDICT_HEAD

runner = CliRunner()
SMOKE = Path("configs/smoke.toml")


def write_config(tmp_path: Path, name: str, extra: str = "") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'name = "{name}"\nplayers = 2\nseats = ["random", "random"]\ngames = 20\n'
        f"seed = 7\nworkers = 1\n{extra}"
    )
    return path


def run_main(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    monkeypatch.setattr("sys.argv", ["cgsim", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    return int(exit_info.value.code or 0), capsys.readouterr().err


def test_compare_two_configs_then_their_results_directories(tmp_path: Path) -> None:
    a = write_config(tmp_path, "a")
    b = write_config(tmp_path, "b", "rules = { start_cats = 0 }\n")
    out = tmp_path / "cmp"
    result = runner.invoke(app, ["compare", str(a), str(b), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "cats_used" in result.output and "paired on 10 shared deals" in result.output
    for name in ("compare.md", "compare.csv", "compare.html", "compare_scores.png"):
        assert (out / name).is_file()
    again = runner.invoke(
        app, ["compare", str(out / "a"), str(out / "b"), "--out", str(tmp_path / "c2")]
    )
    assert again.exit_code == 0
    assert (tmp_path / "c2" / "compare.csv").read_text() == (out / "compare.csv").read_text()
    failing = runner.invoke(
        app,
        [
            "compare",
            str(out / "a"),
            str(out / "b"),
            "--out",
            str(tmp_path / "c3"),
            "--fail-on",
            "cats_used:0.5",
        ],
    )
    assert failing.exit_code == 1
    assert "beyond tolerance: cats_used" in failing.output


def test_compare_sprt_prints_the_llr_and_decides(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "compare",
            str(SMOKE),
            str(SMOKE),
            "--sprt",
            "--batch",
            "20",
            "--max-games",
            "100",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "s"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "LLR up" in result.output
    assert "no meaningful change" in result.output
    assert (tmp_path / "s" / "sprt_llr.png").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "configs/smoke.toml", "missing.toml"], "no such file or results directory"),
        (
            ["compare", "configs/smoke.toml", "configs/smoke.toml", "--fail-on", "x"],
            "expected metric:tolerance",
        ),
        (["compare", "tests", "configs/smoke.toml"], "a folder without manifest.json"),
        (["sweep", "configs/smoke.toml"], "no [sweep] table"),
        (["tune", "configs/smoke.toml"], "no [tune] table"),
        (["balance", "nowhere"], "does not exist"),
        (["regress", "nowhere"], "nowhere"),
        (["compare", "configs/smoke.toml", "configs/smoke.toml", "--sprt", "--h0", "2"], "h0"),
    ],
)
def test_bad_inputs_are_one_line_errors_with_exit_2(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and err.startswith("error: ")


def test_sweep_tune_and_balance_commands_write_their_reports(tmp_path: Path) -> None:
    sweep = write_config(
        tmp_path, "sw", "games = 4\n[sweep]\nstart_cats = [0, 2]\n".replace("games = 4\n", "")
    )
    result = runner.invoke(app, ["sweep", str(sweep), "--games", "4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sw" / "sweep.html").is_file()
    tune = write_config(
        tmp_path,
        "tu",
        "[tune]\ngames = 4\nrounds = 2\n[tune.free]\nstart_cats = [0, 2]\n"
        "[tune.targets]\ncats_used = 0\n",
    )
    result = runner.invoke(app, ["tune", str(tune), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "best settings: start_cats=0" in result.output
    assert (tmp_path / "tu" / "tune" / "tune.md").is_file()
    point = tmp_path / "sw" / "start_cats-0"
    result = runner.invoke(app, ["balance", str(point)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(VERDICT_HEAD)  # the verdict first, as on the page
    assert "balance_seat_advantage" in result.output
    assert (point / "balance.html").is_file()


def test_regress_with_identical_golden_games_says_so(tmp_path: Path) -> None:
    golden = tmp_path / "golden"
    assert (
        runner.invoke(app, ["golden", "record", "--out", str(golden), "--games", "1"]).exit_code
        == 0
    )
    result = runner.invoke(app, ["regress", str(golden), "--metric", "mean_score:1"])
    assert result.exit_code == 0
    assert "golden games identical" in result.output


def test_help_texts_keep_the_config_table_names() -> None:
    """Square brackets in help texts are markup to the help renderer unless escaped."""
    sweep = runner.invoke(app, ["sweep", "--help"], terminal_width=200)
    tune = runner.invoke(app, ["tune", "--help"], terminal_width=200)
    assert "[sweep]" in sweep.output
    assert "[tune.free]" in tune.output and "[tune.targets]" in tune.output


def test_sprt_on_a_results_directory_asks_for_configs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "manifest.json").write_text("{}")
    code, err = run_main(
        ["compare", str(tmp_path), "configs/smoke.toml", "--sprt"], monkeypatch, capsys
    )
    assert code == 2
    assert err == "error: --sprt plays games as it goes: give two TOML configs\n"
