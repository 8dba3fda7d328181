"""Playing games here, one after the other: ``cgsim run --debug`` and ``play --debug``.

A bot's fault is raised in this process with its traceback (``WorkerContext.debug``),
so a debugger can open where the bot failed (:func:`debugging`: ``--debug``, ``--pdb``); the games played before it are kept as a
stopped run's are, and the same command without ``--debug`` finishes the run. Nothing
shields the run from its bots here (no worker to die in this process's place, no
isolation): this is for a bot's author chasing a fault of their own bot.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from types import TracebackType

from cgsim.errors import CgsimError
from cgsim.games.loop import BotFault
from cgsim.play.match import GameSpec
from cgsim.play.pool import Batch, Player, TaskSource, WorkerContext


class Tampered(RuntimeError):
    """A bot changed the engine, the rules or the game in this process."""


def play_here(player: Player, spec: GameSpec) -> Batch:
    """One game played by a foreground ``player`` (a ``Tampered`` error when a bot
    changed what the seal keeps)."""
    batch = player.batch([spec])
    if batch.tampered is not None:
        raise Tampered(
            f"game {spec.game_id}: a bot changed {batch.tampered} (tampering with the engine)"
        )
    return batch


def play_one_here(context: WorkerContext, spec: GameSpec) -> Batch:
    """One game played here with ``debug`` on: ``cgsim play --debug``."""
    player = Player.of(replace(context, isolate=False, debug=True))
    try:
        return play_here(player, spec)
    finally:
        player.close()


class ForegroundPool:
    """One player in this process, playing each game of its source in turn."""

    size = 1

    def __init__(self, context: WorkerContext) -> None:
        self.player = Player.of(replace(context, isolate=False, debug=True))

    def __enter__(self) -> ForegroundPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.player.close()

    def results(self, source: TaskSource) -> Iterator[Batch]:
        """Every game of ``source``, one batch each (a fault stops them where it is)."""
        while (task := source.next_task()) is not None:
            for spec in task.specs:
                batch = play_here(self.player, spec)
                source.measured(batch)
                yield batch


@dataclass(frozen=True)
class ForegroundPlace:
    """This process, as the place a run's games are played."""

    def workers(self, games: int) -> int:
        return 1 if games else 0

    def pool(self, context: WorkerContext, games: int) -> ForegroundPool:
        return ForegroundPool(context)


EXIT_FAULT = 1
"""The exit code of a command stopped by a bot's fault (a game ended in error)."""


def fault_traceback(error: BaseException) -> TracebackType | None:
    """Where a debugger should open: the bot's frame that raised, or for a timeout the
    frame the alarm stopped it in (a fault's cause)."""
    if isinstance(error, BotFault) and error.__cause__ is not None:
        return error.__cause__.__traceback__
    return error.__traceback__


@contextmanager
def debugging(pdb: bool, after: str = "") -> Iterator[None]:
    """Show a bot's fault raised inside (its traceback on stderr, then ``after`` if
    given), open the debugger on it when ``pdb``, and end the command with
    :data:`EXIT_FAULT`. A user's error (``CgsimError``) and Ctrl-C pass through."""
    try:
        yield
    except CgsimError:
        raise
    except (Exception, SystemExit) as error:
        traceback.print_exception(error, file=sys.stderr)
        if after:
            print(after, file=sys.stderr)
        if pdb:
            # Deferred: the debugger, only for --pdb.
            import pdb as debugger

            debugger.post_mortem(fault_traceback(error))
        raise SystemExit(EXIT_FAULT) from None
