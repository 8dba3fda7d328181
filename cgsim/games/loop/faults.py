"""A bot's fault as the loop reports it, and how an exception is told in one line.

Plain Python (not compiled with the loop): a :class:`BotFault` is pickled between a
worker and its bot processes, and an exception class defined in a compiled module would
not pickle the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cgsim.games.bot import Bot
from cgsim.games.contract import Action

REASON_LIMIT = 500
"""Longest fault reason kept (a bot's exception text can be huge)."""


class Located(Exception):
    """An exception that already knows where in a bot's code it arose: one raised again
    here for a bot in another process, which sent its frames and traceback along."""

    where: tuple[str, ...] = ()
    """The innermost frames of the bot's own code, innermost first (``mybot.py:41 in f``)."""
    trace: str = ""
    """The full traceback, as text ('' when unknown)."""


class BotFault(Located):
    """A bot failed: it raised, chose an illegal action or broke its caller's limits.

    The loop adds where in the game it happened (:meth:`at`): the state the bot was
    asked in and the legal actions (kept in this process only: never pickled), the
    decision's number, and for an illegal action the action itself.
    """

    state: Any = None
    decision: int | None = None
    """The game's decisions so far, this one included (0: before the first)."""
    legal: Sequence[Action] | None = None
    """The legal actions of the decision (None: the bot was not asked to choose)."""
    answered: bool = False
    """Whether the bot's call returned, the fault being its answer or its lateness."""
    illegal: bool = False
    """Whether the bot chose :attr:`action`, which is not among the legal actions."""
    action: Any = None

    def __init__(self, seat: int, reason: str, bot: str = "") -> None:
        super().__init__(seat, reason, bot)
        self.seat = seat
        self.reason = reason
        self.bot = bot

    def __str__(self) -> str:
        who = f"bot {self.bot} (seat {self.seat})" if self.bot else f"seat {self.seat}"
        return f"{who}: {self.reason}"

    def __reduce__(self) -> tuple[Any, ...]:
        # Only what the fault says crosses a process boundary, never the game's state.
        return (type(self), (self.seat, self.reason, self.bot))

    def at(self, state: Any, decision: int, legal: Sequence[Action] | None) -> BotFault:
        """This fault, placed in the game (where it was raised first: the innermost
        loop call that saw it knows best); returned so the loop can raise it."""
        if self.decision is None:
            self.state, self.decision, self.legal = state, decision, legal
        return self


def raised(seat: int, error: BaseException, bot: Bot) -> BotFault:
    """The fault of ``bot`` (in ``seat``) that raised ``error``, its cause. Set here, in
    Python: the loop's compiled ``raise ... from error`` would leave the cause unset."""
    fault = BotFault(seat, describe(error), bot_name(bot))
    fault.__cause__ = error
    return fault


class EngineFault(Exception):
    """A failure where a bot is called that is not the bot's doing: isolation mode cannot
    send the engine's objects to the bot's process. The loop lets it through unblamed
    (as it does a :class:`BotFault`), and the game is the engine's error."""


def describe(error: BaseException) -> str:
    """An exception as one bounded line: its type and message."""
    message = str(error)
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return text if len(text) <= REASON_LIMIT else text[: REASON_LIMIT - 3] + "..."


def bot_name(bot: Bot) -> str:
    """The bot's registered name, else its class name."""
    return bot.name or type(bot).__name__
