"""Every command reads a list of bots one way: ``module:Class`` specs and a spec's
parameters stay whole (``cgsim.play.bot_registry.split_bot_list``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.play.bot_registry import split_bot_list

toygame.register()
GREEDY = toygame.target(toygame.Greedy)
WANDERER = toygame.target(toygame.Wanderer)
MIXED = f"random,{GREEDY},greedy:pots=1.5,cats=2,{WANDERER}:bias=0.5,depth=2"
SPLIT = ["random", GREEDY, "greedy:pots=1.5,cats=2", f"{WANDERER}:bias=0.5,depth=2"]


class Taken(Exception):
    """Stops a command once it has handed over what it read."""


def test_split_keeps_class_paths_and_parameters() -> None:
    assert split_bot_list(MIXED) == SPLIT
    with pytest.raises(Exception, match="--leave-out 'random,': empty bot name"):
        split_bot_list("random,", "--leave-out")


def test_strength_takes_class_paths_in_a_list(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def take(bots: Any, **options: Any) -> None:
        seen.append(bots)
        raise Taken

    monkeypatch.setattr("cgsim.commands.strength.run_strength", take)
    for args in (["--bots", MIXED], ["--bots", "random", "--bots", ",".join(SPLIT[1:])]):
        with pytest.raises(Taken):
            run_cli(["strength", "--quiet", *args])
    assert seen == [SPLIT, SPLIT]


def test_report_leave_out_takes_labels_with_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def take(results: Path, **options: Any) -> None:
        seen.append(options["leave_out"])
        raise Taken

    monkeypatch.setattr("cgsim.commands.reports.require_results_dir", Path)
    monkeypatch.setattr("cgsim.commands.reports.require_output_dir", lambda path, what: path)
    monkeypatch.setattr("cgsim.reporting.report.build_report", take)
    with pytest.raises(Taken):
        run_cli(["report", "anywhere", "--leave-out", MIXED])
    assert seen == [SPLIT]


def test_tournament_takes_its_pool_on_the_command_line(tmp_path: Path) -> None:
    config = tmp_path / "pool.toml"
    config.write_text(
        f'game = "toy"\nplayers = 2\nseats = ["{GREEDY}", "{GREEDY}"]\ngames = 6\n'
        f"workers = 1\nout = '{tmp_path}'\n"
    )
    pool = f"{GREEDY},{WANDERER}:bias=0.5,depth=2"
    outcome = run_cli(["tournament", str(config), "--bots", pool, "--bots", WANDERER])
    assert outcome.code == 0, outcome.err
    manifest = json.loads((tmp_path / "pool" / "manifest.json").read_text())
    assert manifest["command"] == "tournament"
    assert manifest["bots"] == [GREEDY, f"{WANDERER}:bias=0.5,depth=2", WANDERER]
    refused = run_cli(["tournament", str(config), "--bots", "nobody", "--fresh"])
    assert_refused(refused, "bots[0]", "nobody")
    assert "--bots" not in run_cli(["run", "--help"]).out
