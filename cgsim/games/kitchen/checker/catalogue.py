"""The record's ``components``: crops, the card ids of the deck, and the tasks.

Card ids follow docs/kitchen-record.md: for each crop its plant cards by rising value,
then the Weeds, Workers and Sluggards; identical cards share a type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cgsim.games.kitchen.checker.fields import get, is_int
from cgsim.games.kitchen.checker.violations import Fatal

PLANT = "plant"
OTHER_KINDS = ("weed", "worker", "sluggard")


@dataclass(frozen=True, slots=True)
class CardType:
    """A kind of card: a plant card of a crop and value, or a Weed, Worker or Sluggard."""

    kind: str
    crop: int
    """Crop index of a plant card, -1 for the others."""
    plants: int
    name: str


@dataclass(frozen=True, slots=True)
class Task:
    """A planting plan: per crop (in ``crops`` order) the bed's plant target and slots."""

    name: str
    targets: tuple[int, ...]
    slots: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Everything ``components`` defines, indexed by card id and crop."""

    crops: tuple[str, ...]
    types: tuple[CardType, ...]
    card_type: tuple[int, ...]
    """Type index of every card id."""
    tasks: dict[str, Task]
    low: int
    """Fewest plants on a plant card."""
    high: int
    """Most plants on a plant card."""

    @property
    def card_count(self) -> int:
        return len(self.card_type)

    def type_of(self, card: int) -> CardType:
        return self.types[self.card_type[card]]

    def describe(self, card: int) -> str:
        """``card 12 (2 beet)``, for messages."""
        return f"card {card} ({self.type_of(card).name})"


def read_components(raw: Any) -> Catalogue:
    """The catalogue of a record's ``components``; a malformed one is ``Fatal``."""
    crops = get(raw, "crops", "components")
    if not (
        isinstance(crops, list)
        and crops
        and all(isinstance(c, str) and c for c in crops)
        and len(set(crops)) == len(crops)
    ):
        raise Fatal(f"components.crops: expected a list of distinct names, got {crops!r}")
    deck = get(raw, "deck", "components")
    values = _plant_values(get(deck, "plants", "components.deck"))
    types: list[CardType] = []
    card_type: list[int] = []
    for crop, crop_name in enumerate(crops):
        for plants, count in values:
            card_type.extend([len(types)] * count)
            types.append(CardType(PLANT, crop, plants, f"{plants} {crop_name}"))
    for kind in OTHER_KINDS:
        count = get(deck, kind, "components.deck")
        if not (is_int(count) and count >= 0):
            raise Fatal(f"components.deck.{kind}: expected a count, got {count!r}")
        card_type.extend([len(types)] * count)
        types.append(CardType(kind, -1, 0, kind.capitalize()))
    tasks = _tasks(get(raw, "tasks", "components"), tuple(crops))
    return Catalogue(
        crops=tuple(crops),
        types=tuple(types),
        card_type=tuple(card_type),
        tasks=tasks,
        low=values[0][0],
        high=values[-1][0],
    )


def _plant_values(raw: Any) -> list[tuple[int, int]]:
    """``(plants on a card, cards per crop)`` by rising value, values without cards left out."""
    if not isinstance(raw, Mapping):
        raise Fatal(f"components.deck.plants: expected an object, got {raw!r}")
    values = []
    for key, count in raw.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) >= 1):
            raise Fatal(f"components.deck.plants: key {key!r} is not a number of plants")
        if not (is_int(count) and count >= 0):
            raise Fatal(f"components.deck.plants.{key}: expected a count, got {count!r}")
        if count:
            values.append((int(key), int(count)))
    if not values:
        raise Fatal("components.deck.plants: the deck has no plant card")
    return sorted(values)


def _tasks(raw: Any, crops: tuple[str, ...]) -> dict[str, Task]:
    if not (isinstance(raw, Mapping) and raw):
        raise Fatal(f"components.tasks: expected a non-empty object, got {raw!r}")
    tasks = {}
    for name, beds in raw.items():
        targets, slots = [], []
        for crop in crops:
            where = f"components.tasks.{name}.{crop}"
            bed = get(beds, crop, f"components.tasks.{name}")
            target, size = get(bed, "plants", where), get(bed, "slots", where)
            if not (is_int(target) and is_int(size) and target >= 1 and size >= 1):
                raise Fatal(f"{where}: expected plants and slots of at least 1, got {bed!r}")
            targets.append(int(target))
            slots.append(int(size))
        tasks[str(name)] = Task(str(name), tuple(targets), tuple(slots))
    return tasks
