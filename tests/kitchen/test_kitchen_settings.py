"""Rule settings: defaults, overrides and their errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cgsim.errors import ConfigError
from cgsim.games.kitchen.cards import load_catalogue
from cgsim.games.kitchen.rules import new_game
from cgsim.games.kitchen.settings import Settings, make_rules, make_settings, settings_dict


def test_defaults_are_the_rulebook_numbers() -> None:
    settings = Settings()
    assert (settings.hand_limit, settings.market_size, settings.deal) == (4, 6, 4)
    assert (settings.turn_cap, settings.holiday_cards, settings.bazaar_swaps) == (400, 3, 2)


def test_overrides_apply_and_reach_the_game() -> None:
    rules = make_rules(3, {"deal": 5, "market_size": 4})
    state = new_game(rules, 1)
    assert [len(h) for h in state.hands] == [5, 5, 5] and len(state.market) == 4
    assert settings_dict(rules)["deal"] == 5 and settings_dict(rules)["players"] == 3


def test_unknown_key_lists_the_allowed_ones() -> None:
    with pytest.raises(
        ConfigError, match=r"unknown kitchen-garden rule setting 'hand'.*hand_limit"
    ):
        make_settings({"hand": 3})


@pytest.mark.parametrize("value", [-1, True, "4", 1.5])
def test_bad_values(value: object) -> None:
    with pytest.raises(ConfigError) as error:
        make_settings({"hand_limit": value})
    assert str(error.value) == f"rules.hand_limit = {value!r}: allowed an integer from 0 to 30"


def test_players_variant_and_deck_size_are_checked() -> None:
    with pytest.raises(ConfigError, match="2 to 4 players"):
        make_rules(5, {})
    with pytest.raises(ConfigError, match="no variant options"):
        make_rules(2, {}, variant={"solo": True})
    with pytest.raises(ConfigError, match="deal/market_size"):
        make_rules(4, {"deal": 17})


def test_more_players_than_tasks_are_refused() -> None:
    catalogue = load_catalogue()
    two_tasks = replace(catalogue, tasks=catalogue.tasks[:2])
    with pytest.raises(
        ConfigError, match="tasks: 3 players need 3 different tasks, the file has 2"
    ):
        make_rules(3, {}, catalogue=two_tasks)


def test_every_setting_range_is_documented() -> None:
    """docs/kitchen-rules.md tables every setting with the range the code enforces."""
    from pathlib import Path

    from cgsim.games.kitchen.settings import SETTING_RANGES

    text = (Path(__file__).resolve().parents[2] / "docs" / "kitchen-rules.md").read_text()
    for name, (low, high) in SETTING_RANGES.items():
        rows = [row for row in text.splitlines() if row.startswith(f"| `{name}` |")]
        assert len(rows) == 1 and f"| {low} to {high}" in rows[0], name
