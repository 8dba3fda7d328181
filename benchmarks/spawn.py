"""Run the probe script (:mod:`benchmarks.probe`) in a fresh process of an interpreter.

A fresh process per measurement: where a process's objects land in memory shifts its
speed for its whole life, and an installation other than this one can only be timed
from its own interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PROBE = Path(__file__).with_name("probe.py")
PROBE_SECONDS = 3600
"""A probe that runs longer than this is stuck, not slow."""


class ProbeError(Exception):
    """A probe process failed: its interpreter and the last line it wrote."""


def probe(python: Path, task: dict[str, Any], import_path: Sequence[str] = ()) -> dict[str, Any]:
    """Run one measurement under ``python`` in a fresh process started in a scratch folder;
    its JSON answer. ``import_path``: folders the process imports from before its own (this
    process's, for a probe of this build that must find what this process finds); without
    it, not even this process's ``PYTHONPATH``, which may name this checkout."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    folders = [folder for folder in import_path if folder]
    if folders:
        env["PYTHONPATH"] = os.pathsep.join(folders)
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [str(python), "-c", PROBE.read_text(encoding="utf-8"), json.dumps(task)],
            cwd=scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=PROBE_SECONDS,
            check=False,
        )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise ProbeError(f"the speed probe failed under {python}: {last}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def probe_here(task: dict[str, Any]) -> dict[str, Any]:
    """:func:`probe` under this interpreter, importing what this process imports."""
    return probe(Path(sys.executable), task, sys.path)


def match_task(
    game: str, seed: int, players: int, variant: dict[str, Any], games: int
) -> dict[str, Any]:
    """The probe's task for the match loop's figure (``loop_overhead``)."""
    return {
        "game": game,
        "seed": seed,
        "measure": "match",
        "players": players,
        "variant": variant,
        "games": games,
    }
