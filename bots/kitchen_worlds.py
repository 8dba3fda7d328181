"""``kitchen-search``'s hot loop, compiled with mypyc: dealing the sampled worlds
(``Dealer``: the known cards kept, the opponents' hands leaned by ``HAND_ODDS``) and
playing every candidate in every world (``search``). The cards are drawn by the search's
own generator (``QuickRandom``), seeded from the decision's: plain integer arithmetic, so
the compiled and pure-Python searches deal the same worlds and play the same moves."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bots.kitchen_policy import QuickRandom, Scorer, Weights, evaluate, rollout
from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.observation import Observation, unseen_cards, world_of
from cgsim.games.kitchen.rules import apply
from cgsim.games.kitchen.state import State

CARD_CLASSES = ("plant-now", "plant-later", "plant-dead", "worker", "weed", "sluggard")
"""How a hidden card stands for the opponent who may hold it (see ``card_class``)."""

MODELLED_MOVES = (A.HARVEST, A.PLANT, A.MARKET, A.WEED, A.WEEDING, A.CROW)
"""Last moves whose odds are measured; after any other move the deal is uniform."""

HAND_ODDS: dict[int, tuple[float, ...]] = {
    A.HARVEST: (0.33, 3.1, 1.2, 1.9, 0.43, 0.34),
    A.PLANT: (0.46, 2.0, 1.2, 1.9, 1.3, 0.3),
    A.WEED: (0.02, 3.4, 1.2, 3.4, 0.076, 0.02),
    A.WEEDING: (0.62, 4.1, 1.3, 0.83, 0.4, 0.02),
    A.MARKET: (1.4, 3.2, 0.11, 2.9, 2.3, 0.53),
    A.CROW: (0.92, 1.2, 0.87, 3.2, 0.13, 0.02),
}
"""Odds that a hidden card of each class (``CARD_CLASSES`` order) lies in an opponent's
hand rather than the deck, by the opponent's last action-phase move.

Measured by ``python -m bots.kitchen_odds --games 3000`` (``kitchen-greedy`` self-play,
every hidden card at every decision): a player who just Harvested had nothing to
plant, so a card it could plant now is three times less likely in its hand than in the
deck; one who took from the market keeps what it swapped for. With no such move seen
yet, the deal is uniform. Measured with two players, used at every table size.
"""


def card_class(scorer: Scorer, type_id: int) -> int:
    """Index into ``CARD_CLASSES`` of a card type for the scorer's seat."""
    catalogue = scorer.catalogue
    if catalogue.type_crop[type_id] >= 0:
        worth = scorer.usefulness(type_id)
        return 0 if worth >= 10.0 else 1 if worth > 0.0 else 2
    if type_id == catalogue.worker:
        return 3
    return 4 if type_id == catalogue.weed else 5


class Dealer:
    """Deals the worlds of one decision: the known cards where they are, the opponents'
    unknown cards drawn from the hidden pool weighted by ``HAND_ODDS`` (raised to
    ``trust``) for each one's last action-phase move, the rest shuffled into the deck.

    A uniform deal ignores what an opponent's moves say about its hand: after a Harvest
    it had nothing to plant. What every world of the decision shares (the hidden cards
    not known to be anywhere, each opponent's weight per card type) is found once here;
    each world then costs one pass over the pool. ``last_moves`` holds each seat's last
    action-phase kind, or -1 when none was seen (then that seat's cards are uniform).
    """

    def __init__(
        self,
        observation: Observation,
        known: tuple[tuple[int, ...], ...],
        last_moves: Sequence[int],
        trust: float,
        weights: Weights,
    ) -> None:
        self.observation = observation
        self.known = known
        fixed: set[int] = set()
        for cards in known:
            fixed.update(cards)
        self.pool = [card for card in unseen_cards(observation) if card not in fixed]
        """The hidden cards not known to be anywhere, in id order."""
        self.odds: list[list[float]] = []
        """Per seat, the weight of each card type in its hand (empty: a uniform deal)."""
        catalogue = observation.rules.catalogue
        for other in range(observation.rules.players):
            move = last_moves[other] if other < len(last_moves) else -1
            if other == observation.seat or trust <= 0.0 or move not in HAND_ODDS:
                self.odds.append([])
                continue
            odds = HAND_ODDS[move]
            scorer = Scorer(observation, other, weights)
            self.odds.append(
                [
                    odds[card_class(scorer, type_id)] ** trust
                    for type_id in range(len(catalogue.type_crop))
                ]
            )

    def deal(self, rng: random.Random) -> State:
        """One sampled world agreeing with the observation and the known cards (two draws
        from ``rng``: the world's seed, and the seed of the quick generator that deals)."""
        seed = rng.getrandbits(64)
        quick = QuickRandom(rng.getrandbits(64))
        observation = self.observation
        card_types = observation.rules.catalogue.card_types
        pool = list(self.pool)
        hands: list[tuple[int, ...]] = []
        for other, count in enumerate(observation.hand_counts):
            if other == observation.seat:
                hands.append(observation.hand)
                continue
            chosen = list(self.known[other])
            odds = self.odds[other]
            if not odds:
                while len(chosen) < count and pool:
                    chosen.append(pool.pop(quick.randrange(len(pool))))
            else:
                weights_left = [odds[card_types[card]] for card in pool]
                while len(chosen) < count and pool:
                    drawn = weighted_index(quick, weights_left)
                    chosen.append(pool.pop(drawn))
                    del weights_left[drawn]
            hands.append(tuple(sorted(chosen)))
        quick.shuffle(pool)
        return world_of(observation, tuple(hands), tuple(pool), seed)


def weighted_index(quick: QuickRandom, weights: Sequence[float]) -> int:
    """An index drawn with chance proportional to its weight (the first running total
    above a uniform point)."""
    point = quick.random() * sum(weights)
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if point < total:
            return index
    return len(weights) - 1


def lead_stats(values: Sequence[float], base: Sequence[float]) -> tuple[float, float]:
    """Mean per-world lead of ``values`` over ``base`` and its standard error."""
    worlds = len(base)
    leads = [value - first for value, first in zip(values, base, strict=True)]
    mean = sum(leads) / worlds
    if worlds < 2:
        return mean, 0.0
    return mean, math.sqrt(sum([(lead - mean) ** 2 for lead in leads]) / (worlds - 1) / worlds)


def hopeful(values: Sequence[float], base: Sequence[float], margin: float, prune: float) -> bool:
    """Whether an alternative could still clear the margin: its lead plus ``prune``
    standard errors exceeds it."""
    mean, error = lead_stats(values, base)
    return mean + prune * error > margin


def clears(values: Sequence[float], base: Sequence[float], margin: float, accept: float) -> bool:
    """Whether an alternative's lead, less ``accept`` standard errors, exceeds the margin:
    more worlds would hardly change the choice."""
    mean, error = lead_stats(values, base)
    return mean - accept * error > margin


def preferred(values: Sequence[Sequence[float]], margin: float, z: float) -> int:
    """Index of the candidate to play given per-world values (row 0: greedy's pick).

    An alternative is chosen only when its mean per-world lead over row 0 exceeds both
    ``margin`` and ``z`` standard errors of that lead; among those, the largest lead.
    """
    chosen, best_lead = 0, 0.0
    for index in range(1, len(values)):
        mean, spread = lead_stats(values[index], values[0])
        if mean > margin and mean > z * spread and mean > best_lead:
            chosen, best_lead = index, mean
    return chosen


def search(
    observation: Observation,
    known: tuple[tuple[int, ...], ...],
    candidates: Sequence[Action],
    last_moves: Sequence[int],
    shape: tuple[int, int, int, float, float, float, float, float, float, float, float],
    weights: Weights,
    rng: random.Random,
) -> tuple[int, int]:
    """Index of the candidate to play (0: greedy's pick) and the rollouts it took,
    worlds sampled in batches and hopeless alternatives dropped after each; ``shape`` is
    ``SearchParams``' worlds, batch, depth, epsilon, scale, margin, prune, z, slack,
    accept and hand_model, in that order."""
    worlds, batch, depth, epsilon, scale, margin, prune, z, slack, accept, trust = shape
    dealer = Dealer(observation, known, last_moves, trust, weights)
    seat = observation.seat
    end_turn = observation.turn + depth
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    sampled = 0
    rollouts = 0
    while sampled < worlds and len(alive) > 1:
        for _ in range(min(batch, worlds - sampled)):
            world = dealer.deal(rng)
            rollout_seed = rng.getrandbits(64)
            for index in alive:
                final = rollout(
                    apply(world, candidates[index]),
                    end_turn,
                    epsilon,
                    weights,
                    QuickRandom(rollout_seed),
                )
                values[index].append(evaluate(final, seat, scale, weights))
            rollouts += len(alive)
            sampled += 1
        alive = [0] + [
            index for index in alive[1:] if hopeful(values[index], values[0], margin + slack, prune)
        ]
        if accept > 0.0 and any(
            clears(values[index], values[0], margin, accept) for index in alive[1:]
        ):
            break
    chosen = preferred([values[index] for index in alive], margin, z)
    return alive[chosen], rollouts
