"""Worker processes that play batches of games and survive their own deaths.

Why not ``multiprocess.Pool``: a pool cannot tell which task a killed worker was running
and waits for it forever. Here each worker has its own pipe, holding the batch it plays
and the next one (so it never waits while the parent stores results), and its process
sentinel says when it dies: the batch it was playing is retried game by game, and a
game that kills its worker twice is recorded as an error. Batches are cut on demand and
sized from measured game times (about a quarter of a second each), so the per-game
overhead stays tiny and the last batches still spread over all workers. Workers return
flat rows, column by column, never game states.

A hostile or broken bot cannot stop a run either:

- each worker shares a :class:`~cgsim.games.loop.watch.BotWatch` with the parent, which so
  knows the game and seat running when a worker dies (a bot's ``os._exit`` is its
  seat's error) and, with a time limit, stops a bot that defeats the alarm: past the
  limit plus a grace the parent kills the worker and records that seat's error;
- a worker checks a :class:`~cgsim.play.seal.Seal` on the rules, the game and the
  engine's code after each batch; when a bot changed them the batch is thrown away,
  the worker replaced, and its games played again one by one as *suspects*, checked
  after every bot call, so the game is that seat's error and no result is corrupted;
- workers die with the parent (:mod:`cgsim.play.lifeline`), even when it is killed;
- in isolation mode (``WorkerContext.isolate``) the bots live in processes of their
  own (:mod:`cgsim.play.isolation`) and the worker runs no bot code at all.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import signal
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import multiprocess
import polars as pl
from multiprocess.connection import wait

from cgsim.games.contract import AnyGame, Row
from cgsim.games.loop import BotFault
from cgsim.games.loop.watch import CELLS, BotWatch, Running, grace_deadline, read
from cgsim.games.recordio import dumps
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import BotSpec
from cgsim.play.isolation import BotProcesses
from cgsim.play.lifeline import exit_with_parent
from cgsim.play.match import ERROR_END, GameOutcome, GameSpec, error_outcome, play_game
from cgsim.play.seal import SEALED_DATA, SEALED_PACKAGES, Seal
from cgsim.play.storage import Columns

MAX_ATTEMPTS = 2
"""Times a single game may kill its worker before it is recorded as an error."""
TARGET_BATCH_SECONDS = 0.25
MAX_BATCH = 500
PREFETCH = 2
"""Batches sent ahead to each worker."""


class Schedule(Protocol):
    """The games of a plan, by id (computed on demand)."""

    def __len__(self) -> int: ...

    def spec(self, game_id: int) -> GameSpec: ...


@dataclass(frozen=True)
class WorkerContext:
    """Everything a worker needs besides the specs, handed over once at start."""

    game: str
    rules: Any
    bots: tuple[BotSpec, ...]
    record: bool
    time_limit: float
    isolate: bool = False
    """Each bot in a process of its own (:mod:`cgsim.play.isolation`)."""
    debug: bool = False
    """A bot's fault is raised, not contained (``play_game``'s ``debug``): for games
    played in the foreground only."""


@dataclass(slots=True)
class Batch:
    """The rows of some games, column by column, as a worker returns them."""

    games: Columns = field(default_factory=Columns)
    seats: Columns = field(default_factory=Columns)
    tables: dict[str, Columns] = field(default_factory=dict)
    records: list[tuple[int, str]] = field(default_factory=list)
    traces: list[tuple[int, str]] = field(default_factory=list)
    """The full traceback of each game that ended in error, by game id."""
    seconds: float = 0.0
    tampered: str | None = None
    """What a bot changed in the worker (see :class:`Seal`): the worker is spoiled."""

    @classmethod
    def of(cls, outcomes: Sequence[GameOutcome], seconds: float = 0.0) -> Batch:
        """The batch of some played games (JSON-encoding records here, in the worker)."""
        names = dict.fromkeys(name for outcome in outcomes for name in outcome.tables)
        return cls(
            games=Columns.from_rows([outcome.game for outcome in outcomes]),
            seats=Columns.from_parts([outcome.seats for outcome in outcomes]),
            tables={
                name: Columns.from_parts([outcome.tables.get(name, ()) for outcome in outcomes])
                for name in names
            },
            records=[
                (outcome.game["game_id"], dumps(outcome.record))
                for outcome in outcomes
                if outcome.record is not None
            ],
            traces=[
                (outcome.game["game_id"], outcome.error.trace)
                for outcome in outcomes
                if outcome.error is not None and outcome.error.trace
            ],
            seconds=seconds,
        )

    @classmethod
    def from_frames(
        cls, frames: Mapping[str, pl.DataFrame], records: Sequence[tuple[int, str]]
    ) -> Batch:
        """A batch back from stored frames (a partial chunk)."""
        columns = {name: Columns.from_frame(frame) for name, frame in frames.items()}
        return cls(
            games=columns.pop("games"),
            seats=columns.pop("seats"),
            tables=columns,
            records=list(records),
        )

    def extend(self, other: Batch) -> None:
        """Gather another batch of the same chunk."""
        self.games.extend(other.games)
        self.seats.extend(other.seats)
        for name, rows in other.tables.items():
            self.tables.setdefault(name, Columns()).extend(rows)
        self.records.extend(other.records)
        self.traces.extend(other.traces)

    def error_rows(self) -> list[Row]:
        """The games rows of the games that ended in error."""
        ends = self.games.data.get("end", [])
        return [self.games.row(i) for i, end in enumerate(ends) if end == ERROR_END]


@dataclass
class Player:
    """What a worker plays its games with: the game, the watch, maybe bot processes."""

    game: AnyGame
    context: WorkerContext
    watch: BotWatch = field(default_factory=BotWatch)
    processes: BotProcesses | None = None
    seal: Seal | None = None

    @classmethod
    def of(cls, context: WorkerContext, watch: BotWatch | None = None) -> Player:
        """The player of a worker; seals the rules, the game and the engine's code now,
        before any bot ran (isolated bots cannot reach them: no seal)."""
        game = get_game(context.game)
        player = cls(game, context, watch if watch is not None else BotWatch())
        if context.isolate:
            player.processes = BotProcesses(game, context.rules, context.bots, context.time_limit)
        else:
            roots = {"game": game, "rules": context.rules}
            modules = (*SEALED_PACKAGES, type(game).__module__)
            player.seal = Seal.of(roots, modules, SEALED_DATA)
        return player

    def play(self, spec: GameSpec, suspect: bool = False) -> GameOutcome:
        """Play one game; a suspect game is checked against the seal after each bot call."""
        context = self.context
        if self.processes is not None:
            bots = self.processes.specs(spec.seats)
            time_limit, watch = 0.0, None  # the bot processes keep the time
        else:
            bots = [context.bots[index] for index in spec.seats]
            time_limit, watch = context.time_limit, self.watch
        if suspect:
            self.watch.check = self._check
        try:
            outcome = play_game(
                self.game,
                context.rules,
                spec.seed,
                bots,
                context.record,
                time_limit,
                game_id=spec.game_id,
                block=spec.block,
                bot_seed=spec.bot_seed,
                watch=watch,
                debug=context.debug,
            )
        finally:
            self.watch.check = None
        if suspect and outcome.error is None and self.seal is not None:
            changed = self.seal.broken()
            if changed is not None:
                outcome = self._spoiled(spec, f"a bot of this game changed {changed}")
        return outcome

    def _check(self, seat: int | None) -> None:
        changed = self.seal.broken() if self.seal is not None else None
        if changed is not None and seat is not None:
            raise BotFault(seat, f"changed {changed} (tampering with the engine)")

    def _spoiled(self, spec: GameSpec, reason: str) -> GameOutcome:
        return error_outcome(
            self.game,
            game_id=spec.game_id,
            block=spec.block,
            seed=spec.seed,
            labels=[self.context.bots[i].label for i in spec.seats],
            reason=reason,
            seat=None,
        )

    def batch(self, specs: Sequence[GameSpec], suspect: bool = False) -> Batch:
        """Play some games one after the other (what a worker does with a task), then
        check the seal: a spoiled batch of honest-looking games is thrown away."""
        start = time.perf_counter()
        outcomes = [self.play(spec, suspect) for spec in specs]
        batch = Batch.of(outcomes, time.perf_counter() - start)
        if self.seal is not None:
            batch.tampered = self.seal.broken()
            if batch.tampered is not None and not suspect:
                batch = Batch(tampered=batch.tampered)
        return batch

    def close(self) -> None:
        if self.processes is not None:
            self.processes.close()


def _worker_main(conn: Any, context: WorkerContext, cells: Any, parent: int) -> None:
    """A worker's life: play each batch received, until an empty message, a closed pipe,
    the parent's end, or a bot's tampering (the worker is spoiled: it ends)."""
    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    player = Player.of(context, BotWatch(cells))
    try:
        while message := conn.recv_bytes():
            specs, suspect = pickle.loads(message)
            batch = player.batch(specs, suspect)
            conn.send_bytes(pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL))
            if batch.tampered is not None:
                break
    except (EOFError, OSError):
        pass
    finally:
        player.close()


@dataclass(slots=True)
class Task:
    """A batch of games for one worker; ``attempts`` counts workers it has killed; a
    ``suspect`` game (one of a batch a bot tampered in) is checked after each bot call."""

    specs: tuple[GameSpec, ...]
    attempts: int = 0
    suspect: bool = False


class TaskSource:
    """Cuts the missing games into batches on demand, sized from measured game times."""

    def __init__(self, schedule: Schedule, ranges: Sequence[Sequence[int]], workers: int) -> None:
        self.schedule = schedule
        self.ranges: deque[Sequence[int]] = deque(r for r in ranges if len(r))
        self.workers = workers
        self.retries: deque[Task] = deque()
        self.remaining = sum(len(r) for r in self.ranges)
        self.seconds_per_game: float | None = None
        self.target_seconds = TARGET_BATCH_SECONDS
        """How long a batch should last: a pool with a dearer round trip asks for more."""

    def __bool__(self) -> bool:
        return bool(self.retries or self.ranges)

    def batch_size(self) -> int:
        if self.seconds_per_game is None:
            return 1
        wanted = self.target_seconds / max(self.seconds_per_game, 1e-6)
        tail = math.ceil(self.remaining / (2 * self.workers))
        return max(1, min(int(wanted), tail, MAX_BATCH))

    def next_task(self) -> Task | None:
        if self.retries:
            return self.retries.popleft()
        if not self.ranges:
            return None
        current = self.ranges.popleft()
        size = self.batch_size()
        taken, rest = current[:size], current[size:]
        if len(rest):
            self.ranges.appendleft(rest)
        self.remaining -= len(taken)
        return Task(tuple(self.schedule.spec(game_id) for game_id in taken))

    def retry_first(self, tasks: Sequence[Task]) -> None:
        self.retries.extendleft(reversed(tasks))

    def measured(self, batch: Batch) -> None:
        if batch.games.count and batch.seconds > 0:
            per_game = batch.seconds / batch.games.count
            previous = self.seconds_per_game
            self.seconds_per_game = (
                per_game if previous is None else 0.7 * previous + 0.3 * per_game
            )


def retry_after_death(source: TaskSource, task: Task, queued: Sequence[Task]) -> GameSpec | None:
    """The retry rule of a task whose worker died (any backend): a batch is played again
    game by game, a single game once more; the game that killed ``MAX_ATTEMPTS`` workers
    is returned, to be recorded as an error. ``queued`` tasks go back as they were."""
    if len(task.specs) > 1:
        singles = [Task((spec,), suspect=task.suspect) for spec in task.specs]
        source.retry_first([*singles, *queued])
        return None
    if task.attempts + 1 < MAX_ATTEMPTS:
        source.retry_first([Task(task.specs, task.attempts + 1, task.suspect), *queued])
        return None
    source.retry_first(queued)
    return task.specs[0]


def error_batch(
    game: AnyGame, context: WorkerContext, spec: GameSpec, reason: str, seat: int | None
) -> Batch:
    """The batch of one game recorded as an error (no move of it is kept)."""
    outcome = error_outcome(
        game,
        game_id=spec.game_id,
        block=spec.block,
        seed=spec.seed,
        labels=[context.bots[i].label for i in spec.seats],
        reason=reason,
        seat=seat,
    )
    return Batch.of([outcome])


def _start_method() -> str:
    return "fork" if "fork" in multiprocess.get_all_start_methods() else "spawn"


def _reap(process: Any) -> None:
    """Wait a little for a worker process to end, then kill it."""
    process.join(timeout=2.0)
    if process.is_alive():
        process.kill()
        process.join()


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Any
    cells: Any
    """The worker's :class:`BotWatch` cells, in shared memory."""
    tasks: deque[Task] = field(default_factory=deque)
    """Sent and not yet answered, oldest (the one being played) first."""

    def running(self) -> Running:
        return read(self.cells)


class WorkerPool:
    """Worker processes, each with its batch and the next one queued, replaced when they
    die, hang in a bot, or are spoiled by one.

    The queued batch keeps a worker busy while the parent stores the previous one.
    """

    def __init__(self, size: int, context: WorkerContext) -> None:
        self.size = size
        self.context = context
        self.game = get_game(context.game)
        self.mp = multiprocess.get_context(_start_method())
        self.workers: list[_Worker] = []
        watched = context.time_limit > 0 and not context.isolate
        self.deadline = grace_deadline(context.time_limit) if watched else None
        """Seconds a bot call may run before the parent stops it (None: never)."""

    def __enter__(self) -> WorkerPool:
        self.workers = [self._start() for _ in range(self.size)]
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _start(self) -> _Worker:
        parent, child = self.mp.Pipe(duplex=True)
        cells = self.mp.RawArray("d", CELLS)
        BotWatch(cells)  # nobody running
        args = (child, self.context, cells, os.getpid())
        process = self.mp.Process(target=_worker_main, args=args, daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent, cells)

    def close(self) -> None:
        """Stop idle workers politely and busy ones at once (their batches are abandoned)."""
        for worker in self.workers:
            if worker.tasks:
                worker.process.terminate()
            else:
                with contextlib.suppress(OSError):
                    worker.conn.send_bytes(b"")
        for worker in self.workers:
            _reap(worker.process)
            worker.conn.close()
        self.workers = []

    def _replace(self, worker: _Worker) -> None:
        worker.conn.close()
        _reap(worker.process)
        self.workers[self.workers.index(worker)] = self._start()

    def _error(self, spec: GameSpec, reason: str, seat: int | None) -> Batch:
        return error_batch(self.game, self.context, spec, reason, seat)

    def _lost(self, worker: _Worker, source: TaskSource) -> Batch | None:
        """A worker died: retry its batch game by game (and its queued batch as it was);
        a game that killed ``MAX_ATTEMPTS`` workers is recorded as an error, blamed on
        the seat whose bot was running when it died."""
        running = worker.running()
        self._replace(worker)
        if not worker.tasks:
            return None
        spec = retry_after_death(source, worker.tasks[0], list(worker.tasks)[1:])
        if spec is None:
            return None
        code = worker.process.exitcode
        if running.game_id == spec.game_id and running.seat is not None:
            where = "while this seat's bot was running"
            seat = running.seat
        else:
            where, seat = "playing this game", None
        reason = f"the worker process died {MAX_ATTEMPTS} times {where} (exit code {code})"
        return self._error(spec, reason, seat)

    def _spoiled(self, worker: _Worker, source: TaskSource, batch: Batch) -> Batch | None:
        """A bot tampered with the worker: replace it; a suspect game's rows stand (they
        name the culprit), the games of any other batch are played again as suspects."""
        task = worker.tasks.popleft()
        queued = list(worker.tasks)
        worker.tasks.clear()
        self._replace(worker)
        if task.suspect:
            source.retry_first(queued)
            return batch
        suspects = [Task((spec,), suspect=True) for spec in task.specs]
        source.retry_first([*suspects, *queued])
        return None

    def _overdue(self, worker: _Worker, source: TaskSource) -> Batch | None:
        """A bot has run past the deadline (it defeated the alarm): kill the worker,
        record that game as the seat's error and play the worker's other games again."""
        running = worker.running()
        if self.deadline is None or running.seat is None or running.seconds <= self.deadline:
            return None
        worker.process.kill()
        tasks = list(worker.tasks)
        worker.tasks.clear()
        self._replace(worker)
        culprit = next(
            (spec for task in tasks for spec in task.specs if spec.game_id == running.game_id),
            None,
        )
        retries = [
            Task(others, task.attempts, task.suspect)
            for task in tasks
            if (others := tuple(spec for spec in task.specs if spec is not culprit))
        ]
        source.retry_first(retries)
        if culprit is None:
            return None
        reason = (
            f"did not return within {self.deadline:g} s (the time limit of "
            f"{self.context.time_limit:g} s and a grace); its worker was stopped"
        )
        return self._error(culprit, reason, running.seat)

    def _timeout(self, busy: Sequence[_Worker]) -> float | None:
        """How long to wait before a running bot call could pass the deadline."""
        if self.deadline is None:
            return None
        soonest = self.deadline
        for worker in busy:
            running = worker.running()
            if running.seat is not None:
                soonest = min(soonest, self.deadline - running.seconds)
        return max(0.01, soonest)

    def _dispatch(self, source: TaskSource) -> None:
        for worker in self.workers:
            while len(worker.tasks) < PREFETCH:
                task = source.next_task()
                if task is None:
                    return
                worker.tasks.append(task)
                # A dead worker cannot take it: its sentinel reports the death.
                with contextlib.suppress(OSError):
                    worker.conn.send_bytes(pickle.dumps((task.specs, task.suspect)))

    def results(self, source: TaskSource) -> Iterator[Batch]:
        """Play every task of ``source``, yielding batches in completion order."""
        while True:
            self._dispatch(source)
            busy = [worker for worker in self.workers if worker.tasks]
            if not busy:
                return
            by_conn = {worker.conn: worker for worker in busy}
            by_sentinel = {worker.process.sentinel: worker for worker in self.workers}
            ready = wait([*by_conn, *by_sentinel], self._timeout(busy))
            dead: list[_Worker] = []
            for handle in ready:
                if handle not in by_conn:
                    continue
                worker = by_conn[handle]
                try:
                    data = worker.conn.recv_bytes()
                except (EOFError, OSError):
                    dead.append(worker)
                    continue
                batch: Batch = pickle.loads(data)
                if batch.tampered is not None:
                    kept = self._spoiled(worker, source, batch)
                    if kept is not None:
                        yield kept
                    continue
                worker.tasks.popleft()
                source.measured(batch)
                yield batch
            for handle in ready:
                dying = by_sentinel.get(handle)
                if dying is not None and dying not in dead:
                    dead.append(dying)
            for worker in dead:
                if worker in self.workers:
                    lost = self._lost(worker, source)
                    if lost is not None:
                        yield lost
            for worker in busy:
                if worker in self.workers:
                    stopped = self._overdue(worker, source)
                    if stopped is not None:
                        yield stopped


class _Given:
    """The schedule of games given as specs (tasks are made of them directly)."""

    def __init__(self, specs: Sequence[GameSpec]) -> None:
        self.specs = specs

    def __len__(self) -> int:
        return len(self.specs)

    def spec(self, game_id: int) -> GameSpec:
        return self.specs[game_id]


def play_all(pool: WorkerPool, specs: Sequence[GameSpec]) -> Batch:
    """Play some games on a started pool as one task, gathered into one batch: the
    pool's guarantees (a dying worker's games retried one by one, the seal, the watch)
    hold for any caller, a remote worker included."""
    source = TaskSource(_Given(specs), [], pool.size)
    source.retry_first([Task(tuple(specs))])
    played = Batch()
    for batch in pool.results(source):
        played.extend(batch)
        played.seconds += batch.seconds
    return played


def play_in_worker(context: WorkerContext, spec: GameSpec) -> Batch:
    """Play one game in a worker process, so that nothing a bot does (``os._exit``, an
    endless loop past the time limit, tampering) can take the caller down with it."""
    with WorkerPool(1, context) as pool:
        return play_all(pool, [spec])
