"""An independent checker of Cottage Garden game records (``cgsim.record/1``).

It rebuilds the game from the record alone (setup, then every event) with its own
implementation of ``rules.md``; it shares no code with the engine, so a record it rejects
points at an engine bug (or a checker bug: the message says which rule disagrees).

Readings of the specification where it leaves room:

- Turns are numbered from 1; seats play in order 0, 1, ..., so turn ``n`` is seat
  ``(n - 1) % players``.
- ``gardener.final_round`` is true on the move that makes the value final and on every
  later move (the final round "has begun" after each of them); ``turn.final_round`` is
  true for every turn after that move.
- Nobody may Ramble when ``rules.ramble`` is false or any seat is a child.
- A refill event is allowed only when a tile moves: with the path empty there is none.
- Hunt cats may be placed before the main action, after it, and between scorings; the
  scoring phase ends when the first event that is neither a hunt cat nor a score comes,
  and every complete bed must have been scored by then.
- A bed completed by a cat-limit cat, or by the start-space pot of a scoring the cat set
  off, is scored before the next cat-limit cat (or ``return_cats`` or ``gardener``).
- The cat limit applies to a player who had a bed at the start of the turn, is not a
  child, with ``bonus_cat_limit`` on; when no empty cell is left (even because the last
  bed was just scored in the final round) the excess is returned with ``return_cats``.
- The start-space pot is due when a scoring move starts on index 0 and leaves no cube of
  that colour on index 0; it goes on the other bed of the one being scored.
- A beehive is due when a scoring move ends on the target, the player holds none and a
  tile of ``rules.beehives`` is left (taken in list order).
- Corner cats: corners are crossed in the order walked, children served in seat order
  (from seat 0) at each corner, each only while the supply has a cat.
- Stall: a final-round turn counts as idle when no ``take_tile``, ``take_pot``, ``cat`` or
  ``bonus_pot`` is in it; the count restarts at any placement. After ``players`` idle
  final-round turns in a row, every remaining bed is discarded (seat order, bed order)
  after the turn's gardener and corner-cat events.
- Aborted: the game ends ``aborted`` after turn ``rules.turn_cap`` unless it ended
  ``normal`` or ``stalled`` on that turn.
- ``result.winners`` is compared as a set of seats (no seat twice).
"""

from __future__ import annotations

from cgsim.games.cottage.checker.reading import iter_records
from cgsim.games.cottage.checker.record import check_record
from cgsim.games.cottage.checker.violations import Violation

__all__ = ["Violation", "check_record", "iter_records"]
