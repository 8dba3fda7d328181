"""What the lab's commands share: the options every figure takes, and a failure reported
as one line on stderr with exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

from benchmarks.spawn import ProbeError
from cgsim.errors import ConfigError
from cgsim.games.registry import DEFAULT_GAME, get_game


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line naming the bad argument, exit 2 (not argparse's usage block)."""
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def parser(prog: str, description: str, games: int) -> argparse.ArgumentParser:
    """A parser with ``--game``, ``--games`` (default ``games``) and ``--seed``."""
    options = _Parser(prog=prog, description=description)
    options.add_argument("--game", default=DEFAULT_GAME, help="which game")
    options.add_argument("--games", type=_positive, default=games, help="games per measurement")
    options.add_argument("--seed", type=int, default=1, help="first deal seed")
    return options


def run(measure: Callable[[], None]) -> None:
    """Call ``measure``; a bad game, baseline or failing probe exits 2 with one line."""
    try:
        measure()
    except (ConfigError, ProbeError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)


def check_game(name: str) -> None:
    """An unknown game fails before any measurement."""
    get_game(name)
