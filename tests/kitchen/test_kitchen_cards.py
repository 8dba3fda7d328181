"""The data file: the default deck and tasks, and clear errors for bad files."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cgsim.errors import ConfigError
from cgsim.games.kitchen.cards import (
    catalogue_dict,
    catalogue_from_mapping,
    default_path,
    load_catalogue,
)


def default_data() -> dict[str, Any]:
    return tomllib.loads(default_path().read_text())


def test_default_catalogue_matches_the_spec() -> None:
    catalogue = load_catalogue()
    assert catalogue.crops == ("strawberry", "cabbage", "beet", "pumpkin")
    assert catalogue.card_count == 72
    assert catalogue.card_types.count(catalogue.weed) == 6
    assert catalogue.card_types.count(catalogue.worker) == 6
    assert catalogue.card_types.count(catalogue.sluggard) == 4
    spade = catalogue.tasks[0]
    assert (spade.name, spade.targets, spade.slots) == ("spade", (5, 4, 3, 7), (2, 2, 2, 3))
    assert [t.name for t in catalogue.tasks] == ["spade", "rake", "watering-can", "pitchfork"]
    assert catalogue_from_mapping(catalogue_dict(catalogue)) == catalogue


def broken(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = default_data()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(extra=1), "extra: unknown key"),
        (lambda d: d.pop("crops"), "crops: missing"),
        (lambda d: d.update(crops=["a", "a"]), "distinct"),
        (lambda d: d["deck"].update(weed=-1), r"deck.weed: expected an integer from 0 to 100"),
        (lambda d: d["deck"]["plants"].update({"4": 1, "3": 0}), "consecutive"),
        (lambda d: d["deck"]["plants"].update({"x": 1}), "deck.plants.x"),
        (lambda d: d["tasks"]["spade"].pop("beet"), "tasks.spade.beet: missing"),
        (lambda d: d["tasks"]["rake"]["beet"].update(slots=0), "tasks.rake.beet.slots"),
        (lambda d: d["tasks"]["rake"]["beet"].update(plants=9), "tasks.rake.beet.plants: 9 plants"),
        (lambda d: d["tasks"]["rake"]["beet"].update(colour=1), "tasks.rake.beet.colour"),
        (lambda d: d.update(tasks={"one": d["tasks"]["spade"]}), "at least 2 tasks"),
        (lambda d: d.update(deck=1), "deck: expected a table, got 1"),
        (lambda d: d.update(crops=[]), "crops: expected a list of 1 to 8 names"),
        (lambda d: d.update(crops=["a", ""]), "crops: every crop must be a non-empty string"),
        (lambda d: d["deck"].pop("plants"), "deck.plants: missing"),
        (lambda d: d["deck"].update(plants={"1": 0}), "deck.plants: the deck needs at least one"),
        (lambda d: d["deck"]["plants"].update({"10": 1}), r"deck.plants.10: keys are plants on"),
        (lambda d: d["tasks"]["rake"]["beet"].pop("plants"), "tasks.rake.beet.plants: missing"),
        (
            lambda d: d.update(
                crops=[f"crop{i}" for i in range(8)],
                deck={"plants": {str(v): 1 for v in range(1, 10)}},
            ),
            "deck: 75 card types; at most 64 are supported",
        ),
    ],
)
def test_bad_data_names_the_field(change: Callable[[dict[str, Any]], object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        catalogue_from_mapping(broken(change), "my.toml")


def test_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_catalogue(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("crops = [")
    with pytest.raises(ConfigError, match=r"bad\.toml: invalid TOML: "):
        load_catalogue(bad)
    bad.write_bytes(b"crops = ['\xff']")
    with pytest.raises(ConfigError, match=r"bad\.toml' is not UTF-8 text \(byte 10\)"):
        load_catalogue(bad)


def test_a_user_file_replaces_the_default(tmp_path: Path) -> None:
    text = default_path().read_text().replace("weed = 6", "weed = 2")
    path = tmp_path / "kitchen.toml"
    path.write_text(text)
    assert load_catalogue(path).card_count == 68


@pytest.mark.parametrize("weeds", [6, 0])
def test_type_ranges_cover_each_type_exactly(weeds: int) -> None:
    data = tomllib.loads(default_path().read_text(encoding="utf-8"))
    data["deck"]["weed"] = weeds
    catalogue = catalogue_from_mapping(data)
    starts = catalogue.type_start
    assert len(starts) == len(catalogue.types) + 1 and starts[-1] == catalogue.card_count
    for card, type_id in enumerate(catalogue.card_types):
        assert starts[type_id] <= card < starts[type_id + 1]
    weed = catalogue.weed
    assert starts[weed + 1] - starts[weed] == weeds
