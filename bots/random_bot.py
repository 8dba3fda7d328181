"""The baseline: uniform over legal actions, for any game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from cgsim.games.bot import ANY_GAME, Bot
from cgsim.games.contract import Action


class RandomBot(Bot):
    """Picks uniformly among the legal actions with the generator it is handed."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "uniform over the legal actions (the floor of the ladder)"
    games: ClassVar[tuple[str, ...]] = (ANY_GAME,)
    looks: ClassVar[bool] = False

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]
