"""Reading ``cgsim.record/1`` records from any record file (see ``cgsim.games.recordio``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cgsim.errors import RecordError
from cgsim.games import recordio

FORMAT = "cgsim.record/1"


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    """Yield each record of ``path``; a file that is not such records raises ``RecordError``."""
    for number, record in enumerate(recordio.iter_records(path), start=1):
        if record.get("format") != FORMAT:
            raise RecordError(
                f"{path}: record {number}: format is {record.get('format')!r}, expected {FORMAT!r}"
            )
        yield record
