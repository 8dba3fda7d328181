"""The Kitchen Garden catalogue: crops, card types, the deck and the tasks, from a data file.

The rulebook gives no card counts, so the deck and tasks are data: the shipped default
is ``cgsim/games/kitchen/cards.toml`` and a user may load another file. Everything a file can
get wrong is reported as a ``ConfigError`` naming the file, the field and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.compiled import dataclass_reduce
from cgsim.games.datafile import read_toml_file

PLANT = "plant"
WEED = "weed"
WORKER = "worker"
SLUGGARD = "sluggard"
ACTION_KINDS = (WEED, WORKER, SLUGGARD)
"""The non-plant ordinary cards, in the order their types follow the plant types."""

SPECIALS = ("crow", "bazaar", "holiday")
"""Special card types; their index is the special id used by actions and state."""
CROW, BAZAAR, HOLIDAY = 0, 1, 2

MAX_CROPS = 8
MAX_PLANTS_ON_CARD = 9
MAX_SLOTS = 16
MAX_CARD_TYPES = 64
"""Action encoding gives 6 bits to a card type, a bed slot and a market slot."""
MAX_COUNT = 100
"""Cards of one type in the deck."""
MAX_TASKS = 100
"""Tasks of a catalogue (4 players draw 4 different ones)."""
MAX_TARGET = 1000
"""Plants of one bed of a task."""


@dataclass(frozen=True, slots=True)
class CardType:
    """One kind of ordinary card: a plant card of a crop and value, or a Weed/Worker/Sluggard."""

    kind: str
    crop: int
    """Crop index for plant cards, -1 otherwise."""
    plants: int
    """Plants on the card (0 for the others)."""

    def __reduce__(self) -> tuple[type[CardType], tuple[Any, ...]]:
        return dataclass_reduce(self)


@dataclass(frozen=True, slots=True)
class Task:
    """A planting plan: per crop the bed's plant target and card slots."""

    name: str
    targets: tuple[int, ...]
    slots: tuple[int, ...]

    def __reduce__(self) -> tuple[type[Task], tuple[Any, ...]]:
        return dataclass_reduce(self)


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Everything the data file defines, as flat tuples the engine indexes directly."""

    crops: tuple[str, ...]
    tasks: tuple[Task, ...]
    types: tuple[CardType, ...]
    card_types: tuple[int, ...]
    """Type of every card id; card ids are ``0..len(card_types)-1``, grouped by type."""
    type_crop: tuple[int, ...]
    type_plants: tuple[int, ...]
    type_start: tuple[int, ...]
    """First card id of every type, plus the card count: type ``t`` is ids
    ``type_start[t]`` to ``type_start[t + 1] - 1`` (cards are grouped by type)."""
    weed: int
    worker: int
    sluggard: int
    min_plants: int
    max_plants: int
    source: str = field(default="components", compare=False)
    """Where the catalogue came from (error messages only; not part of equality)."""

    @property
    def card_count(self) -> int:
        return len(self.card_types)

    def __reduce__(self) -> tuple[type[Catalogue], tuple[Any, ...]]:
        return dataclass_reduce(self)


def default_path() -> Path:
    """The shipped default catalogue file."""
    return Path(str(resources.files("cgsim.games.kitchen") / "cards.toml"))


def load_catalogue(path: Path | None = None) -> Catalogue:
    """Read and validate a catalogue file (the default one when ``path`` is None)."""
    target = default_path() if path is None else Path(path)
    return catalogue_from_mapping(read_toml_file(target, "components file"), str(target))


def _fail(source: str, field: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: {field}: {message}")


def _count(source: str, field: str, value: Any, minimum: int, maximum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not minimum <= value <= maximum:
        raise _fail(
            source, field, f"expected an integer from {minimum} to {maximum}, got {value!r}"
        )
    return value


def _table(source: str, field: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(source, field, f"expected a table, got {value!r}")
    return value


def _known_keys(
    source: str, field: str, table: Mapping[str, Any], allowed: tuple[str, ...]
) -> None:
    for key in table:
        if key not in allowed:
            where = f"{field}.{key}" if field else key
            raise _fail(source, where, f"unknown key; allowed: {', '.join(allowed)}")


def _crops(source: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_CROPS:
        raise _fail(source, "crops", f"expected a list of 1 to {MAX_CROPS} names, got {value!r}")
    for name in value:
        if not isinstance(name, str) or not name:
            raise _fail(source, "crops", f"every crop must be a non-empty string, got {name!r}")
    if len(set(value)) != len(value):
        raise _fail(source, "crops", f"crop names must be distinct, got {value!r}")
    return tuple(value)


def _plant_values(source: str, value: Any) -> dict[int, int]:
    table = _table(source, "deck.plants", value)
    counts: dict[int, int] = {}
    for key, count in table.items():
        if not key.isdigit() or not 1 <= int(key) <= MAX_PLANTS_ON_CARD:
            raise _fail(
                source,
                f"deck.plants.{key}",
                f"keys are plants on a card, 1 to {MAX_PLANTS_ON_CARD}",
            )
        counts[int(key)] = _count(source, f"deck.plants.{key}", count, 0, MAX_COUNT)
    values = sorted(v for v, n in counts.items() if n > 0)
    if not values:
        raise _fail(source, "deck.plants", "the deck needs at least one plant card per crop")
    if values != list(range(values[0], values[-1] + 1)):
        raise _fail(
            source,
            "deck.plants",
            f"card values must be consecutive (the planting rule needs every count from the "
            f"smallest to the largest), got {values}",
        )
    return {v: counts[v] for v in values}


def _task(source: str, name: str, value: Any, crops: tuple[str, ...], low: int, high: int) -> Task:
    field = f"tasks.{name}"
    table = _table(source, field, value)
    _known_keys(source, field, table, crops)
    targets: list[int] = []
    slots: list[int] = []
    for crop in crops:
        if crop not in table:
            raise _fail(source, f"{field}.{crop}", "missing; every task has one bed per crop")
        bed = _table(source, f"{field}.{crop}", table[crop])
        _known_keys(source, f"{field}.{crop}", bed, ("plants", "slots"))
        for key in ("plants", "slots"):
            if key not in bed:
                raise _fail(source, f"{field}.{crop}.{key}", "missing")
        slot_count = _count(source, f"{field}.{crop}.slots", bed["slots"], 1, MAX_SLOTS)
        target = _count(source, f"{field}.{crop}.plants", bed["plants"], 1, MAX_TARGET)
        if not low * slot_count <= target <= high * slot_count:
            raise _fail(
                source,
                f"{field}.{crop}.plants",
                f"{target} plants cannot fill {slot_count} slots with cards of {low} to "
                f"{high} plants (allowed {low * slot_count} to {high * slot_count})",
            )
        targets.append(target)
        slots.append(slot_count)
    return Task(name, tuple(targets), tuple(slots))


def catalogue_from_mapping(data: Mapping[str, Any], source: str = "components") -> Catalogue:
    """Validate parsed catalogue data (a TOML file's content, or a record's ``components``)."""
    _known_keys(source, "", data, ("crops", "deck", "tasks"))
    for key in ("crops", "deck", "tasks"):
        if key not in data:
            raise _fail(source, key, "missing")
    crops = _crops(source, data["crops"])
    deck = _table(source, "deck", data["deck"])
    _known_keys(source, "deck", deck, ("plants", *ACTION_KINDS))
    if "plants" not in deck:
        raise _fail(source, "deck.plants", "missing")
    plant_counts = _plant_values(source, deck["plants"])
    extra = {
        kind: _count(source, f"deck.{kind}", deck.get(kind, 0), 0, MAX_COUNT)
        for kind in ACTION_KINDS
    }
    types: list[CardType] = []
    card_types: list[int] = []
    type_start: list[int] = []
    for crop in range(len(crops)):
        for plants, count in plant_counts.items():
            type_start.append(len(card_types))
            card_types.extend([len(types)] * count)
            types.append(CardType(PLANT, crop, plants))
    for kind in ACTION_KINDS:
        type_start.append(len(card_types))
        card_types.extend([len(types)] * extra[kind])
        types.append(CardType(kind, -1, 0))
    if len(types) > MAX_CARD_TYPES:
        raise _fail(
            source, "deck", f"{len(types)} card types; at most {MAX_CARD_TYPES} are supported"
        )
    low, high = min(plant_counts), max(plant_counts)
    tasks_table = _table(source, "tasks", data["tasks"])
    if len(tasks_table) > MAX_TASKS:
        raise _fail(
            source, "tasks", f"at most {MAX_TASKS} tasks are allowed, got {len(tasks_table)}"
        )
    tasks = tuple(
        _task(source, name, value, crops, low, high) for name, value in tasks_table.items()
    )
    if len(tasks) < 2:
        raise _fail(source, "tasks", f"at least 2 tasks are needed, got {len(tasks)}")
    weed, worker, sluggard = (len(types) - 3, len(types) - 2, len(types) - 1)
    return Catalogue(
        crops=crops,
        tasks=tasks,
        types=tuple(types),
        card_types=tuple(card_types),
        type_crop=tuple(t.crop for t in types),
        type_plants=tuple(t.plants for t in types),
        type_start=(*type_start, len(card_types)),
        weed=weed,
        worker=worker,
        sluggard=sluggard,
        min_plants=low,
        max_plants=high,
        source=source,
    )


def catalogue_dict(catalogue: Catalogue) -> dict[str, Any]:
    """The catalogue in the data-file form (JSON-ready), so records embed what they used."""
    counts: dict[str, int] = {}
    for index, card_type in enumerate(catalogue.types):
        if card_type.kind == PLANT and card_type.crop == 0:
            counts[str(card_type.plants)] = catalogue.card_types.count(index)
    return {
        "crops": list(catalogue.crops),
        "deck": {
            "plants": counts,
            WEED: catalogue.card_types.count(catalogue.weed),
            WORKER: catalogue.card_types.count(catalogue.worker),
            SLUGGARD: catalogue.card_types.count(catalogue.sluggard),
        },
        "tasks": {
            task.name: {
                crop: {"plants": task.targets[i], "slots": task.slots[i]}
                for i, crop in enumerate(catalogue.crops)
            }
            for task in catalogue.tasks
        },
    }


def type_name(catalogue: Catalogue, type_id: int) -> str:
    """Readable name of a card type: ``2 beet``, ``Weed``..."""
    card_type = catalogue.types[type_id]
    if card_type.kind == PLANT:
        return f"{card_type.plants} {catalogue.crops[card_type.crop]}"
    return card_type.kind.capitalize()


def card_name(catalogue: Catalogue, card: int) -> str:
    """Readable name of a card id (its type's name)."""
    return type_name(catalogue, catalogue.card_types[card])
