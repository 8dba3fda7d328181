"""Which backend plays a run's games: this machine's worker pool or a Dask cluster.

A config says it (``backend``, ``scheduler``); a command's ``--backend`` and
``--scheduler`` choose it for every run the command starts, the runs a study builds
itself included, through :func:`chosen` (a context variable, so no study has to pass the
choice down). Either backend plays the same games through the same code
(:mod:`cgsim.play.pool`), so the tables never depend on the choice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import TracebackType
from typing import Literal, Protocol

from cgsim.errors import ConfigError
from cgsim.play.config import SCHEDULER_PATTERN, RunConfig
from cgsim.play.limits import workers_used
from cgsim.play.pool import Batch, TaskSource, WorkerContext, WorkerPool

Kind = Literal["local", "dask"]
KINDS: tuple[Kind, ...] = ("local", "dask")


@dataclass(frozen=True)
class Backend:
    """Where games are played: ``local`` processes, or ``dask`` (a local cluster, or the
    cluster of ``scheduler``)."""

    kind: Kind = "local"
    scheduler: str | None = None


_chosen: ContextVar[Backend | None] = ContextVar("cgsim_backend", default=None)


def parse_backend(backend: str | None, scheduler: str | None) -> Backend | None:
    """The backend of the command-line options (None: the config decides), or a
    ``ConfigError`` naming the bad option."""
    if backend is not None and backend not in KINDS:
        raise ConfigError(f"--backend {backend!r}: expected one of {', '.join(KINDS)}")
    if scheduler is not None:
        if not re.match(SCHEDULER_PATTERN, scheduler):
            raise ConfigError(
                f"--scheduler {scheduler!r}: expected a scheduler address such as 'tcp://host:8786'"
            )
        if backend == "local":
            raise ConfigError("--scheduler is for --backend dask, not --backend local")
        return Backend("dask", scheduler)
    if backend is None:
        return None
    return Backend("dask" if backend == "dask" else "local")


@contextmanager
def using_backend(backend: str | None, scheduler: str | None) -> Iterator[None]:
    """Play every run started inside on this backend (both None: each config's own)."""
    choice = parse_backend(backend, scheduler)
    token = _chosen.set(choice or _chosen.get())
    try:
        yield
    finally:
        _chosen.reset(token)


def chosen_backend() -> Backend | None:
    """The backend a command chose (None: each config's own, or local)."""
    return _chosen.get()


def backend_of(config: RunConfig) -> Backend:
    """The backend a run of ``config`` uses: the command's choice, else the config's."""
    return _chosen.get() or Backend(config.backend, config.scheduler)


def with_backend(config: RunConfig) -> RunConfig:
    """``config`` stating the backend it really runs on (for its manifest)."""
    backend = backend_of(config)
    return config.model_copy(update={"backend": backend.kind, "scheduler": backend.scheduler})


class GamePool(Protocol):
    """What plays a source's tasks: the local :class:`WorkerPool` or a Dask pool."""

    size: int

    def __enter__(self) -> GamePool: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def results(self, source: TaskSource) -> Iterator[Batch]: ...


class Place(Protocol):
    """A backend made ready for runs: how many games it plays at once, and pools on it."""

    def workers(self, games: int) -> int: ...

    def pool(self, context: WorkerContext, games: int) -> GamePool: ...


@dataclass(frozen=True)
class LocalPlace:
    """This machine: a worker pool per run, sized to its cores and games."""

    requested: int

    def workers(self, games: int) -> int:
        return workers_used(self.requested, games) if games else 0

    def pool(self, context: WorkerContext, games: int) -> GamePool:
        return WorkerPool(self.workers(games), context)


def prepare(config: RunConfig, context: WorkerContext) -> Place:
    """The backend of ``config``, ready: for Dask, reached, its workers' versions checked
    and ``module:Class`` bots shipped; raises ``ConfigError`` (nothing written yet) when
    it cannot be used."""
    backend = backend_of(config)
    if backend.kind == "local":
        return LocalPlace(config.workers)
    # Deferred: Dask and distributed load only for a run that uses them.
    from cgsim.play.dask_pool import dask_place

    return dask_place(backend.scheduler, config.workers, context)
