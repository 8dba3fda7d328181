"""Commands of the check group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

import importlib
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from cgsim.errors import ConfigError
from cgsim.games import recordio
from cgsim.games.checkers import Violation, check_record, is_stopped
from cgsim.games.narrate import fault_text
from cgsim.games.registry import register_game
from cgsim.play.limits import MAX_GAMES, check_int, check_seed, check_workers
from cgsim.studies import matrix as cells_of
from cgsim.studies import matrix_play

SHOWN_PER_RECORD = 20
MATRIX_GAMES = 2
"""Games per cell of ``cgsim matrix``: one per worker of a 2-core machine."""


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def check(
        files: Annotated[
            list[Path], typer.Argument(help="Record files: .json, .jsonl or .jsonl.zst.")
        ],
        quiet: Annotated[
            bool, typer.Option("--quiet", "-q", help="Print only the per-file counts.")
        ] = False,
    ) -> None:
        """Check game records of either game against its rules, event by event, without
        the engine (each record's format tag picks the checker; files may mix games).

        A record of a game stopped before its end (a person quit a playtest game, a bot
        failed) is checked as far as it goes and counted as unfinished, not as a violation;
        one stopped by a fault is named with the fault.
        Exit code 0 when every record is valid (unfinished ones included), 1 when any
        breaks a rule, 2 when a file cannot be read as records or holds a record of an
        unknown format.
        """
        any_invalid = False
        for path in files:
            checked = valid = unfinished = 0
            for number, record in enumerate(recordio.iter_records(path), start=1):
                checked += 1
                violations = check_record(record, f"{path}: record {number}")
                if not violations:
                    valid += 1
                    unfinished += is_stopped(record)
                    fault = fault_line(path, number, record)
                    if fault is not None and not quiet:
                        typer.echo(fault)
                    continue
                any_invalid = True
                if not quiet:
                    for line in violation_lines(path, number, violations):
                        typer.echo(line)
            stopped = f" ({unfinished} unfinished: valid as far as they go)" if unfinished else ""
            typer.echo(f"{path}: {checked} records checked, {valid} valid{stopped}")
        if any_invalid:
            raise typer.Exit(1)

    @app.command()
    def matrix(
        all_pairs: Annotated[
            bool,
            typer.Option(
                "--all-pairs",
                help="Play only a slice holding every pair of dimension values (make test's).",
            ),
        ] = False,
        games: Annotated[int, typer.Option(help="Games per cell.")] = MATRIX_GAMES,
        seed: Annotated[int, typer.Option(help="Run seed of every cell.")] = 1,
        workers: Annotated[
            int, typer.Option(help="Worker processes of each cell, 0 = all cores.")
        ] = 2,
        register_games: Annotated[
            list[str] | None,
            typer.Option(
                "--register",
                help="NAME=module:attribute: a game from outside cgsim, given cells too "
                "(repeat the option for more).",
            ),
        ] = None,
        list_only: Annotated[
            bool, typer.Option("--list", help="Print the cells and their count; play nothing.")
        ] = False,
    ) -> None:
        """Play every bot in every declared setup of every game it plays, isolated or
        not, compiled or pure Python, on the local pool and on Dask; each cell passes
        when its games end without error and their records pass the game's checker.

        The cells come from the declarations (games, their setups, the bots' games), so
        a new bot or setup joins by itself. Exit code 0 when every cell passes, 1 when
        one fails.
        """
        check_int("--games", games, 1, MAX_GAMES)
        check_seed("--seed", seed)
        check_workers("--workers", workers)
        for item in register_games or []:
            register_game_option(item)
        cells = cells_of.full_matrix()
        if all_pairs:
            cells = cells_of.all_pairs(cells)
        if list_only:
            for cell in cells:
                typer.echo(cell.label)
            typer.echo(f"{len(cells)} cells")
            return
        typer.echo(f"{len(cells)} cells, {games} games each", err=True)
        start = time.perf_counter()
        done = 0

        def heard(outcome: matrix_play.Outcome) -> None:
            nonlocal done
            done += 1
            result = "pass" if outcome.problem is None else "FAIL"
            typer.echo(f"[{done}/{len(cells)}] {result} {outcome.cell.label}", err=True)

        outcomes = matrix_play.play_matrix(cells, games, seed, workers, heard)
        for line in matrix_play.table(outcomes, time.perf_counter() - start):
            typer.echo(line)
        if not all(outcome.passed for outcome in outcomes):
            raise typer.Exit(1)


def fault_line(path: Path, number: int, record: Mapping[str, Any]) -> str | None:
    """``FILE:record K: a game ended in error ...`` for the record of a game a fault
    stopped (its ``error``), None for any other record."""
    text = fault_text(record)
    if text is None:
        return None
    return f"{path}:record {number}: a game ended in error, valid as far as it went; {text}"


def violation_lines(path: Path, number: int, violations: Sequence[Violation]) -> list[str]:
    """``FILE:record K: turn N event E: message`` lines, at most 20, then a count."""
    lines = []
    for violation in violations[:SHOWN_PER_RECORD]:
        where = f"{path}:record {number}: "
        if violation.turn is not None:
            where += f"turn {violation.turn} "
            where += "" if violation.event is None else f"event {violation.event}"
            where = where.rstrip() + ": "
        lines.append(where + violation.message)
    hidden = len(violations) - SHOWN_PER_RECORD
    if hidden > 0:
        lines.append(f"{path}:record {number}: ... and {hidden} more violations")
    return lines


def register_game_option(item: str) -> None:
    """Register the game of a ``--register NAME=module:attribute`` option, loaded first
    so that a bad one is one line naming it (and registers nothing), not a failure in
    every cell."""
    name, sep, target = item.partition("=")
    module, colon, attribute = target.partition(":")
    if not sep or not name or not colon or not module or not attribute:
        raise ConfigError(f"--register {item!r}: expected NAME=module:attribute")
    try:
        getattr(importlib.import_module(module), attribute)
    except Exception as error:  # the module failing to import, or lacking the attribute
        raise ConfigError(
            f"--register {item!r}: cannot load {target} ({type(error).__name__}: {error})"
        ) from None
    register_game(name, target)
