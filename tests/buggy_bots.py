"""Bots with a bug deep in their own code, for any game: what their authors must be told.

Each plays the first legal action until its ``at``-th decision (counting its own), then
fails there (in a share ``chance`` of its games): an assertion in a nested helper, an
illegal action, or a helper that sleeps past the time limit.
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from cgsim.games.bot import ANY_GAME, Bot
from cgsim.games.contract import Action


class BuggyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: int = 3
    delay: float = 5.0
    chance: float = 1.0
    """Of the bug striking in a game (drawn from the bot's generator: the same games)."""


class Buggy(Bot):
    """The first legal action, until its bug strikes at decision ``at``."""

    games: ClassVar[tuple[str, ...]] = (ANY_GAME,)
    Params: ClassVar[type[BaseModel]] = BuggyParams

    def new_game(self, game: Any, seat: int, state: Any) -> None:
        super().new_game(game, seat, state)
        self.decisions = 0
        self.strikes = False

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        self.decisions += 1
        if self.decisions < self.params.at:
            return legal_actions[0]
        if self.decisions == self.params.at:
            self.strikes = rng.random() < self.params.chance
        return self.plan(legal_actions) if self.strikes else legal_actions[0]

    def plan(self, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[0]


class Asserts(Buggy):
    """Fails an assertion two helpers down."""

    def plan(self, legal_actions: Sequence[Action]) -> Action:
        best = max(legal_actions, key=self.score_tile)
        return best

    def score_tile(self, action: Action) -> float:
        return self.blocked_cells(action) * 1.5

    def blocked_cells(self, action: Action) -> int:
        assert action < 0, f"bed {action} has a blocked cell"
        return 0


class Illegal(Buggy):
    """Answers an action just past the largest legal one."""

    def plan(self, legal_actions: Sequence[Action]) -> Action:
        return max(legal_actions) + 1


class Sleepy(Buggy):
    """Thinks in a helper for ``delay`` seconds."""

    def plan(self, legal_actions: Sequence[Action]) -> Action:
        return self.think(legal_actions)

    def think(self, legal_actions: Sequence[Action]) -> Action:
        time.sleep(self.params.delay)
        return legal_actions[0]


def target(cls: type[Bot], **params: Any) -> str:
    """The ``module:Class`` spec of a bot of this module, with its parameters."""
    spec = f"buggy_bots:{cls.__name__}"
    if params:
        spec += ":" + ",".join(f"{key}={value}" for key, value in params.items())
    return spec


def site(method: Any, text: str | None = None) -> str:
    """How a fault names a line of a test bot: ``buggy_bots.py:59 in blocked_cells``, the
    line of ``method`` holding ``text`` (None: the line its definition starts on)."""
    lines, first = inspect.getsourcelines(method)
    code = method.__code__
    file = f"{method.__module__.rpartition('.')[2]}.py"
    if text is None:
        return f"{file}:{code.co_firstlineno} in {code.co_name}"
    for offset, line in enumerate(lines):
        if text in line:
            return f"{file}:{first + offset} in {code.co_name}"
    raise AssertionError(f"{text!r} is not in {code.co_name}")
