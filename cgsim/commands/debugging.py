"""``--debug`` and ``--pdb``: a bot's fault raised here, with its whole traceback.

A command plays its games in the foreground with ``debug`` on (``play_game``), so the
bot's own exception reaches this process as it was raised; :func:`debugging` prints its
traceback and, with ``--pdb``, opens the debugger where the bot failed, then ends the
command with exit code 1 (a game ended in error).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Annotated

import typer

from cgsim.errors import CgsimError

EXIT_FAULT = 1

DebugOpt = Annotated[
    bool,
    typer.Option(
        "--debug",
        help="Play here and stop at the first bot fault, showing the bot's own exception "
        "with its full traceback",
    ),
]
PdbOpt = Annotated[
    bool,
    typer.Option("--pdb", help="As --debug, then open the Python debugger at the fault"),
]


def fault_traceback(error: BaseException) -> TracebackType | None:
    """Where a debugger should open: the bot's frame that raised, or for a timeout the
    frame the alarm stopped it in (a fault's cause)."""
    from cgsim.games.loop import BotFault

    if isinstance(error, BotFault) and error.__cause__ is not None:
        return error.__cause__.__traceback__
    return error.__traceback__


@contextmanager
def debugging(pdb: bool, after: str = "") -> Iterator[None]:
    """Show a bot's fault raised inside (its traceback, then ``after`` if given), open
    the debugger on it when ``pdb``, and exit with :data:`EXIT_FAULT`. A user's error
    (``CgsimError``) and Ctrl-C pass through as everywhere else."""
    try:
        yield
    except (CgsimError, typer.Exit):
        raise
    except (Exception, SystemExit) as error:
        traceback.print_exception(error, file=sys.stderr)
        if after:
            print(after, file=sys.stderr)
        if pdb:
            import pdb as debugger

            debugger.post_mortem(fault_traceback(error))
        raise typer.Exit(EXIT_FAULT) from None
