"""Speed figures of the Dask backend: throughput, parallel efficiency, cost per task.

Measured as the local runner figure of the bench is (:mod:`cgsim.studies.timed_runs`): the
whole runner on a config, in rounds that alternate between the settings compared, so a
machine whose speed drifts shows as a spread. The local pool on every core is measured
in the same rounds: the ratio of the two backends is the figure that matters.
"""

from __future__ import annotations

import pickle
import resource
import tempfile

from cgsim.play.backend import using_backend
from cgsim.play.config import RunConfig, validate_config, with_overrides
from cgsim.play.limits import cpu_count
from cgsim.play.pool import WorkerContext, WorkerPool, play_all
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.studies.timed_runs import PARALLEL_ROUNDS, Echo, runner_round, summarise_rounds

COST_TASKS = 1000
"""Empty tasks timed for the scheduler's cost per task."""


def _settings(scheduler: str | None, cores: int) -> list[tuple[str, str, int]]:
    """(label, backend, workers) of each measured setting."""
    local = ("local pool", "local", cores)
    if scheduler is not None:
        return [local, (f"dask {scheduler}", "dask", cores)]
    sizes = sorted({1, cores})
    return [local, *((f"dask, {n} worker{'s' * (n > 1)}", "dask", n) for n in sizes)]


def dask_bench(
    games: int, seed: int, echo: Echo, config: RunConfig, scheduler: str | None, runs: bool = True
) -> None:
    """Print games per second of the local pool and of Dask on 1 and every core (or on
    the cluster of ``scheduler``), Dask's parallel efficiency and its ratio to the local
    pool (unless not ``runs``), then the scheduler's cost per task."""
    cores = cpu_count()
    if runs:
        _runs(games, seed, echo, config, scheduler, cores)
    _task_cost(echo, scheduler, cores)
    if runs:
        parent_costs(config.game, seed, echo)


def _runs(
    games: int, seed: int, echo: Echo, config: RunConfig, scheduler: str | None, cores: int
) -> None:
    per_round = max(1, games // PARALLEL_ROUNDS)
    settings = _settings(scheduler, cores)
    echo(
        f"Dask backend: games per second on {config.name!r} ({per_round} games x "
        f"{PARALLEL_ROUNDS} rounds per setting, alternating, whole pipeline)"
    )
    for _, backend, workers in settings:  # start each cluster before timing
        with using_backend(backend, scheduler if backend == "dask" else None):
            runner_round(config, 2, seed, workers)
    measured: dict[str, list[tuple[int, float]]] = {label: [] for label, _, _ in settings}
    for _ in range(PARALLEL_ROUNDS):
        for label, backend, workers in settings:
            with using_backend(backend, scheduler if backend == "dask" else None):
                measured[label].append(runner_round(config, per_round, seed, workers))
    rates = {
        label: summarise_rounds(label + ":", rounds, echo, 24) for label, rounds in measured.items()
    }
    local, *dask = (rates[label] for label, _, _ in settings)
    if scheduler is None and len(dask) == 2:
        efficiency = dask[1] / (cores * dask[0]) if dask[0] > 0 else 0.0
        echo(f"Dask parallel efficiency on {cores} workers: {efficiency:.2f}")
    echo(f"Dask on every worker / local pool on {cores} cores: {dask[-1] / local:.2f}")


def _task_cost(echo: Echo, scheduler: str | None, cores: int) -> None:
    # Deferred: dask_pool imports Dask, which the bench without --backend dask never needs.
    from cgsim.play.dask_pool import BATCH_SECONDS, client_for, task_cost

    client = client_for(scheduler, cores)
    cost = task_cost(client, COST_TASKS)
    share = cost / BATCH_SECONDS
    echo(
        f"scheduler cost per task: {1000 * cost:.2f} ms ({COST_TASKS} empty tasks, as many in "
        f"flight as a run keeps), {share:.1%} of a batch of {BATCH_SECONDS:g} s"
    )


PARENT_GAMES = 2000
"""Random games whose cost to the parent (receiving and storing rows) is measured."""


def parent_costs(game: str, seed: int, echo: Echo) -> None:
    """Print what one game costs the parent whatever the backend: the bytes its rows take
    on the wire, and the parent's CPU time to receive and store them (random bots, so the
    workers keep the parent as busy as they can); with and without records."""
    cores = cpu_count()
    base = validate_config(
        {"name": "parent-cost", "game": game, "seats": ["random", "random"], "seed": seed}
    )
    echo(f"Parent cost per game ({PARENT_GAMES} random 2-player games, {cores} workers)")
    for records in (False, True):
        config = with_overrides(base, {"games": PARENT_GAMES, "records": records})
        plan = plan_for(config, "run")
        context = WorkerContext(game, plan.rules, plan.bots, records, 0.0)
        specs = [plan.schedule.spec(i) for i in range(200)]
        with WorkerPool(1, context) as pool:
            size = len(pickle.dumps(play_all(pool, specs), protocol=pickle.HIGHEST_PROTOCOL))
        with tempfile.TemporaryDirectory(prefix="cgsim-bench-") as folder:
            trial = with_overrides(config, {"out": folder, "workers": cores})
            before = resource.getrusage(resource.RUSAGE_SELF)
            with using_backend("local", None):
                result = run_games(trial, plan, progress=False)
            after = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        per_game = cpu / max(1, result.games_played)
        echo(
            f"{'with records' if records else 'no records':<14}{size / 200:8.0f} bytes/game, "
            f"parent CPU {1e6 * per_game:6.0f} us/game (at most {1 / per_game:,.0f} games/s "
            "through one parent)"
        )
