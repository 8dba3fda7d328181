"""What a Dask worker runs: the local pool's own game playing, one pool per thread.

A Dask task runs in a thread of the worker, where no alarm can be set (the time limit)
and where a bot's ``os._exit`` would end the whole worker. So each worker thread keeps a
:class:`~cgsim.play.pool.WorkerPool` of one process and plays each batch through it
(:func:`~cgsim.play.pool.play_all`): the time limit, the watch that stops a bot past it,
the seal against tampering, isolation mode, and the retry of a dead process's games one
by one (a game that kills two is its bot's error) all hold on a cluster exactly as
locally, with no second copy of them. The pool's process dies with its worker.

Nothing here imports Dask: these are plain functions the parent submits.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence

from cgsim.games.registry import get_game
from cgsim.play.match import GameSpec
from cgsim.play.pool import Batch, WorkerContext, WorkerPool, play_all
from cgsim.version import __version__

_pools: dict[int, tuple[str, WorkerPool]] = {}
"""Per worker thread: the run it plays for and its pool (replaced when a new run comes)."""
_lock = threading.Lock()


def _pool_for(run: str, context: WorkerContext) -> WorkerPool:
    thread = threading.get_ident()
    with _lock:
        held = _pools.get(thread)
    if held is not None and held[0] == run:
        return held[1]
    if held is not None:
        held[1].close()
    pool = WorkerPool(1, context).__enter__()
    with _lock:
        _pools[thread] = (run, pool)
    return pool


def play_batch(run: str, context: WorkerContext, specs: Sequence[GameSpec]) -> Batch:
    """Play a batch of run ``run``'s games (a Dask task): flat rows back, never states."""
    return play_all(_pool_for(run, context), specs)


def versions(games: Sequence[str]) -> dict[str, str]:
    """This worker's cgsim version and each game's engine version (``-`` when unknown)."""
    found = {"cgsim": __version__}
    for game in games:
        try:
            found[game] = get_game(game).info.version
        except Exception:  # unknown here, or its module (a run-time game's) not importable
            found[game] = "-"
    return found


def missing_modules(modules: Sequence[str]) -> list[str]:
    """The modules this worker cannot import (a bot's module not installed here)."""
    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception:  # any failure to import means the bot cannot be played here
            missing.append(module)
    return missing


def nothing() -> None:
    """An empty task: what the scheduler's own cost per task is measured with."""
