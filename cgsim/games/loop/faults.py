"""A bot's fault as the loop reports it, and how an exception is told in one line.

Plain Python (not compiled with the loop): a :class:`BotFault` is pickled between a
worker and its bot processes, and an exception class defined in a compiled module would
not pickle the same way.
"""

from __future__ import annotations

from cgsim.games.bot import Bot

REASON_LIMIT = 500
"""Longest fault reason kept (a bot's exception text can be huge)."""


class BotFault(Exception):
    """A bot failed: it raised, chose an illegal action or broke its caller's limits."""

    def __init__(self, seat: int, reason: str, bot: str = "") -> None:
        super().__init__(seat, reason, bot)
        self.seat = seat
        self.reason = reason
        self.bot = bot

    def __str__(self) -> str:
        who = f"bot {self.bot} (seat {self.seat})" if self.bot else f"seat {self.seat}"
        return f"{who}: {self.reason}"


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
