"""The bot contract: a bot picks one of the engine's legal actions.

A bot is a class with a name, a one-line description, the games it plays, and a
pydantic ``Params`` model of named, typed, validated parameters with defaults. It is
deterministic given the generator it is handed: all its randomness comes from ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from cgsim.games.contract import Action, AnyGame

ANY_GAME = "*"
"""In ``Bot.games``: the bot plays every game (it only needs the contract)."""


class NoParams(BaseModel):
    """Parameters of a bot that has none."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Bot:
    """Base class of every bot; subclasses override ``choose`` and maybe the hooks."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = ()
    """The ids of the games it plays (``ANY_GAME`` for every game); a bot that names none
    is refused by the registry."""
    Params: ClassVar[type[BaseModel]] = NoParams
    searches: ClassVar[bool] = False
    """True for a bot that searches (many engine calls a decision): benches time it over
    fewer games."""
    looks: ClassVar[bool] = True
    """False for a bot whose ``choose`` never reads the state it is given (it picks
    among the legal actions blind): the loop then builds no view for its decisions and
    hands it ``None``."""
    budget_params: ClassVar[tuple[str, ...]] = ()
    """The parameters that set its search size (``cgsim strength --budget``)."""

    @classmethod
    def plays(cls, game: str) -> bool:
        """Whether the bot plays the game of that id."""
        return game in cls.games or ANY_GAME in cls.games

    def __init__(self, params: BaseModel | None = None) -> None:
        self.params: Any = params if params is not None else self.Params()

    def new_game(self, game: AnyGame, seat: int, state: Any) -> None:
        """Called once before the first decision of a game (``state``: what the seat sees)."""
        self.game = game
        self.seat = seat

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """Return one element of ``legal_actions``."""
        raise NotImplementedError

    def observe(self, state: Any, seat: int, action: Action) -> None:
        """Called after any seat's action is applied (``state``: what this bot sees after it)."""
