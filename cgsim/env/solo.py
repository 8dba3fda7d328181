"""A Gymnasium environment for a game's one-player setup (Cottage Garden's solo game).

The observation is the game's array (float32, its documented layout); the legal actions
are ``info["action_mask"]`` and ``action_masks()`` (int8, 1 at each legal action index),
the form masked policy learners read. The reward is the final score, given at the last
step (0 before). An action outside the mask ends the episode at once (terminated, reward
``ILLEGAL_REWARD``), as PettingZoo's classic games do. A game stopped by the rules' turn
cap is truncated. ``reset(seed=N)`` deals the game of ``cgsim play --players 1 --seed N``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from cgsim.env.aec import RENDER_MODES, draw_seed
from cgsim.env.table import Table
from cgsim.env.wrap import ILLEGAL_REWARD
from cgsim.errors import ConfigError
from cgsim.games.contract import AnyGame
from cgsim.games.encoding import Array, Mask

Step = tuple[Array, SupportsFloat, bool, bool, dict[str, Any]]


class SoloEnv(gymnasium.Env[Array, np.int64]):
    """One player against the game (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (an instance attribute of gymnasium.Env)
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
    }

    def __init__(
        self,
        game: AnyGame,
        rules: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
    ) -> None:
        solo = [setup for setup in game.info.setups if setup.players == 1]
        if not solo:
            raise ConfigError(f"{game.info.id} has no one-player setup")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode {render_mode!r}: allowed human, ansi or none")
        self.table = Table(game, 1, rules, solo[0].variant)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, self.table.encoding.layout.high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.action_count)
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Deal a new game: ``seed`` deals the game ``cgsim play --seed`` deals; without
        one, a seed is drawn from the generator the last seed started."""
        super().reset(seed=seed)
        self.table.deal(seed if seed is not None else draw_seed(self.np_random))
        self._done = self.table.over
        return self.table.observe(0), {"action_mask": self.action_masks()}

    def step(self, action: np.int64 | int) -> Step:
        if self._done:
            raise RuntimeError("the episode has ended: call reset() first")
        index = int(action)
        if not self.table.legal(index):
            self._done = True
            mask = np.zeros(self.table.action_count, dtype=np.int8)
            return self.table.observe(0), ILLEGAL_REWARD, True, False, {"action_mask": mask}
        self.table.play(index)
        reward, terminated, truncated = 0.0, False, False
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self.table.over:
            result = self.table.result()
            reward = float(result.scores[0])
            truncated = result.end == "aborted"
            terminated = not truncated
            info["end"] = result.end
            self._done = True
        if self.render_mode == "human":
            self.render()
        return self.table.observe(0), reward, terminated, truncated, info

    def action_masks(self) -> Mask:
        """The legal actions now (1 at each legal index)."""
        return self.table.mask(0)

    def render(self) -> str | None:
        return self.table.render_as(self.render_mode)
