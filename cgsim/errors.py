"""One exception family, so the command line can turn every user mistake into one clear line."""

from __future__ import annotations


class CgsimError(Exception):
    """Base of every error that is the user's to fix (bad config, unknown bot, bad record).

    The command line prints ``str(error)`` on stderr and exits with ``exit_code``: never a
    traceback for these.
    """

    exit_code = 2


class ConfigError(CgsimError):
    """A config, setting or component file is malformed; the message names the field."""


class UnknownBotError(CgsimError):
    """A bot name or parameter that does not exist; the message lists what does."""


class ResultsError(CgsimError):
    """A path that is not a readable results directory (missing, no manifest, a manifest
    or chunk that is damaged or not this run's); the message names the file and the fix."""


class RecordError(CgsimError):
    """A game record that cannot be read or does not replay through the engine."""


class BackendLost(CgsimError):
    """The cluster went away during a run: what finished is kept; run again to resume."""

    exit_code = 1


class IllegalActionError(Exception):
    """An action that is not legal in the given state; the message says why.

    Not a user error: the runner catches it to disqualify a cheating bot.
    """
