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
    """The planting rule: the card needs a free slot, and after it the bed can still be
    completed exactly once its Weeds are weeded out. A Weed's slot will need a plant card
    too, so it counts among the slots still to plant, never as a filled one."""
    if len(bed) >= slots:
        return False
    card_types = catalogue.card_types
    type_crop = catalogue.type_crop
    unplanted = slots - 1
    for card in bed:
        if type_crop[card_types[card]] >= 0:
            unplanted -= 1
    needed = target - bed_plants(catalogue, bed) - plants
    return catalogue.min_plants * unplanted <= needed <= catalogue.max_plants * unplanted


def bed_full(catalogue: Catalogue, bed: tuple[int, ...], target: int, slots: int) -> bool:
    """Every slot holds a plant card and the plants add up to the target."""
    if len(bed) != slots:
        return False
    card_types = catalogue.card_types
    type_crop = catalogue.type_crop
    if any(type_crop[card_types[card]] < 0 for card in bed):
        return False
    return bed_plants(catalogue, bed) == target
