"""Hand-made Kitchen Garden states for rule tests."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import Catalogue
from cgsim.games.kitchen.rules import apply, legal_actions, new_game
from cgsim.games.kitchen.settings import KitchenRules, make_rules
from cgsim.games.kitchen.state import NONE, Phase, State


def rules(players: int = 2, **overrides: Any) -> KitchenRules:
    return make_rules(players, overrides)


def type_of(catalogue: Catalogue, name: str) -> int:
    """Card type by name: ``"2 beet"``, ``"weed"``, ``"worker"``, ``"sluggard"``."""
    if name in ("weed", "worker", "sluggard"):
        return int(getattr(catalogue, name))
    plants, crop = name.split()
    return next(
        index
        for index, t in enumerate(catalogue.types)
        if t.crop == catalogue.crops.index(crop) and t.plants == int(plants)
    )


class Cards:
    """Hands out distinct card ids by type name."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.free = list(range(catalogue.card_count))

    def take(self, *names: str) -> tuple[int, ...]:
        taken = []
        for name in names:
            wanted = type_of(self.catalogue, name)
            card = next(c for c in self.free if self.catalogue.card_types[c] == wanted)
            self.free.remove(card)
            taken.append(card)
        return tuple(taken)

    def rest(self) -> tuple[int, ...]:
        return tuple(self.free)


def empty_beds(state: State) -> tuple[tuple[tuple[int, ...], ...], ...]:
    crops = len(state.rules.catalogue.crops)
    return tuple(tuple(() for _ in range(crops)) for _ in range(state.players))


def position(
    players: int = 2,
    hands: list[list[str]] | None = None,
    beds: dict[tuple[int, str], list[str]] | None = None,
    market: list[str] | None = None,
    discard: list[str] | None = None,
    deck_top: list[str] | None = None,
    tasks: tuple[int, ...] | None = None,
    overrides: dict[str, Any] | None = None,
    **fields: Any,
) -> State:
    """A state in the action phase of seat 0 with the given cards; the rest is the deck.

    Every card is in exactly one place. ``deck_top`` lists the next draws, first first.
    """
    state = new_game(rules(players, **(overrides or {})), 0)
    catalogue = state.rules.catalogue
    cards = Cards(catalogue)
    hand_ids = tuple(tuple(sorted(cards.take(*names))) for names in (hands or [[]] * players))
    bed_list = [list(seat_beds) for seat_beds in empty_beds(state)]
    for (seat, crop), names in (beds or {}).items():
        bed_list[seat][catalogue.crops.index(crop)] = cards.take(*names)
    market_ids = cards.take(*(market or []))
    discard_ids = cards.take(*(discard or []))
    top_ids = cards.take(*(deck_top or []))
    deck = cards.rest() + top_ids[::-1]
    base = replace(
        state,
        tasks=tasks if tasks is not None else tuple(range(players)),
        hands=hand_ids,
        beds=tuple(tuple(b) for b in bed_list),
        market=market_ids,
        discard=discard_ids,
        deck=deck,
        phase=fields.pop("phase", Phase.ACTIONS),
        actions_left=fields.pop("actions_left", 1),
    )
    return replace(base, **fields)


def act(state: State, kind: int, a: int = 0, b: int = 0, c: int = 0) -> State:
    return apply(state, A.encode(kind, a, b, c))


def act_logged(
    state: State, kind: int, a: int = 0, b: int = 0, c: int = 0
) -> tuple[State, list[dict[str, Any]]]:
    log: list[dict[str, Any]] = []
    return apply(state, A.encode(kind, a, b, c), log), log


def names(state: State, cards: tuple[int, ...]) -> list[str]:
    from cgsim.games.kitchen.cards import card_name

    return sorted(card_name(state.rules.catalogue, c) for c in cards)


def all_cards(state: State) -> Counter[int]:
    """How many times each card id appears anywhere in the state."""
    counts: Counter[int] = Counter()
    for hand in state.hands:
        counts.update(hand)
    for seat_beds in state.beds:
        for bed in seat_beds:
            counts.update(bed)
    counts.update(state.market)
    counts.update(state.deck)
    counts.update(state.discard)
    counts.update(card for card in state.sluggards if card != NONE)
    if state.pending != NONE:
        counts.update([state.pending])
    return counts


def random_game(state: State, seed: int) -> list[State]:
    """Every state of a random play-out from ``state``."""
    rng = random.Random(seed)
    states = [state]
    while state.phase != Phase.OVER:
        legal = legal_actions(state)
        state = apply(state, legal[rng.randrange(len(legal))])
        states.append(state)
    return states
