"""The Dask backend: the local pool's tasks played on a Dask cluster.

The parent keeps every job it has locally: it derives each game's spec, cuts the games
into batches (:class:`~cgsim.play.pool.TaskSource`, sized as locally), writes the
chunks, manifest and records. Workers only play batches (:mod:`cgsim.play.dask_worker`)
and send back flat rows, so the tables are those of the local pool, byte for byte.

- **Backpressure**: one batch per worker thread is in flight, never a future per game.
- **A lost worker** (its machine gone, killed): Dask reports ``KilledWorker`` for its
  batch, which is played again under the local pool's rule
  (:func:`~cgsim.play.pool.retry_after_death`). A local cluster's scheduler reports the
  first death (``allowed-failures`` 0), so a game that kills two workers is an error,
  as locally. A bot ending its own process never reaches this: that is the process of
  the worker's own pool (see :mod:`cgsim.play.dask_worker`).
- **Checked first**: the scheduler is reached within :data:`CONNECT_SECONDS`, every
  worker runs this cgsim and engine version, and a ``module:Class`` bot importable here
  but not there is shipped (``Client.upload_file``) or refused, all before anything is
  written.
- **Ctrl-C** cancels the futures in flight; a lost scheduler raises :class:`BackendLost`
  once the finished batches are handed over, so the runner keeps them.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import sys
import tempfile
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import dask
from distributed import Client, Future, KilledWorker, LocalCluster, WorkerPlugin, as_completed

from cgsim.errors import BackendLost, ConfigError
from cgsim.games.registry import get_game, register_game, registered_target
from cgsim.play import dask_worker
from cgsim.play.limits import workers_used
from cgsim.play.pool import (
    MAX_ATTEMPTS,
    PREFETCH,
    Batch,
    Task,
    TaskSource,
    WorkerContext,
    error_batch,
    retry_after_death,
)
from cgsim.version import __version__

CONNECT_SECONDS = 5.0
"""How long reaching a scheduler may take before it is called unreachable."""
WORKERS_SECONDS = 10.0
"""How long a scheduler may take to have a first worker."""
SHIPPED_WITH_CGSIM = ("cgsim", "bots")
"""Top-level packages every worker has (its cgsim version is checked)."""

T = TypeVar("T")
R = TypeVar("R")


_clients: dict[tuple[str | None, int], Client] = {}
"""Clients of this process, by scheduler (None: a local cluster) and local cluster size:
a study's many runs share one cluster."""


def close_clients() -> None:
    """Close every client and local cluster this process started (quietly: a closing
    cluster's own log lines would otherwise end every command's output)."""
    if _clients:
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
    for client in list(_clients.values()):
        cluster = client.cluster
        with contextlib.suppress(Exception):
            client.close(timeout=5)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=5)
    _clients.clear()


atexit.register(close_clients)


LOCAL_SCHEDULER = {"distributed.scheduler.allowed-failures": 0}
"""A local cluster's scheduler reports a worker's first death, as the local pool counts
deaths."""
BATCH_SECONDS = 1.0
"""How long a Dask batch should last: one task per worker thread is in flight (so that a
worker's death is blamed on the one batch it was playing), and the wait for the next
task is then a small share of a second-long batch."""


def _local_cluster(workers: int) -> Client:
    """A cluster of ``workers`` processes on this machine, one thread each, with the
    local pool's rule for deaths (:data:`LOCAL_SCHEDULER`)."""
    with dask.config.set(LOCAL_SCHEDULER):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    return Client(cluster, set_as_default=False)


def _remote(scheduler: str) -> Client:
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_SECONDS}s"}):
            client = Client(scheduler, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise ConfigError(
            f"--scheduler {scheduler}: cannot reach a Dask scheduler there within "
            f"{CONNECT_SECONDS:g} s ({_one_line(error)}); start one with 'dask scheduler'"
        ) from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except (OSError, TimeoutError):
        client.close()
        raise ConfigError(
            f"--scheduler {scheduler}: the scheduler has no worker after "
            f"{WORKERS_SECONDS:g} s; start some with 'dask worker {scheduler}'"
        ) from None
    return client


def client_for(scheduler: str | None, workers: int) -> Client:
    """This process's client of ``scheduler``, or of a local cluster of ``workers``
    processes (started once, closed when the process ends)."""
    key = (scheduler, 0 if scheduler else workers)
    client = _clients.get(key)
    if client is not None and client.status == "running":
        return client
    client = _remote(scheduler) if scheduler else _local_cluster(workers)
    _clients[key] = client
    return client


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def check_versions(client: Client, games: Sequence[str]) -> None:
    """Refuse a cluster whose workers run another cgsim or engine version than here."""
    here = {"cgsim": __version__, **{game: get_game(game).info.version for game in games}}
    found: dict[str, dict[str, str]] = client.run(dask_worker.versions, list(games))
    for address, theirs in sorted(found.items()):
        for name, version in here.items():
            if theirs.get(name) != version:
                what = "cgsim" if name == "cgsim" else f"the {name} engine"
                raise ConfigError(
                    f"Dask worker {address} runs {what} {theirs.get(name, '-')}, this "
                    f"machine {version}; install the same cgsim on every worker"
                )


def _shippable(module: str) -> Path | None:
    """A file the workers can import ``module`` from: its ``.py`` file, or its top-level
    package zipped (None when it does not come from a file of this machine)."""
    top = sys.modules.get(module.split(".")[0])
    origin = getattr(top, "__file__", None)
    if top is None or origin is None:
        return None
    path = Path(origin)
    if path.name != "__init__.py":
        return path if path.suffix == ".py" else None
    folder = path.parent
    archive = Path(tempfile.mkdtemp(prefix="cgsim-ship-")) / f"{folder.name}.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for file in sorted(folder.rglob("*.py")):
            zipped.write(file, Path(folder.name) / file.relative_to(folder))
    return archive


def ship_bots(client: Client, context: WorkerContext) -> None:
    """Make every bot's module importable on the workers: installed ones are, a
    ``module:Class`` file or package of this machine is uploaded, any other is refused."""
    modules = sorted(
        {
            bot.cls.__module__
            for bot in context.bots
            if bot.cls.__module__.split(".")[0] not in SHIPPED_WITH_CGSIM
        }
    )
    if not modules:
        return
    for module in _missing(client, modules):
        path = _shippable(module)
        if path is not None:
            client.upload_file(str(path), load=False)
    for module in _missing(client, modules):
        raise ConfigError(
            f"bot module {module!r} cannot be imported on the Dask workers and is not a "
            "file cgsim can ship; install it on every worker (pip install it there, or "
            "put it on their PYTHONPATH)"
        )


def _missing(client: Client, modules: Sequence[str]) -> list[str]:
    found: dict[str, list[str]] = client.run(dask_worker.missing_modules, list(modules))
    return sorted({module for missing in found.values() for module in missing})


def _threads(client: Client) -> int:
    workers = client.scheduler_info(n_workers=-1).get("workers", {})
    return max(1, sum(int(worker.get("nthreads", 1)) for worker in workers.values()))


class DaskPlace:
    """A Dask cluster ready for runs: reached, checked, bots shipped."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def workers(self, games: int) -> int:
        """Worker threads of the cluster (each plays one game at a time)."""
        return _threads(self.client)

    def pool(self, context: WorkerContext, games: int) -> DaskPool:
        return DaskPool(self.client, context, _threads(self.client))


class GameRegistration(WorkerPlugin):
    """Registers a game registered at run time here (a plugin's, a test's) on every
    worker, restarted ones included: its module must be importable there."""

    def __init__(self, name: str, target: str) -> None:
        self.name = name
        self.target = target

    def setup(self, worker: Any) -> None:
        register_game(self.name, self.target)


def register_on_workers(client: Client, game: str) -> bool:
    """Make ``game`` known on the cluster's workers when it was registered at run time
    (a shipped game is known wherever cgsim is installed); whether it was."""
    target = registered_target(game)
    if target is not None:
        client.register_plugin(GameRegistration(game, target), name=f"cgsim-game-{game}")
    return target is not None


def dask_place(scheduler: str | None, workers: int, context: WorkerContext) -> DaskPlace:
    """The cluster of ``scheduler`` (or a local one of ``workers`` processes), ready for
    runs of ``context``; ``ConfigError`` when it cannot be used."""
    client = client_for(scheduler, workers_used(workers))
    try:
        try:
            check_versions(client, [context.game])
        except ConfigError:  # a game registered at run time, not yet on the workers?
            if not register_on_workers(client, context.game):
                raise
            check_versions(client, [context.game])
        ship_bots(client, context)
    except (OSError, TimeoutError) as error:
        raise ConfigError(f"the Dask cluster did not answer: {_one_line(error)}") from None
    return DaskPlace(client)


class DaskPool:
    """Plays a source's tasks as Dask futures, a bounded number at a time."""

    def __init__(self, client: Client, context: WorkerContext, size: int) -> None:
        self.client = client
        self.context = context
        self.size = size
        self.game = get_game(context.game)
        self.run = uuid.uuid4().hex
        self.flying: dict[Future[Batch], Task] = {}
        self.sent = 0

    def __enter__(self) -> DaskPool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Cancel what is still in flight (a finished game is never among it)."""
        if self.flying:
            with contextlib.suppress(Exception):
                self.client.cancel(list(self.flying), force=True)
        self.flying.clear()

    def _submit(self, task: Task, queue: as_completed) -> None:
        self.sent += 1
        future = self.client.submit(
            dask_worker.play_batch,
            self.run,
            self.context,
            task.specs,
            key=f"cgsim-batch-{self.run}-{self.sent}",
            pure=False,
        )
        self.flying[future] = task
        queue.add(future)

    def _fill(self, source: TaskSource, queue: as_completed) -> None:
        while len(self.flying) < self.size:
            task = source.next_task()
            if task is None:
                return
            self._submit(task, queue)

    def _failed(self, error: BaseException | None, task: Task, source: TaskSource) -> Batch | None:
        """A batch that did not come back: retried when its worker died, else the
        cluster is gone (or broken): :class:`BackendLost`."""
        if isinstance(error, KilledWorker):
            spec = retry_after_death(source, task, [])
            if spec is None:
                return None
            reason = f"the Dask worker process died {MAX_ATTEMPTS} times playing this game"
            return error_batch(self.game, self.context, spec, reason, None)
        what = _one_line(error) if error is not None else "its batch was cancelled"
        raise BackendLost(f"the Dask cluster stopped playing ({what})")

    @staticmethod
    def _outcome(future: Future[Batch]) -> tuple[Batch | None, BaseException | None]:
        """A finished batch, or why there is none (its error; None: cancelled)."""
        try:
            if future.status == "finished":
                return future.result(), None
            return None, future.exception() if future.status == "error" else None
        except Exception as error:  # the worker holding the batch died before sending it
            return None, error

    def results(self, source: TaskSource) -> Iterator[Batch]:
        """Play every task of ``source``, yielding batches in completion order, one
        batch per worker thread in flight (:data:`BATCH_SECONDS` long)."""
        source.target_seconds = BATCH_SECONDS
        queue = as_completed(loop=self.client.loop)
        try:
            self._fill(source, queue)
            while self.flying:
                future = next(queue)
                task = self.flying.pop(future)
                batch, error = self._outcome(future)
                if batch is not None:
                    source.measured(batch)
                    yield batch
                else:
                    failed = self._failed(error, task, source)
                    if failed is not None:
                        yield failed
                self._fill(source, queue)
        except (OSError, TimeoutError) as error:
            raise BackendLost(f"the Dask scheduler was lost ({_one_line(error)})") from None


def task_cost(client: Client, tasks: int = 1000) -> float:
    """Seconds the cluster spends per task around the work itself: empty tasks sent with
    the pool's bound on those in flight, timed from first sent to last back."""
    slots = _threads(client) * PREFETCH
    queue = as_completed(loop=client.loop)
    start = time.perf_counter()
    sent = 0
    flying = 0
    while sent < min(slots, tasks):
        queue.add(client.submit(dask_worker.nothing, pure=False))
        sent += 1
        flying += 1
    for _ in queue:
        flying -= 1
        if sent < tasks:
            queue.add(client.submit(dask_worker.nothing, pure=False))
            sent += 1
            flying += 1
    return (time.perf_counter() - start) / tasks


def map_in_order(
    client: Client,
    function: Callable[[T], R],
    items: Sequence[T],
    progress: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``function`` of each item on the cluster, in order, a bounded number in flight."""
    slots = _threads(client) * PREFETCH
    done: dict[int, Any] = {}
    futures: dict[Future[R], int] = {}
    queue = as_completed(loop=client.loop)
    for index in range(min(slots, len(items))):
        future = client.submit(function, items[index], pure=False)
        futures[future] = index
        queue.add(future)
    following = min(slots, len(items))
    for future in queue:
        done[futures.pop(future)] = future.result()
        if progress is not None:
            progress(len(done), len(items))
        if following < len(items):
            nxt = client.submit(function, items[following], pure=False)
            futures[nxt] = following
            queue.add(nxt)
            following += 1
    return [done[index] for index in range(len(items))]


def dask_map(
    scheduler: str | None,
    workers: int,
    function: Callable[[T], R],
    items: Sequence[T],
    progress: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``function`` of each item on the cluster of ``scheduler`` (or a local one of
    ``workers`` processes), checked first, in order."""
    client = client_for(scheduler, workers_used(workers))
    check_versions(client, [])
    return map_in_order(client, function, items, progress)
