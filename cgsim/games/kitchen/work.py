"""The mutable working copy of a state, alive only inside one ``apply`` (or ``new_game``,
or a search's playout: ``bots.kitchen_policy.rollout``).

It holds the card moves every step uses (take a card of a type from a hand, give one,
draw with reshuffles, play a special) and appends record events to the log, if any.
"""

from __future__ import annotations

import random
from typing import Any, Final

from cgsim.errors import IllegalActionError
from cgsim.games.kitchen.cards import SPECIALS, type_name
from cgsim.games.kitchen.piles import first_at_least
from cgsim.games.kitchen.state import (
    MIDDLE,
    NONE,
    PHASE_HOLIDAY_DISCARDS,
    PHASE_SLUGGARD_RESPONSE,
    USED,
    Phase,
    State,
)

Event = dict[str, Any]

_PHASES: Final = tuple(Phase)
"""Phase members by value: the working copy holds the member itself, so the automatic
steps compare phases by identity (an IntEnum's ``==`` takes the slow generic path)."""


class Work:
    """A mutable copy of a state for the duration of one ``apply``, or of a playout that
    applies many actions in a row and needs no state between them."""

    __slots__ = (
        "aborted",
        "actions_left",
        "active",
        "beds",
        "deck",
        "discard",
        "flags",
        "hands",
        "log",
        "market",
        "pending",
        "phase",
        "reshuffles",
        "rules",
        "seed",
        "sluggards",
        "specials",
        "sub",
        "sub_seat",
        "tasks",
        "turn",
        "winner",
    )

    def __init__(self, s: State, log: list[Event] | None) -> None:
        self.rules = s.rules
        self.seed = s.seed
        self.tasks = s.tasks
        self.hands = list(s.hands)
        self.beds = list(s.beds)
        self.market = s.market
        self.deck = s.deck
        self.discard = s.discard
        self.specials = list(s.specials)
        self.sluggards = list(s.sluggards)
        self.turn = s.turn
        self.active = s.active
        self.phase = _PHASES[s.phase]
        self.flags = s.flags
        self.actions_left = s.actions_left
        self.sub = s.sub
        self.sub_seat = s.sub_seat
        self.pending = s.pending
        self.reshuffles = s.reshuffles
        self.winner = s.winner
        self.aborted = s.aborted
        self.log = log

    def freeze(self) -> State:
        return State(
            self.rules,
            self.seed,
            self.tasks,
            tuple(self.hands),
            tuple(self.beds),
            self.market,
            self.deck,
            self.discard,
            tuple(self.specials),
            tuple(self.sluggards),
            self.turn,
            self.active,
            self.phase,
            self.flags,
            self.actions_left,
            self.sub,
            self.sub_seat,
            self.pending,
            self.reshuffles,
            self.winner,
            self.aborted,
        )

    @property
    def decider(self) -> int:
        """The seat that makes the next decision (as ``State.decider``)."""
        if self.phase is PHASE_SLUGGARD_RESPONSE or self.phase is PHASE_HOLIDAY_DISCARDS:
            return self.sub_seat
        return self.active

    def emit(self, event: Event) -> None:
        """Append an event to the log, if any (the hottest call sites test ``log`` first
        so that games without a record do not even build the event)."""
        if self.log is not None:
            self.log.append(event)

    # -- cards

    def crop_name(self, crop: int) -> str:
        return self.rules.catalogue.crops[crop]

    def take_type(self, seat: int, type_id: int) -> int:
        """Remove the lowest-id card of a type from a (sorted) hand."""
        type_start = self.rules.catalogue.type_start
        hand = self.hands[seat]
        index = first_at_least(hand, type_start[type_id])
        if index < len(hand) and hand[index] < type_start[type_id + 1]:
            self.hands[seat] = hand[:index] + hand[index + 1 :]
            return hand[index]
        raise IllegalActionError(f"seat {seat} has no {type_name(self.rules.catalogue, type_id)}")

    def give(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        index = first_at_least(hand, card)
        self.hands[seat] = (*hand[:index], card, *hand[index:])

    def draw(self) -> int:
        """Top card of the deck, reshuffling the discard pile when the deck is empty."""
        if not self.deck:
            if not self.discard:
                return NONE
            cards = list(self.discard)
            random.Random(f"kitchen-garden:{self.seed}:reshuffle:{self.reshuffles}").shuffle(cards)
            self.reshuffles += 1
            self.deck = tuple(cards)
            self.discard = ()
            self.emit({"e": "reshuffle", "deck": cards[::-1]})
        card = self.deck[-1]
        self.deck = self.deck[:-1]
        return card

    def set_bed(self, seat: int, crop: int, bed: tuple[int, ...]) -> None:
        beds = self.beds[seat]
        self.beds[seat] = (*beds[:crop], bed, *beds[crop + 1 :])

    def use_special(self, special: int, seat: int) -> None:
        """Play a special card: to the used pile, or in a 2-player game to the other player."""
        holders = self.specials[special]
        copy = holders.index(seat) if seat in holders else holders.index(MIDDLE)
        if self.rules.players == 2:
            receiver = 1 - seat
            self.specials[special] = (*holders[:copy], receiver, *holders[copy + 1 :])
            self.emit({"e": "special_passes", "special": SPECIALS[special], "to": receiver})
            return
        holders = (*holders[:copy], USED, *holders[copy + 1 :])
        if all(holder == USED for holder in holders):
            holders = tuple(range(self.rules.players))
            self.emit({"e": "specials_return", "special": SPECIALS[special]})
        self.specials[special] = holders
