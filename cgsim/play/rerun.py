"""One game of a run, found again from its results folder so it can be played on its own.

A game's deal, its bots' generator seeds and its seats follow from the run seed and its
id (:mod:`cgsim.play.seeds`, :mod:`cgsim.play.schedules`); its bots, rules, components and
time limit are in the config the manifest keeps. So game N is planned again here exactly
as the run planned it, and checked against the row the run stored for it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import ConfigError, ResultsError
from cgsim.games.contract import AnyGame, Row
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import BotSpec
from cgsim.play.config import RunConfig, resolve_bots, resolve_rules, validate_config
from cgsim.play.human import HUMAN
from cgsim.play.match import GameSpec
from cgsim.play.results import MANIFEST, open_results
from cgsim.play.schedules import DealSchedule, plan_for
from cgsim.play.session import COMMAND as SESSION_COMMAND
from cgsim.play.session import session_schedule

UNCOMPARED = frozenset({"wall_time"})
"""Columns a game played again may differ in: how long it took."""
MEASURED = re.compile(r"(stopped after|took) \d+\.\d+ s")
"""A duration a timeout's reason names: measured, so it differs from one play to the next."""


@dataclass(frozen=True)
class RunGame:
    """Game ``spec.game_id`` of the run in ``results``, ready to be played again."""

    results: Path
    game: AnyGame
    config: RunConfig
    rules: Any
    spec: GameSpec
    """Its ids and seeds as the run planned them, its seats indexing ``bots``."""
    bots: tuple[BotSpec, ...]
    """The game's bots in seat order."""
    stored_game: Row | None
    """The run's ``games`` row of it (None when the run has not stored it yet)."""
    stored_seats: tuple[Row, ...]
    engine_version: str
    """The engine the run was played with."""


def game_of_run(results: Path, game_id: int) -> RunGame:
    """Game ``game_id`` of the run stored in ``results``, planned again from its manifest
    (``ResultsError`` or ``ConfigError``, one line, when it cannot be exactly)."""
    opened = open_results(results)
    manifest = opened.manifest
    where = Path(results) / MANIFEST
    try:
        config = validate_config(manifest.config, f"{where}: config")
    except ConfigError as error:
        raise ResultsError(f"{error} (written by another cgsim version?)") from None
    if config.components is not None and not config.components.is_file():
        raise ResultsError(
            f"{where}: the run's components file {str(config.components)!r} no longer exists"
        )
    schedule, bots = _plan(config, manifest.command, where)
    if len(schedule) != manifest.games_planned:
        raise ResultsError(
            f"{where}: plans {manifest.games_planned:,} games, this cgsim plans {len(schedule):,} "
            "from its config: written by another cgsim version, its games cannot be replayed"
        )
    if not 0 <= game_id < len(schedule):
        raise ConfigError(
            f"GAME_ID {game_id}: not a game of {results}; its games are 0 to {len(schedule) - 1}"
        )
    planned = schedule.spec(game_id)
    seated = tuple(bots[index] for index in planned.seats)
    spec = planned._replace(seats=tuple(range(len(seated))))
    with opened.reading():
        stored = opened.scan("games").filter(pl.col("game_id") == game_id).collect()
        seats = opened.scan("seats").filter(pl.col("game_id") == game_id).sort("seat").collect()
    row = stored.row(0, named=True) if stored.height else None
    labels = [bot.label for bot in seated]
    if row is not None and (row["seed"] != spec.seed or list(row["seats"]) != labels):
        raise ResultsError(
            f"{results}: game {game_id} was dealt seed {row['seed']} to {', '.join(row['seats'])}, "
            f"but its manifest now plans seed {spec.seed} for {', '.join(labels)}: written by "
            "another cgsim version, it cannot be replayed exactly"
        )
    game = get_game(config.game)
    return RunGame(
        results=Path(results),
        game=game,
        config=config,
        rules=resolve_rules(config),
        spec=spec,
        bots=seated,
        stored_game=row,
        stored_seats=tuple(seats.iter_rows(named=True)),
        engine_version=manifest.engine_version,
    )


def _plan(config: RunConfig, command: str, where: Path) -> tuple[DealSchedule, tuple[BotSpec, ...]]:
    """The run's schedule and bot list, as the command that wrote it planned them."""
    if command == SESSION_COMMAND:
        people = [seat for seat, entry in enumerate(config.seats) if entry.bot == HUMAN]
        if people:
            raise ConfigError(
                f"{where.parent}: a person played seat {people[0]} of its games: only bots' "
                "games can be played again ('cgsim replay' shows a game's record)"
            )
        return session_schedule(config), resolve_bots(config, "seats")
    if command == "run":
        plan = plan_for(config, "run")
    elif command == "tournament":
        plan = plan_for(config, "tournament")
    else:
        raise ResultsError(f"{where}: written by {command!r}, whose games cannot be replayed")
    if not isinstance(plan.schedule, DealSchedule):
        raise ResultsError(f"{where}: its schedule cannot be replayed game by game")
    return plan.schedule, plan.bots


def differences(stored: Mapping[str, Any] | None, played: Mapping[str, Any]) -> list[str]:
    """The columns in which a row played again differs from the stored one."""
    if stored is None:
        return []
    names = dict.fromkeys([*stored, *played])
    return [
        name
        for name in names
        if name not in UNCOMPARED and _plain(stored.get(name)) != _plain(played.get(name))
    ]


def seat_differences(stored: Sequence[Row], played: Sequence[Row]) -> list[str]:
    """``seat S: column`` for every seat column that differs (the seat count first)."""
    if not stored:
        return []
    if len(stored) != len(played):
        return [f"{len(played)} seats against {len(stored)}"]
    return [
        f"seat {row.get('seat')}: {name}"
        for row, other in zip(stored, played, strict=True)
        for name in differences(row, other)
    ]


def _plain(value: Any) -> Any:
    """A value as compared: sequences as lists (Parquet lists and Python tuples alike),
    and a timeout's measured duration left out of its reason."""
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, str):
        return MEASURED.sub(r"\1 ... s", value)
    return value
