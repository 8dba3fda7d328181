"""A bot that plays by a policy over the environments' arrays, in any run or tournament.

A policy trained on ``cgsim.env`` sees the same arrays, masks and decisions here (the game
loop, like the environments, asks only at real decisions). Subclass :class:`PolicyBot`
and write ``policy``, or wrap a plain function with :func:`policy_bot`; then name the
class in a config or on the command line as ``module:Class``:

    # mypolicy.py
    from cgsim.env.bot import policy_bot

    def first_legal(observation, mask):
        return int(mask.argmax())

    FirstLegal = policy_bot(first_legal, "FirstLegal")

    # cgsim tournament with bots = ["mypolicy:FirstLegal", "random"]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.encoding import Array, Encoding, Mask
from cgsim.games.registry import encoded_games, get_encoder

Policy = Callable[[Array, Mask], int]
"""``policy(observation_array, action_mask) -> action_index``."""


class PolicyBot(Bot):
    """Chooses by ``policy`` over its seat's observation array and action mask.

    A stochastic policy draws from ``self.rng`` (the seat's generator, set before each
    call), so runs stay reproducible from their seed.
    """

    description: ClassVar[str] = "plays by a policy over observation arrays and action masks"
    games: ClassVar[tuple[str, ...]] = encoded_games()

    def policy(self, observation: Array, mask: Mask) -> int:
        """The index of the action to play (one where ``mask`` is 1)."""
        raise NotImplementedError

    def new_game(self, game: AnyGame, seat: int, state: Any) -> None:
        super().new_game(game, seat, state)
        encoder = get_encoder(game.info.id)
        self.encoding: Encoding = encoder.encoding(encoder.rules_of(state))
        self.rng = random.Random(0)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        self.rng = rng
        observation = self.encoding.encode(state, self.seat)
        mask = self.encoding.mask(legal_actions, self.seat)
        return self.encoding.actions.action(int(self.policy(observation, mask)), self.seat)


def policy_bot(policy: Policy, name: str) -> type[PolicyBot]:
    """A :class:`PolicyBot` class playing by ``policy``.

    Assign it to a module-level variable called ``name`` in the policy's own module, so
    that ``module:name`` finds it (worker processes import it by that name too).
    """

    def chosen(self: PolicyBot, observation: Array, mask: Mask) -> int:
        return policy(observation, mask)

    module = getattr(policy, "__module__", None) or __name__
    namespace = {"policy": chosen, "__module__": module, "__qualname__": name}
    return type(name, (PolicyBot,), namespace)
