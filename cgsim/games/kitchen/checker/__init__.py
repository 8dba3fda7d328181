"""An independent checker of Kitchen Garden game records (``cgsim.kitchen-record/1``).

It rebuilds the game from the record alone (setup, then every event) with its own
implementation of ``docs/kitchen-rules.md`` and the specification it rules on; it shares
no code with the engine (nor with the Cottage Garden checker), so a record it rejects
points at an engine bug (or a checker bug: the message says which rule disagrees).

Readings of the documents where they leave room:

- The deal is checked for consistency, not against the seed: every card id exactly once
  in the hands (``deal`` each, sorted), the market (``market_size``) and the deck; tasks
  of ``components.tasks``, all different; specials in the middle (2 players) or one per
  seat; seat 0 first. A ``reshuffle`` must list exactly the discard pile, in any order;
  the seeded shuffles are the engine's own.
- Turns are numbered from 1 and seats play in order 0, 1, ..., so turn ``n`` is seat
  ``(n - 1) % players``; a skipped turn counts.
- Identical cards are interchangeable, so the record's card ids are fixed by the rules
  document: the lowest id of a type from a hand (every hand card an event names), the
  first card of a type from a bed or the market (its slot, for a swap), the most recently
  discarded card of a type from the discard pile (Crow). A swap of identical cards is
  illegal.
- ``end_conditions`` is recorded only while an ability is available (an unused Worker
  discard with a Worker in hand, an unused special discard with a usable special, an
  unused Sluggard with a Sluggard in hand and another seat without one); it is a
  violation otherwise. A Sluggard target with a Worker answers (cancel or accept); one
  without a Worker accepts at once.
- Every action is compulsory; ``action_lost`` is due exactly when the deck and the
  discard pile are empty and no action is legal (Harvest is legal whenever either has
  a card).
- The planting rule with cards of ``low`` to ``high`` plants (the smallest and largest
  plant values of ``components.deck``): the card needs a free slot, and after it ``low *
  unplanted <= needed <= high * unplanted``, where ``unplanted`` counts the slots holding
  no plant card (free or under a Weed: a Weed's slot still needs a plant card once it is
  weeded out). A bed is fully planted when every slot holds a plant card adding up to
  the target. A planting that fully plants the last bed is a ``win`` without a prize.
- Holiday: seats discard from the player clockwise; a seat with at most
  ``holiday_cards`` cards discards its whole hand by rising id, the others choose one card
  at a time; then seats draw in the same order, a seat stopping when nothing is left.
- Bazaar: the old market joins the discard pile (slot order) after the special card's
  movement and before the new market is drawn; swaps are offered while any is possible,
  at most ``bazaar_swaps``, and ``bazaar_done`` only ends them early.
- A special card's movement follows the event that played it: 2 players, the copy held
  by the player (else the one in the middle) passes to the other seat; 3-4 players, the
  seat's own copy is used, and ``specials_return`` returns every copy to its owner once
  all are used.
- Draws (harvest, prize, new market, Holiday) reshuffle only when the deck is empty and
  the discard pile is not, right before the card is drawn: never where the deck ran out
  (until the next draw the pile stays open to the Crow); with both empty they give
  nothing.
- The turn cap ends the game ``aborted`` after the turn numbered ``rules.turn_cap``
  (after its cleaning, or its ``skip``), unless a ``win`` ended it first.
- ``result``: scores ``plants * 100 + full beds`` (floats), winners ``[]`` or the one
  winner, ranks with the winner first and ties sharing the mean position; no field may
  be added. A result ``end: error`` lets the last turn stop at any decision, and then
  holds only ``end``, ``turns``, ``winners`` and the per-seat lists.
"""

from __future__ import annotations

from cgsim.games.kitchen.checker.record import check_record
from cgsim.games.kitchen.checker.setup import FORMAT
from cgsim.games.kitchen.checker.violations import Violation

__all__ = ["FORMAT", "Violation", "check_record"]
