"""Restricted play (Jaffe et al., 2012): a bot put under restrictions the game declares.

A restricted bot is the bot choosing among the legal actions no active restriction
forbids, and among all of them when every one is forbidden (a restriction never makes a
bot stuck). With no restriction it passes every call through unchanged, with the same
random generator, so it plays exactly the games of the bot itself: the baseline of
``cgsim mechanics`` is the same bot under a distinct name.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from cgsim.errors import ConfigError
from cgsim.games.bot import ANY_GAME, Bot
from cgsim.games.contract import Action, AnyGame, Restriction
from cgsim.play.bot_registry import resolve_bot

SEPARATOR = "+"
"""Between restriction names in ``without`` (``ramble+cats``)."""
TARGET = f"{__name__}:Restricted"
"""The spec target of the restricted bot (``cgsim.play.restricted:Restricted``)."""


class RestrictedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    bot: str = "random"
    """The bot restricted, as a spec string (``greedy`` or ``greedy:pots=1.5``)."""
    without: str = ""
    """The game's restriction names, joined by ``+``; empty: no restriction."""


def chosen_restrictions(game: AnyGame, without: str) -> tuple[Restriction, ...]:
    """The game's declared restrictions named in ``without`` (``ConfigError`` naming an
    unknown one and the declared names)."""
    declared = {r.name: r for r in game.info.restrictions}
    found = []
    for name in [n.strip() for n in without.split(SEPARATOR) if n.strip()]:
        if name not in declared:
            allowed = ", ".join(declared) or "none"
            raise ConfigError(
                f"restriction {name!r} is not one of {game.info.id}'s; declared: {allowed}"
            )
        found.append(declared[name])
    return tuple(found)


class Restricted(Bot):
    """A bot that never plays what its restrictions forbid (unless nothing else is legal)."""

    name: ClassVar[str] = "restricted"
    description: ClassVar[str] = "a bot under the game's declared restrictions"
    games: ClassVar[tuple[str, ...]] = (ANY_GAME,)
    Params: ClassVar[type[BaseModel]] = RestrictedParams

    def new_game(self, game: AnyGame, seat: int, state: Any) -> None:
        super().new_game(game, seat, state)
        self.active = chosen_restrictions(game, self.params.without)
        self.inner = resolve_bot(self.params.bot, game.info.id).create()
        self.inner.new_game(game, seat, state)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        allowed = legal_actions
        if self.active:
            kept = [a for a in legal_actions if not any(r.forbids(a) for r in self.active)]
            allowed = kept or legal_actions
        return self.inner.choose(state, allowed, rng)

    def observe(self, state: Any, seat: int, action: Action) -> None:
        self.inner.observe(state, seat, action)


def restricted_spec(bot: str, without: Sequence[str]) -> dict[str, Any]:
    """A seat entry playing ``bot`` under the named restrictions."""
    return {"bot": TARGET, "params": {"bot": bot, "without": SEPARATOR.join(without)}}
