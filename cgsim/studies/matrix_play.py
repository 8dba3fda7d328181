"""Playing the compatibility matrix's cells and judging each one.

A cell is a run through the same runner as ``cgsim run`` (``bot`` in every seat of the
setup, records kept, isolation and backend as the cell says) whose games all end
without error and whose records pass the game's independent checker (``cgsim check``;
a game that declares none has its records replayed by its own engine instead).

Whether the engines run compiled is fixed when a process imports them
(``CGSIM_PURE_PYTHON``, :mod:`cgsim.games.compiled`), so the cells of each build are
played in processes of their own, started with the variable set or unset. Two such
processes play side by side, each taking the next cell of its build, dearest first
(:class:`_Queue`); a build's Dask cells go to one process at a time, so they share one
local cluster. A process asked for the compiled build that finds any compiled module
running from its source fails every cell it is given, naming why: the matrix never
passes pure Python off as compiled.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from cgsim.games import compiled
from cgsim.games.checkers import CHECKERS, check_record
from cgsim.games.registry import game_names, get_game, register_game, registered_target
from cgsim.play.config import validate_config
from cgsim.play.match import ERROR_END
from cgsim.play.results import load_tables
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.play.storage import read_records
from cgsim.studies.matrix import BUILDS, Build, Cell, cell_seed, estimated_costs

MARK = "cgsim-matrix "
"""Prefix of the lines a build's process reports its cells on (any other output, a
library's, is not taken for a report)."""
MAX_PROBLEM = 300
"""Characters of a failed cell's reason kept for the table."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one cell went: ``problem`` is None when it passed."""

    cell: Cell
    games: int
    seconds: float
    problem: str | None

    @property
    def passed(self) -> bool:
        return self.problem is None


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_PROBLEM else line[: MAX_PROBLEM - 3] + "..."


def build_problem(build: Build) -> str | None:
    """Why this process does not run ``build`` (None: it does). Every compiled module of
    every compiled package is imported and looked at: compiled means all of them."""
    root = Path(compiled.__file__).resolve().parents[2]
    for group, modules in sorted(compiled.compiled_groups(root).items()):
        package = group.removesuffix("._engine")
        loaded = [importlib.import_module(module) for module in modules]
        running = all(compiled.is_compiled(module) for module in loaded)
        if build == "compiled" and not running:
            return f"the compiled build was asked for, but {package} runs {compiled.engine_mode(package)}"
        if build == "pure" and any(compiled.is_compiled(module) for module in loaded):
            return f"pure Python was asked for, but {package} runs compiled"
    return None


def check_records(game_id: str, records: Sequence[dict[str, Any]]) -> str | None:
    """The first record that fails its game's checker (or, for a game with no checker,
    its engine's replay), in words; None when all pass."""
    game = get_game(game_id)
    for number, record in enumerate(records, start=1):
        where = f"record {number}"
        if game.info.record_format in CHECKERS:
            violations = check_record(record, where)
            if violations:
                first = violations[0]
                turn = "" if first.turn is None else f" turn {first.turn}"
                return f"{where}{turn}: {first.message} ({len(violations)} violations)"
        else:
            for _ in game.replay(record):
                pass
    return None


def judge(results_dir: Path, game_id: str, games: int, run_seed: int) -> str | None:
    """What is wrong with a finished cell's results (None: nothing): a game missing or
    ended in error, a record missing or breaking the rules."""
    table = load_tables(results_dir)["games"]
    if table.height != games:
        return f"{table.height} of {games} games in the games table"
    errors = [row for row in table.iter_rows(named=True) if row["end"] == ERROR_END]
    if errors:
        row = errors[0]
        seat = row["error_seat"]
        who = f"seat {seat} ({row['seats'][seat]})" if seat is not None else "no seat"
        return (
            f"{len(errors)} of {games} games ended in error; game {row['game_id']} "
            f"(run seed {run_seed}, deal seed {row['seed']}), {who}: {row['error']}"
        )
    records = read_records(results_dir)
    if len(records) != games:
        return f"{len(records)} records for {games} games"
    return check_records(game_id, records)


def play_cell(cell: Cell, games: int, seed: int, workers: int, folder: Path) -> Outcome:
    """Play and judge one cell of the matrix of ``seed`` in this process (whose build
    is the cell's)."""
    setup = get_game(cell.game).info.setup(cell.setup)
    start = time.perf_counter()
    try:
        config = validate_config(
            {
                "name": "cell",
                "game": cell.game,
                "players": setup.players,
                "variant": dict(setup.variant),
                "seats": [cell.bot] * setup.players,
                "games": games,
                "seed": cell_seed(cell, seed),
                "workers": workers,
                "records": True,
                "isolate": cell.isolate,
                "backend": cell.backend,
                "out": str(folder),
            },
            f"cell {cell.label}",
        )
        result = run_games(config, plan_for(config, "run"), fresh=True, progress=False)
        if result.status != "complete":
            problem: str | None = f"the run ended {result.status}" + (
                f" ({result.note})" if result.note else ""
            )
        else:
            problem = judge(result.results_dir, cell.game, games, config.seed)
    except Exception as error:  # a cell that cannot even run is a failed cell
        problem = f"{type(error).__name__}: {error}"
    seconds = time.perf_counter() - start
    return Outcome(cell, games, seconds, None if problem is None else _one_line(problem))


def _report(outcome: Outcome) -> None:
    data = {**asdict(outcome.cell), "games": outcome.games, "seconds": outcome.seconds}
    print(MARK + json.dumps({**data, "problem": outcome.problem}), flush=True)


def main() -> None:
    """A build's process: register the games the parent knows, check the build, then
    play each cell read from stdin (a JSON line each) and report it on one line."""
    task = json.loads(sys.argv[1])
    for name, target in task["register"].items():
        register_game(name, target)
    problem = build_problem(task["build"])
    with tempfile.TemporaryDirectory(prefix="cgsim-matrix-") as scratch:
        for number, line in enumerate(sys.stdin):
            cell = Cell(**json.loads(line))
            if problem is not None:
                _report(Outcome(cell, 0, 0.0, problem))
                continue
            folder = Path(scratch) / str(number)
            _report(play_cell(cell, task["games"], task["seed"], task["workers"], folder))


def _environment(build: Build) -> dict[str, str]:
    """This process's environment for a build's process: its import path (so plugins
    and run-time games found here are found there) and the build's variable."""
    env = {key: value for key, value in os.environ.items() if key != compiled.PURE_ENV}
    if build == "pure":
        env[compiled.PURE_ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(folder) for folder in sys.path)
    return env


def _parse(line: str) -> Outcome | None:
    if not line.startswith(MARK):
        return None
    data = json.loads(line.removeprefix(MARK))
    cell = Cell(*(data[field.name] for field in fields(Cell)))
    return Outcome(cell, data["games"], data["seconds"], data["problem"])


class _Queue:
    """The cells still to play, per build, dearest first (so the last to finish are
    short). A build's Dask cells all go to one of its processes at a time: one local
    cluster, started once."""

    def __init__(self, cells: Sequence[Cell]) -> None:
        costs = dict(zip(cells, estimated_costs(cells), strict=True))
        self.cost = costs.__getitem__
        ordered = sorted(cells, key=lambda cell: -costs[cell])
        self.left = {build: [cell for cell in ordered if cell.build == build] for build in BUILDS}
        self.dask: dict[Build, object] = {}
        """Per build, the process that plays its Dask cells."""
        self.lock = threading.Lock()

    def _takes(self, build: Build, process: object, cell: Cell) -> bool:
        return cell.backend == "local" or self.dask.get(build, process) is process

    def next_build(self) -> Build | None:
        """The build a new process would have the most work in (None: no work left
        that a new process could take)."""
        with self.lock:
            work = {
                build: sum(self.cost(cell) for cell in cells if self._takes(build, None, cell))
                for build, cells in self.left.items()
            }
        build = max(BUILDS, key=lambda build: work[build])
        return build if work[build] > 0 else None

    def take(self, build: Build, process: object) -> Cell | None:
        """The next cell ``process`` (of ``build``) may play, or None."""
        with self.lock:
            for index, cell in enumerate(self.left[build]):
                if self._takes(build, process, cell):
                    if cell.backend == "dask":
                        self.dask[build] = process
                    return self.left[build].pop(index)
        return None

    def release(self, build: Build, process: object) -> None:
        """``process`` has ended: its build's Dask cells go to the next one."""
        with self.lock:
            if self.dask.get(build) is process:
                del self.dask[build]


def _run_process(
    build: Build, queue: _Queue, task: dict[str, Any], heard: Callable[[Outcome], None]
) -> None:
    """Start a process of ``build`` and feed it cells until there are none it may take,
    or it dies (its cell then fails with the process's last words)."""
    code = "from cgsim.studies.matrix_play import main; main()"
    me = object()
    with tempfile.TemporaryDirectory(prefix="cgsim-matrix-") as scratch:
        process = subprocess.Popen(
            [sys.executable, "-c", code, json.dumps({**task, "build": build})],
            cwd=scratch,
            env=_environment(build),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stdin is not None and process.stdout is not None
        errors: list[str] = []
        drain = threading.Thread(target=lambda: errors.extend(process.stderr or ()), daemon=True)
        drain.start()
        try:
            while (cell := queue.take(build, me)) is not None:
                outcome = None
                with contextlib.suppress(BrokenPipeError):  # it died after its last cell
                    process.stdin.write(json.dumps(asdict(cell)) + "\n")
                    process.stdin.flush()
                    outcome = next(filter(None, map(_parse, process.stdout)), None)
                if outcome is None:
                    code_ = process.wait()
                    drain.join()
                    last = next((x.strip() for x in reversed(errors) if x.strip()), "no message")
                    ended = f"its process ended (exit code {code_}): {last}"
                    heard(Outcome(cell, 0, 0.0, _one_line(ended)))
                    return
                heard(outcome)
        finally:
            queue.release(build, me)
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
            process.wait()
            drain.join()


def play_matrix(
    cells: Sequence[Cell],
    games: int,
    seed: int,
    workers: int,
    heard: Callable[[Outcome], None] = lambda outcome: None,
    processes: int = 2,
) -> list[Outcome]:
    """Play every cell, ``processes`` build processes side by side, each playing cells
    of its build until none are left; the outcomes in the cells' order. ``heard`` is
    told of each as it comes."""
    task = {
        "games": games,
        "seed": seed,
        "workers": workers,
        "register": {
            name: target for name in game_names() if (target := registered_target(name)) is not None
        },
    }
    outcomes: dict[Cell, Outcome] = {}
    lock = threading.Lock()
    queue = _Queue(cells)

    def keep(outcome: Outcome) -> None:
        with lock:
            outcomes[outcome.cell] = outcome
            heard(outcome)

    def slot() -> None:
        while (build := queue.next_build()) is not None:
            _run_process(build, queue, task, keep)

    threads = [threading.Thread(target=slot) for _ in range(processes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [outcomes[cell] for cell in cells]


def table(outcomes: Sequence[Outcome], wall: float) -> Iterator[str]:
    """The matrix as text: a line per cell (pass or FAIL and why), then the totals."""
    headers = ("game", "setup", "bot", "isolation", "build", "backend")
    rows = [outcome.cell.columns() for outcome in outcomes]
    widths = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    yield (
        "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
        + "  games  seconds  result"
    )
    for row, outcome in zip(rows, outcomes, strict=True):
        result = "pass" if outcome.passed else f"FAIL {outcome.problem}"
        cells = "  ".join(value.ljust(w) for value, w in zip(row, widths, strict=True))
        yield f"{cells}  {outcome.games:>5}  {outcome.seconds:>7.1f}  {result}"
    failed = sum(not outcome.passed for outcome in outcomes)
    yield ""
    yield (
        f"{len(outcomes)} cells: {len(outcomes) - failed} passed, {failed} failed; "
        f"{sum(o.games for o in outcomes)} games in {wall:.0f} s"
    )
