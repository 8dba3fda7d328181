"""Every number of the rules in one validated, frozen object.

Balance studies change rules by changing these values from a config, never code. The
field names are the keys of the record's ``rules`` object (game-record.md), so a record
carries the complete resolved settings and a config overrides them by the same names.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from cgsim.errors import ConfigError

MIN_PLAYERS = 1
MAX_PLAYERS = 4
CHILD_AGES = (5, 6, 7)
ADULT = (None, 0, "none", "null", "adult")
"""Ways to say a seat is not a child (TOML has no null, so configs write 0 or "none")."""
TRACK_SIZES = (16, 20)

ORANGE_TRACK = (0, *range(1, 16), 20)
BLUE_TRACK = (0, *range(2, 15, 2), 20)


@dataclass(frozen=True, slots=True)
class Settings:
    """The resolved rule settings of one game (defaults: the rulebook's)."""

    solo: bool
    children: tuple[int | None, ...]
    ramble: bool
    start_cats: int
    cats_total: int
    pots_total: int
    cat_limit: int
    cubes: int
    refill_mandatory: int
    ramble_cost: int
    orange_track: tuple[int, ...]
    blue_track: tuple[int, ...]
    red_line: int
    gardener_value: int
    final_value: int
    gardener_step: int
    track_spaces: int
    turning_space: int
    discard_below: int
    penalty_points: int
    penalty_orange_spaces: int
    penalty_blue_spaces: int
    beehives: tuple[int, ...]
    bonus_red_line_cat: bool
    bonus_start_pot: bool
    bonus_cat_limit: bool
    turn_cap: int

    def to_json(self) -> dict[str, Any]:
        """The record's ``rules`` object: every key, JSON-ready."""
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = list(value)
        return data


SETTING_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Settings))
_INT_FIELDS = {f.name for f in fields(Settings) if f.type == "int"}
_BOOL_FIELDS = {f.name for f in fields(Settings) if f.type == "bool"}

MAX_TRACK_VALUE = 1000
"""Largest value of a track space (and of ``red_line``)."""

SETTING_RANGES: dict[str, tuple[int, int, str]] = {
    "start_cats": (0, 10, ""),
    "cats_total": (0, 100, ""),
    "pots_total": (0, 100, ""),
    "cat_limit": (0, 30, ""),
    "cubes": (1, 8, "a cube action gives the cube number 3 bits"),
    "refill_mandatory": (1, 4, "a Gardener Row has 4 cells"),
    "ramble_cost": (0, 10, ""),
    "red_line": (0, MAX_TRACK_VALUE, "a track value"),
    "gardener_value": (1, 19, ""),
    "final_value": (2, 20, ""),
    "gardener_step": (1, 19, ""),
    "track_spaces": (16, 20, "16 or 20"),
    "turning_space": (0, 19, ""),
    "discard_below": (0, 25, "tiles on a bed"),
    "penalty_points": (0, 100, ""),
    "penalty_orange_spaces": (0, 100, ""),
    "penalty_blue_spaces": (0, 100, ""),
    "turn_cap": (1, 2000, "no setting switches the cap off"),
}
"""Every integer setting's allowed ``(low, high, why)``. Generous for balance studies,
yet no accepted value can make a game run away: the turn cap always holds, and the
gardener's value reaches ``final_value`` within ``(final_value - gardener_value)`` laps."""

LIST_RANGES: dict[str, tuple[int, int, int, int]] = {
    "orange_track": (2, 100, 0, MAX_TRACK_VALUE),
    "blue_track": (2, 100, 0, MAX_TRACK_VALUE),
    "beehives": (0, 4, 0, 100),
}
"""Every list setting's allowed ``(shortest, longest, lowest value, highest value)``;
tracks also start with 0 and strictly increase."""


def defaults(players: int, solo: bool, children: tuple[int | None, ...]) -> dict[str, Any]:
    """The rulebook's values for a player count and variant."""
    any_child = any(age is not None for age in children)
    return {
        "solo": solo,
        "children": children,
        "ramble": not any_child,
        "start_cats": 2,
        "cats_total": 30,
        "pots_total": 16,
        "cat_limit": 2,
        "cubes": 3,
        "refill_mandatory": 3,
        "ramble_cost": 1,
        "orange_track": ORANGE_TRACK,
        "blue_track": BLUE_TRACK,
        "red_line": 6,
        "gardener_value": 2 if players <= 2 else 1,
        "final_value": 6,
        "gardener_step": 2 if solo else 1,
        "track_spaces": 20 if players == 4 else 16,
        "turning_space": 14 if players == 3 else 0,
        "discard_below": 3,
        "penalty_points": 2,
        "penalty_orange_spaces": 2,
        "penalty_blue_spaces": 1,
        "beehives": () if solo else (2, 1),
        "bonus_red_line_cat": True,
        "bonus_start_pot": True,
        "bonus_cat_limit": True,
        "turn_cap": 500,
    }


def _fail(field: str, value: object, allowed: str) -> ConfigError:
    shown = repr(list(value) if isinstance(value, tuple) else value)
    if isinstance(value, list | tuple) and len(value) > 8:
        shown = f"[{', '.join(map(repr, value[:8]))}, ... ({len(value)} values)]"
    return ConfigError(f"rules.{field} = {shown}: allowed {allowed}")


def _out_of_range(name: str, value: object, low: int, high: int) -> ConfigError:
    why = SETTING_RANGES[name][2] if name in SETTING_RANGES else ""
    return _fail(name, value, f"{low} to {high}" + (f" ({why})" if why else ""))


def _check_types(values: dict[str, Any]) -> None:
    for name in _INT_FIELDS:
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int):
            low, high, _ = SETTING_RANGES[name]
            raise _fail(name, value, f"an integer from {low} to {high}")
    for name in _BOOL_FIELDS:
        if not isinstance(values[name], bool):
            raise _fail(name, values[name], "true or false")
    for name, (shortest, longest, lowest, highest) in LIST_RANGES.items():
        value = values[name]
        if (
            not isinstance(value, list | tuple)
            or not shortest <= len(value) <= longest
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or not all(lowest <= v <= highest for v in value)
        ):
            raise _fail(
                name,
                value,
                f"a list of {shortest} to {longest} integers from {lowest} to {highest}",
            )
        values[name] = tuple(value)


def _check_track(values: dict[str, Any], name: str) -> None:
    track = values[name]
    if track[0] != 0 or any(b <= a for a, b in itertools.pairwise(track)):
        raise _fail(name, track, "strictly increasing values starting with 0")


def _check_ranges(values: dict[str, Any], players: int) -> None:
    for name, (low, high, _) in SETTING_RANGES.items():
        if not low <= values[name] <= high:
            raise _out_of_range(name, values[name], low, high)
    _check_track(values, "orange_track")
    _check_track(values, "blue_track")
    if values["track_spaces"] not in TRACK_SIZES:
        raise _fail("track_spaces", values["track_spaces"], "16 or 20")
    spaces = values["track_spaces"]
    if values["turning_space"] >= spaces:
        raise _fail(
            "turning_space", values["turning_space"], f"0 to {spaces - 1} (a space of the track)"
        )
    if values["gardener_step"] >= spaces:
        raise _fail(
            "gardener_step", values["gardener_step"], f"1 to {spaces - 1} (less than track_spaces)"
        )
    if values["final_value"] <= values["gardener_value"]:
        low = values["gardener_value"] + 1
        raise _fail("final_value", values["final_value"], f"{low} to 20 (more than gardener_value)")
    needed = players * values["start_cats"]
    if values["cats_total"] < needed:
        raise _fail(
            "cats_total", values["cats_total"], f"{needed} to 100 (at least players x start_cats)"
        )


def make_settings(
    players: int,
    overrides: Mapping[str, Any] | None = None,
    *,
    solo: bool | None = None,
    children: Sequence[int | str | None] | None = None,
) -> Settings:
    """Validated settings for ``players`` seats: rulebook defaults, then ``overrides``.

    ``solo`` defaults to ``players == 1``; ``children`` lists each seat's age or None.
    Every problem is a ``ConfigError`` naming the field, the value and what is allowed.
    """
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise ConfigError(f"players = {players!r}: allowed {MIN_PLAYERS} to {MAX_PLAYERS}")
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(SETTING_NAMES))
    if unknown:
        raise ConfigError(
            f"unknown rule setting {unknown[0]!r}; known settings: {', '.join(SETTING_NAMES)}"
        )
    solo = overrides.pop("solo", players == 1) if solo is None else solo
    if solo is not (players == 1):
        raise ConfigError(
            f"solo = {solo!r} does not fit players = {players}; the solo game is exactly the 1-player game"
        )
    children = overrides.pop("children", None) if children is None else children
    seats_children = _check_children(children, players)
    values = defaults(players, solo, seats_children)
    overrides.pop("children", None)
    if overrides.get("ramble") is True and any(age is not None for age in seats_children):
        raise _fail("ramble", True, "false when a seat is a child (nobody may Ramble)")
    values.update(overrides)
    _check_types(values)
    _check_ranges(values, players)
    return Settings(**values)


def _check_children(children: object, players: int) -> tuple[int | None, ...]:
    if children is None:
        return (None,) * players
    if not isinstance(children, list | tuple) or len(children) != players:
        raise ConfigError(
            f"children = {children!r} is not allowed; expected a list of {players} entries, each null or an age 5, 6 or 7"
        )
    ages: list[int | None] = []
    for age in children:
        if age in ADULT and not isinstance(age, bool):
            ages.append(None)
        elif isinstance(age, bool) or age not in CHILD_AGES:
            raise ConfigError(
                f"children: age {age!r} is not allowed; expected 5, 6 or 7, or none/0 for an adult"
            )
        else:
            ages.append(age)
    return tuple(ages)


def corner_count(age: int, players: int) -> int:
    """Nursery corners a child marks with cats: 3/2/1 at 5/6/7, one more with 2 players."""
    return {5: 3, 6: 2, 7: 1}[age] + (1 if players == 2 else 0)
