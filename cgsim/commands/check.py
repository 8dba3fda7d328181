"""Commands of the check group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from cgsim.games import recordio
from cgsim.games.checkers import Violation, check_record, is_stopped
from cgsim.games.narrate import fault_text

SHOWN_PER_RECORD = 20


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
