"""A playtest session: ``cgsim play --out DIR`` adds one game at a time to a results directory.

The directory is a results directory like any run's (manifest, Parquet chunks, records),
so ``cgsim report DIR`` and every other reader take it as they take a run's. Each game is
a chunk of its own (``chunk_size`` 1): adding one never rewrites a file another game is
in. Game ``N`` is a deal block of its own, dealt as block ``N`` of ``cgsim run`` or
``cgsim tournament`` with the session's run seed: a person meets the deals the bots met.

Adding a game keeps the directory readable at every instant: the manifest first counts
the new game as planned (a planned game without a chunk is one the readers simply do not
have yet), then the chunk is written by the runner's own writer (``games`` last, each
file renamed into place), then the manifest counts it done. A game a crash left planned
but unwritten is the next one played. The directory is locked while a game is played,
so two sessions cannot take the same game id.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.contract import AnyGame
from cgsim.play.bot_registry import BotSpec
from cgsim.play.config import NAME_PATTERN, RunConfig, validate_config
from cgsim.play.limits import MAX_CHUNKS
from cgsim.play.match import GameSpec
from cgsim.play.paths import require_output_dir
from cgsim.play.pool import Batch
from cgsim.play.results import Results, open_results
from cgsim.play.runner import (
    ResumeError,
    add_timings,
    carry_over,
    count_errors,
    finished_at,
    new_manifest,
    write_batch,
)
from cgsim.play.schedules import DealSchedule, Plan
from cgsim.play.storage import ResultsStore, TableSchemas, resume_conflicts

COMMAND = "play"
DEFAULT_NAME = "playtest"
"""The session's name when the folder's own name is not a run name."""
SHOWN_CONFLICTS = 4
"""Differences from a folder's setup an error names (then how many more)."""


@dataclass(frozen=True)
class Setup:
    """What every game of a session shares: the game, its seats and its rules."""

    game: AnyGame
    rules: Any
    bots: tuple[BotSpec, ...]
    """One per seat, in seat order (a person's seat labelled ``human``)."""
    variant: Mapping[str, Any]
    overrides: Mapping[str, Any]
    components: Path | None
    seed: int | None
    """The run seed asked for; None takes the session's (1 for a new one)."""
    time_limit: float = 0.0
    """Seconds per decision of a bot (0: none)."""


@dataclass(frozen=True)
class Session:
    """A locked results directory and the game about to be added to it."""

    store: ResultsStore
    game: AnyGame
    plan: Plan
    config: RunConfig
    previous: Results | None
    spec: GameSpec
    """Ids and seeds of the game to play."""

    def add(self, batch: Batch, wall_seconds: float) -> None:
        """Store the played game (``batch`` holds its rows and record) in the directory."""
        manifest = new_manifest(self.config, self.plan, self.game)
        carry_over(self.previous, manifest)
        done = len(self.previous.done_chunks()) if self.previous is not None else 0
        manifest |= {"games_done": done, "status": "running", "finished": None}
        self.store.write_manifest(manifest)
        schemas = TableSchemas.from_schema(self.game.schema(self.plan.rules))
        self.store.write_traces(batch.traces)
        write_batch(self.store, schemas, self.spec.game_id, batch)
        status = "complete" if done + 1 == manifest["games_planned"] else "interrupted"
        manifest |= {
            "games_done": done + 1,
            "errors": count_errors(self.store),
            "status": status,
            "finished": finished_at(None, status, 1),
            "timings": add_timings(manifest["timings"], wall_seconds, 1, 1),
        }
        self.store.write_manifest(manifest)


def _identity(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """What must be the same for games to share a session: the command, game and engine,
    and of the config the seats, seed, components, chunking and time limit, and every resolved rule
    setting (so an override equal to the default is no difference)."""
    config = manifest.get("config")
    config = config if isinstance(config, Mapping) else {}
    seats = config.get("seats")
    rules = manifest.get("rules")
    same = {
        "players": config.get("players"),
        "seats": [s.get("bot") if isinstance(s, Mapping) else s for s in seats]
        if isinstance(seats, list)
        else seats,
        "seed": config.get("seed"),
        "components": config.get("components"),
        "chunk_size": config.get("chunk_size"),
        "time_limit": config.get("time_limit", 0.0),
    }
    if isinstance(rules, Mapping):
        same |= {f"rules.{key}": value for key, value in rules.items() if key != "components"}
    return {
        "command": manifest.get("command"),
        "game": manifest.get("game"),
        "engine_version": manifest.get("engine_version"),
        "config": same,
    }


def session_schedule(config: RunConfig) -> DealSchedule:
    """A session's games: each a deal block of its own, the seats as the config lists them."""
    return DealSchedule(config.seed, (tuple(range(config.players)),), config.games)


def _plan(setup: Setup, config: RunConfig) -> Plan:
    labels = ", ".join(bot.label for bot in setup.bots)
    description = f"play: seats {labels}, one game at a time; {config.games} games"
    return Plan(COMMAND, setup.bots, session_schedule(config), setup.rules, description)


def _config(setup: Setup, path: Path, games: int, seed: int) -> RunConfig:
    name = path.resolve().name
    data = {
        "name": name if _is_run_name(name) else DEFAULT_NAME,
        "game": setup.game.info.id,
        "players": len(setup.bots),
        "variant": dict(setup.variant),
        "seats": [bot.label for bot in setup.bots],
        "rules": dict(setup.overrides),
        "components": str(setup.components.resolve()) if setup.components else None,
        "games": games,
        "seed": seed,
        "time_limit": setup.time_limit,
        "workers": 1,
        "out": str(path.resolve().parent),
        "records": True,
        "chunk_size": 1,
    }
    return validate_config(data, f"--out {str(path)!r}")


def _is_run_name(name: str) -> bool:
    return re.fullmatch(NAME_PATTERN, name) is not None


def _lock(path: Path) -> int:
    """An exclusive lock on the folder (released when the process ends, however it ends)."""
    descriptor = os.open(path, os.O_RDONLY)
    # Deferred: fcntl exists on Unix only.
    try:
        import fcntl
    except ImportError:  # pragma: no cover - no advisory locks on this system
        return descriptor
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise ConfigError(
            f"--out {str(path)!r}: another 'cgsim play' is adding a game to it right now; "
            "wait for it to end, or use another --out"
        ) from None
    return descriptor


def _next_game(previous: Results | None) -> int:
    """The first game id not stored yet (a game a crash left unwritten comes first)."""
    if previous is None:
        return 0
    done = previous.done_chunks()
    game_id = 0
    while game_id in done:
        game_id += 1
    return game_id


def _check(store: ResultsStore, previous: Results | None, manifest: Mapping[str, Any]) -> None:
    """Refuse a folder holding something else than this session's games."""
    if previous is None:
        if store.has_data():
            raise ResumeError(
                f"--out {str(store.path)!r} holds results without a manifest; use another --out"
            )
        return
    stored = json.loads(json.dumps(_identity(previous.data)))
    wanted = json.loads(json.dumps(_identity(manifest)))
    # What the person typed differs first; rule settings it changes with it after.
    conflicts = sorted(resume_conflicts(stored, wanted), key=lambda c: c.startswith("rules."))
    if conflicts:
        shown = "; ".join(conflicts[:SHOWN_CONFLICTS])
        if len(conflicts) > SHOWN_CONFLICTS:
            shown += f"; and {len(conflicts) - SHOWN_CONFLICTS} more"
        raise ResumeError(
            f"--out {str(store.path)!r} holds games of another setup ({shown}); "
            "use another --out for this one"
        )


@contextmanager
def open_session(path: Path, setup: Setup) -> Iterator[Session]:
    """The session in folder ``path``, locked, its next game chosen; ``ConfigError`` or
    ``ResumeError`` (nothing written) when the folder holds another setup's games, and
    ``ResultsError`` when it is a damaged results directory."""
    require_output_dir(path, "--out")
    store = ResultsStore(path)
    existed = path.is_dir()
    path.mkdir(parents=True, exist_ok=True)
    descriptor = -1
    try:
        descriptor = _lock(path)
        previous = open_results(path) if store.manifest_path.is_file() else None
        seed = setup.seed
        if seed is None:
            seed = int(previous.manifest.run_seed) if previous is not None else 1
        first = _config(setup, path, 1, seed)
        _check(store, previous, new_manifest(first, _plan(setup, first), setup.game))
        game_id = _next_game(previous)
        if game_id >= MAX_CHUNKS:
            raise ConfigError(
                f"--out {str(path)!r} holds {game_id:,} games, as many as a session holds; "
                "use another --out"
            )
        planned = previous.manifest.games_planned if previous is not None else 0
        config = _config(setup, path, max(planned, game_id + 1), seed)
        plan = _plan(setup, config)
        store.remove_temporary_files()
        yield Session(store, setup.game, plan, config, previous, plan.schedule.spec(game_id))
    except BaseException:
        if not existed:
            _remove_if_empty(path)
        raise
    finally:
        if descriptor >= 0:
            os.close(descriptor)


def _remove_if_empty(path: Path) -> None:
    with suppress(OSError):
        path.rmdir()
