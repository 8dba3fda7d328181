"""The registry of games: a config or command names a game by its public id."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from cgsim.errors import ConfigError
from cgsim.games.contract import AnyGame

if TYPE_CHECKING:  # numpy is imported only by a caller that wants arrays
    from cgsim.games.encoding import Encoder

DEFAULT_GAME = "cottage-garden"

_GAMES: dict[str, str] = {
    "cottage-garden": "cgsim.games.cottage.game:GAME",
    "kitchen-garden": "cgsim.games.kitchen.game:GAME",
}

_ENCODERS: dict[str, str] = {
    "cottage-garden": "cgsim.games.cottage.encoding:ENCODER",
    "kitchen-garden": "cgsim.games.kitchen.encoding:ENCODER",
}
"""The games that offer fixed-size arrays for learning agents (``cgsim.games.encoding``)."""

_BUILTIN = tuple(_GAMES)


def builtin_game_names() -> tuple[str, ...]:
    """Public ids of the games shipped with cgsim (not those registered at run time)."""
    return _BUILTIN


def game_names() -> tuple[str, ...]:
    """Public ids of every known game."""
    return tuple(_GAMES)


def get_game(name: str = DEFAULT_GAME) -> AnyGame:
    """The game object for a public id; a clear error listing the known ones otherwise."""
    try:
        target = _GAMES[name]
    except KeyError:
        known = ", ".join(_GAMES)
        raise ConfigError(f"unknown game {name!r}; known games: {known}") from None
    module_name, attribute = target.split(":")
    game: AnyGame = getattr(importlib.import_module(module_name), attribute)
    return game


def register_game(name: str, target: str) -> None:
    """Make a game known under ``name``; ``target`` is ``"module:attribute"``.

    For games installed from outside the package (and for tests of the machinery).
    """
    if ":" not in target:
        raise ConfigError(f"game target {target!r} must be 'module:attribute'")
    _GAMES[name] = target


def registered_target(name: str) -> str | None:
    """Where a game registered at run time lives (``"module:attribute"``), so a fresh
    process (a Dask worker, a matrix cell) can register it too; None for a game shipped
    with cgsim (or none known)."""
    return None if name in _BUILTIN else _GAMES.get(name)


def get_encoder(name: str) -> Encoder:
    """The array encoder of a game (for learning agents); a clear error if it has none."""
    try:
        target = _ENCODERS[name]
    except KeyError:
        known = ", ".join(_ENCODERS)
        raise ConfigError(
            f"game {name!r} offers no array encoding; games that do: {known}"
        ) from None
    module_name, attribute = target.split(":")
    encoder: Encoder = getattr(importlib.import_module(module_name), attribute)
    return encoder


def encoded_games() -> tuple[str, ...]:
    """Public ids of the games that offer an array encoding."""
    return tuple(_ENCODERS)
