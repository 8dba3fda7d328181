"""Which independent record checker reads which record format: one table, keyed by the
record's ``format`` tag, so ``cgsim check`` takes files of any game, mixed or not."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from cgsim.errors import RecordError
from cgsim.games.cottage.checker import check_record as check_cottage
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

CHECKERS: dict[str, Checker] = {
    "cgsim.record/1": check_cottage,
    "cgsim.kitchen-record/1": check_kitchen,
}
"""Record format tag -> the checker of that game's records."""


def checker_for(record: Mapping[str, Any], where: str) -> Checker:
    """The checker of the record's format; an unknown format is a ``RecordError``."""
    tag = record.get("format")
    checker = CHECKERS.get(tag) if isinstance(tag, str) else None
    if checker is None:
        raise RecordError(
            f"{where}: format is {tag!r}, not a known record format (known: {', '.join(CHECKERS)})"
        )
    return checker


def check_record(record: Mapping[str, Any], where: str = "record") -> Sequence[Violation]:
    """Every violation of the rules found in ``record`` by its format's checker."""
    return checker_for(record, where)(record)
