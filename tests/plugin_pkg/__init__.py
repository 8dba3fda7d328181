"""A stand-in for a separately installed bot package, found through its entry point."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from cgsim.games.bot import Bot
from cgsim.games.contract import Action


class PluginParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    strength: int = Field(default=1, description="how many times to think")


class PluginBot(Bot):
    """Always the largest legal action."""

    name: ClassVar[str] = "plugin-bot"
    description: ClassVar[str] = "a bot from an installed plugin"
    games: ClassVar[tuple[str, ...]] = ("toy",)
    Params: ClassVar[type[BaseModel]] = PluginParams

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return max(legal_actions)
