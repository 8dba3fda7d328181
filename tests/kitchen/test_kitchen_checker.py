"""The independent Kitchen Garden record checker: engine games pass, every kind of fault
is caught with a message naming the rule, and ``cgsim check`` reads either game."""

from __future__ import annotations

import ast
import copy
import json
import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from kitchen_helpers import position, type_of
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.errors import RecordError
from cgsim.games import recordio
from cgsim.games.checkers import CHECKERS, check_record
from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import card_name, catalogue_from_mapping
from cgsim.games.kitchen.checker import FORMAT, Violation
from cgsim.games.kitchen.checker import check_record as check_kitchen
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.settings import make_rules
from cgsim.games.kitchen.state import Phase, State

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden-kitchen" / "records.jsonl.zst"
COTTAGE_GOLDEN = ROOT / "tests" / "golden" / "records.jsonl.zst"

Record = dict[str, Any]

TINY_COMPONENTS: dict[str, Any] = {
    "crops": ["a", "b"],
    "deck": {"plants": {"1": 2, "2": 1}, "weed": 1, "worker": 1, "sluggard": 1},
    "tasks": {
        f"t{i}": {"a": {"plants": 3, "slots": 2}, "b": {"plants": 2, "slots": 2}} for i in range(4)
    },
}
"""A deck of 9 cards: the deck and the discard pile run dry, so actions get lost."""


def engine_record(
    players: int,
    seed: int,
    overrides: dict[str, Any] | None = None,
    components: dict[str, Any] | None = None,
    stop_after: int | None = None,
) -> Record:
    """A record of random legal play written by the engine (stopped in error after
    ``stop_after`` decisions, when given)."""
    catalogue = catalogue_from_mapping(components) if components else None
    rules = make_rules(players, overrides or {}, catalogue=catalogue)
    state = GAME.new_game(rules, seed)
    recorder = GAME.recorder(rules, seed, [{"bot": "random", "params": {}}] * players, state)
    rng = random.Random(seed)
    steps = 0
    while not GAME.is_terminal(state) and steps != stop_after:
        legal = GAME.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        after = GAME.apply(state, action)
        recorder.step(state, action, after)
        state = after
        steps += 1
    record: Record = json.loads(json.dumps(recorder.finish(state)))
    return record


@cache
def golden() -> tuple[Record, ...]:
    """The golden games: 2, 3 and 4 players, random and greedy seats."""
    return tuple(recordio.iter_records(GOLDEN))


@cache
def long_games() -> tuple[Record, ...]:
    """Random play to the turn cap: reshuffles, Stealing, Bazaars, skipped last turns."""
    return tuple(engine_record(2 + seed % 3, seed, {"turn_cap": 150}) for seed in range(3))


@cache
def tiny_game() -> Record:
    """A 3-player game on the tiny deck, with lost actions."""
    return engine_record(3, 2, {"deal": 2, "market_size": 0, "turn_cap": 40}, TINY_COMPONENTS)


def messages(record: Record) -> list[str]:
    return [violation.message for violation in check_kitchen(record)]


def source(name: str) -> Record:
    """A fresh copy of a base record: ``golden-K``, ``long-K`` or ``tiny``."""
    if name == "tiny":
        return copy.deepcopy(tiny_game())
    kind, index = name.split("-")
    games = golden() if kind == "golden" else long_games()
    return copy.deepcopy(games[int(index)])


# ---------------------------------------------------------------- engine games pass


@pytest.mark.parametrize("index", range(6))
def test_golden_games_of_2_to_4_players_with_greedy_seats_pass(index: int) -> None:
    assert check_kitchen(golden()[index]) == []


@pytest.mark.parametrize(
    ("players", "overrides"),
    [
        (2, {"turn_cap": 150}),
        (3, {"turn_cap": 150}),
        (4, {"turn_cap": 150}),
        (2, {"turn_cap": 90, "hand_limit": 1, "base_actions": 3, "worker_actions": 2}),
        (3, {"turn_cap": 90, "deal": 8, "market_size": 9, "holiday_cards": 5, "prize_cards": 2}),
        (4, {"turn_cap": 90, "bazaar_swaps": 0, "holiday_cards": 0, "special_actions": 0}),
    ],
)
def test_random_games_with_any_settings_pass(players: int, overrides: dict[str, Any]) -> None:
    for seed in (1, 2):
        record = engine_record(players, seed, overrides)
        assert check_kitchen(record) == [], (players, overrides, seed)


def test_games_on_a_tiny_deck_lose_actions_and_pass() -> None:
    events = [event["e"] for turn in tiny_game()["turns"] for event in turn["events"]]
    assert "action_lost" in events
    assert "reshuffle" in events
    for players in (3, 4):
        for seed in range(4):
            overrides = {"deal": 2, "market_size": 0, "turn_cap": 40}
            record = engine_record(players, seed, overrides, TINY_COMPONENTS)
            assert check_kitchen(record) == [], (players, seed)


def test_a_game_stopped_in_error_is_checked_up_to_its_last_decision() -> None:
    record = engine_record(3, 5, stop_after=40)
    assert record["result"]["end"] == "error"
    assert check_kitchen(record) == []
    wrong = copy.deepcopy(record)
    wrong["result"]["hands"][0] += 1
    assert messages(wrong) == [
        f"result.hands is {wrong['result']['hands']}, expected {record['result']['hands']}"
    ]
    finished = source("golden-0")
    finished["result"] = {**record["result"], "end": "error"}
    assert "result.end is 'error', expected 'normal'" in messages(finished)


def scripted(state: State, moves: list[Action]) -> Record:
    """The engine's record of ``moves`` played from a hand-made deal (the checker takes
    any deal that holds every card once)."""
    recorder = GAME.recorder(state.rules, 0, [{"bot": "random", "params": {}}] * 2, state)
    for action in moves:
        after = GAME.apply(state, action)
        recorder.step(state, action, after)
        state = after
    record: Record = json.loads(json.dumps(recorder.finish(state)))
    return record


def weeded_beet_bed(last: str) -> Record:
    """Three turns: seat 0 (spade: beet 3 plants in 2 slots) plants, seat 1 lays a Weed on
    seat 0's beet bed, seat 0 plants ``last`` beside it (1, 2 and 3 beet in hand)."""
    state = position(
        hands=[
            ["1 beet", "2 beet", "3 beet", "2 strawberry"],
            ["weed", "1 cabbage", "1 pumpkin", "2 pumpkin"],
        ],
        market=["1 strawberry", "worker", "sluggard", "3 cabbage", "2 cabbage", "1 cabbage"],
        phase=Phase.CONDITIONS,
    )
    catalogue = state.rules.catalogue
    return scripted(
        state,
        [
            A.encode(A.END_CONDITIONS),
            A.encode(A.PLANT, type_of(catalogue, "2 strawberry")),
            A.encode(A.END_CONDITIONS),
            A.encode(A.WEED, 0, catalogue.crops.index("beet")),
            A.encode(A.END_CONDITIONS),
            A.encode(A.PLANT, type_of(catalogue, last)),
        ],
    )


def test_a_weeds_slot_is_a_slot_still_to_plant() -> None:
    """The specification's example: a 2-slot bed of target 3 holding a Weed takes a 1 or
    a 2, never a 3 (nothing would be left for the Weed's slot)."""
    assert check_kitchen(weeded_beet_bed("1 beet")) == []
    record = weeded_beet_bed("2 beet")
    assert check_kitchen(record) == []
    catalogue = catalogue_from_mapping(record["components"])
    three = next(c for c in record["setup"]["hands"][0] if card_name(catalogue, c) == "3 beet")
    planted = record["turns"][2]["events"][1]
    assert planted["e"] == "plant" and planted["bed"] == "beet"
    planted["card"] = three
    record["result"]["plants"][0] += 1
    weed = record["turns"][1]["events"][1]["card"]
    assert messages(record) == [
        f"plant: card {three} (3 beet) leaves the beet bed [{weed}] (3 plants in 2 slots) "
        "impossible to complete"
    ]


def test_the_reshuffle_waits_for_the_next_draw() -> None:
    """[R] Seat 0 empties the deck on turn 1; on turn 2 seat 1's Crow takes from the
    discard pile as it is; the reshuffle comes at turn 3's draw. A reshuffle where the
    deck emptied is refused."""
    state = position(
        hands=[
            ["worker", "1 beet", "1 cabbage", "1 pumpkin"],
            ["2 beet", "2 cabbage", "2 pumpkin", "3 pumpkin"],
        ],
        overrides={"market_size": 62},
        phase=Phase.CONDITIONS,
    )
    state = replace(state, market=state.deck[:-2], deck=state.deck[-2:])
    catalogue = state.rules.catalogue
    record = scripted(
        state,
        [
            A.encode(A.COND_WORKER),
            A.encode(A.END_CONDITIONS),
            A.encode(A.HARVEST),
            A.encode(A.HARVEST),
            A.encode(A.CLEAN_DISCARD, type_of(catalogue, "1 beet")),
            A.encode(A.END_CONDITIONS),
            A.encode(A.CROW, type_of(catalogue, "1 beet")),
            A.encode(A.CLEAN_DISCARD, type_of(catalogue, "2 pumpkin")),
            A.encode(A.END_CONDITIONS),
            A.encode(A.HARVEST),
        ],
    )
    assert check_kitchen(record) == []
    kinds = [[event["e"] for event in turn["events"]] for turn in record["turns"]]
    assert kinds[:3] == [
        ["cond_worker", "end_conditions", "harvest", "harvest", "discard"],
        ["end_conditions", "crow", "special_passes", "discard"],
        ["end_conditions", "reshuffle", "harvest"],
    ]
    eager = copy.deepcopy(record)
    del eager["turns"][2]["events"][1]
    worker = eager["turns"][0]["events"][0]["card"]
    eager["turns"][0]["events"].insert(4, {"e": "reshuffle", "deck": [worker]})
    assert messages(eager) == [
        "expected seat 0 to clean the shack (5 cards) (discard), found a reshuffle event"
    ]


def test_the_last_bed_draws_no_prize_card() -> None:
    """[R] The planting that completes the fourth bed wins at once: a prize card drawn
    before the win is refused."""
    record = source("golden-0")
    turn, index = locate(record, "win")
    assert turn["events"][index - 1]["e"] == "plant"
    seat = turn["events"][index]["seat"]
    turn["events"].insert(index, {"e": "prize", "card": 0})
    assert messages(record) == [
        f"expected a win event (every bed of seat {seat} is fully planted), found a prize event"
    ]


# ---------------------------------------------------------------- corruptions

Mutation = Callable[[Record], None]


def locate(record: Record, kind: str, nth: int = 0) -> tuple[dict[str, Any], int]:
    """The turn holding the ``nth`` event of type ``kind``, and its index there."""
    seen = 0
    for turn in record["turns"]:
        for index, event in enumerate(turn["events"]):
            if event["e"] == kind:
                if seen == nth:
                    return turn, index
                seen += 1
    raise LookupError(f"no {kind} event number {nth}")


def event_of(record: Record, kind: str, nth: int = 0) -> dict[str, Any]:
    turn, index = locate(record, kind, nth)
    event: dict[str, Any] = turn["events"][index]
    return event


def set_field(kind: str, key: str, value: Any, nth: int = 0) -> Mutation:
    def mutate(record: Record) -> None:
        event_of(record, kind, nth)[key] = value

    return mutate


def shift_field(kind: str, key: str, by: int) -> Mutation:
    def mutate(record: Record) -> None:
        event_of(record, kind)[key] += by

    return mutate


def drop(kind: str, nth: int = 0) -> Mutation:
    def mutate(record: Record) -> None:
        turn, index = locate(record, kind, nth)
        del turn["events"][index]

    return mutate


def duplicate(kind: str) -> Mutation:
    def mutate(record: Record) -> None:
        turn, index = locate(record, kind)
        turn["events"].insert(index, copy.deepcopy(turn["events"][index]))

    return mutate


def insert_before(kind: str, event: dict[str, Any]) -> Mutation:
    def mutate(record: Record) -> None:
        turn, index = locate(record, kind)
        turn["events"].insert(index, event)

    return mutate


def change(path: str, value: Any) -> Mutation:
    """Set a field of the record by its dotted path (``setup.first``, ``result.scores.0``)."""

    def mutate(record: Record) -> None:
        *parents, last = path.split(".")
        target: Any = record
        for part in parents:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return mutate


def other_crop(record: Record) -> None:
    event = event_of(record, "plant")
    crops = record["components"]["crops"]
    event["bed"] = crops[(crops.index(event["bed"]) + 1) % len(crops)]


def plant_from_the_deck(record: Record) -> None:
    """Plant a card still at the bottom of the deck (its own crop's bed)."""
    event = event_of(record, "plant")
    catalogue = catalogue_from_mapping(record["components"])
    card = next(
        c
        for c in reversed(record["setup"]["deck"])
        if catalogue.type_crop[catalogue.card_types[c]] >= 0
    )
    event["card"] = card
    event["bed"] = catalogue.crops[catalogue.type_crop[catalogue.card_types[card]]]


def give_a_higher_identical_card(record: Record) -> None:
    """Deal seat 0 a second card of the type it gives on turn 1, with a higher id, and
    make it give that one: identical cards are taken lowest id first."""
    catalogue = catalogue_from_mapping(record["components"])
    types = catalogue.card_types
    event = next(e for e in record["turns"][0]["events"] if e["e"] == "market")
    given = event["give"]
    setup = record["setup"]
    twin = next(c for c in reversed(setup["deck"]) if types[c] == types[given] and c > given)
    hand = setup["hands"][0]
    named = {e.get(key) for e in record["turns"][0]["events"] for key in ("card", "give")}
    other = next(c for c in hand if c not in named)
    hand[hand.index(other)] = twin
    hand.sort()
    setup["deck"][setup["deck"].index(twin)] = other
    event["give"] = twin


def weed_out_the_worker(record: Record) -> None:
    event = event_of(record, "weeding")
    event["card"] = event["worker"]


def swap_turns(record: Record) -> None:
    turns = record["turns"]
    turns[1], turns[2] = turns[2], turns[1]


def swap_a_hand_card_with_the_deck_bottom(record: Record) -> None:
    setup = record["setup"]
    setup["hands"][0][0], setup["deck"][-1] = setup["deck"][-1], setup["hands"][0][0]
    setup["hands"][0].sort()


def deal_a_card_twice(record: Record) -> None:
    record["setup"]["hands"][1][0] = record["setup"]["hands"][0][0]


def append_to_last_turn(record: Record) -> None:
    record["turns"][-1]["events"].append({"e": "harvest", "card": 0})


def append_a_turn(record: Record) -> None:
    last = record["turns"][-1]
    record["turns"].append({"n": last["n"] + 1, "seat": 0, "events": []})


def drop_the_last_turn(record: Record) -> None:
    del record["turns"][-1]


def reshuffle_a_card_not_discarded(record: Record) -> None:
    event = event_of(record, "reshuffle")
    event["deck"][0] = record["setup"]["hands"][0][0]
    event["deck"].sort()


def rename_a_crop(record: Record) -> None:
    record["components"]["crops"][0] = "carrot"
    for task in record["components"]["tasks"].values():
        task["carrot"] = task.pop("strawberry")


def break_an_event(record: Record) -> None:
    record["turns"][3]["events"][0] = ["harvest"]


CORRUPTIONS: list[tuple[str, str, Mutation, str]] = [
    # cards and beds
    ("plant-no-card", "golden-0", set_field("plant", "card", 999), "card 999 is not a card id"),
    ("plant-wrong-bed", "golden-0", other_crop, "cannot go in the"),
    ("plant-not-in-hand", "golden-0", plant_from_the_deck, "is not in seat"),
    ("not-lowest-id", "golden-0", give_a_higher_identical_card, "the lowest id of that type"),
    ("harvest-card", "golden-0", shift_field("harvest", "card", 1), "harvest: card is"),
    ("weed-own-bed", "golden-0", set_field("weed", "target", 1), "must be another player"),
    ("market-slot", "golden-0", set_field("market", "slot", 99), "is not a market slot"),
    ("market-take", "golden-0", shift_field("market", "take", 1), "is not in the market"),
    ("weeding-card", "golden-2", weed_out_the_worker, "is not in seat 1's strawberry bed"),
    ("crow-card", "golden-2", shift_field("crow", "card", 1), "is not in the discard pile"),
    ("steal-target", "long-0", set_field("steal", "target", 0), "must be another player"),
    ("steal-sluggard", "long-2", set_field("steal", "sluggard", 0), "is not a Sluggard"),
    # conditions and the Sluggard
    ("special-name", "golden-0", set_field("cond_special", "special", "x"), "'x' is not a special"),
    ("passed-special", "golden-0", set_field("cond_special", "special", "crow", 1), "cannot use"),
    ("used-own-copy", "golden-2", set_field("cond_special", "special", "bazaar", 2), "cannot use"),
    ("sluggard-self", "golden-0", set_field("sluggard", "target", 0), "must be another player"),
    ("accept-seat", "golden-0", shift_field("sluggard_accept", "seat", 1), "seat is"),
    ("no-end-conditions", "golden-0", drop("end_conditions"), "expected seat 1's conditions"),
    ("end-conditions-twice", "golden-0", duplicate("end_conditions"), "found an end_conditions"),
    ("skip-dropped", "golden-0", drop("skip"), "expected a skip event"),
    ("skip-card", "golden-0", shift_field("skip", "card", 1), "skip: card is"),
    # special cards
    ("passes-to", "golden-0", shift_field("special_passes", "to", 1), "special_passes: to is"),
    ("passes-dropped", "golden-0", drop("special_passes"), "expected a special_passes event"),
    ("return-dropped", "golden-2", drop("specials_return"), "expected a specials_return"),
    ("bazaar-discarded", "golden-4", set_field("bazaar", "discarded", []), "discarded is"),
    ("market-laid", "golden-4", set_field("market_laid", "market", [1, 2]), "market is"),
    ("bazaar-done-dropped", "long-0", drop("bazaar_done"), "Bazaar swap"),
    ("holiday-draw-seat", "golden-2", shift_field("draw", "seat", 1), "draw: seat is"),
    ("holiday-discard-why", "golden-2", set_field("discard", "why", "clean"), "why is"),
    # deck and discard pile
    ("reshuffle-deck", "long-0", reshuffle_a_card_not_discarded, "is not the discard pile"),
    ("reshuffle-dropped", "long-0", drop("reshuffle"), "expected a reshuffle event"),
    (
        "reshuffle-early",
        "golden-0",
        insert_before("harvest", {"e": "reshuffle", "deck": []}),
        "the deck still holds",
    ),
    ("prize-dropped", "golden-0", drop("prize"), "expected a prize event"),
    ("prize-card", "golden-0", shift_field("prize", "card", 1), "prize: card is"),
    ("action-lost-dropped", "tiny", drop("action_lost"), "expected an action_lost event"),
    (
        "action-lost-added",
        "golden-0",
        insert_before("harvest", {"e": "action_lost"}),
        "has a legal action",
    ),
    ("harvest-duplicated", "golden-0", duplicate("harvest"), "after the end of the turn"),
    # turns and the end
    ("clean-dropped", "golden-0", drop("discard"), "clean the shack"),
    ("win-dropped", "golden-0", drop("win"), "expected a win event"),
    ("win-seat", "golden-0", set_field("win", "seat", 0), "win: seat is"),
    ("aborted-dropped", "long-0", drop("aborted"), "expected an aborted event"),
    ("turn-cap", "golden-0", change("rules.turn_cap", 20), "reaches the turn cap 20"),
    ("after-the-win", "golden-0", append_to_last_turn, "after the end of the game"),
    ("turn-after-end", "golden-0", append_a_turn, "turn after the game ended"),
    ("last-turn-dropped", "golden-0", drop_the_last_turn, "has not ended"),
    ("turn-seat", "golden-0", change("turns.4.seat", 1), "turn seat is 1, seat 0 plays now"),
    ("turn-number", "golden-0", change("turns.4.n", 9), "turn n is 9, expected 5"),
    ("turn-order", "golden-0", swap_turns, "turn n is 3, expected 2"),
    ("broken-event", "golden-0", break_an_event, "is not an object"),
    # result
    ("scores", "golden-0", change("result.scores.0", 500.0), "result.scores"),
    ("winners", "golden-0", change("result.winners", [0]), "result.winners"),
    ("ranks", "golden-2", change("result.ranks.0", 2.0), "result.ranks"),
    ("result-turns", "golden-0", change("result.turns", 69), "result.turns is 69"),
    ("result-end", "golden-0", change("result.end", "aborted"), "result.end"),
    ("plants", "golden-3", change("result.plants.1", 1), "result.plants"),
    ("beds-full", "golden-3", change("result.beds_full.0", 3), "result.beds_full"),
    ("hands", "golden-3", change("result.hands.0", 9), "result.hands"),
    ("result-field", "golden-3", change("result.bonus", 1), "unexpected field 'bonus'"),
    # top level, rules, components and setup
    ("format", "golden-0", change("format", "cgsim.record/1"), "format is"),
    ("players", "golden-0", change("players", 5), "players is 5"),
    ("seats", "golden-0", change("seats", [{"bot": "random"}]), "expected a list of 2 seats"),
    ("unknown-rule", "golden-0", change("rules.speed", 2), "unknown setting 'speed'"),
    ("bad-rule", "golden-0", change("rules.hand_limit", -1), "rules.hand_limit is -1"),
    ("crop-renamed", "golden-0", rename_a_crop, "is not a crop"),
    ("no-tasks", "golden-0", change("components.tasks", {}), "components.tasks"),
    ("deal-twice", "golden-0", deal_a_card_twice, "is dealt 2 times"),
    ("deal-hidden-swap", "golden-0", swap_a_hand_card_with_the_deck_bottom, "not in seat 0's hand"),
    ("hand-size", "golden-0", change("setup.hands.0", [0, 1]), "holds 2 cards"),
    ("market-size", "golden-0", change("setup.market", []), "setup.market holds 0"),
    ("first-seat", "golden-0", change("setup.first", 1), "setup.first is 1"),
    ("specials", "golden-2", change("setup.specials.crow", ["middle"]), "setup.specials.crow"),
    ("same-tasks", "golden-2", change("setup.tasks.1", "pitchfork"), "not all different"),
    ("unknown-task", "golden-0", change("setup.tasks.0", "hoe"), "'hoe' is not a task"),
]


@pytest.mark.parametrize(
    ("base", "mutate", "fragment"),
    [pytest.param(base, mutate, fragment, id=name) for name, base, mutate, fragment in CORRUPTIONS],
)
def test_each_corruption_is_caught(base: str, mutate: Mutation, fragment: str) -> None:
    record = source(base)
    mutate(record)
    found = messages(record)
    assert any(fragment in message for message in found), found


def test_corruptions_never_raise() -> None:
    """Random field values, dropped and repeated events: always violations, never a crash."""
    rng = random.Random(7)
    values: list[Any] = [0, 1, -1, 3, 71, 72, "x", "beet", "crow", None, [], {}, True, 1.5]
    bases = [*golden()[:3], tiny_game()]
    for _ in range(300):
        record = copy.deepcopy(rng.choice(bases))
        turn = rng.choice(record["turns"])
        events = turn["events"]
        if not events:
            continue
        index = rng.randrange(len(events))
        operation = rng.randrange(3)
        if operation == 0:
            event = events[index]
            event[rng.choice(sorted(event))] = rng.choice(values)
        elif operation == 1:
            del events[index]
        else:
            events.insert(index, copy.deepcopy(events[index]))
        assert all(isinstance(v, Violation) for v in check_kitchen(record))


def test_garbage_is_reported_not_raised() -> None:
    assert check_kitchen({}) != []
    assert check_kitchen({"format": FORMAT, "players": 2}) != []
    assert check_kitchen([]) != []  # type: ignore[arg-type]
    record = source("golden-0")
    record["turns"] = []
    assert messages(record) == ["turns: expected a non-empty list"]


# ---------------------------------------------------------------- independence


def _imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


def test_the_checker_imports_nothing_of_the_engine_nor_of_the_cottage_checker() -> None:
    package = ROOT / "cgsim" / "games" / "kitchen" / "checker"
    allowed = ("cgsim.games.kitchen.checker", "cgsim.games.recordio", "cgsim.errors")
    sources = sorted(package.glob("*.py"))
    assert len(sources) > 5
    for path in sources:
        for module in _imports(path):
            assert not module.startswith("."), (path.name, module)
            if module.split(".")[0] == "cgsim":
                assert module.startswith(allowed), (path.name, module)


# ---------------------------------------------------------------- dispatch and the command


def test_each_format_has_its_checker() -> None:
    assert set(CHECKERS) == {"cgsim.record/1", FORMAT}
    cottage = next(iter(recordio.iter_records(COTTAGE_GOLDEN)))
    assert list(check_record(cottage)) == []
    assert list(check_record(golden()[0])) == []
    with pytest.raises(RecordError, match=r"f: format is 'x', not a known record format \(known"):
        check_record({"format": "x"}, "f")


def _write(path: Path, records: list[Record]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def test_check_command_on_a_kitchen_file_and_a_mixed_file(tmp_path: Path) -> None:
    runner = CliRunner()
    kitchen = _write(tmp_path / "kitchen.jsonl", list(golden()))
    result = runner.invoke(app, ["check", str(kitchen)])
    assert result.exit_code == 0, result.output
    assert f"{kitchen}: 6 records checked, 6 valid" in result.output
    cottage = list(recordio.iter_records(COTTAGE_GOLDEN))[:2]
    bad = source("golden-1")
    bad["turns"][4]["seat"] = 1
    mixed = _write(tmp_path / "mixed.jsonl", [cottage[0], golden()[0], bad, cottage[1]])
    result = runner.invoke(app, ["check", str(mixed)])
    assert result.exit_code == 1
    assert f"{mixed}:record 3: turn 5: turn seat is 1, seat 0 plays now" in result.output
    assert f"{mixed}: 4 records checked, 3 valid" in result.output


def test_check_command_names_the_known_formats(tmp_path: Path) -> None:
    unknown = _write(tmp_path / "other.jsonl", [golden()[0], {"format": "chess/1"}])
    result = CliRunner().invoke(app, ["check", str(unknown)])
    assert isinstance(result.exception, RecordError)
    assert str(result.exception) == (
        f"{unknown}: record 2: format is 'chess/1', not a known record format "
        "(known: cgsim.record/1, cgsim.kitchen-record/1)"
    )
