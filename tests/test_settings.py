"""Rule settings: rulebook defaults per player count, overrides, and clear errors."""

from __future__ import annotations

from typing import Any

import pytest

from cgsim.errors import ConfigError
from cgsim.games.cottage.game import GAME
from cgsim.games.cottage.settings import SETTING_NAMES, corner_count, make_settings

COMMON = {
    "start_cats": 2,
    "cats_total": 30,
    "pots_total": 16,
    "cat_limit": 2,
    "cubes": 3,
    "refill_mandatory": 3,
    "ramble_cost": 1,
    "orange_track": (0, *range(1, 16), 20),
    "blue_track": (0, 2, 4, 6, 8, 10, 12, 14, 20),
    "red_line": 6,
    "final_value": 6,
    "discard_below": 3,
    "penalty_points": 2,
    "penalty_orange_spaces": 2,
    "penalty_blue_spaces": 1,
    "bonus_red_line_cat": True,
    "bonus_start_pot": True,
    "bonus_cat_limit": True,
    "turn_cap": 500,
}


@pytest.mark.parametrize(
    ("players", "per_count"),
    [
        (1, {"solo": True, "gardener_value": 2, "gardener_step": 2, "track_spaces": 16,
             "turning_space": 0, "beehives": ()}),
        (2, {"solo": False, "gardener_value": 2, "gardener_step": 1, "track_spaces": 16,
             "turning_space": 0, "beehives": (2, 1)}),
        (3, {"solo": False, "gardener_value": 1, "gardener_step": 1, "track_spaces": 16,
             "turning_space": 14, "beehives": (2, 1)}),
        (4, {"solo": False, "gardener_value": 1, "gardener_step": 1, "track_spaces": 20,
             "turning_space": 0, "beehives": (2, 1)}),
    ],
)  # fmt: skip
def test_defaults_per_player_count(players: int, per_count: dict[str, Any]) -> None:
    settings = make_settings(players)
    expected = {**COMMON, **per_count, "children": (None,) * players, "ramble": True}
    assert {name: getattr(settings, name) for name in SETTING_NAMES} == expected


def test_children_switch_ramble_off() -> None:
    settings = make_settings(2, children=[None, 6])
    assert settings.children == (None, 6) and settings.ramble is False


def test_to_json_has_every_record_key_json_ready() -> None:
    data = make_settings(2).to_json()
    assert list(data) == list(SETTING_NAMES)
    assert data["orange_track"] == [0, *range(1, 16), 20]
    assert data["beehives"] == [2, 1] and data["children"] == [None, None]


def test_overrides_apply() -> None:
    settings = make_settings(2, {"cat_limit": 3, "orange_track": [0, 5, 10, 20], "beehives": []})
    assert settings.cat_limit == 3
    assert settings.orange_track == (0, 5, 10, 20)
    assert settings.beehives == ()


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"cat_limit": -1}, "cat_limit"),
        ({"cat_limit": "2"}, "cat_limit"),
        ({"cat_limit": True}, "cat_limit"),
        ({"ramble": 1}, "ramble"),
        ({"cubes": 0}, "cubes"),
        ({"gardener_step": 0}, "gardener_step"),
        ({"gardener_step": 16}, "gardener_step"),
        ({"turn_cap": 0}, "turn_cap"),
        ({"track_spaces": 18}, "track_spaces"),
        ({"turning_space": 16}, "turning_space"),
        ({"final_value": 2}, "final_value"),
        ({"refill_mandatory": 0}, "refill_mandatory"),
        ({"refill_mandatory": 5}, "refill_mandatory"),
        ({"orange_track": [1, 2, 3]}, "orange_track"),
        ({"blue_track": [0, 4, 2]}, "blue_track"),
        ({"blue_track": [0]}, "blue_track"),
        ({"orange_track": "0,1"}, "orange_track"),
        ({"beehives": [2, -1]}, "beehives"),
        ({"beehives": [2.5]}, "beehives"),
        ({"cats_total": 3}, "cats_total"),
        ({"penalty_points": -2}, "penalty_points"),
        ({"no_such_rule": 1}, "no_such_rule"),
    ],
)
def test_bad_overrides_name_the_field(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError, match=field) as info:
        make_settings(2, overrides)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("players", [0, 5, "2", True, 2.0])
def test_bad_player_counts(players: Any) -> None:
    with pytest.raises(ConfigError, match="players"):
        make_settings(players)


def test_solo_must_match_one_player() -> None:
    with pytest.raises(ConfigError, match="solo"):
        make_settings(2, solo=True)
    with pytest.raises(ConfigError, match="solo"):
        make_settings(1, {"solo": False})


@pytest.mark.parametrize("children", [[5], [5, 8], [None, "6"], "5,6", [None, True]])
def test_bad_children(children: Any) -> None:
    with pytest.raises(ConfigError, match="children"):
        make_settings(2, children=children)


def test_children_through_overrides() -> None:
    assert make_settings(2, {"children": [7, None]}).children == (7, None)


def test_corner_counts() -> None:
    assert [corner_count(age, 3) for age in (5, 6, 7)] == [3, 2, 1]
    assert [corner_count(age, 2) for age in (5, 6, 7)] == [4, 3, 2]
    assert [corner_count(age, 1) for age in (5, 6, 7)] == [3, 2, 1]


def test_game_make_rules_variant_and_errors() -> None:
    rules = GAME.make_rules(1, {}, None, {"solo": True, "children": [None]})
    assert rules.settings.solo and rules.settings.gardener_step == 2
    with pytest.raises(ConfigError, match="variant"):
        GAME.make_rules(2, {}, None, {"kids": [5, 5]})
    # 2 adults' cats plus a 5-year-old's 4 corner cats need 8.
    with pytest.raises(ConfigError, match="cats_total"):
        GAME.make_rules(2, {"cats_total": 7}, None, {"children": [5, None]})
    data = GAME.rules_dict(GAME.make_rules(2, {}))
    assert data["players"] == 2 and set(SETTING_NAMES) <= set(data)


def test_children_adults_may_be_written_none_or_0_since_toml_has_no_null() -> None:
    from cgsim.games.cottage.settings import make_settings

    assert make_settings(3, children=[5, "none", 0]).children == (5, None, None)
    assert make_settings(2, children=["adult", None]).children == (None, None)


def test_every_setting_range_is_documented() -> None:
    """docs/rules.md tables every setting with the range the code enforces."""
    import re
    from pathlib import Path

    from cgsim.games.cottage.settings import LIST_RANGES, SETTING_RANGES

    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text()
    rows = {
        name: row
        for row in text.splitlines()
        if row.startswith("| `")
        for name in re.findall(r"`(\w+)`", row.split("|")[1])
    }
    assert set(rows) == set(SETTING_RANGES) | set(LIST_RANGES)
    for name, (low, high, _) in SETTING_RANGES.items():
        allowed = rows[name].split("|")[3]
        expected = "16 or 20" if name == "track_spaces" else f"{low} to {high}"
        assert expected in allowed, (name, allowed)
    for name, (shortest, longest, lowest, highest) in LIST_RANGES.items():
        allowed = rows[name].split("|")[3]
        assert f"{shortest} to {longest} values from {lowest} to {highest}" in allowed


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"cubes": 767}, "rules.cubes = 767: allowed 1 to 8 (a cube action gives"),
        ({"red_line": -5}, "rules.red_line = -5: allowed 0 to 1000 (a track value)"),
        ({"turn_cap": 10**6}, "rules.turn_cap = 1000000: allowed 1 to 2000"),
        ({"gardener_step": 16}, "rules.gardener_step = 16: allowed 1 to 15 (less than"),
        ({"final_value": 2}, "rules.final_value = 2: allowed 3 to 20 (more than gardener_value)"),
        ({"cats_total": 3}, "rules.cats_total = 3: allowed 4 to 100"),
        (
            {"orange_track": list(range(200))},
            "rules.orange_track = [0, 1, 2, 3, 4, 5, 6, 7, ... (200 values)]: allowed a list "
            "of 2 to 100 integers from 0 to 1000",
        ),
        (
            {"beehives": [2, 1, 1, 1, 1]},
            "rules.beehives = [2, 1, 1, 1, 1]: allowed a list of 0 to 4 integers from 0 to 100",
        ),
        ({"cubes": "3"}, "rules.cubes = '3': allowed an integer from 1 to 8"),
    ],
)
def test_errors_name_the_setting_the_value_and_the_range(
    overrides: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError) as error:
        make_settings(2, overrides)
    assert str(error.value).startswith(message)
