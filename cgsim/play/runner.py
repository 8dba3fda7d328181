"""Playing a plan's games in parallel: seeded, chunked, resumable, fault-contained.

The parent process derives every game's spec (ids, deal and bot seeds, seats) from the
plan, cuts the games still missing into batches and hands them to worker processes,
which return flat rows only. Rows are gathered per chunk of game ids and a chunk is
written, sorted, once all its games are in, so the tables are identical for any worker
count and completion order.

Worker processes live in ``cgsim.play.pool``. Games of chunks left incomplete by Ctrl-C or
``--fail-fast`` are kept aside (``partial/``) and completed by the next run; so are those
of a long chunk every :data:`PARTIAL_EVERY` seconds, so that even a run killed outright
(SIGKILL, power cut) loses half a minute of games at most, whatever the chunk size. Chunk
boundaries depend only on ``chunk_size``, never on timing: the tables stay identical.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import BackendLost, CgsimError
from cgsim.games.contract import AnyGame, Row, Schema
from cgsim.games.registry import get_game
from cgsim.play.backend import Place, prepare, with_backend
from cgsim.play.config import RunConfig
from cgsim.play.foreground import ForegroundPlace
from cgsim.play.manifest import read_manifest_data
from cgsim.play.match import ERROR_END
from cgsim.play.paths import require_output_dir
from cgsim.play.pool import Batch, TaskSource, WorkerContext
from cgsim.play.progress import Progress
from cgsim.play.results import Results, open_results, table_schemas, trace_path
from cgsim.play.schedules import Plan
from cgsim.play.storage import ResultsStore, TableSchemas, resume_conflicts
from cgsim.version import __version__

PARTIAL_EVERY = 30.0
"""Seconds between keeping the finished games of incomplete chunks in ``partial/``."""


class ResumeError(CgsimError):
    """The results directory holds a different run; ``--fresh`` starts over."""


@dataclass
class _ChunkBuffer:
    size: int
    batch: Batch = field(default_factory=Batch)
    kept: int = 0
    """Games of it already in ``partial/``."""

    def complete(self) -> bool:
        return self.batch.games.count == self.size


@dataclass
class RunResult:
    """How a run went, for the summary and the exit code."""

    results_dir: Path
    command: str
    status: str
    """``complete``, ``interrupted``, ``stopped`` (``--fail-fast`` hit an error) or
    ``lost`` (the Dask cluster went away)."""
    games_planned: int
    games_done: int
    """Games in the result tables."""
    games_partial: int
    """Finished games of incomplete chunks, kept in ``partial/`` for the next run."""
    games_played: int
    errors: int
    wall_seconds: float
    workers: int
    first_error: Row | None = None
    note: str | None = None
    """Why a run was ``lost``."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_manifest(config: RunConfig, plan: Plan, game: AnyGame) -> dict[str, Any]:
    """The manifest of a run about to start."""
    return {
        "name": config.name,
        "command": plan.command,
        "game": config.game,
        "config": config.as_data(),
        "rules": game.rules_dict(plan.rules),
        "bots": [bot.label for bot in plan.bots],
        "plan": plan.description,
        "cgsim_version": __version__,
        "engine_version": game.info.version,
        "game_info": {
            "id": game.info.id,
            "title": game.info.title,
            "version": game.info.version,
            "record_format": game.info.record_format,
        },
        "schema": game.schema(plan.rules).to_json(),
        "run_seed": config.seed,
        "seeds": {
            "deal": "cgsim.play.seeds.deal_seed(run_seed, block)",
            "bots": "cgsim.play.seeds.seat_seed(cgsim.play.seeds.game_seed(run_seed, game_id), seat)",
        },
        "chunk_size": config.chunk_size,
        "games_planned": len(plan.schedule),
        "games_done": 0,
        "games_partial": 0,
        "errors": 0,
        "status": "running",
        "started": _now(),
        "finished": None,
        "timings": {"wall_seconds": 0.0, "games_per_second": 0.0, "games_played": 0},
    }


def _prepare(store: ResultsStore, manifest: dict[str, Any], fresh: bool) -> Results | None:
    """The run already stored in the directory, checked (None when it is empty), or a
    ``ResumeError`` when it is a different run."""
    if fresh:
        store.clear()
    if not store.manifest_path.is_file():
        if store.has_data():
            raise ResumeError(
                f"{store.path} holds results without a manifest; use --fresh to start over"
            )
        return None
    stored = read_manifest_data(store.manifest_path)
    conflicts = resume_conflicts(stored, manifest)
    if conflicts:
        raise ResumeError(
            f"{store.path} holds a different run ({'; '.join(conflicts)}); "
            "use --fresh to start over, or another name or --out"
        )
    store.remove_temporary_files()
    previous = open_results(store.path)
    before, now = previous.manifest.games_planned, manifest["games_planned"]
    if now < before:
        raise ResumeError(
            f"{store.path} holds a run of {before:,} games, more than the {now:,} asked for; "
            f"give at least {before:,} games to resume or extend it, or use --fresh to start over"
        )
    return previous


def reopen_short_chunk(store: ResultsStore, previous: Results | None, total: int) -> set[int]:
    """Grow a run: its last chunk, complete but short because the run ended inside it,
    goes back to ``partial/`` to be completed, so every chunk ends up as a run planned
    ``total`` games from the start writes it. The chunks reopened (none or that one)."""
    if previous is None:
        return set()
    planned, size = previous.manifest.games_planned, previous.manifest.chunk_size
    last = planned // size
    if total <= planned or planned % size == 0 or last not in previous.done_chunks():
        return set()
    store.reopen_chunk(last)
    return {last}


def check_resumable(config: RunConfig, plan: Plan, *, fresh: bool = False) -> None:
    """Raise what :func:`run_games` would about the results directory (a different run, a
    damaged one), so a command can refuse before it announces the run."""
    if not fresh:
        manifest = new_manifest(config, plan, get_game(config.game))
        _prepare(ResultsStore(config.results_dir), manifest, fresh=False)


def _frames(schemas: TableSchemas, batch: Batch) -> dict[str, pl.DataFrame]:
    frames = {"games": schemas.frame("games", batch.games)}
    frames["seats"] = schemas.frame("seats", batch.seats)
    for name, rows in sorted(batch.tables.items()):
        if rows.count:
            frames[name] = schemas.frame(name, rows)
    return frames


def write_batch(store: ResultsStore, schemas: TableSchemas, index: int, batch: Batch) -> None:
    """Write chunk ``index`` of the tables and records from a batch holding all its games."""
    records = [line for _, line in sorted(batch.records)]
    store.write_chunk(index, _frames(schemas, batch), records)
    store.drop_partial(index)


def _pending(
    store: ResultsStore, done: set[int], total: int, chunk_size: int, schema: Schema
) -> tuple[dict[int, _ChunkBuffer], list[Sequence[int]]]:
    """A buffer per incomplete chunk (holding its partial games) and the ids still to play,
    given the complete chunks ``done``."""
    partials = store.read_partials(table_schemas(schema), chunk_size, total)
    buffers: dict[int, _ChunkBuffer] = {}
    todo: list[Sequence[int]] = []
    for index in range(math.ceil(total / chunk_size)):
        if index in done:
            store.drop_partial(index)
            continue
        ids: Sequence[int] = range(index * chunk_size, min((index + 1) * chunk_size, total))
        buffer = _ChunkBuffer(len(ids))
        if index in partials:
            buffer.batch = Batch.from_frames(*partials[index])
            buffer.kept = buffer.batch.games.count
            have = set(buffer.batch.games.data.get("game_id", []))
            ids = [game_id for game_id in ids if game_id not in have]
        buffers[index] = buffer
        todo.append(ids)
    return buffers, todo


def _stored(total: int, buffers: dict[int, _ChunkBuffer]) -> tuple[int, int]:
    """Games in the result tables, and finished games kept aside in incomplete chunks."""
    done = total - sum(buffer.size for buffer in buffers.values())
    return done, sum(buffer.batch.games.count for buffer in buffers.values())


def _keep_partials(
    store: ResultsStore, schemas: TableSchemas, buffers: dict[int, _ChunkBuffer]
) -> None:
    """Keep every incomplete chunk's finished games not yet in ``partial/``."""
    for index, buffer in buffers.items():
        if buffer.batch.games.count > buffer.kept:
            frames = _frames(schemas, buffer.batch)
            store.write_partial(index, frames, sorted(buffer.batch.records))
            buffer.kept = buffer.batch.games.count


def count_errors(store: ResultsStore) -> int:
    """Games in the result tables that ended in error."""
    results = open_results(store.path)
    with results.reading():
        count: int = (
            results.scan("games")
            .filter(pl.col("end") == ERROR_END)
            .select(pl.len())
            .collect()
            .item()
        )
    return count


def carry_over(previous: Results | None, manifest: dict[str, Any]) -> None:
    """Keep what a resumed run already knew: when it started and how long it played."""
    if previous is None:
        return
    manifest["started"] = previous.manifest.started or manifest["started"]
    if previous.manifest.timings is not None:
        manifest["timings"] = dict(previous.data["timings"])


def finished_at(previous: Results | None, status: str, played: int) -> str | None:
    """When the run completed: kept when re-running a complete run played nothing."""
    if status != "complete":
        return None
    if previous is not None and previous.manifest.status == "complete" and not played:
        return previous.manifest.finished or _now()
    return _now()


def add_timings(
    before: Mapping[str, Any], wall: float, played: int, workers: int
) -> dict[str, Any]:
    """The run's timings over every session: a session that played nothing changes none."""
    if not played:
        return dict(before)
    wall_total = float(before.get("wall_seconds", 0.0)) + wall
    played_total = int(before.get("games_played", 0)) + played
    return {
        "wall_seconds": round(wall_total, 3),
        "games_played": played_total,
        "games_per_second": round(played_total / wall_total, 2) if wall_total > 0 else 0.0,
        "workers": workers,
    }


def run_games(
    config: RunConfig,
    plan: Plan,
    *,
    fresh: bool = False,
    fail_fast: bool = False,
    progress: bool | None = None,
    announce: Callable[[int], object] | None = None,
    debug: bool = False,
) -> RunResult:
    """Play the plan's missing games into ``config.results_dir`` and update its manifest.

    Resumes a run started with the same config (any worker count), or extends it when
    ``games`` grew (the games stored stay as they are: a run's first games do not depend
    on how many follow); raises ``ResumeError`` when the directory holds a different run,
    or more games than planned now, unless ``fresh``. Stops
    cleanly on Ctrl-C (status ``interrupted``) and, with ``fail_fast``, at the first
    game that ends in error (status ``stopped``); every finished game is kept (those of
    incomplete chunks in ``partial/``, which the next run completes, and which are also
    written every :data:`PARTIAL_EVERY` seconds). ``progress`` shows progress on stderr:
    None a bar on a terminal and a line every few seconds elsewhere, True a bar, False
    nothing. ``announce`` hears the number of worker processes used, before the first
    game. The results folder is checked first (``ConfigError`` when it cannot be written).
    ``debug`` plays the games here, one at a time, and stops at the first bot fault: the
    games before it are kept, then the bot's exception is raised with its traceback
    (:mod:`cgsim.play.foreground`).
    """
    game = get_game(config.game)
    config = with_backend(config)
    context = WorkerContext(
        config.game, plan.rules, plan.bots, config.records, config.time_limit, config.isolate
    )
    # A backend that cannot be used: nothing written.
    place: Place = ForegroundPlace() if debug else prepare(config, context)
    require_output_dir(config.results_dir, "results folder")
    store = ResultsStore(config.results_dir)
    manifest = new_manifest(config, plan, game)
    previous = _prepare(store, manifest, fresh)
    carry_over(previous, manifest)
    schema = game.schema(plan.rules)
    total = len(plan.schedule)
    done = previous.done_chunks() if previous is not None else set()
    done -= reopen_short_chunk(store, previous, total)
    buffers, todo = _pending(store, done, total, config.chunk_size, schema)
    remaining = sum(len(ids) for ids in todo)
    manifest["games_done"], manifest["games_partial"] = _stored(total, buffers)
    store.write_manifest(manifest)

    workers = place.workers(remaining)
    if announce is not None:
        announce(workers)
    schemas = TableSchemas.from_schema(schema)
    shown = Progress(total, total - remaining, config.name, progress, sys.stderr)
    status, played, first_error, note = "complete", 0, None, None
    fault: BaseException | None = None
    start = time.perf_counter()
    kept_at = time.monotonic()
    try:
        for index in [k for k, buffer in buffers.items() if buffer.complete()]:
            write_batch(store, schemas, index, buffers[index].batch)
            del buffers[index]  # only once written: an interrupted write keeps it partial
        with place.pool(context, remaining) as pool:
            for batch in pool.results(TaskSource(plan.schedule, todo, workers)):
                store.write_traces(batch.traces)
                index = batch.games.data["game_id"][0] // config.chunk_size
                buffers[index].batch.extend(batch)
                played += batch.games.count
                shown.update(batch.games.count)
                if buffers[index].complete():
                    write_batch(store, schemas, index, buffers[index].batch)
                    del buffers[index]
                if time.monotonic() - kept_at >= PARTIAL_EVERY:
                    _keep_partials(store, schemas, buffers)
                    kept_at = time.monotonic()
                errors = batch.error_rows()
                first_error = first_error or (errors[0] if errors else None)
                if errors and fail_fast:
                    status = "stopped"
                    break
    except KeyboardInterrupt:
        status = "interrupted"
    except BackendLost as lost:
        status, note = "lost", str(lost)
    except (Exception, SystemExit) as error:
        if not debug or isinstance(error, CgsimError):
            raise
        status, fault = "stopped", error  # raised once the games before it are kept
    finally:
        shown.close()
    wall = time.perf_counter() - start
    _keep_partials(store, schemas, buffers)
    stored, partial = _stored(total, buffers)
    manifest |= {
        "games_done": stored,
        "games_partial": partial,
        "errors": count_errors(store),
        "status": status,
        "finished": finished_at(previous, status, played),
        "timings": add_timings(manifest["timings"], wall, played, workers),
    }
    store.write_manifest(manifest)
    if fault is not None:
        raise fault
    return RunResult(
        results_dir=store.path,
        command=plan.command,
        status=status,
        games_planned=total,
        games_done=stored,
        games_partial=partial,
        games_played=played,
        errors=manifest["errors"],
        wall_seconds=wall,
        workers=workers,
        first_error=first_error,
        note=note,
    )


def bot_table(results_dir: Path) -> pl.DataFrame:
    """Per bot: seats played, errors it caused, and over finished games its mean win
    share, score and rank.

    An error game is charged to the bot of its faulty seat only (the games table's
    ``error_seat``; seats rotate from game to game), not to the others at the table."""
    results = open_results(results_dir)
    finished = pl.col("end") != ERROR_END
    with results.reading():
        faults = (
            results.scan("games")
            .filter(pl.col("error_seat").is_not_null())
            .select("game_id", pl.col("error_seat").alias("seat"), faulty=pl.lit(True))
        )
        return (
            results.scan("seats")
            .join(faults, on=["game_id", "seat"], how="left")
            .group_by("bot")
            .agg(
                seats=pl.len(),
                errors=pl.col("faulty").fill_null(False).sum(),
                win_share=pl.col("win_share").filter(finished).mean(),
                mean_score=pl.col("score").filter(finished).mean(),
                mean_rank=pl.col("rank").filter(finished).mean(),
            )
            .sort(["win_share", "bot"], descending=[True, False], nulls_last=True)
            .collect()
        )


def format_summary(result: RunResult) -> str:
    """The one-screen summary printed at the end of a run."""
    rate = result.games_played / result.wall_seconds if result.wall_seconds > 0 else 0.0
    lines = [
        f"{result.command} {result.status}: {result.games_done}/{result.games_planned} games "
        f"stored in {result.results_dir} ({result.errors} ended in error)"
        + (f"; {result.games_partial} more kept for the next run" if result.games_partial else ""),
        f"played {result.games_played} games in {result.wall_seconds:.1f} s "
        f"({rate:.1f} games/s on {result.workers} worker{'s' if result.workers > 1 else ''})",
    ]
    table = bot_table(result.results_dir)
    if table.height:
        width = max(3, *(len(bot) for bot in table["bot"]))
        lines.append("")
        lines.append(
            f"{'bot':<{width}}  {'seats':>7}  {'win share':>9}  {'mean score':>10}  errors"
        )
        for row in table.iter_rows(named=True):
            share, score = row["win_share"], row["mean_score"]
            share_shown = f"{share:9.3f}" if share is not None else f"{'-':>9}"
            shown = f"{score:10.2f}" if score is not None else f"{'-':>10}"
            lines.append(
                f"{row['bot']:<{width}}  {row['seats']:>7}  {share_shown}  {shown}  {row['errors']}"
            )
    if result.first_error is not None:
        error = result.first_error
        seat = error["error_seat"]
        who = f"seat {seat} ({error['seats'][seat]})" if seat is not None else "no seat"
        lines.append("")
        lines.append(
            f"first error: game {error['game_id']} (seed {error['seed']}), {who}: {error['error']}"
        )
        trace = trace_path(result.results_dir, error["game_id"])
        if trace.is_file():
            lines.append(f"  its full traceback: {trace}")
        lines.append(
            f"  play it again: cgsim rerun {result.results_dir} {error['game_id']} "
            "(--debug stops at the fault)"
        )
    if result.status == "interrupted":
        lines.append("interrupted: every finished game is kept; run the same command to resume")
    if result.status == "lost":
        lines.append(f"{result.note}: every finished game is kept; run the same command to resume")
    return "\n".join(lines)
