"""The wrappers PettingZoo's classic games put around their environments."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from cgsim.env.aec import GameEnv

ILLEGAL_REWARD = -1.0
"""The reward of an agent whose action is not legal (the game ends at once)."""


def wrapped(env: GameEnv) -> Any:
    """``env`` as PettingZoo's classic games are wrapped: an illegal action ends the game
    with ``ILLEGAL_REWARD`` for the agent that played it (0 for the others), an index out
    of range is refused, and so is any call out of order (``step`` before ``reset``)."""
    env_ = wrappers.TerminateIllegalWrapper(env, illegal_reward=ILLEGAL_REWARD)
    env_ = wrappers.AssertOutOfBoundsWrapper(env_)
    return wrappers.OrderEnforcingWrapper(env_)
