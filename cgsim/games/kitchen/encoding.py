"""Kitchen Garden as fixed-size arrays: the observation layout and the action index range.

Read by the learning environments (``cgsim.env``) and their bot wrapper. The array is
built from a seat's :class:`~cgsim.games.kitchen.observation.Observation` alone: the
seat's own hand card by card, the open cards, and only the *counts* of the other hands
and of the deck. Every seat (in a block or a one-hot) is counted from the observer: 0 is
the observer, 1 the next player, and so on; so are the target seats of actions. The
layout and the action encoding are printed by ``encoding(rules).describe()``.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from cgsim.games.contract import Action
from cgsim.games.encoding import (
    ActionSpace,
    Args,
    Array,
    CachedEncoder,
    Encoding,
    Field,
    ObservationLayout,
    Segment,
    absolute,
    one_hot,
    relative,
)
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.beds import bed_full, bed_plants
from cgsim.games.kitchen.cards import SPECIALS
from cgsim.games.kitchen.observation import Observation
from cgsim.games.kitchen.settings import KitchenRules
from cgsim.games.kitchen.state import MIDDLE, NONE, PHASE_NAMES, USED, Phase

RESHUFFLES_SHOWN = 100
"""Reshuffles are counted up to this many (the array's bound)."""
FLAG_NAMES = ("worker", "special", "sluggard")
"""The conditions-phase abilities used this turn, in ``State.flags`` bit order."""
_SEAT_ARGS = {A.COND_SLUGGARD: (0,), A.WEED: (0,), A.STEAL: (0,)}
"""Action kinds whose arguments name a seat, and those arguments' positions."""


def _bounds(rules: KitchenRules) -> tuple[int, int, int, int, int]:
    """Card types, crops, bed slots, market slots and the largest bed target."""
    catalogue = rules.catalogue
    slots = max(max(task.slots) for task in catalogue.tasks)
    target = max(max(task.targets) for task in catalogue.tasks)
    types = len(catalogue.types)
    return types, len(catalogue.crops), slots, rules.settings.market_size, target


def _layout(rules: KitchenRules) -> ObservationLayout:
    s = rules.settings
    catalogue = rules.catalogue
    players = rules.players
    types, crops, slots, market, target = _bounds(rules)
    cards = catalogue.card_count
    copies = max(b - a for a, b in itertools.pairwise(catalogue.type_start))
    phases = ", ".join(PHASE_NAMES)
    specials = ", ".join(SPECIALS)
    return ObservationLayout(
        [
            Field("phase", (len(Phase),), 1, f"the decision point, one-hot: {phases}"),
            Field("decider", (players,), 1, "the seat deciding now, one-hot"),
            Field("active", (players,), 1, "the seat whose turn it is, one-hot"),
            Field("turn", (1,), s.turn_cap, "the turn number, every seat's turns counted"),
            Field(
                "actions_left",
                (1,),
                s.base_actions + s.worker_actions + s.special_actions,
                "actions left this turn",
            ),
            Field("flags", (len(FLAG_NAMES),), 1, "used this turn: " + ", ".join(FLAG_NAMES)),
            Field(
                "sub",
                (1,),
                max(1, s.bazaar_swaps, s.holiday_cards),
                "Bazaar swaps or Holiday discards left",
            ),
            Field("pending_sluggard", (1,), 1, "1 while a Sluggard awaits its target's answer"),
            Field("hand", (types,), copies, "the observer's own cards, counted by type"),
            Field("market", (market, types), 1, "each market slot's card type, one-hot"),
            Field("discard", (types,), copies, "the discard pile, counted by type"),
            Field("deck_count", (1,), cards, "cards in the deck"),
            Field("reshuffles", (1,), RESHUFFLES_SHOWN, "times the discard pile was reshuffled"),
            Field(
                "specials",
                (len(SPECIALS), players + 2),
                players,
                f"per special ({specials}): 1 for each seat holding a copy it may use, then "
                "1 when the shared copy lies in the middle, then the copies used",
            ),
            Field("winner", (players,), 1, "the seat that planted its whole garden, one-hot"),
            Field("aborted", (1,), 1, "1 when the game stopped at the turn cap"),
            Field("hand_counts", (players,), cards, "cards in each seat's hand"),
            Field("sluggard", (players,), 1, "1 when a Sluggard lies in front of the seat"),
            Field("task_targets", (players, crops), target, "each seat's task: plants per bed"),
            Field("task_slots", (players, crops), slots, "each seat's task: slots per bed"),
            Field(
                "beds",
                (players, crops, slots, types),
                1,
                "per seat, bed and slot, the card type lying there, one-hot",
            ),
            Field("bed_plants", (players, crops), target, "plants on each bed"),
            Field("bed_full", (players, crops), 1, "1 when the bed is fully planted"),
        ]
    )


def _actions(rules: KitchenRules) -> ActionSpace:
    players = rules.players
    types, crops, slots, market, _ = _bounds(rules)
    seats, hand = ("seat",), ("card_type",)
    return ActionSpace(
        [
            Segment("end_conditions", A.END_CONDITIONS, (), (), "no more conditions"),
            Segment("cond_worker", A.COND_WORKER, (), (), "discard a Worker for an action"),
            Segment(
                "cond_special", A.COND_SPECIAL, ("special",), (len(SPECIALS),), "use a special"
            ),
            Segment("cond_sluggard", A.COND_SLUGGARD, seats, (players,), "a Sluggard on a seat"),
            Segment("cancel_sluggard", A.CANCEL_SLUGGARD, (), (), "cancel it with a Worker"),
            Segment("accept_sluggard", A.ACCEPT_SLUGGARD, (), (), "accept the Sluggard"),
            Segment("harvest", A.HARVEST, (), (), "draw a card"),
            Segment("plant", A.PLANT, hand, (types,), "plant a card of this type"),
            Segment("weed", A.WEED, ("seat", "crop"), (players, crops), "a Weed on a seat's bed"),
            Segment("weeding", A.WEEDING, ("crop", "slot"), (crops, slots), "weed own bed slot"),
            Segment("market", A.MARKET, ("card_type", "slot"), (types, market), "swap at market"),
            Segment("bazaar", A.BAZAAR, (), (), "play the Bazaar"),
            Segment(
                "bazaar_swap",
                A.BAZAAR_SWAP,
                ("card_type", "slot"),
                (types, market),
                "swap with the new market",
            ),
            Segment("bazaar_done", A.BAZAAR_DONE, (), (), "no more Bazaar swaps"),
            Segment("holiday", A.HOLIDAY, (), (), "play the Holiday"),
            Segment("holiday_discard", A.HOLIDAY_DISCARD, hand, (types,), "discard for Holiday"),
            Segment("crow", A.CROW, hand, (types,), "the Crow takes this type from the discard"),
            Segment(
                "steal",
                A.STEAL,
                ("seat", "crop", "slot"),
                (players, crops, slots),
                "the Crow and a Sluggard take a card from a seat's bed slot",
            ),
            Segment("clean_discard", A.CLEAN_DISCARD, hand, (types,), "discard when cleaning"),
        ],
        functools.partial(_split, players),
        functools.partial(_join, players),
    )


_ARITY = {
    A.COND_SPECIAL: 1,
    A.COND_SLUGGARD: 1,
    A.PLANT: 1,
    A.WEED: 2,
    A.WEEDING: 2,
    A.MARKET: 2,
    A.BAZAAR_SWAP: 2,
    A.HOLIDAY_DISCARD: 1,
    A.CROW: 1,
    A.STEAL: 3,
    A.CLEAN_DISCARD: 1,
}
"""Arguments of each action kind (the others have none)."""


def _split(players: int, action: Action, seat: int) -> tuple[int, Args]:
    kind, *fields = A.decode(action)
    args = fields[: _ARITY.get(kind, 0)]
    for position in _SEAT_ARGS.get(kind, ()):
        args[position] = relative(args[position], seat, players)
    return kind, tuple(args)


def _join(players: int, kind: int, args: Args, seat: int) -> Action:
    fields = list(args)
    for position in _SEAT_ARGS.get(kind, ()):
        fields[position] = absolute(fields[position], seat, players)
    return A.encode(kind, *fields)


class KitchenEncoding(Encoding):
    """The encoding under one set of rules (see the module docstring)."""

    def __init__(self, rules: KitchenRules) -> None:
        super().__init__(_layout(rules), _actions(rules))
        self.rules = rules

    def fill(self, array: Array, observation: Observation, seat: int) -> None:
        obs = observation
        if obs.seat != seat:
            raise ValueError(f"an observation of seat {obs.seat} encoded for seat {seat}")
        catalogue = obs.rules.catalogue
        card_types = catalogue.card_types
        types = len(catalogue.types)
        players = obs.rules.players

        def field(name: str) -> Array:
            return self.layout.view(array, name)

        def seat_of(other: int) -> int:
            return relative(other, seat, players)

        one_hot(field("phase"), int(obs.phase))
        one_hot(field("decider"), seat_of(obs.decider))
        one_hot(field("active"), seat_of(obs.active))
        field("turn")[0] = obs.turn
        field("actions_left")[0] = obs.actions_left
        field("flags")[:] = [obs.flags >> bit & 1 for bit in range(len(FLAG_NAMES))]
        field("sub")[0] = obs.sub
        field("pending_sluggard")[0] = obs.pending != NONE
        field("hand")[:] = np.bincount([card_types[c] for c in obs.hand], minlength=types)
        market = field("market")
        for slot, card in enumerate(obs.market[: market.shape[0]]):
            market[slot, card_types[card]] = 1
        field("discard")[:] = np.bincount([card_types[c] for c in obs.discard], minlength=types)
        field("deck_count")[0] = obs.deck_count
        field("reshuffles")[0] = obs.reshuffles
        specials = field("specials")
        for special, holders in enumerate(obs.specials):
            for holder in holders:
                if holder == MIDDLE:
                    specials[special, players] = 1
                elif holder == USED:
                    specials[special, players + 1] += 1
                else:
                    specials[special, seat_of(holder)] = 1
        if obs.winner != NONE:
            field("winner")[seat_of(obs.winner)] = 1
        field("aborted")[0] = obs.aborted
        hand_counts, sluggard = field("hand_counts"), field("sluggard")
        targets, slots = field("task_targets"), field("task_slots")
        beds, plants, full = field("beds"), field("bed_plants"), field("bed_full")
        for other in range(players):
            block = seat_of(other)
            hand_counts[block] = obs.hand_counts[other]
            sluggard[block] = obs.sluggards[other] != NONE
            task = catalogue.tasks[obs.tasks[other]]
            targets[block] = task.targets
            slots[block] = task.slots
            for crop, bed in enumerate(obs.beds[other]):
                for slot, card in enumerate(bed):
                    beds[block, crop, slot, card_types[card]] = 1
                plants[block, crop] = bed_plants(catalogue, bed)
                full[block, crop] = bed_full(catalogue, bed, task.targets[crop], task.slots[crop])


ENCODER = CachedEncoder(KitchenEncoding)
"""Kitchen Garden's encoder: one encoding per rules object, made once."""
