"""The checker's own model of a game in progress, rebuilt from the record alone.

Mutable on purpose: it lives for one replay and is never shared. The deck is listed top
first, the discard pile oldest first, a bed's cards in the order they were placed.
"""

from __future__ import annotations

from dataclasses import dataclass

from cgsim.games.kitchen.checker.catalogue import PLANT, Catalogue, Task

SETTINGS = (
    "hand_limit",
    "market_size",
    "deal",
    "turn_cap",
    "holiday_cards",
    "bazaar_swaps",
    "base_actions",
    "worker_actions",
    "special_actions",
    "prize_cards",
)
"""Every rule setting a record's ``rules`` holds besides ``players``."""

SPECIALS = ("crow", "bazaar", "holiday")
MIDDLE = "middle"
USED = "used"

Holder = int | str
"""Where a special card is: a seat, ``middle`` (2 players) or ``used`` (3-4 players)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The record's ``rules`` object, typed."""

    players: int
    hand_limit: int
    market_size: int
    deal: int
    turn_cap: int
    holiday_cards: int
    bazaar_swaps: int
    base_actions: int
    worker_actions: int
    special_actions: int
    prize_cards: int


@dataclass(slots=True)
class State:
    """Where every card is, who holds the special cards, and who has won."""

    rules: Rules
    catalogue: Catalogue
    tasks: list[Task]
    hands: list[list[int]]
    beds: list[list[list[int]]]
    """``beds[seat][crop]``: the cards in that bed."""
    market: list[int]
    deck: list[int]
    discard: list[int]
    specials: dict[str, list[Holder]]
    sluggards: list[int | None]
    """The Sluggard lying in front of each seat, if any."""
    winner: int | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    def kind_of(self, card: int) -> str:
        return self.catalogue.type_of(card).kind

    def hand_has(self, seat: int, kind: str) -> bool:
        """Whether a seat's hand holds a Weed, Worker or Sluggard (``kind``)."""
        return any(self.kind_of(card) == kind for card in self.hands[seat])

    def bed_plants(self, seat: int, crop: int) -> int:
        """Plants on a bed (Weeds carry none)."""
        return sum(self.catalogue.type_of(card).plants for card in self.beds[seat][crop])

    def can_plant(self, seat: int, crop: int, plants: int) -> bool:
        """The planting rule: a free slot, and with ``plants`` more the bed can still be
        completed exactly once its Weeds are weeded out (a Weed's slot still needs a plant
        card, so it counts among the slots still to plant)."""
        task, bed = self.tasks[seat], self.beds[seat][crop]
        planted_cards = sum(self.kind_of(card) == PLANT for card in bed)
        unplanted = task.slots[crop] - planted_cards - 1
        needed = task.targets[crop] - self.bed_plants(seat, crop) - plants
        low, high = self.catalogue.low, self.catalogue.high
        return len(bed) < task.slots[crop] and low * unplanted <= needed <= high * unplanted

    def bed_full(self, seat: int, crop: int) -> bool:
        """Every slot holds a plant card and the plants add up to the target."""
        bed, task = self.beds[seat][crop], self.tasks[seat]
        return (
            len(bed) == task.slots[crop]
            and all(self.kind_of(card) == PLANT for card in bed)
            and self.bed_plants(seat, crop) == task.targets[crop]
        )

    def plants(self, seat: int) -> int:
        """Plants on all of a seat's beds."""
        return sum(self.bed_plants(seat, crop) for crop in range(len(self.catalogue.crops)))

    def full_beds(self, seat: int) -> int:
        """A seat's fully planted beds."""
        return sum(self.bed_full(seat, crop) for crop in range(len(self.catalogue.crops)))

    def can_use(self, special: str, seat: int) -> bool:
        """The seat holds a copy of the special card, or the shared copy lies in the middle."""
        holders = self.specials[special]
        return seat in holders or MIDDLE in holders

    def can_swap(self, seat: int) -> bool:
        """A hand card and a market card of different types exist (Market, Bazaar swaps)."""
        types = self.catalogue.card_type
        hand = {types[card] for card in self.hands[seat]}
        market = {types[card] for card in self.market}
        return bool(hand and market) and (len(hand) > 1 or len(market) > 1 or hand != market)
