"""One game in progress as the learning environments see it: arrays in, indexes out.

Shared by the PettingZoo and Gymnasium environments so both deal, skip and refuse the
same way. As in the one game loop (``cgsim.games.loop``), a decision with a single legal
action is taken without asking anyone: an agent is asked only at real decisions, exactly
where a bot would be, so a policy trained here meets the same decisions in a tournament.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from cgsim.games.contract import Action, AnyGame, GameResult
from cgsim.games.encoding import Array, Encoding, Mask
from cgsim.games.registry import get_encoder


class IllegalMove(ValueError):
    """An action index that is not among the legal actions of the seat to move."""


class Table:
    """A game, its rules and encoding, and the state of the game being played."""

    def __init__(
        self,
        game: AnyGame,
        players: int,
        overrides: Mapping[str, Any] | None = None,
        variant: Mapping[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.rules = game.make_rules(players, dict(overrides or {}), None, dict(variant or {}))
        encoder = get_encoder(game.info.id)
        self.encoding: Encoding = encoder.encoding(self.rules)
        self.players = players
        self.state: Any = None
        self.dealt: Any = None
        """The state as dealt, before any forced action."""
        self._legal: Sequence[Action] = ()

    @property
    def observation_size(self) -> int:
        return self.encoding.layout.size

    @property
    def action_count(self) -> int:
        return self.encoding.actions.size

    def deal(self, seed: int) -> None:
        """Start the game ``game.new_game`` deals for ``seed`` (as ``cgsim play --seed``)."""
        self.dealt = self.state = self.game.new_game(self.rules, seed)
        self._settle()

    @property
    def over(self) -> bool:
        return bool(self.game.is_terminal(self.state))

    @property
    def seat(self) -> int:
        """The seat to move."""
        return int(self.game.current_player(self.state))

    def observe(self, seat: int) -> Array:
        """The seat's observation array, from what the seat may see only."""
        return self.encoding.encode(self.game.observation(self.state, seat), seat)

    def mask(self, seat: int) -> Mask:
        """The seat's action mask: its legal actions when it is to move, else all zeros."""
        if self.over or seat != self.seat:
            return np.zeros(self.action_count, dtype=np.int8)
        return self.encoding.mask(self._legal, seat)

    def play(self, index: int) -> None:
        """Apply the action of ``index`` for the seat to move, then every forced action."""
        seat = self.seat
        try:
            action = self.encoding.actions.action(index, seat)
        except ValueError as error:
            raise IllegalMove(str(error)) from None
        if self.over or action not in self._legal:
            raise IllegalMove(f"action index {index} is not legal for seat {seat} now")
        self.state = self.game.apply(self.state, action)
        self._settle()

    def legal(self, index: int) -> bool:
        """Whether ``index`` names a legal action of the seat to move."""
        try:
            action = self.encoding.actions.action(index, self.seat)
        except ValueError:
            return False
        return not self.over and action in self._legal

    def result(self) -> GameResult:
        return self.game.result(self.state)

    def render(self) -> str:
        return str(self.game.render(self.state))

    def render_as(self, mode: str | None) -> str | None:
        """The environments' ``render()``: nothing without a mode, the text printed in
        ``"human"`` mode, returned in ``"ansi"`` mode."""
        if mode is None:
            return None
        text = self.render()
        if mode == "human":
            print(text)
            return None
        return text

    def _settle(self) -> None:
        """Take forced actions until a real decision or the end."""
        game = self.game
        while not game.is_terminal(self.state):
            legal = game.legal_actions(self.state)
            if len(legal) != 1:
                if not legal:
                    raise RuntimeError("no legal action in a non-terminal state")
                self._legal = legal
                return
            self.state = game.apply(self.state, legal[0])
        self._legal = ()
