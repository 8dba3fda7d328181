"""A PettingZoo AEC environment over any game that offers an array encoding.

Agents are ``player_0`` .. ``player_{n-1}``, one per seat. Each observation is a dict:
``observation`` (float32, the game's documented layout, built from what that seat may
see) and ``action_mask`` (int8, 1 at each legal action index; all zeros when the agent is
not to move). Rewards come at the end only: with ``reward="win"`` each seat's share of
the win (1/k to each of k winners, as runs count wins; 0 for all in a game nobody wins),
with ``reward="score"`` each seat's final score. A game stopped by the rules' turn cap
(``aborted``) is truncated rather than terminated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from cgsim.env.table import Table
from cgsim.errors import ConfigError
from cgsim.games.contract import AnyGame
from cgsim.games.loop import win_shares

Reward = Literal["win", "score"]
REWARDS: tuple[Reward, ...] = ("win", "score")
RENDER_MODES = ("human", "ansi")
"""``human`` prints the text board of ``cgsim play --show``; ``ansi`` returns it."""
SEED_LIMIT = 2**63 - 1
"""Deal seeds drawn for an unseeded reset are below this (the project's 63-bit seeds)."""


def draw_seed(rng: np.random.Generator) -> int:
    """A deal seed drawn from an environment's generator (a reset without a seed)."""
    return int(rng.integers(0, SEED_LIMIT))


class GameEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The AEC environment of one game and player count (see the module docstring)."""

    def __init__(
        self,
        game: AnyGame,
        players: int,
        *,
        name: str,
        rules: Mapping[str, Any] | None = None,
        variant: Mapping[str, Any] | None = None,
        reward: Reward = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ConfigError(f"reward {reward!r}: allowed {', '.join(REWARDS)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode {render_mode!r}: allowed human, ansi or none")
        self.metadata: dict[str, Any] = {
            "name": name,
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": False,
            "render_fps": 1,
        }
        self.table = Table(game, players, rules, variant)
        self.reward = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = list(self.possible_agents)
        box = spaces.Box(0.0, self.table.encoding.layout.high, dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, (self.table.action_count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.table.action_count) for agent in self.possible_agents
        }
        self._np_random, _ = seeding.np_random(None)
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: ``seed`` deals the game ``cgsim play --seed`` deals; without
        one, a seed is drawn from the generator the last seed started."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            deal = seed
        else:
            deal = draw_seed(self._np_random)
        self.table.deal(deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat]
        self._finish_if_over()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        return {"observation": self.table.observe(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.table.play(int(action))
        self.agent_selection = self.possible_agents[self.table.seat]
        self._finish_if_over()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return self.table.render_as(self.render_mode)

    def close(self) -> None:
        """Nothing to release: the game is plain data."""

    def _finish_if_over(self) -> None:
        if not self.table.over:
            return
        result = self.table.result()
        values = win_shares(result) if self.reward == "win" else result.scores
        truncated = result.end == "aborted"
        for agent, value in zip(self.possible_agents, values, strict=True):
            self.rewards[agent] = float(value)
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = {"end": result.end}
