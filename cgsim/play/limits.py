"""The documented bounds of every count, seed and rate a user gives, in one place.

Each bound keeps a run from exhausting memory or time before it does any work: a run
plans and buffers per chunk of games, starts one process per worker and derives 63-bit
seeds. Configs (:mod:`cgsim.play.config`) and command-line options use the same bounds
and the same one-line message, ``NAME = VALUE: allowed LOW to HIGH``.
"""

from __future__ import annotations

import math
import os

from cgsim.errors import ConfigError
from cgsim.play.seeds import SEED_BITS

MAX_GAMES = 10_000_000
"""Games of one run (a day or more of play on a workstation)."""
MAX_CHUNKS = 20_000
"""Chunk files of one run (``games / chunk_size``): the runner keeps a small buffer per
chunk, about 1 kB, so 20 MB at most."""
MAX_WORKERS = 256
"""Worker processes asked for; more than the cores this process may use are never
started (see :func:`workers_used`)."""
MAX_SEED = 2**SEED_BITS - 1
"""Seeds are 0 to 2**63 - 1 everywhere: they fit a signed 64-bit column."""
MAX_TIME_LIMIT = 3600.0
"""Seconds per decision (0 = no limit)."""
MAX_POOL = 64
"""Bots of a tournament pool."""
MAX_SEATINGS = 100_000
"""Games of one deal block of a tournament (combinations times seatings)."""


def cpu_count() -> int:
    """Cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def workers_used(requested: int | None, games: int = MAX_GAMES) -> int:
    """The worker processes a run of ``games`` games really starts for ``requested``
    (0 or None: all cores): never more than the cores, nor than the games, at least 1.

    Surplus processes would only compete for the same cores and memory.
    """
    cores = cpu_count()
    return max(1, min(requested or cores, cores, games))


def shown(value: object) -> str:
    """A value as an error message shows it: integers with thousands separators."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return repr(value)
    if isinstance(value, int) or (math.isfinite(value) and value.is_integer()):
        return f"{int(value):,}"
    return f"{value:g}"


def out_of_range(name: str, value: object, low: float, high: float, note: str = "") -> ConfigError:
    """The one-line error of a value outside ``low..high`` (``note`` says why, optional)."""
    bounds = f"{shown(low)} to {shown(high)}"
    return ConfigError(f"{name} = {shown(value)}: allowed {bounds}{f' ({note})' if note else ''}")


def check_int(name: str, value: int, low: int, high: int, note: str = "") -> int:
    """``value`` when it is an integer within ``low..high``, else a ``ConfigError``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise out_of_range(name, value, low, high, note)
    return value


def check_float(
    name: str, value: float, low: float, high: float, *, open_ends: bool = False
) -> float:
    """``value`` when it is a finite number within ``low..high`` (strictly inside with
    ``open_ends``), else a ``ConfigError``."""
    inside = low < value < high if open_ends else low <= value <= high
    if not math.isfinite(value) or not inside:
        note = "both ends excluded" if open_ends else ""
        raise out_of_range(name, value, low, high, note)
    return value


def check_seed(name: str, value: int) -> int:
    """A seed: 0 to :data:`MAX_SEED`, the same rule for every command."""
    return check_int(name, value, 0, MAX_SEED)


def check_workers(name: str, value: int | None) -> int | None:
    """A worker count: None (the default), 0 (all cores) to :data:`MAX_WORKERS`."""
    if value is None:
        return None
    return check_int(name, value, 0, MAX_WORKERS, "0 = all cores")
