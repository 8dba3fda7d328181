"""Hostile and broken bots never break a run: killed parents, hung bots, bots that end
their process, raise KeyboardInterrupt or tamper with the engine."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import toygame
from buggy_bots import site
from test_runner import GREEDY, WANDERER, make_config, run, tables
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import GameSpec
from cgsim.play.pool import WorkerContext, play_in_worker

toygame.register()
TESTS = Path(__file__).parent
LINUX = sys.platform.startswith("linux")


def _gone(pid: int) -> bool:
    """Whether a process has ended (a zombie waiting for its reaper counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _kept(partial: Path) -> int:
    """Games in a partial chunk's file (0 while it is being replaced)."""
    try:
        return pl.read_parquet(partial).height
    except (OSError, pl.exceptions.PolarsError):
        return 0


RUN_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[2])
import toygame
toygame.register()
from cgsim.play import runner
from cgsim.play.config import validate_config
from cgsim.play.schedules import plan_for
runner.PARTIAL_EVERY = 0.0
config = validate_config(json.loads(sys.argv[1]))
runner.run_games(config, plan_for(config, "run"), progress=False)
"""


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_a_killed_parent_leaves_no_workers_and_loses_little(tmp_path: Path) -> None:
    slow = {"bot": toygame.target(toygame.Slow), "params": {"delay": 0.02}}
    fields: dict[str, Any] = {"seats": [GREEDY, slow], "games": 60, "chunk_size": 1000}
    fields["workers"] = 2
    config = make_config(tmp_path / "killed", **fields)
    data = {**config.model_dump(mode="json")}
    parent = subprocess.Popen([sys.executable, "-c", RUN_SCRIPT, json.dumps(data), str(TESTS)])
    partial = config.results_dir / "partial" / "chunk-000000" / "games.parquet"
    try:
        assert _wait_for(lambda: _kept(partial) >= 4, 60)
        workers = _children(parent.pid)
        assert len(workers) == 2
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    assert _wait_for(lambda: all(_gone(pid) for pid in workers), 5.0), "orphaned workers"
    kept = _kept(partial)
    assert kept >= 4  # the games kept on disk before the kill
    resumed = run(config)
    assert resumed.games_played <= 60 - kept
    clean = make_config(tmp_path / "clean", **fields)
    run(clean)
    first, second = tables(config.results_dir), tables(clean.results_dir)
    for name in second:
        assert first[name].equals(second[name]), name


ORPHAN_SCRIPT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], str(__import__("os").getpid())])
print(child.pid, flush=True)
time.sleep(60)
"""
GRANDCHILD_SCRIPT = """
import sys, time
from cgsim.play.lifeline import exit_with_parent
exit_with_parent(int(sys.argv[1]), kernel=False, every=0.1)
time.sleep(60)
"""


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_the_portable_lifeline_ends_an_orphan() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT, GRANDCHILD_SCRIPT], stdout=subprocess.PIPE
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    time.sleep(0.5)
    assert not _gone(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert _wait_for(lambda: _gone(child), 5.0)


@pytest.mark.parametrize("bot", [toygame.Stubborn, toygame.Swallow])
def test_a_bot_that_defeats_the_alarm_is_stopped_by_the_parent(
    tmp_path: Path, bot: type[Any]
) -> None:
    hung = {"bot": toygame.target(bot), "params": {"at": 2}}
    pool = [GREEDY, WANDERER, hung]
    config = make_config(
        tmp_path / "hung", seats=[], bots=pool, games=6, time_limit=0.05, workers=2
    )
    result = run(config, "tournament")
    assert (result.status, result.errors, result.games_done) == ("complete", 4, 6)
    honest_pool = [*pool[:2], f"{WANDERER}:bias=1"]
    honest = make_config(tmp_path / "honest", seats=[], bots=honest_pool, games=6)
    run(honest, "tournament")
    played = tables(config.results_dir)
    _same_honest_games(played, tables(honest.results_dir), bot.__name__)
    assert set(played["games"]["error"].drop_nulls()) == {
        "did not return within 1.05 s (the time limit of 0.05 s and a grace); "
        "its worker was stopped"
    }


def _same_honest_games(
    played: dict[str, pl.DataFrame], honest: dict[str, pl.DataFrame], culprit: str
) -> None:
    """Games without the culprit equal those of a run without it; its games are its errors."""
    games = played["games"]
    mine = pl.col("seats").list.eval(pl.element().str.contains(culprit)).list.any()
    others = games.filter(~mine)
    assert set(others["end"].to_list()) <= {"normal", "stalled"}  # whole games
    expected = honest["games"].filter(pl.col("game_id").is_in(others["game_id"].implode()))
    assert others.height and others.equals(expected)
    for row in games.filter(mine).iter_rows(named=True):
        assert row["end"] == "error" and culprit in row["seats"][row["error_seat"]]


def test_a_bot_raising_keyboard_interrupt_is_its_seats_error(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    interrupt = toygame.target(toygame.Interrupt)
    config = make_config(tmp_path, seats=[interrupt, GREEDY], games=4)
    result = run(config)
    assert (result.status, result.errors) == ("complete", 4)
    games = tables(config.results_dir)["games"]
    where = site(toygame.Interrupt.misbehave, "raise")
    called = site(toygame.Faulty.choose, "misbehave")
    # Not placed in the game: the loop leaves a KeyboardInterrupt to the caller.
    assert set(games["error"].to_list()) == {f"KeyboardInterrupt; at {where} (from {called})"}
    for row in games.iter_rows(named=True):
        assert row["seats"][row["error_seat"]] == interrupt
    assert "Traceback" not in capfd.readouterr().err


def test_tampering_is_the_bots_error_and_corrupts_nothing(tmp_path: Path) -> None:
    pool = [GREEDY, WANDERER, toygame.target(toygame.Tamper)]
    config = make_config(tmp_path / "tampered", seats=[], bots=pool, games=18)
    run(config, "tournament")
    played = tables(config.results_dir)
    honest_pool = [*pool[:2], f"{WANDERER}:bias=1"]
    honest = make_config(tmp_path / "honest", seats=[], bots=honest_pool, games=18)
    run(honest, "tournament")
    _same_honest_games(played, tables(honest.results_dir), "Tamper")
    reasons = set(played["games"].filter(pl.col("end") == "error")["error"].to_list())
    assert reasons == {"changed rules (tampering with the engine)"}


def test_a_cottage_bot_inflating_the_scores_is_caught(tmp_path: Path) -> None:
    pool = ["greedy", "random", toygame.target(toygame.Inflate)]
    fields: dict[str, Any] = {"game": "cottage-garden", "seats": [], "games": 6}
    config = make_config(tmp_path / "inflated", bots=pool, **fields)
    run(config, "tournament")
    played = tables(config.results_dir)
    honest = make_config(tmp_path / "honest", bots=[*pool[:2], "greedy:turn_value=1"], **fields)
    run(honest, "tournament")
    _same_honest_games(played, tables(honest.results_dir), "Inflate")
    assert set(played["games"]["error"].drop_nulls()) == {
        "changed rules.settings (tampering with the engine)"
    }
    assert played["seats"]["score"].max() < 100  # type: ignore[operator]


def test_play_in_worker_survives_a_bot_that_ends_its_process() -> None:
    specs = (resolve_bot(GREEDY, "toy"), resolve_bot(toygame.target(toygame.KillAlways), "toy"))
    context = WorkerContext("toy", toygame.GAME.make_rules(2, {}), specs, True, 0.0)
    played = play_in_worker(context, GameSpec(0, 0, seed=5, bot_seed=5, seats=(0, 1)))
    row = played.games.row(0)
    assert (row["end"], row["error_seat"]) == ("error", 1)
    assert "exit code 4" in row["error"]


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        (toygame.KillAlways, "seat 1 (toygame:KillAlways): the worker process died 2 times"),
        (toygame.Interrupt, "seat 1 (toygame:Interrupt): KeyboardInterrupt"),
        (toygame.Quit, "seat 1 (toygame:Quit): SystemExit: 3"),
    ],
)
def test_cgsim_play_says_what_a_bot_did(bot: type[Any], message: str) -> None:
    bots = f"{GREEDY},{toygame.target(bot)}"
    result = CliRunner().invoke(app, ["play", "--game", "toy", "--bots", bots])
    assert result.exit_code == 1
    assert f"game ended in error: {message}" in result.output
    assert "Traceback" not in result.output
