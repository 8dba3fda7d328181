"""What one seat may see, and full states sampled to agree with it (for search bots).

An :class:`Observation` holds the open cards (tasks, beds, market, discard pile, the
Sluggards lying in front of players, the special cards' whereabouts), the seat's own
hand, and only the *counts* of other hands and of the deck. It holds neither the seed
(which would reveal every reshuffle) nor any hidden card. ``determinize`` deals the
unseen cards at random into the other hands and the deck, giving a ``State`` that the
engine plays like any other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from cgsim.games.compiled import dataclass_reduce
from cgsim.games.draws.exact import shuffle
from cgsim.games.kitchen.settings import KitchenRules
from cgsim.games.kitchen.state import (
    NONE,
    PHASE_SLUGGARD_RESPONSE,
    Phase,
    State,
)


@dataclass(slots=True, unsafe_hash=True)
class Observation:
    """The part of a state visible to ``seat``; equal observations mean equal knowledge.

    Never mutated; a plain ``__init__`` rather than a frozen dataclass for speed (see
    ``State``).
    """

    rules: KitchenRules
    seat: int
    tasks: tuple[int, ...]
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    beds: tuple[tuple[tuple[int, ...], ...], ...]
    market: tuple[int, ...]
    discard: tuple[int, ...]
    deck_count: int
    specials: tuple[tuple[int, ...], ...]
    sluggards: tuple[int, ...]
    pending: int
    turn: int
    active: int
    phase: Phase
    flags: int
    actions_left: int
    sub: int
    sub_seat: int
    reshuffles: int
    winner: int
    aborted: bool

    def __init__(
        self,
        rules: KitchenRules,
        seat: int,
        tasks: tuple[int, ...],
        hand: tuple[int, ...],
        hand_counts: tuple[int, ...],
        beds: tuple[tuple[tuple[int, ...], ...], ...],
        market: tuple[int, ...],
        discard: tuple[int, ...],
        deck_count: int,
        specials: tuple[tuple[int, ...], ...],
        sluggards: tuple[int, ...],
        pending: int,
        turn: int,
        active: int,
        phase: Phase,
        flags: int,
        actions_left: int,
        sub: int,
        sub_seat: int,
        reshuffles: int,
        winner: int,
        aborted: bool,
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.tasks = tasks
        self.hand = hand
        self.hand_counts = hand_counts
        self.beds = beds
        self.market = market
        self.discard = discard
        self.deck_count = deck_count
        self.specials = specials
        self.sluggards = sluggards
        self.pending = pending
        self.turn = turn
        self.active = active
        self.phase = phase
        self.flags = flags
        self.actions_left = actions_left
        self.sub = sub
        self.sub_seat = sub_seat
        self.reshuffles = reshuffles
        self.winner = winner
        self.aborted = aborted

    def __reduce__(self) -> tuple[type[Observation], tuple[Any, ...]]:
        return dataclass_reduce(self)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def decider(self) -> int:
        """The seat that makes the next decision (same rule as ``State.decider``)."""
        if self.phase == PHASE_SLUGGARD_RESPONSE or self.phase == Phase.HOLIDAY_DISCARDS:
            return self.sub_seat
        return self.active


def observe(state: State, seat: int) -> Observation:
    """The observation of ``seat``: its own hand, open cards, and counts of the rest."""
    return Observation(
        rules=state.rules,
        seat=seat,
        tasks=state.tasks,
        hand=state.hands[seat],
        hand_counts=tuple(len(hand) for hand in state.hands),
        beds=state.beds,
        market=state.market,
        discard=state.discard,
        deck_count=len(state.deck),
        specials=state.specials,
        sluggards=state.sluggards,
        pending=state.pending,
        turn=state.turn,
        active=state.active,
        phase=state.phase,
        flags=state.flags,
        actions_left=state.actions_left,
        sub=state.sub,
        sub_seat=state.sub_seat,
        reshuffles=state.reshuffles,
        winner=state.winner,
        aborted=state.aborted,
    )


def visible_cards(observation: Observation) -> set[int]:
    """Card ids lying in the open (beds, market, discard pile, Sluggards)."""
    seen: set[int] = set(observation.market)
    seen.update(observation.discard)
    for beds in observation.beds:
        for bed in beds:
            seen.update(bed)
    seen.update(card for card in observation.sluggards if card != NONE)
    if observation.pending != NONE:
        seen.add(observation.pending)
    return seen


def unseen_cards(observation: Observation) -> list[int]:
    """Card ids the seat cannot see (in other hands or the deck), in id order."""
    seen = visible_cards(observation)
    seen.update(observation.hand)
    return [card for card in range(observation.rules.catalogue.card_count) if card not in seen]


def determinize(observation: Observation, rng: random.Random) -> State:
    """A full state consistent with the observation: unseen cards dealt at random."""
    hidden = unseen_cards(observation)
    shuffle(rng, hidden)
    hands: list[tuple[int, ...]] = []
    position = 0
    for other, count in enumerate(observation.hand_counts):
        if other == observation.seat:
            hands.append(observation.hand)
            continue
        hands.append(tuple(sorted(hidden[position : position + count])))
        position += count
    return world_of(observation, tuple(hands), tuple(hidden[position:]), rng.getrandbits(64))


def world_of(
    observation: Observation, hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...], seed: int
) -> State:
    """The full state that is the observation with these hands and deck (the seat's own
    hand among them) and this seed for the world's reshuffles."""
    return State(
        rules=observation.rules,
        seed=seed,
        tasks=observation.tasks,
        hands=hands,
        beds=observation.beds,
        market=observation.market,
        deck=deck,
        discard=observation.discard,
        specials=observation.specials,
        sluggards=observation.sluggards,
        turn=observation.turn,
        active=observation.active,
        phase=observation.phase,
        flags=observation.flags,
        actions_left=observation.actions_left,
        sub=observation.sub,
        sub_seat=observation.sub_seat,
        pending=observation.pending,
        reshuffles=observation.reshuffles,
        winner=observation.winner,
        aborted=observation.aborted,
    )
