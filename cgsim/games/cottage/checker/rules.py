"""Reading the record's ``rules`` object: every key of the table must be there, typed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cgsim.games.cottage.checker.fields import is_int
from cgsim.games.cottage.checker.state import Rules
from cgsim.games.cottage.checker.violations import Violation

BOOL_KEYS = ("solo", "ramble", "bonus_red_line_cat", "bonus_start_pot", "bonus_cat_limit")
INT_KEYS = (
    "start_cats",
    "cats_total",
    "pots_total",
    "cat_limit",
    "cubes",
    "refill_mandatory",
    "ramble_cost",
    "red_line",
    "gardener_value",
    "final_value",
    "gardener_step",
    "track_spaces",
    "turning_space",
    "discard_below",
    "penalty_points",
    "penalty_orange_spaces",
    "penalty_blue_spaces",
    "turn_cap",
)
INT_LIST_KEYS = ("orange_track", "blue_track", "beehives")
RULE_KEYS = (*BOOL_KEYS, "children", *INT_KEYS, *INT_LIST_KEYS)
CHILD_AGES = (5, 6, 7)


def read_rules(raw: Any, players: int, out: list[Violation]) -> Rules | None:
    """The typed rules, or None (with violations) when they cannot drive a replay."""

    def bad(message: str) -> None:
        out.append(Violation(None, None, f"rules: {message}"))

    if not isinstance(raw, Mapping):
        bad("missing or not an object")
        return None
    before = len(out)
    for key in RULE_KEYS:
        if key not in raw:
            bad(f"missing key {key!r}")
    for key in BOOL_KEYS:
        if key in raw and not isinstance(raw[key], bool):
            bad(f"{key} must be true or false, got {raw[key]!r}")
    for key in INT_KEYS:
        if key in raw and not is_int(raw[key]):
            bad(f"{key} must be an integer, got {raw[key]!r}")
    for key in INT_LIST_KEYS:
        value = raw.get(key)
        if key in raw and not (isinstance(value, list) and all(is_int(v) for v in value)):
            bad(f"{key} must be a list of integers, got {value!r}")
    children = raw.get("children")
    if "children" in raw and not (
        isinstance(children, list)
        and len(children) == players
        and all(age is None or (is_int(age) and age in CHILD_AGES) for age in children)
    ):
        bad(f"children must list null or an age 5, 6, 7 for each of {players} seats")
    if len(out) > before:
        return None
    values: dict[str, Any] = {key: raw[key] for key in (*BOOL_KEYS, *INT_KEYS)}
    values.update({key: tuple(raw[key]) for key in INT_LIST_KEYS})
    values["children"] = tuple(raw["children"])
    rules = Rules(**values)
    return rules if _usable(rules, players, bad) else None


def _usable(rules: Rules, players: int, bad: Callable[[str], None]) -> bool:
    """Consistency with the player count, and numbers a replay can work with."""
    if rules.solo != (players == 1):
        bad(f"solo is {rules.solo} with {players} players (true exactly when 1 player)")
    fine = True
    if rules.track_spaces not in (16, 20):
        bad(f"track_spaces is {rules.track_spaces}; the nursery has tracks of 16 or 20 spaces")
        fine = False
    if not 0 <= rules.turning_space < rules.track_spaces:
        bad(f"turning_space {rules.turning_space} is not a space of the track")
        fine = False
    for colour in ("orange", "blue"):
        if len(rules.track(colour)) < 2:
            bad(f"{colour}_track needs a start and a target")
            fine = False
    if rules.cubes < 1 or rules.gardener_step < 0:
        bad("cubes must be at least 1 and gardener_step not negative")
        fine = False
    return fine
