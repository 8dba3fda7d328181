"""Every number of Kitchen Garden in one validated, frozen settings object.

A balance study changes a config value, never code: ``make_rules`` takes overrides for
any field of :class:`Settings` and rejects unknown keys and out-of-range values with a
``ConfigError`` naming the key and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.compiled import dataclass_reduce
from cgsim.games.kitchen.cards import Catalogue, load_catalogue

MIN_PLAYERS = 2
MAX_PLAYERS = 4
MAX_MARKET = 63
"""Market slots are encoded in 6 bits of an action."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The rule numbers, with the rulebook's values as defaults."""

    hand_limit: int = 4
    """Ordinary cards a player may keep after cleaning the shack."""
    market_size: int = 6
    """Face-up market cards at setup and after a Bazaar."""
    deal: int = 4
    """Cards dealt to each player at setup."""
    turn_cap: int = 400
    """Turns in all (every seat's, skipped ones included) before the game is aborted."""
    holiday_cards: int = 3
    """Cards every player discards, then draws, on a Holiday."""
    bazaar_swaps: int = 2
    """Hand-market swaps allowed after a Bazaar."""
    base_actions: int = 1
    """Actions of every action phase."""
    worker_actions: int = 1
    """Extra actions for discarding a Worker in the conditions phase."""
    special_actions: int = 1
    """Extra actions for discarding a special card in the conditions phase."""
    prize_cards: int = 1
    """Cards drawn when Planting makes a bed fully planted."""

    def __reduce__(self) -> tuple[type[Settings], tuple[Any, ...]]:
        return dataclass_reduce(self)


SETTING_RANGES: dict[str, tuple[int, int]] = {
    "hand_limit": (0, 30),
    "market_size": (0, MAX_MARKET),
    "deal": (0, 30),
    "turn_cap": (1, 2000),
    "holiday_cards": (0, 10),
    "bazaar_swaps": (0, 10),
    "base_actions": (1, 5),
    "worker_actions": (0, 5),
    "special_actions": (0, 5),
    "prize_cards": (0, 5),
}
"""Every setting's allowed ``(low, high)``: generous for balance studies (several times
the rulebook's numbers), yet bounded so that every accepted game ends within
``turn_cap`` turns of at most ``base_actions + worker_actions + special_actions``
actions each, in seconds; no value switches the turn cap off."""
SETTING_NAMES = tuple(f.name for f in fields(Settings))


@dataclass(frozen=True, slots=True)
class KitchenRules:
    """What ``make_rules`` resolves: the player count, the settings and the catalogue."""

    players: int
    settings: Settings
    catalogue: Catalogue

    def __reduce__(self) -> tuple[type[KitchenRules], tuple[Any, ...]]:
        return dataclass_reduce(self)


def make_settings(overrides: Mapping[str, Any]) -> Settings:
    """Defaults with ``overrides`` applied; every key and value checked."""
    values: dict[str, int] = {}
    for key, value in overrides.items():
        if key not in SETTING_RANGES:
            raise ConfigError(
                f"unknown kitchen-garden rule setting {key!r}; allowed: {', '.join(SETTING_NAMES)}"
            )
        low, high = SETTING_RANGES[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ConfigError(f"rules.{key} = {value!r}: allowed an integer from {low} to {high}")
        values[key] = value
    return Settings(**values)


def make_rules(
    players: int,
    overrides: Mapping[str, Any],
    components: Path | None = None,
    variant: Mapping[str, Any] | None = None,
    catalogue: Catalogue | None = None,
) -> KitchenRules:
    """Validated rules for a player count (``catalogue`` bypasses loading, for replays)."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ConfigError(
            f"players: kitchen-garden is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}"
        )
    if variant:
        raise ConfigError(
            f"variant: kitchen-garden has no variant options, got {', '.join(map(str, variant))}"
        )
    settings = make_settings(overrides)
    if catalogue is None:
        catalogue = load_catalogue(components)
    if len(catalogue.tasks) < players:
        raise ConfigError(
            f"{catalogue.source}: tasks: {players} players need {players} different tasks, "
            f"the file has {len(catalogue.tasks)}"
        )
    needed = settings.deal * players + settings.market_size
    if needed > catalogue.card_count:
        raise ConfigError(
            f"rule settings deal/market_size: dealing {settings.deal} cards to {players} players "
            f"and {settings.market_size} to the market needs {needed} cards, the deck has "
            f"{catalogue.card_count}"
        )
    return KitchenRules(players, settings, catalogue)


def settings_dict(rules: KitchenRules) -> dict[str, Any]:
    """The resolved settings and player count, JSON-ready."""
    return {"players": rules.players, **asdict(rules.settings)}
