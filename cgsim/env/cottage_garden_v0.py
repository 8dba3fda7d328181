"""``cottage_garden_v0``: Cottage Garden for 1 to 4 agents as a PettingZoo AEC environment.

``env()`` is the environment wrapped as PettingZoo's classic games are (an action out of
range or a step out of turn is refused); ``raw_env()`` the bare one. Options: ``players``
(default 2), ``rules`` (rule-setting overrides, as a config's ``[rules]``), ``variant``
(the game's seat options, e.g. children's ages), ``reward`` (``"win"`` or ``"score"``)
and ``render_mode`` (``"human"`` or ``"ansi"``: the text board of ``cgsim play --show``).
``solo_env()`` is the solo game as a Gymnasium environment.
The observation layout and action encoding: docs/env.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.env.aec import GameEnv, Reward
from cgsim.env.solo import SoloEnv
from cgsim.env.wrap import wrapped
from cgsim.games.cottage.game import GAME

NAME = "cottage_garden_v0"


def raw_env(
    players: int = 2,
    rules: Mapping[str, Any] | None = None,
    variant: Mapping[str, Any] | None = None,
    reward: Reward = "win",
    render_mode: str | None = None,
) -> GameEnv:
    """The environment without wrappers."""
    return GameEnv(
        GAME,
        players,
        name=NAME,
        rules=rules,
        variant=variant,
        reward=reward,
        render_mode=render_mode,
    )


def env(**options: Any) -> Any:
    """The environment, wrapped (the usual entry point); options as ``raw_env``'s."""
    return wrapped(raw_env(**options))


def solo_env(rules: Mapping[str, Any] | None = None, render_mode: str | None = None) -> SoloEnv:
    """The solo game as a Gymnasium environment (also ``gymnasium.make(SOLO_ID)``)."""
    return SoloEnv(GAME, rules, render_mode)
