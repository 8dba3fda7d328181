"""The Dask backend plays the same tables as the local pool, with the same guarantees.

One local Dask cluster serves the whole module (the backend keeps one per process), and
a cluster of a ``dask scheduler`` and two ``dask worker`` processes is started on
127.0.0.1 once, for the tests that attach to a running cluster.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import polars as pl
import pytest
import toygame
from cli_helpers import assert_refused, run_cli
from distributed import Client, WorkerPlugin
from pydantic import BaseModel, ConfigDict
from test_runner import GREEDY, WANDERER, make_config, run, tables
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import ConfigError
from cgsim.games.bot import Bot
from cgsim.games.contract import Action
from cgsim.play import dask_pool, dask_worker
from cgsim.play.backend import using_backend
from cgsim.play.config import validate_config
from cgsim.play.schedules import plan_for

toygame.register()
TESTS = Path(__file__).parent
KILL_ALWAYS = toygame.target(toygame.KillAlways)
IN_DASK = "CGSIM_TEST_IN_DASK_WORKER"
SMALL = ["--no-report", "--games", "12", "--seed", "5"]


class ToyGame(WorkerPlugin):
    """Makes the toy game known on every worker, restarted ones included, and marks the
    worker as one :class:`KillWorker` may kill."""

    def setup(self, worker: Any) -> None:
        toygame.register()
        os.environ[IN_DASK] = "1"


class KillParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    targets: str = ""


class KillWorker(Bot):
    """Kills the Dask worker playing its game (not only its own process) in the game
    whose targets are ``targets``; elsewhere, and outside a Dask worker, plays fair."""

    games: ClassVar[tuple[str, ...]] = ("toy",)
    Params: ClassVar[type[BaseModel]] = KillParams

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        wanted = ",".join(str(target) for target in state.targets)
        if os.environ.get(IN_DASK) and wanted == self.params.targets:
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(60)
        return legal_actions[0]


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[Client]:
    client = dask_pool.client_for(None, 2)
    client.register_plugin(ToyGame(), name="cgsim-toy")
    yield client
    dask_pool.close_clients()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(args: list[str]) -> subprocess.Popen[bytes]:
    env = os.environ | {"PYTHONPATH": str(TESTS)}  # the toy game's module
    return subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=TESTS.parent, env=env
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_for_cluster(address: str, workers: int) -> Client:
    """The cgsim client of a cluster being started, once it has ``workers`` workers."""
    deadline = time.monotonic() + 60
    while True:
        with contextlib.suppress(OSError, TimeoutError, ConfigError):
            client = dask_pool.client_for(address, 0)
            client.wait_for_workers(workers, timeout=max(1, deadline - time.monotonic()))
            return client
        assert time.monotonic() < deadline, "the test cluster did not start"
        time.sleep(0.5)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    host, port = address.removeprefix("tcp://").split(":")
    scheduler = _start(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            host,
            "--port",
            port,
            "--no-dashboard",
        ]
    )
    worker_args = [sys.executable, "-m", "distributed.cli.dask_worker", address]
    worker_args += ["--nthreads", "1", "--no-dashboard"]
    workers = [_start(worker_args) for _ in range(2)]
    try:
        _wait_for_cluster(address, 2)
        yield address
    finally:
        dask_pool.close_clients()
        for process in [*workers, scheduler]:
            _stop(process)


def _smoke(out: Path, **fields: Any) -> Any:
    base: dict[str, Any] = {"name": "smoke", "game": "cottage-garden", "players": 2}
    base |= {"seats": ["random", "greedy"], "games": 12, "seed": 5, "chunk_size": 5}
    return validate_config(base | {"workers": 1, "records": True, "out": out} | fields)


def _records(results: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((results / "records").glob("*"))}


def test_identical_tables_on_every_backend(
    tmp_path: Path, local_cluster: Client, scheduler: str
) -> None:
    local = _smoke(tmp_path / "local")
    run(local)
    on_cluster = _smoke(tmp_path / "dask", workers=2, backend="dask")
    assert run(on_cluster).status == "complete"
    cli = CliRunner().invoke(
        app,
        ["run", "smoke", "--scheduler", scheduler, "--out", str(tmp_path / "remote"), *SMALL],
    )
    assert cli.exit_code == 0, cli.output
    expected, got = tables(local.results_dir), tables(on_cluster.results_dir)
    for name in expected:
        assert got[name].equals(expected[name]), name
    assert _records(on_cluster.results_dir) == _records(local.results_dir)
    smoke_local = tmp_path / "smoke-local"
    code = CliRunner().invoke(
        app,
        ["run", "smoke", "--workers", "1", "--out", str(smoke_local), *SMALL],
    )
    assert code.exit_code == 0, code.output
    remote = tables(tmp_path / "remote" / "smoke")
    for name, table in tables(smoke_local / "smoke").items():
        assert remote[name].equals(table), name


def test_isolated_cottage_games_on_dask_equal_local_shared_ones(
    tmp_path: Path, local_cluster: Client
) -> None:
    """Isolation mode's bot processes start on the Dask workers and play the same games."""
    fields: dict[str, Any] = {"players": 3, "variant": {"children": [5, "none", 7]}}
    fields |= {"seats": ["greedy", "random", "greedy"], "games": 4}
    local = _smoke(tmp_path / "local", **fields)
    run(local)
    remote = _smoke(tmp_path / "dask", workers=2, backend="dask", isolate=True, **fields)
    assert run(remote).status == "complete"
    expected, got = tables(local.results_dir), tables(remote.results_dir)
    assert expected["games"]["error"].is_null().all()
    for name in expected:
        assert got[name].equals(expected[name]), name
    assert _records(remote.results_dir) == _records(local.results_dir)


def test_a_bot_ending_its_process_is_its_error_as_locally(
    tmp_path: Path, local_cluster: Client
) -> None:
    fields: dict[str, Any] = {"seats": [], "bots": [GREEDY, WANDERER, KILL_ALWAYS], "games": 18}
    local = make_config(tmp_path / "local", **fields)
    run(local, "tournament")
    remote = make_config(tmp_path / "dask", backend="dask", workers=2, **fields)
    result = run(remote, "tournament")
    assert result.status == "complete" and result.errors == 12
    expected, got = tables(local.results_dir), tables(remote.results_dir)
    for name in expected:
        assert got[name].equals(expected[name]), name
    reasons = set(got["games"].filter(pl.col("end") == "error")["error"].to_list())
    assert all("the worker process died 2 times" in reason for reason in reasons)


def test_a_lost_worker_is_retried_and_a_game_killing_two_is_an_error(
    tmp_path: Path, local_cluster: Client
) -> None:
    probe = make_config(tmp_path / "probe", games=8)
    plan = plan_for(probe, "run")
    game = toygame.ToyGame()
    deals = [game.new_game(plan.rules, plan.schedule.spec(i).seed).targets for i in range(8)]
    culprit = next(deal for deal in deals if deals.count(deal) == 2)  # one deal, both seatings
    killed = {i for i, deal in enumerate(deals) if deal == culprit}
    params = {"targets": ",".join(map(str, culprit))}
    seats: list[Any] = [GREEDY, {"bot": "test_dask:KillWorker", "params": params}]
    local = make_config(tmp_path / "local", games=8, seats=seats)
    run(local)
    remote = make_config(tmp_path / "dask", games=8, seats=seats, backend="dask", workers=2)
    result = run(remote)
    assert result.status == "complete" and result.errors == 2, result
    expected, got = tables(local.results_dir)["games"], tables(remote.results_dir)["games"]
    errors = got.filter(pl.col("end") == "error")
    assert set(errors["game_id"].to_list()) == killed
    assert all("the Dask worker process died 2 times" in e for e in errors["error"].to_list())
    same = ~pl.col("game_id").is_in(list(killed))
    assert got.filter(same).equals(expected.filter(same))


def test_resuming_on_another_backend_completes_the_same_run(
    tmp_path: Path, local_cluster: Client
) -> None:
    first = make_config(tmp_path, games=8)
    run(first)
    more = make_config(tmp_path, games=8, backend="dask", workers=2)
    assert run(more).games_played == 0
    clean = make_config(tmp_path / "clean", games=8)
    run(clean)
    with using_backend("dask", None):
        again = run(make_config(tmp_path / "clean", games=8, workers=2), fresh=True)
    assert again.games_played == 8
    for name, table in tables(first.results_dir).items():
        assert tables(clean.results_dir)[name].equals(table), name


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"
    start = time.monotonic()
    outcome = run_cli(["run", "smoke", "--scheduler", address, "--out", str(tmp_path / "out")])
    assert_refused(outcome, "cannot reach a Dask scheduler", address)
    assert time.monotonic() - start < 30
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["--backend", "ray"],
        ["--scheduler", "8786"],
        ["--backend", "local", "--scheduler", "tcp://h:1"],
    ],
)
def test_bad_backend_options_are_one_line(tmp_path: Path, args: list[str]) -> None:
    assert_refused(run_cli(["run", "smoke", *args, "--out", str(tmp_path)]))


def test_workers_of_another_version_are_refused(
    tmp_path: Path, local_cluster: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dask_pool, "__version__", "0.0.0")
    out = tmp_path / "out"
    outcome = run_cli(["run", "smoke", "--backend", "dask", "--workers", "2", "--out", str(out)])
    assert_refused(outcome, "runs cgsim 0.1.0, this machine 0.0.0")
    assert not out.exists()


def test_a_game_registered_at_run_time_is_registered_on_the_workers(tmp_path: Path) -> None:
    """A cluster of its own, without the tests' plugin: the backend registers the toy
    game on its workers (a local cluster's workers import from this process's path)."""
    seats = ["random", toygame.target(toygame.Greedy)]
    config = _smoke(tmp_path / "toy", game="toy", seats=seats, games=4, backend="dask")
    result = run(config)
    assert result.status == "complete" and result.errors == 0
    versions = dask_pool.client_for(None, 1).run(dask_worker.versions, ["toy"])
    assert {found["toy"] for found in versions.values()} == {"toy-1"}


BOT_FILE = """
from cgsim.games.bot import Bot


class FirstLegal(Bot):
    name = "first-legal"
    description = "plays the first legal action"
    games = ("*",)

    def choose(self, state, legal_actions, rng):
        return legal_actions[0]
"""


def test_a_bot_from_a_file_is_shipped_to_the_workers(
    tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "shipped_bot_x.py").write_text(BOT_FILE)
    monkeypatch.syspath_prepend(str(tmp_path))
    config = _smoke(tmp_path / "shipped", seats=["shipped_bot_x:FirstLegal", "random"], games=4)
    config = config.model_copy(update={"backend": "dask", "scheduler": scheduler})
    assert run(config).status == "complete"
    seats = tables(config.results_dir)["seats"]
    assert "shipped_bot_x:FirstLegal" in set(seats["bot"].to_list())


def test_ctrl_c_keeps_finished_games_and_exits_130(tmp_path: Path) -> None:
    slow = {"bot": toygame.target(toygame.Slow), "params": {"delay": 0.01}}
    fields: dict[str, Any] = {"seats": [GREEDY, slow], "games": 200, "chunk_size": 1000}
    config = make_config(tmp_path, workers=2, **fields)
    data = config.model_dump(mode="json") | {"backend": "dask", "workers": 2}
    child = subprocess.Popen(
        [sys.executable, "-c", RUN_SCRIPT, __import__("json").dumps(data), str(TESTS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"started"
        time.sleep(2.0)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err.decode()
    assert b"Traceback" not in err
    kept = pl.read_parquet(config.results_dir / "partial" / "chunk-000000" / "games.parquet")
    assert kept.height > 0
    resumed = run(config)
    assert resumed.games_played == 200 - kept.height
    clean = make_config(tmp_path / "clean", workers=2, **fields)
    run(clean)
    for name, table in tables(clean.results_dir).items():
        assert tables(config.results_dir)[name].equals(table), name


RUN_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[2])
from cgsim.play.dask_pool import client_for
from distributed import WorkerPlugin
import toygame
toygame.register()


class ToyGame(WorkerPlugin):
    def setup(self, worker):
        toygame.register()


from cgsim.play.config import validate_config
from cgsim.play.schedules import plan_for
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for

if __name__ == "__main__":
    client_for(None, 2).register_plugin(ToyGame(), name="cgsim-toy")
    config = validate_config(json.loads(sys.argv[1]))
    print("started", flush=True)
    result = run_games(config, plan_for(config, "run"), progress=False)
    sys.exit(130 if result.status == "interrupted" else 0)
"""


def test_a_lost_scheduler_keeps_what_finished(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"
    host, port = address.removeprefix("tcp://").split(":")
    scheduler = _start(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", host, "--port", port]
    )
    worker = _start(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "2"]
    )
    try:
        client = _wait_for_cluster(address, 1)
        client.register_plugin(ToyGame(), name="cgsim-toy")
        slow = {"bot": toygame.target(toygame.Slow), "params": {"delay": 0.01}}
        fields: dict[str, Any] = {"seats": [GREEDY, slow], "games": 200, "chunk_size": 1000}
        config = make_config(tmp_path, workers=2, backend="dask", scheduler=address, **fields)
        threading.Timer(3.0, scheduler.kill).start()
        result = run(config)
    finally:
        dask_pool.close_clients()
        for process in (worker, scheduler):
            _stop(process)
    assert result.status == "lost", result
    assert result.note is not None and "Dask" in result.note
    kept = result.games_done + result.games_partial
    assert kept > 0
    local = make_config(tmp_path, workers=2, **fields)
    assert run(local).games_played == 200 - kept
    clean = make_config(tmp_path / "clean", workers=2, **fields)
    run(clean)
    for name, table in tables(clean.results_dir).items():
        assert tables(local.results_dir)[name].equals(table), name


def test_the_task_cost_is_a_share_of_a_dask_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scheduler's cost per task is set against the batch a Dask task plays."""
    from cgsim.studies import dask_bench

    monkeypatch.setattr(dask_bench, "COST_TASKS", 20)
    monkeypatch.setattr(dask_pool, "task_cost", lambda client, tasks: 0.01)
    monkeypatch.setattr(dask_pool, "client_for", lambda scheduler, workers: None)
    lines: list[str] = []
    dask_bench._task_cost(lines.append, None, 2)
    share = f"{0.01 / dask_pool.BATCH_SECONDS:.1%} of a batch of {dask_pool.BATCH_SECONDS:g} s"
    assert lines == [
        "scheduler cost per task: 10.00 ms (20 empty tasks, as many in flight as a run "
        f"keeps), {share}"
    ]


def test_closing_the_clients_silences_the_cluster_s_own_log_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A closing cluster logs its goodbyes at INFO; a command's output must end with its own."""
    import logging

    closed: list[bool] = []

    class Client:
        cluster = None

        def close(self, timeout: float) -> None:
            closed.append(True)

    logger = logging.getLogger("distributed")
    monkeypatch.setattr(logger, "level", logging.INFO)
    monkeypatch.setitem(dask_pool._clients, (None, 99), Client())
    dask_pool.close_clients()
    assert closed == [True] and logger.level == logging.CRITICAL
    assert dask_pool._clients == {}
