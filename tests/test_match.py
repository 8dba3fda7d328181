"""One game: rows, hooks, records, and every kind of fault contained."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest
import toygame
from hypothesis import given, settings
from hypothesis import strategies as st

from cgsim.games.bot import Bot, NoParams
from cgsim.games.contract import GameResult, GameSummary, TableRows
from cgsim.games.loop.rows import _GAME_CORE, extend, finished_rows, table_rows
from cgsim.play.bot_registry import BotSpec, resolve_bot
from cgsim.play.match import GameSpec, play_game, play_spec
from cgsim.play.storage import Columns

toygame.register()
GAME = toygame.GAME
RULES = GAME.make_rules(2, {})


def spec_of(cls: type[Bot], **params: Any) -> BotSpec:
    return resolve_bot({"bot": toygame.target(cls), "params": params}, "toy")


class NeverTrivial(Bot):
    """Fails loudly if asked to choose when there is no choice."""

    games: ClassVar[tuple[str, ...]] = ("toy",)

    def choose(self, state: Any, legal_actions: Sequence[int], rng: random.Random) -> int:
        if len(legal_actions) < 2:
            raise AssertionError("asked to choose among one action")
        return legal_actions[-1]


def test_a_normal_game_gives_complete_rows() -> None:
    bots = [spec_of(toygame.Greedy), spec_of(toygame.Wanderer, bias=0.5)]
    outcome = play_game(GAME, RULES, 11, bots, game_id=7, block=3)
    assert outcome.error is None
    game = outcome.game
    assert (game["game_id"], game["block"], game["seed"], game["players"]) == (7, 3, 11, 2)
    assert game["seats"] == [bots[0].label, bots[1].label]
    assert game["matchup"] == "+".join(sorted(b.label for b in bots))
    assert game["end"] == "normal" and game["turns"] == 8 and game["error"] is None
    assert game["rounds"] == 4 and "exact_hits" in game
    assert [row["seat"] for row in outcome.seats] == [0, 1]
    assert sum(row["win_share"] for row in outcome.seats) == pytest.approx(1.0)
    for row in outcome.seats:
        assert {"score", "rank", "target", "takes", "passes"} <= set(row)
        assert row["win_share"] > 0 if row["seat"] in game["winners"] else row["win_share"] == 0
    for row in outcome.tables["moves"]:
        assert list(row)[:4] == ["game_id", "block", "seat", "bot"] and row["game_id"] == 7
        assert row["bot"] == bots[row["seat"]].label
    assert outcome.record is None


def test_same_seed_same_game() -> None:
    bots = [spec_of(toygame.Wanderer), spec_of(toygame.Wanderer, bias=0.3)]
    first = play_game(GAME, RULES, 5, bots, bot_seed=9)
    second = play_game(GAME, RULES, 5, bots, bot_seed=9)
    for outcome in (first, second):
        outcome.game.pop("wall_time")
    assert first.game == second.game and first.seats == second.seats
    other = play_game(GAME, RULES, 5, bots, bot_seed=10)
    assert other.game["seed"] == first.game["seed"]


def test_single_legal_actions_are_applied_without_asking() -> None:
    probe = BotSpec("strict", "strict", NeverTrivial, NoParams())
    outcome = play_game(GAME, RULES, 3, [probe, probe])
    assert outcome.error is None
    assert any(row["passes"] for row in outcome.seats)


def test_observe_is_called_after_every_action() -> None:
    watcher = spec_of(toygame.Watcher)
    outcome = play_game(GAME, RULES, 3, [watcher, watcher])
    assert outcome.error is None


def test_record_is_kept_on_request_and_replays() -> None:
    bots = [spec_of(toygame.Greedy), spec_of(toygame.Wanderer)]
    outcome = play_game(GAME, RULES, 4, bots, record=True, game_id=2, block=1)
    assert outcome.record is not None
    assert (outcome.record["game_id"], outcome.record["block"]) == (2, 1)
    assert outcome.record["seats"][0] == {"bot": bots[0].name, "params": {}}
    states = list(GAME.replay(outcome.record))
    assert len(states) == outcome.game["turns"] + 1


@pytest.mark.parametrize(
    ("cls", "params", "time_limit", "reason"),
    [
        (toygame.Crash, {}, 0.0, "ValueError: boom"),
        (toygame.Cheat, {}, 0.0, "illegal action 99"),
        (toygame.Slow, {"delay": 0.05}, 0.01, "time limit"),
        (toygame.Slow, {"delay": 30.0}, 0.05, "exceeded the time limit of 0.05 s"),
    ],
)
def test_bot_faults_end_the_game_in_error(
    cls: type[Bot], params: dict[str, Any], time_limit: float, reason: str
) -> None:
    bots = [spec_of(toygame.Greedy), spec_of(cls, **params), spec_of(toygame.Greedy)]
    outcome = play_game(GAME, GAME.make_rules(3, {}), 8, bots, time_limit=time_limit)
    assert outcome.error is not None and outcome.error.seat == 1
    assert reason in outcome.error.reason
    game = outcome.game
    assert (game["end"], game["error_seat"], game["winners"]) == ("error", 1, [])
    assert reason in game["error"]
    assert [row["score"] for row in outcome.seats] == [0.0, 0.0, 0.0]
    assert [row["win_share"] for row in outcome.seats] == [0.0, 0.0, 0.0]
    assert [row["rank"] for row in outcome.seats] == [1.5, 3.0, 1.5]
    assert {row["end"] for row in outcome.seats} == {"error"}
    assert outcome.tables == {}


def test_a_fast_enough_bot_passes_the_time_limit() -> None:
    bots = [spec_of(toygame.Greedy), spec_of(toygame.Wanderer)]
    assert play_game(GAME, RULES, 8, bots, time_limit=5.0).error is None


def test_engine_faults_are_not_blamed_on_a_bot() -> None:
    bots = [spec_of(toygame.Greedy), spec_of(toygame.Greedy)]
    outcome = play_game(GAME, GAME.make_rules(2, {"explode": 3}), 8, bots)
    assert outcome.error is not None and outcome.error.seat is None
    assert outcome.game["error"] == "engine: RuntimeError: the toy engine exploded"
    assert [row["rank"] for row in outcome.seats] == [1.5, 1.5]


def test_play_spec_uses_the_pool_and_the_bot_seed() -> None:
    pool = (spec_of(toygame.Greedy), spec_of(toygame.Wanderer))
    spec = GameSpec(game_id=4, block=2, seed=99, bot_seed=5, seats=(1, 0))
    outcome = play_spec(GAME, RULES, spec, pool)
    assert outcome.game["seats"] == [pool[1].label, pool[0].label]
    direct = play_game(GAME, RULES, 99, [pool[1], pool[0]], game_id=4, block=2, bot_seed=5)
    assert outcome.seats == direct.seats


def test_table_rows_lead_with_the_game_and_keep_the_core_on_shared_keys() -> None:
    rows = table_rows(
        [
            {"seat": 1, "size": 3},
            {"seat": None, "kind": "deal"},
            {"seat": 5, "block": 99, "game_id": -1, "x": 1},
        ],
        7,
        2,
        ["a", "b"],
    )
    assert rows[0] == {"game_id": 7, "block": 2, "seat": 1, "bot": "b", "size": 3}
    assert list(rows[0]) == ["game_id", "block", "seat", "bot", "size"]
    assert rows[1] == {"game_id": 7, "block": 2, "seat": None, "kind": "deal"}
    assert rows[2] == {"game_id": 7, "block": 2, "seat": 5, "x": 1}
    assert list(rows[2]) == ["game_id", "block", "seat", "x"]
    assert table_rows([{"kind": "deal"}], 1, 1, ["a"]) == [
        {"game_id": 1, "block": 1, "seat": None, "kind": "deal"}
    ]


def test_a_bool_seat_is_led_like_its_int_and_game_columns_never_replace_core_ones() -> None:
    # True is seat 1 to Python: the row keeps True and gets seat 1's bot.
    (row,) = table_rows([{"seat": True, "size": 2}], 3, 4, ["a", "b"])
    assert row == {"game_id": 3, "block": 4, "seat": True, "bot": "b", "size": 2}
    assert type(row["seat"]) is bool
    core = {"game_id": 3, "score": 10.0}
    assert extend(core, {"score": -1.0, "beds": 2}) == {"game_id": 3, "score": 10.0, "beds": 2}
    assert list(extend(core, {"beds": 2})) == ["game_id", "score", "beds"]


@pytest.mark.parametrize(
    "extra", [{"beds": 2}, {"turns": -1, "beds": 2}, {"game_id": "x", "end": "odd", "seed": 0}]
)
def test_a_games_row_is_its_core_then_its_summarys_columns_the_core_winning(
    extra: dict[str, Any],
) -> None:
    result = GameResult((3.0, 1.0), (0,), "normal", 12, (1.0, 2.0))
    core_only = GameSummary({})
    (core, _, _) = finished_rows(GAME.info, 7, 2, 5, ["a", "b"], result, core_only, 0.5)
    # The row is written into a copy of a row of the core names: each name written is one
    # of those, so none lands out of order after the summary's.
    assert list(core) == list(_GAME_CORE)
    row, _, _ = finished_rows(GAME.info, 7, 2, 5, ["a", "b"], result, GameSummary(extra), 0.5)
    assert list(row) == list(extend(core, extra))
    assert row == extend(core, extra)
    assert {key: row[key] for key in core} == core


_COLUMN_NAMES = st.sampled_from(["seat", "size", "kind", "game_id", "bot", "block", "turn"])
_SEATS = st.one_of(st.none(), st.booleans(), st.integers(-1, 3), st.just("x"))


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(_COLUMN_NAMES, min_size=1, max_size=5, unique=True),
    data=st.data(),
    players=st.integers(1, 3),
)
def test_rows_held_as_tuples_are_led_exactly_as_rows_held_as_dicts(
    names: list[str], data: st.DataObject, players: int
) -> None:
    values = [
        tuple(
            data.draw(_SEATS if name == "seat" else st.integers(0, 9), label=name) for name in names
        )
        for _ in range(data.draw(st.integers(0, 4), label="rows"))
    ]
    held = TableRows(tuple(names), values)
    dicts = [dict(zip(names, row, strict=True)) for row in values]
    labels = ["a", "b", "c"][:players]
    led = table_rows(held, 7, 2, labels)
    expected = table_rows(dicts, 7, 2, labels)
    assert led == expected
    assert [list(row) for row in led] == [list(row) for row in expected]
    assert [type(row.get("seat")) for row in led] == [type(row.get("seat")) for row in expected]
    # A run's worker takes the led rows' columns whole: the columns of the rows as dicts
    # (no rows: no values, though the header's columns are named).
    by_rows = Columns.from_rows(expected)
    whole = Columns.from_parts([led])
    assert whole.count == by_rows.count
    if values:
        assert whole.data == by_rows.data and list(whole.data) == list(by_rows.data)


_SEAT_COLUMN_NAMES = st.sampled_from(["beds", "cubes", "score", "seat", "bot", "end", "x"])


@settings(max_examples=200, deadline=None)
@given(
    names=st.lists(_SEAT_COLUMN_NAMES, min_size=1, max_size=4, unique=True),
    data=st.data(),
    players=st.integers(1, 3),
)
def test_seat_rows_held_as_tuples_are_led_exactly_as_seat_rows_held_as_dicts(
    names: list[str], data: st.DataObject, players: int
) -> None:
    # A summary's seat rows as tuples (one a seat, or a wrong count; a header naming a
    # core column or not) give the seats' rows that the same rows as dicts give.
    count = data.draw(st.sampled_from([players, players, 0, players + 1]), label="rows")
    values = [tuple(data.draw(st.integers(0, 9)) for _ in names) for _ in range(count)]
    labels = ["a", "b", "c"][:players]
    result = GameResult(
        scores=tuple(float(seat) for seat in range(players)),
        winners=(players - 1,),
        end="normal",
        turns=5,
        ranks=tuple(float(players - seat) for seat in range(players)),
    )

    def seats(held: Any) -> list[list[tuple[str, Any]]]:
        summary = GameSummary(game={}, seats=held)
        _, rows, _ = finished_rows(GAME.info, 7, 2, 11, labels, result, summary, 0.5)
        return [list(row.items()) for row in rows]

    as_dicts = tuple(dict(zip(names, row, strict=True)) for row in values)
    assert seats(TableRows(tuple(names), values)) == seats(as_dicts)


def test_table_rows_read_as_a_sequence_of_dicts() -> None:
    held = TableRows(("seat", "size"), [(0, 3), (1, 4)])
    assert len(held) == 2
    assert held[1] == {"seat": 1, "size": 4}
    assert held[-2:] == [{"seat": 0, "size": 3}, {"seat": 1, "size": 4}]
    assert list(held) == [{"seat": 0, "size": 3}, {"seat": 1, "size": 4}]
    assert held == [{"seat": 0, "size": 3}, {"seat": 1, "size": 4}]
    assert held == TableRows(("seat", "size"), [(0, 3), (1, 4)])
    assert held != TableRows(("seat", "size"), [(0, 3)])
    assert held != [{"seat": 0, "size": 3}]
