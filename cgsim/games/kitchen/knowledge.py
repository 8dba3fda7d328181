"""What one seat has seen go into other hands, and worlds sampled to agree with it.

An observation shows other hands only as counts, but some of their cards were seen on
the way in: a card taken from the market (Market, Bazaar swaps), from the discard pile
(Crow) or from a bed (Stealing) is known to sit in the taker's hand until it shows up
in the open again. :class:`Knowledge` keeps those card ids per seat, updated from
consecutive observations and the action between them, so it never uses anything the
seat could not see. ``sample_world`` deals the hidden cards like ``determinize`` but
keeps every known card in its holder's hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cgsim.games.contract import Action
from cgsim.games.draws.exact import shuffle
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.observation import Observation, determinize, unseen_cards, visible_cards
from cgsim.games.kitchen.state import State

TAKING_KINDS = frozenset((A.MARKET, A.BAZAAR_SWAP, A.CROW, A.STEAL))
"""Actions whose acting seat takes an open card into its hidden hand."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """Per seat, the card ids known to be in that seat's hand (empty for the owner)."""

    seat: int
    known: tuple[tuple[int, ...], ...]

    @classmethod
    def empty(cls, observation: Observation) -> Knowledge:
        """Nothing known yet (the deal is hidden)."""
        return cls(observation.seat, tuple(() for _ in range(observation.players)))

    def update(
        self, before: Observation, actor: int, action: Action, after: Observation
    ) -> Knowledge:
        """The knowledge after ``actor`` played ``action`` between two observations.

        A known card that shows up in the open is forgotten. A reshuffle may carry a card
        from a hand through the discard pile into the deck unseen (Holiday), so it clears
        everything, as does a hand that shrinks below what is known of it.
        """
        if after.reshuffles != before.reshuffles:
            return Knowledge(self.seat, tuple(() for _ in self.known))
        open_after = visible_cards(after)
        known = [[card for card in cards if card not in open_after] for cards in self.known]
        for other, cards in enumerate(known):
            if len(cards) > after.hand_counts[other]:
                cards.clear()
        if actor != self.seat and A.kind_of(action) in TAKING_KINDS:
            taken = visible_cards(before) - open_after - set(after.hand)
            known[actor].extend(sorted(taken))
        return Knowledge(self.seat, tuple(tuple(sorted(set(cards))) for cards in known))

    def consistent(self, observation: Observation) -> Knowledge:
        """The knowledge restricted to what the observation allows (hidden cards, counts)."""
        hidden = set(unseen_cards(observation))
        known: list[tuple[int, ...]] = []
        for other, cards in enumerate(self.known):
            if other == observation.seat or len(self.known) != observation.players:
                known.append(())
                continue
            kept = tuple(card for card in cards if card in hidden)
            known.append(kept[: observation.hand_counts[other]])
        return Knowledge(observation.seat, tuple(known))


def sample_world(observation: Observation, knowledge: Knowledge, rng: random.Random) -> State:
    """A full state agreeing with the observation in which every known card is where it is
    known to be; the other hidden cards are dealt at random."""
    return sample_known(observation, knowledge.consistent(observation).known, rng)


def sample_known(
    observation: Observation, known: tuple[tuple[int, ...], ...], rng: random.Random
) -> State:
    """:func:`sample_world` for knowledge already made consistent with the observation (a
    search reuses it for every world it samples)."""
    world = determinize(observation, rng)
    if not any(known):
        return world
    fixed = {card for cards in known for card in cards}
    pool = [card for card in unseen_cards(observation) if card not in fixed]
    shuffle(rng, pool)
    hands: list[tuple[int, ...]] = []
    position = 0
    for other, count in enumerate(observation.hand_counts):
        if other == observation.seat:
            hands.append(observation.hand)
            continue
        cards = known[other]
        free = count - len(cards)
        hands.append(tuple(sorted((*cards, *pool[position : position + free]))))
        position += free
    return with_cards(world, tuple(hands), tuple(pool[position:]))


def with_cards(world: State, hands: tuple[tuple[int, ...], ...], deck: tuple[int, ...]) -> State:
    """The world with other hands and deck (``dataclasses.replace`` without its Python:
    a search deals thousands of worlds a decision)."""
    return State(
        rules=world.rules,
        seed=world.seed,
        tasks=world.tasks,
        hands=hands,
        beds=world.beds,
        market=world.market,
        deck=deck,
        discard=world.discard,
        specials=world.specials,
        sluggards=world.sluggards,
        turn=world.turn,
        active=world.active,
        phase=world.phase,
        flags=world.flags,
        actions_left=world.actions_left,
        sub=world.sub,
        sub_seat=world.sub_seat,
        pending=world.pending,
        reshuffles=world.reshuffles,
        winner=world.winner,
        aborted=world.aborted,
    )
