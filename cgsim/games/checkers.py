"""Which independent record checker reads which record format: one table, keyed by the
record's ``format`` tag, so ``cgsim check`` takes files of any game, mixed or not.

Before a checker reads a record, the record's shape goes through its game's declared
record schema (``cgsim/games/<game>/record_schema.py``): written from the format
document, importing nothing of the engine nor of the checker, it is the one structure
check both the engine's replay and the checker rely on. A record of the wrong shape is
a ``RecordError`` (unreadable input, exit 2), not a rule violation; the checkers stay
independent of the engine, and their own reading of the rules judges the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from cgsim.errors import RecordError
from cgsim.games.cottage import record_schema as cottage_schema
from cgsim.games.cottage.checker import check_record as check_cottage
from cgsim.games.kitchen import record_schema as kitchen_schema
from cgsim.games.kitchen.checker import check_record as check_kitchen


class Violation(Protocol):
    """What every checker reports: where (turn ``n`` and event index, None for the setup
    and the result) and what."""

    @property
    def turn(self) -> int | None: ...
    @property
    def event(self) -> int | None: ...
    @property
    def message(self) -> str: ...


Checker = Callable[[Mapping[str, Any]], Sequence[Violation]]
Validator = Callable[[Any], None]

CHECKERS: dict[str, Checker] = {
    cottage_schema.FORMAT: check_cottage,
    kitchen_schema.FORMAT: check_kitchen,
}
"""Record format tag -> the checker of that game's records."""

VALIDATORS: dict[str, Validator] = {
    cottage_schema.FORMAT: cottage_schema.validate_record,
    kitchen_schema.FORMAT: kitchen_schema.validate_record,
}
"""Record format tag -> the structure check of that game's records (``RecordError``)."""

STOPPED: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    cottage_schema.FORMAT: cottage_schema.is_stopped,
    kitchen_schema.FORMAT: kitchen_schema.is_stopped,
}
"""Record format tag -> whether a record is of a game stopped before its end."""


def checker_for(record: Mapping[str, Any], where: str) -> Checker:
    """The checker of the record's format; an unknown format is a ``RecordError``."""
    tag = record.get("format")
    checker = CHECKERS.get(tag) if isinstance(tag, str) else None
    if checker is None:
        raise RecordError(
            f"{where}: format is {tag!r}, not a known record format (known: {', '.join(CHECKERS)})"
        )
    return checker


def validate_structure(record: Mapping[str, Any], where: str = "record") -> None:
    """The record's shape by its game's schema; a ``RecordError`` starting with ``where``."""
    checker_for(record, where)
    try:
        VALIDATORS[record["format"]](record)
    except RecordError as error:
        raise RecordError(f"{where}: {error}") from None


def check_record(record: Mapping[str, Any], where: str = "record") -> Sequence[Violation]:
    """Every violation of the rules found in ``record`` by its format's checker, after
    its structure is validated. A checker that fails on a well-shaped record is a
    ``RecordError`` too (one line for the user, never a traceback)."""
    checker = checker_for(record, where)
    validate_structure(record, where)
    try:
        return checker(record)
    except RecordError as error:
        raise RecordError(f"{where}: {error}") from None
    except Exception as error:
        raise RecordError(
            f"{where}: the record cannot be checked ({type(error).__name__}: {error})"
        ) from None


def is_stopped(record: Mapping[str, Any]) -> bool:
    """Whether a record of a known format is of a game stopped before its end (a person
    quit): its checker judges it as far as it goes."""
    tag = record.get("format")
    stopped = STOPPED.get(tag) if isinstance(tag, str) else None
    return stopped is not None and stopped(record)
