"""Hostile and broken bots and killed parents never break a run."""

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
from test_runner import GREEDY, make_config, run, tables

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
