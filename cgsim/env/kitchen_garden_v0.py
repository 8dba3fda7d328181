"""``kitchen_garden_v0``: Kitchen Garden for 2 to 4 agents as a PettingZoo AEC environment.

``env()`` is the environment wrapped as PettingZoo's classic games are; ``raw_env()`` the
bare one. Options: ``players`` (default 2), ``rules`` (rule-setting overrides),
``reward`` (``"win"`` or ``"score"``) and ``render_mode`` (``"human"`` or ``"ansi"``).
Each agent's array holds its own hand, the open cards and only the counts of the other
hands and of the deck. The observation layout and action encoding: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.env.aec import GameEnv, Reward
from cgsim.env.wrap import wrapped
from cgsim.games.kitchen.game import GAME

NAME = "kitchen_garden_v0"


def raw_env(
    players: int = 2,
    rules: Mapping[str, Any] | None = None,
    reward: Reward = "win",
    render_mode: str | None = None,
) -> GameEnv:
    """The environment without wrappers."""
    return GameEnv(GAME, players, name=NAME, rules=rules, reward=reward, render_mode=render_mode)


def env(**options: Any) -> Any:
    """The environment, wrapped (the usual entry point); options as ``raw_env``'s."""
    return wrapped(raw_env(**options))
