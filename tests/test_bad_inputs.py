"""Malformed inputs: every one gets exit code 2 and one line on stderr, before any game.

Table-driven through the console entry point (``cgsim.cli.main``), which is what a user
runs; a few cases also through a real subprocess, where a traceback would show.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.play.limits import cpu_count, workers_used

toygame.register()
GREEDY = toygame.target(toygame.Greedy)


def toy_config(folder: Path, body: str = "", name: str = "toy", **fields: str) -> Path:
    """A small, valid toy run config; ``fields`` replace its top-level values (TOML text),
    ``body`` is appended (tables)."""
    values = {
        "game": '"toy"',
        "players": "2",
        "seats": f'["{GREEDY}", "random"]',
        "games": "4",
        "workers": "1",
        "out": f"'{folder / 'results'}'",
    } | fields
    path = folder / f"{name}.toml"
    path.write_text("".join(f"{key} = {value}\n" for key, value in values.items()) + body)
    return path


def cottage_config(folder: Path, body: str, name: str = "cottage") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(f'players = 2\nseats = ["random", "random"]\ngames = 2\n{body}')
    return path


def a_file(folder: Path) -> Path:
    path = folder / "plain-file"
    path.write_text("not a folder\n")
    return path


Case = Callable[[Path], tuple[list[str], tuple[str, ...]]]

CONFIG_CASES: dict[str, Case] = {
    "binary config": lambda d: (
        ["run", str(_binary(d / "binary.toml"))],
        ("is not UTF-8 text", "binary.toml"),
    ),
    "games 10**12": lambda d: (
        ["run", str(toy_config(d, games="1000000000000"))],
        ("games = 1,000,000,000,000: allowed 1 to 10,000,000",),
    ),
    "games too many chunks": lambda d: (
        ["run", str(toy_config(d, games="1000000", chunk_size="1"))],
        ("1,000,000 chunks: allowed at most 20,000; raise chunk_size",),
    ),
    "cubes 767": lambda d: (
        ["validate", str(cottage_config(d, "[rules]\ncubes = 767\n"))],
        ("rules.cubes = 767: allowed 1 to 8",),
    ),
    "red_line -5": lambda d: (
        ["run", str(cottage_config(d, "[rules]\nred_line = -5\n"))],
        ("rules.red_line = -5: allowed 0 to 1000",),
    ),
    "turn_cap 0": lambda d: (
        ["run", str(cottage_config(d, "[rules]\nturn_cap = 0\n"))],
        ("rules.turn_cap = 0: allowed 1 to 2000",),
    ),
    "turn_cap huge": lambda d: (
        ["run", str(cottage_config(d, "[rules]\nturn_cap = 100000000\n"))],
        ("rules.turn_cap = 100000000: allowed 1 to 2000",),
    ),
    "kitchen turn_cap huge": lambda d: (
        [
            "run",
            str(cottage_config(d, 'game = "kitchen-garden"\n[rules]\nturn_cap = 100000\n')),
        ],
        ("rules.turn_cap = 100000: allowed an integer from 1 to 2000",),
    ),
    "time_limit inf": lambda d: (
        ["run", str(toy_config(d, time_limit="inf"))],
        ("time_limit = inf: allowed 0 to 3,600",),
    ),
    "time_limit nan": lambda d: (
        ["run", str(toy_config(d, time_limit="nan"))],
        ("time_limit = nan: allowed 0 to 3,600",),
    ),
    "workers 1000": lambda d: (
        ["run", str(toy_config(d)), "--workers", "1000"],
        ("workers = 1,000: allowed 0 to 256",),
    ),
    "run seed -1": lambda d: (
        ["run", str(toy_config(d)), "--seed", "-1"],
        ("seed = -1: allowed 0 to 9,223,372,036,854,775,807",),
    ),
    "run seed 2**63": lambda d: (
        ["run", str(toy_config(d)), "--seed", str(2**63)],
        ("seed = 9,223,372,036,854,775,808: allowed 0 to 9,223,372,036,854,775,807",),
    ),
    "players beyond the game": lambda d: (
        ["tournament", str(toy_config(d, players="1000000000", seats="[]", bots='["random"]'))],
        ("players = 1000000000: allowed 1 to 4 for toy",),
    ),
    "deeply nested config": lambda d: (
        ["validate", str(_write(d / "deep.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n"))],
        ("deep.toml: invalid TOML: arrays or tables nested too deep",),
    ),
    "huge component copies": lambda d: (
        ["play", "--components", str(_huge_copies(d))],
        ("copies = 10000000000; allowed: an integer from 1 to 500",),
    ),
    "binary components": lambda d: (
        ["play", "--components", str(_binary(d / "tiles.toml"))],
        ("components file", "tiles.toml", "is not UTF-8 text"),
    ),
    "binary kitchen cards": lambda d: (
        ["play", "--game", "kitchen-garden", "--components", str(_binary(d / "cards.toml"))],
        ("components file", "cards.toml", "is not UTF-8 text"),
    ),
    "kitchen deck count": lambda d: (
        ["play", "--game", "kitchen-garden", "--components", str(_kitchen_weeds(d, 10**9))],
        ("deck.weed: expected an integer from 0 to 100, got 1000000000",),
    ),
}

OPTION_CASES: dict[str, Case] = {
    "play seed -1": lambda d: (
        ["play", "--seed", "-1"],
        ("--seed = -1: allowed 0 to 9,223,372,036,854,775,807",),
    ),
    "bench games 0": lambda d: (
        ["bench", "--games", "0", "--no-parallel", "--game", "toy"],
        ("--games = 0: allowed 1 to 100,000",),
    ),
    "compare alpha 5": lambda d: (
        [
            "compare",
            str(toy_config(d)),
            str(toy_config(d, "", "b")),
            "--alpha",
            "5",
            "--out",
            str(d / "cmp"),
        ],
        ("--alpha = 5: allowed 0 to 1 (both ends excluded)",),
    ),
    "compare fail-on nosuch": lambda d: (
        [
            "compare",
            str(toy_config(d)),
            str(toy_config(d, "", "other")),
            "--fail-on",
            "nosuch:1",
            "--out",
            str(d / "cmp"),
        ],
        ("--fail-on 'nosuch': not a metric of this comparison; available: ", "mean_score"),
    ),
    "regress alpha 0": lambda d: (
        ["regress", str(d), "--alpha", "0"],
        ("--alpha = 0: allowed 0 to 1 (both ends excluded)",),
    ),
    "strength workers 1000": lambda d: (
        ["strength", "--workers", "1000", "--game", "toy"],
        ("--workers = 1,000: allowed 0 to 256",),
    ),
    "strength seed -1": lambda d: (
        ["strength", "--seed", "-1", "--game", "toy"],
        ("--seed = -1: allowed 0",),
    ),
    "golden games 0": lambda d: (
        ["golden", "record", "--out", str(d / "g"), "--games", "0", "--game", "toy"],
        ("--games = 0: allowed 1 to 1,000",),
    ),
}

OUTPUT_CASES: dict[str, Case] = {
    "run out under a file": lambda d: (
        ["run", str(toy_config(d)), "--out", str(a_file(d) / "sub")],
        ("results folder", "which is a file; expected a folder"),
    ),
    "run out /dev/null": lambda d: (
        ["run", str(toy_config(d)), "--out", "/dev/null"],
        ("results folder '/dev/null/toy' is under '/dev/null', which is not a folder",),
    ),
    "tournament out /proc": lambda d: (
        ["tournament", str(toy_config(d, bots=f'["{GREEDY}", "random"]')), "--out", "/proc/x"],
        ("results folder '/proc/x/toy': cannot create the folder",),
    ),
    "play record under /proc": lambda d: (
        ["play", "--game", "toy", "--record", "/proc/nonexistent/d/g.json"],
        ("--record '/proc/nonexistent/d/g.json': folder '/proc/nonexistent/d': cannot create",),
    ),
    "play record under a file": lambda d: (
        ["play", "--game", "toy", "--record", str(a_file(d) / "d" / "g.json")],
        ("--record", "which is a file; expected a folder"),
    ),
    "play record is a folder": lambda d: (
        ["play", "--game", "toy", "--record", str(d)],
        ("is a folder; expected a file name",),
    ),
    "balance out /proc": lambda d: (
        ["balance", str(_results(d)), "--out", "/proc/x"],
        ("--out '/proc/x': cannot create the folder",),
    ),
    "compare out under /dev/null": lambda d: (
        ["compare", str(toy_config(d)), str(toy_config(d, "", "b")), "--out", "/dev/null/c"],
        ("--out '/dev/null/c' is under '/dev/null', which is not a folder",),
    ),
    "sweep out under a file": lambda d: (
        ["sweep", str(toy_config(d, "[sweep]\nrounds = [2, 3]\n")), "--out", str(a_file(d))],
        ("--out", "is under", "which is a file"),
    ),
    "tune out /proc": lambda d: (
        ["tune", str(toy_config(d, _TUNE)), "--out", "/proc/x"],
        ("--out '/proc/x/toy/tune': cannot create the folder",),
    ),
    "golden out under a file": lambda d: (
        ["golden", "record", "--out", str(a_file(d) / "g"), "--game", "toy"],
        ("--out", "which is a file; expected a folder"),
    ),
}

_TUNE = "[tune]\ngames = 2\n[tune.free]\nrounds = [2, 3]\n[tune.targets]\nturns = 4\n"


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _binary(path: Path) -> Path:
    path.write_bytes(bytes(range(256)) * 4)
    return path


def _huge_copies(folder: Path) -> Path:
    from importlib import resources

    text = resources.files("cgsim.games.cottage").joinpath("components.toml").read_text()
    return _write(folder / "huge.toml", text.replace("copies = 2", "copies = 10000000000", 1))


def _kitchen_weeds(folder: Path, count: int) -> Path:
    from cgsim.games.kitchen.cards import default_path

    text = default_path().read_text().replace("weed = 6", f"weed = {count}")
    return _write(folder / "cards.toml", text)


def _results(folder: Path) -> Path:
    outcome = run_cli(["run", str(toy_config(folder, "", "done")), "--no-report"])
    assert outcome.code == 0, outcome.err
    return folder / "results" / "done"


def _no_games_played(folder: Path) -> None:
    """Nothing was written under the config's results folder: no game was played."""
    results = folder / "results"
    played = [p for p in results.rglob("manifest.json")] if results.exists() else []
    assert all(p.parent.name == "done" for p in played), played


@pytest.mark.parametrize("case", list(CONFIG_CASES), ids=str)
def test_bad_configs_and_component_files_are_refused(tmp_path: Path, case: str) -> None:
    args, fragments = CONFIG_CASES[case](tmp_path)
    assert_refused(run_cli(args), *fragments)
    _no_games_played(tmp_path)


@pytest.mark.parametrize("case", list(OPTION_CASES), ids=str)
def test_bad_options_are_refused_before_playing(tmp_path: Path, case: str) -> None:
    args, fragments = OPTION_CASES[case](tmp_path)
    assert_refused(run_cli(args), *fragments)
    _no_games_played(tmp_path)
    assert not (tmp_path / "cmp").exists()


@pytest.mark.parametrize("case", list(OUTPUT_CASES), ids=str)
def test_output_paths_are_checked_before_any_game(tmp_path: Path, case: str) -> None:
    args, fragments = OUTPUT_CASES[case](tmp_path)
    outcome = run_cli(args)
    assert_refused(outcome, *fragments)
    _no_games_played(tmp_path)
    assert "games" not in outcome.out


def test_seeds_follow_one_rule_in_every_command(tmp_path: Path) -> None:
    messages = [
        run_cli(["play", "--seed", str(2**63)]).err,
        run_cli(["bench", "--seed", str(2**63), "--game", "toy"]).err,
        run_cli(["strength", "--seed", str(2**63), "--game", "toy"]).err,
        run_cli(["run", str(toy_config(tmp_path)), "--seed", str(2**63)]).err,
    ]
    allowed = "9,223,372,036,854,775,808: allowed 0 to 9,223,372,036,854,775,807"
    assert all(allowed in message for message in messages), messages
    assert run_cli(["play", "--game", "toy", "--seed", str(2**63 - 1)]).code == 0


def test_the_header_prints_the_worker_count_used(tmp_path: Path) -> None:
    outcome = run_cli(["run", str(toy_config(tmp_path)), "--workers", "256", "--no-report"])
    assert outcome.code == 0, outcome.err
    used = workers_used(256, 4)
    assert used == min(cpu_count(), 4)
    assert f"; {used} worker{'s' if used > 1 else ''}; results in" in outcome.err
    manifest = json.loads((tmp_path / "results" / "toy" / "manifest.json").read_text())
    assert manifest["timings"]["workers"] == used


def test_play_record_makes_its_folder(tmp_path: Path) -> None:
    target = tmp_path / "new" / "deeper" / "game.json"
    assert run_cli(["play", "--game", "toy", "--record", str(target)]).code == 0
    assert json.loads(target.read_text())["format"] == "toy/1"


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "CONFIG"],
        ["play", "--seed", "-1"],
    ],
    ids=str,
)
def test_the_console_script_never_shows_a_traceback(tmp_path: Path, args: list[str]) -> None:
    binary = _binary(tmp_path / "binary.toml")
    command = [
        sys.executable,
        "-m",
        "cgsim.cli",
        *(str(binary) if a == "CONFIG" else a for a in args),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
