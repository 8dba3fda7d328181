"""Bed arithmetic: the plants on a bed, the planting rule, and when a bed is full.

A bed is the tuple of card ids in its slots; its crop's task sets the number of slots
and the plants they must add up to.
"""

from __future__ import annotations

from cgsim.games.kitchen.cards import Catalogue


def bed_plants(catalogue: Catalogue, bed: tuple[int, ...]) -> int:
    """Plants on a bed (Weeds carry none)."""
    type_plants = catalogue.type_plants
    card_types = catalogue.card_types
    return sum(type_plants[card_types[card]] for card in bed)


def can_plant(
    catalogue: Catalogue, bed: tuple[int, ...], target: int, slots: int, plants: int
) -> bool:
    """The planting rule: after the card, the bed can still be completed exactly."""
    free = slots - len(bed) - 1
    if free < 0:
        return False
    needed = target - bed_plants(catalogue, bed) - plants
    return catalogue.min_plants * free <= needed <= catalogue.max_plants * free


def bed_full(catalogue: Catalogue, bed: tuple[int, ...], target: int, slots: int) -> bool:
    """Every slot holds a plant card and the plants add up to the target."""
    if len(bed) != slots:
        return False
    card_types = catalogue.card_types
    type_crop = catalogue.type_crop
    if any(type_crop[card_types[card]] < 0 for card in bed):
        return False
    return bed_plants(catalogue, bed) == target
