"""``kitchen-search``'s hot loop, compiled with mypyc: dealing the sampled worlds
(``deal_world``: the known cards kept, the opponents' hands leaned by ``HAND_ODDS``)
and playing every candidate in every world (``search``). Dealing went through
``random``'s Python code card by card; the exact draws (``cgsim.games.draws.exact``)
keep every world, and so every move, the same."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from bots.kitchen_policy import Scorer, Weights, evaluate, rollout
from cgsim.games.contract import Action
from cgsim.games.draws.exact import randbelow, shuffle, weighted_index
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.knowledge import sample_known, with_cards
from cgsim.games.kitchen.observation import Observation
from cgsim.games.kitchen.rules import apply
from cgsim.games.kitchen.state import State

CARD_CLASSES = ("plant-now", "plant-later", "plant-dead", "worker", "weed", "sluggard")
"""How a hidden card stands for the opponent who may hold it (see ``card_class``)."""

MODELLED_MOVES = (A.HARVEST, A.PLANT, A.MARKET, A.WEED, A.WEEDING, A.CROW)
"""Last moves whose odds are measured; after any other move the deal is uniform."""

HAND_ODDS: dict[int, tuple[float, ...]] = {
    A.HARVEST: (0.32, 3.1, 1.2, 1.9, 0.42, 0.34),
    A.PLANT: (0.46, 2.3, 1.2, 1.9, 1.3, 0.3),
    A.WEED: (0.02, 3.3, 1.2, 3.3, 0.066, 0.02),
    A.WEEDING: (0.71, 4.4, 1.2, 0.82, 0.38, 0.02),
    A.MARKET: (1.4, 3.4, 0.11, 2.9, 2.3, 0.52),
    A.CROW: (0.98, 1.2, 0.86, 3.2, 0.11, 0.02),
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


def lean_hands(
    world: State,
    seat: int,
    known: tuple[tuple[int, ...], ...],
    last_moves: Sequence[int],
    trust: float,
    weights: Weights,
    rng: random.Random,
) -> State:
    """The world with the unknown cards of other hands re-dealt from the same hidden pool,
    each card weighted by ``HAND_ODDS`` (raised to ``trust``) for the holder's last move.

    A uniform deal ignores what an opponent's moves say about its hand: after a Harvest
    it had nothing to plant. Known cards stay where they are; ``last_moves`` holds each
    seat's last action-phase kind, or -1 when none was seen.
    """
    if trust <= 0.0 or not any(move in HAND_ODDS for move in last_moves):
        return world
    card_types = world.rules.catalogue.card_types
    fixed: set[int] = set()
    for cards in known:
        fixed.update(cards)
    pool: list[int] = []
    for other, hand in enumerate(world.hands):
        if other != seat:
            for card in hand:
                if card not in fixed:
                    pool.append(card)
    pool.extend(world.deck)
    hands = list(world.hands)
    for other in range(world.players):
        if other == seat:
            continue
        size = len(hands[other])
        chosen = list(known[other])
        if last_moves[other] not in HAND_ODDS:
            while len(chosen) < size and pool:
                chosen.append(pool.pop(randbelow(rng, len(pool))))
        else:
            odds = HAND_ODDS[last_moves[other]]
            scorer = Scorer(world, other, weights)
            weight_of: dict[int, float] = {}
            for card in pool:
                type_id = card_types[card]
                if type_id not in weight_of:
                    weight_of[type_id] = odds[card_class(scorer, type_id)] ** trust
            weights_left = [weight_of[card_types[card]] for card in pool]
            while len(chosen) < size and pool:
                drawn = weighted_index(rng, weights_left)
                chosen.append(pool.pop(drawn))
                del weights_left[drawn]
        hands[other] = tuple(sorted(chosen))
    shuffle(rng, pool)
    return with_cards(world, tuple(hands), tuple(pool))


def deal_world(
    observation: Observation,
    known: tuple[tuple[int, ...], ...],
    last_moves: Sequence[int],
    trust: float,
    weights: Weights,
    rng: random.Random,
) -> State:
    """One sampled world: the known cards where they are, the rest leaned by the odds."""
    world = sample_known(observation, known, rng)
    return lean_hands(world, observation.seat, known, last_moves, trust, weights, rng)


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
    shape: tuple[int, int, int, float, float, float, float, float, float],
    weights: Weights,
    rng: random.Random,
) -> tuple[int, int]:
    """Index of the candidate to play (0: greedy's pick) and the rollouts it took,
    worlds sampled in batches and hopeless alternatives dropped after each; ``shape`` is
    ``SearchParams``' worlds, batch, depth, epsilon, scale, margin, prune, z and
    hand_model, in that order."""
    worlds, batch, depth, epsilon, scale, margin, prune, z, trust = shape
    seat = observation.seat
    end_turn = observation.turn + depth
    values: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    sampled = 0
    rollouts = 0
    while sampled < worlds and len(alive) > 1:
        for _ in range(min(batch, worlds - sampled)):
            world = deal_world(observation, known, last_moves, trust, weights, rng)
            rollout_seed = rng.getrandbits(64)
            for index in alive:
                final = rollout(
                    apply(world, candidates[index]),
                    end_turn,
                    epsilon,
                    weights,
                    random.Random(rollout_seed),
                )
                values[index].append(evaluate(final, seat, scale, weights))
            rollouts += len(alive)
            sampled += 1
        alive = [0] + [
            index for index in alive[1:] if hopeful(values[index], values[0], margin, prune)
        ]
    chosen = preferred([values[index] for index in alive], margin, z)
    return alive[chosen], rollouts
