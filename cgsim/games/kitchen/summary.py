"""Per-game and per-seat statistics of a finished Kitchen Garden game.

One fold (``Counts``) takes the game's facts in order; ``summarize`` reads them from a
record's events, so a stored record can be summarized again later, and ``KitchenTally``
from the actions as they are applied, for runs that keep no record (the engine then
writes no events at all; a test checks that both readings give the same tables).
``attack_on_runner_up`` is the "did an attack decide it" flag: a Weed placed on, or a
Sluggard accepted by, the eventual runner-up (the best-ranked seat that did not win)
within the last ``2 * players`` turns of a game that someone won.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from librt.vecs import append, vec
from mypy_extensions import i64

from cgsim.games.contract import GameResult, GameSummary
from cgsim.games.drama import Drama, zeros
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import Catalogue
from cgsim.games.kitchen.piles import has_type
from cgsim.games.kitchen.record import result_dict, rules_from_record
from cgsim.games.kitchen.scoring import plants_planted
from cgsim.games.kitchen.state import NONE, State
from cgsim.games.loop.core import Fold

SEAT_COUNTERS = (
    "weeds_played",
    "weeds_received",
    "sluggards_played",
    "sluggard_turns_lost",
    "workers_used",
    "specials_used",
    "harvests",
    "market_swaps",
)
_SEAT_WIDTH: Final = len(SEAT_COUNTERS)
"""Counters of a seat."""
GAME_COUNTERS = (
    "sluggards_played",
    "sluggards_cancelled",
    "weeds_played",
    "weedings",
    "steals",
    "crows",
    "bazaars",
    "holidays",
    "reshuffles",
)
_COUNTER_BITS: Final = 8
"""Bits of each field of a plan (:func:`_plan`)."""
_FIELD: Final = (1 << _COUNTER_BITS) - 1
_ATTACK: Final = 1 << 3 * _COUNTER_BITS


def _plan(
    game: str | None = None, actor: str | None = None, seat: str | None = None, attack: bool = False
) -> int:
    """What one event of a kind counts, packed in one int (a native int when compiled, so
    the tally reads a plan without unpacking a tuple of boxed ints): a game counter, a
    counter of the turn's actor and one of the event's own seat, each as its index plus
    one (0 for none) in its own :data:`_COUNTER_BITS` bits, lowest first, and above them
    whether the event is an attack on that seat."""
    fields = (
        GAME_COUNTERS.index(game) + 1 if game else 0,
        SEAT_COUNTERS.index(actor) + 1 if actor else 0,
        SEAT_COUNTERS.index(seat) + 1 if seat else 0,
    )
    packed = _ATTACK if attack else 0
    for field, value in enumerate(fields):
        packed |= value << field * _COUNTER_BITS
    return packed


_PLANS: Final[dict[str, int]] = {
    "weed": _plan("weeds_played", "weeds_played", "weeds_received", attack=True),
    "sluggard": _plan("sluggards_played", "sluggards_played"),
    "sluggard_accept": _plan(attack=True),
    "sluggard_cancel": _plan("sluggards_cancelled", seat="workers_used"),
    "skip": _plan(seat="sluggard_turns_lost"),
    "cond_worker": _plan(actor="workers_used"),
    "weeding": _plan("weedings", "workers_used"),
    "harvest": _plan(actor="harvests"),
    "market": _plan(actor="market_swaps"),
    "cond_special": _plan(actor="specials_used"),
    "bazaar": _plan("bazaars", "specials_used"),
    "holiday": _plan("holidays", "specials_used"),
    "crow": _plan("crows", "specials_used"),
    "steal": _plan("steals", "specials_used"),
    "reshuffle": _plan("reshuffles"),
}
"""Every counted kind of event, and what it counts (a special card played counts as a
special used by the actor); any other kind counts nothing."""
_ACTION_EVENTS = {
    A.COND_WORKER: "cond_worker",
    A.COND_SPECIAL: "cond_special",
    A.CANCEL_SLUGGARD: "sluggard_cancel",
    A.HARVEST: "harvest",
    A.WEEDING: "weeding",
    A.MARKET: "market",
    A.BAZAAR: "bazaar",
    A.HOLIDAY: "holiday",
    A.CROW: "crow",
    A.STEAL: "steal",
}
"""The counted event each of these actions always produces (and no other does)."""
_ACTION_PLANS: Final[tuple[int, ...]] = tuple(
    _PLANS[_ACTION_EVENTS[kind]] if kind in _ACTION_EVENTS else 0
    for kind in range(len(A.KIND_NAMES))
)
"""The plan of each kind of action's event, by the action's kind (0: none)."""
_WEED: Final = _PLANS["weed"]
_SLUGGARD: Final = _PLANS["sluggard"]
_SLUGGARD_ACCEPT: Final = _PLANS["sluggard_accept"]
_SKIP: Final = _PLANS["skip"]
_RESHUFFLE: Final = _PLANS["reshuffle"]


def _runner_up(result: Mapping[str, Any]) -> int | None:
    winners = list(result.get("winners", []))
    ranks = result.get("ranks")
    if result.get("end") != "normal" or not winners or not ranks:
        return None
    others = [seat for seat in range(len(ranks)) if seat not in winners]
    if not others:
        return None
    return min(others, key=lambda seat: (ranks[seat], seat))


class Counts:
    """The statistics fold: fed every counted fact of a game, in order."""

    def __init__(self, players: int, plants: list[int]) -> None:
        self.players = players
        self.drama = Drama(plants)
        """The running score of the drama columns: each seat's plants in its beds."""
        self.movers = vec[i64]()
        self.turn_plants = vec[float]()
        """Every turn's mover and every seat's plants after it, handed to the drama fold
        at the end."""
        self.seats = zeros(players * _SEAT_WIDTH)
        """Every seat's counters, in the order of ``SEAT_COUNTERS``: seat ``s``'s counter
        ``c`` at ``s * _SEAT_WIDTH + c``. Native ints in one array: compiled, a
        count is a load and a store."""
        self.game = zeros(len(GAME_COUNTERS))
        """The game's counters in the order of ``GAME_COUNTERS``."""
        self.attacks: list[tuple[int, int]] = []
        """(turn, seat) of every Weed placed on a seat and every Sluggard a seat accepted."""

    def event(self, kind: str, actor: int, turn: int, seat: int = NONE) -> None:
        """A counted event of ``kind`` in ``actor``'s turn ``turn``; ``seat`` is the
        event's own seat (a Weed's target, the seat that accepts, cancels or skips)."""
        plan = _PLANS.get(kind)
        if plan is not None:
            self.count(plan, actor, turn, seat)

    def count(self, plan: i64, actor: i64, turn: int, seat: i64) -> None:
        """An event counted as ``plan`` says (:func:`_plan`), the arguments as in
        :meth:`event`."""
        game = plan & _FIELD
        if game:
            self.game[game - 1] = self.game[game - 1] + 1
        mine = plan >> _COUNTER_BITS & _FIELD
        if mine:
            at = actor * _SEAT_WIDTH + mine - 1
            self.seats[at] = self.seats[at] + 1
        theirs = plan >> 2 * _COUNTER_BITS & _FIELD
        if theirs:
            at = seat * _SEAT_WIDTH + theirs - 1
            self.seats[at] = self.seats[at] + 1
        if plan & _ATTACK:
            self.attacks.append((turn, seat))

    def turn_ended(self, seat: int, plants: list[int]) -> None:
        """The turn of ``seat`` has ended with every seat's plants as given."""
        self.movers = append(self.movers, seat)
        for count in plants:
            self.turn_plants = append(self.turn_plants, float(count))

    def finish(self, result: Mapping[str, Any], tasks: list[str]) -> GameSummary:
        """Game columns, one row of seat columns per seat; no extra tables."""
        game: dict[str, Any] = dict(zip(GAME_COUNTERS, list(self.game), strict=True))
        seats: list[dict[str, Any]] = [
            dict(zip(SEAT_COUNTERS, list(self.seats[at : at + _SEAT_WIDTH]), strict=True))
            for at in range(0, self.players * _SEAT_WIDTH, _SEAT_WIDTH)
        ]
        runner_up = _runner_up(result)
        window_start = int(result.get("turns", 0)) - 2 * self.players
        winners = list(result.get("winners", []))
        game["aborted"] = result.get("end") == "aborted"
        game["attack_on_runner_up"] = any(
            turn > window_start and seat == runner_up for turn, seat in self.attacks
        )
        game["winner_task"] = tasks[winners[0]] if winners else None
        self.drama.observe_turns(self.movers, self.turn_plants)
        game.update(self.drama.columns(winners, result["plants"]))
        for seat, row in enumerate(seats):
            row["task"] = tasks[seat]
            row["plants_planted"] = int(result["plants"][seat])
            row["beds_completed"] = int(result["beds_full"][seat])
            row["cards_in_hand_end"] = int(result["hands"][seat])
        return GameSummary(game=game, seats=tuple(seats))


_EVENT_SEAT = {
    "weed": "target",
    "sluggard_accept": "seat",
    "skip": "seat",
    "sluggard_cancel": "seat",
}


def _plants(catalogue: Catalogue, card: int) -> int:
    return catalogue.type_plants[catalogue.card_types[card]]


def summarize(record: Mapping[str, Any]) -> GameSummary:
    """The statistics of a record (its events, then its result)."""
    players = int(record["players"])
    catalogue = rules_from_record(record).catalogue
    plants = [0] * players
    counts = Counts(players, list(plants))
    for turn in record["turns"]:
        actor, n = int(turn["seat"]), int(turn["n"])
        for event in turn["events"]:
            kind = event["e"]
            key = _EVENT_SEAT.get(kind)
            counts.event(kind, actor, n, event[key] if key else NONE)
            if kind == "plant":
                plants[actor] += _plants(catalogue, event["card"])
            elif kind == "steal":
                plants[event["target"]] -= _plants(catalogue, event["card"])
            elif kind == "weeding":
                plants[actor] -= _plants(catalogue, event["card"])
        counts.turn_ended(actor, plants)
    return counts.finish(record["result"], record["setup"]["tasks"])


class KitchenTally(Fold):
    """The summary of a game as it is played, from its actions (no events, no record).

    Every counted event follows from the action that produced it and the state it was
    chosen in: its kind, its seat (``active``, or ``sub_seat`` for an answer to a
    Sluggard), the turn. A Sluggard is accepted at once when its target holds no Worker;
    every accepted Sluggard is later skipped, except those still lying at the end; each
    reshuffle counts in ``State.reshuffles``.
    """

    def __init__(self, state: State) -> None:
        self.plants = [plants_planted(state, seat) for seat in range(state.players)]
        self.counts = Counts(state.players, list(self.plants))
        self.seat_beds = list(state.beds)
        """Each seat's beds when its plants were last counted: they are counted again only
        when they are another tuple (states are immutable: unchanged beds are the same
        object)."""
        self.reshuffles = state.reshuffles
        self.catalogue = state.rules.catalogue
        self.accepted = [0] * state.players

    def _plants(self, state: State) -> list[int]:
        """Every seat's plants in its beds now."""
        plants = self.plants
        beds = state.beds
        counted = self.seat_beds
        for seat in range(len(plants)):
            mine = beds[seat]
            if mine is not counted[seat]:
                counted[seat] = mine
                plants[seat] = plants_planted(state, seat)
        return plants

    def step(self, before: Any, action: int, after: Any) -> None:
        state: State = before
        later: State = after
        turn = state.turn
        if later.turn != turn:
            self._turns_ended(state, later)
        kind = action >> 18
        plan = _ACTION_PLANS[kind]
        if plan:
            self.counts.count(plan, state.active, turn, state.sub_seat)
        elif kind == A.WEED:
            self.counts.count(_WEED, state.active, turn, action >> 12 & 63)
        elif kind == A.COND_SLUGGARD:
            target = action >> 12 & 63
            self.counts.count(_SLUGGARD, state.active, turn, NONE)
            catalogue = self.catalogue
            if not has_type(catalogue, state.hands[target], catalogue.worker):
                self._accept(target, turn)
        elif kind == A.ACCEPT_SLUGGARD:
            self._accept(state.sub_seat, turn)

    def _turns_ended(self, before: State, after: State) -> None:
        """Every turn that ended with one action (a Sluggard skips whole turns)."""
        plants = self._plants(after)
        for skipped in range(after.turn - before.turn):
            self.counts.turn_ended((before.active + skipped) % before.players, plants)

    def _accept(self, seat: int, turn: int) -> None:
        self.counts.count(_SLUGGARD_ACCEPT, seat, turn, seat)
        self.accepted[seat] += 1

    def finish(self, final: Any, result: GameResult) -> GameSummary:
        state: State = final
        counts = self.counts
        counts.turn_ended(state.active, self._plants(state))
        for seat, accepted in enumerate(self.accepted):
            lying = state.sluggards[seat] != NONE
            for _ in range(accepted - lying):
                counts.count(_SKIP, seat, 0, seat)
        for _ in range(state.reshuffles - self.reshuffles):
            counts.count(_RESHUFFLE, 0, 0, NONE)
        tasks = [state.rules.catalogue.tasks[task].name for task in state.tasks]
        return counts.finish(result_dict(state), tasks)
