"""Everything sent between processes survives the trip, in the build that runs.

Isolation mode sends a bot's process the game, rules and bot at its start, then every
view, legal-action sequence, action and generator state; the local pool and Dask send
the workers' context and specs and get batches back. A compiled class without its own
``__reduce__`` pickles but does not unpickle (Cottage Garden's legal actions did not, so
isolation mode failed every game). Here each game's bots play through a bot process
simulated in this one, every message through each pickler and back, and must play the
very games they play unisolated. The in-process tests run the installed build (compiled
under ``make test``); one test runs them again in pure Python.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import pickle
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import toygame
from distributed.protocol import pickle as dask_pickle
from multiprocess.reduction import ForkingPickler
from test_runner import GREEDY

from bots.evaluation import Weights
from cgsim.games import compiled, loop
from cgsim.games.contract import AnyGame
from cgsim.games.cottage.actions import LegalActions
from cgsim.games.loop.watch import Running
from cgsim.games.registry import get_game
from cgsim.play import isolation
from cgsim.play.bot_registry import BotSpec, resolve_bot
from cgsim.play.match import GameOutcome, GameSpec, play_game
from cgsim.play.pool import Batch, WorkerContext

toygame.register()
ROOT = Path(__file__).resolve().parents[1]

Pickler = tuple[Callable[[Any], Any], Callable[[Any], Any]]
PICKLERS: dict[str, Pickler] = {
    "pickle": (lambda value: pickle.dumps(value, protocol=isolation.PROTOCOL), pickle.loads),
    "multiprocess": (ForkingPickler.dumps, ForkingPickler.loads),
    "dask": (dask_pickle.dumps, dask_pickle.loads),
}
"""The bot processes' pickler, the local pool's (dill) and Dask's."""

SETUPS = [
    pytest.param("toy", 2, {}, [GREEDY, toygame.target(toygame.Watcher)], id="toy"),
    pytest.param("kitchen-garden", 2, {}, ["kitchen-greedy", "random"], id="kitchen"),
    pytest.param(
        "kitchen-garden",
        3,
        {},
        ["kitchen-search:worlds=2,batch=1", "random", "random"],
        id="kitchen-watcher",
    ),
    pytest.param("cottage-garden", 1, {}, ["greedy"], id="cottage-solo"),
    pytest.param("cottage-garden", 2, {}, ["greedy", "random"], id="cottage-2"),
    pytest.param(
        "cottage-garden",
        3,
        {"children": [5, "none", 7]},
        ["greedy", "random", "greedy"],
        id="cottage-children",
    ),
    pytest.param("cottage-garden", 4, {}, ["random", "greedy"] * 2, id="cottage-4"),
]


def _by_reference(value: Any, rules: Any) -> bytes:
    """``value`` as a bot process receives it, rules by reference: what two copies of a
    message are compared by (rules compare by identity)."""
    return isolation._dumps((value,), rules)


def _trip(pickler: str, value: Any) -> Any:
    dumps, loads = PICKLERS[pickler]
    return loads(dumps(value))


def _assert_same(back: Any, back_rules: Any, value: Any, rules: Any) -> None:
    assert _by_reference(back, back_rules) == _by_reference(value, rules)
    if isinstance(value, LegalActions):
        assert type(back) is LegalActions and list(back) == list(value)
        assert len(back) == len(value) and all(action in back for action in value)


SAMPLE = 3
"""Messages of each kind also sent through the pools' picklers (dill is slow)."""


class Loopback:
    """A bot process played in this one: each message is pickled as isolation mode
    sends it, read back, checked against what was sent and served by the isolation
    host; the first :data:`SAMPLE` of each kind go through the pools' picklers too."""

    def __init__(self, game: AnyGame, rules: Any, spec: BotSpec) -> None:
        self.rules = rules
        self.name = spec.cls.name or spec.cls.__name__
        self.sent: dict[str, int] = {}
        start = (game, rules, spec, 0.0)
        for pickler in PICKLERS:
            back_game, self.host_rules, back_spec, limit = _trip(pickler, start)
            assert type(back_game) is type(game) and back_game.info == game.info
            assert back_spec == spec and limit == 0.0
            assert pickle.dumps(self.host_rules) == pickle.dumps(rules)
        self.host = isolation._Host(back_game, back_spec, limit)

    def call(self, seat: int, message: tuple[Any, ...]) -> dict[str, Any]:
        kind = message[0]
        self.sent[kind] = self.sent.get(kind, 0) + 1
        if self.sent[kind] <= SAMPLE:
            for pickler in PICKLERS:  # the rules sent along: a copy of their own
                host_rules, other = _trip(pickler, (self.rules, message))
                for sent, received in zip(message, other, strict=True):
                    _assert_same(received, host_rules, sent, self.rules)
        isolation._HOST_RULES = self.host_rules
        back = pickle.loads(isolation._dumps(message, self.rules))
        for sent, received in zip(message, back, strict=True):
            _assert_same(received, self.host_rules, sent, self.rules)
        reply: dict[str, Any] = self.host.serve(back)
        assert set(reply) <= {"ok", "action"}, reply
        return reply


def _setup(game_id: str, players: int, variant: dict[str, Any], seats: Sequence[str]) -> Any:
    game = get_game(game_id)
    rules = game.make_rules(players, {}, None, variant)
    return game, rules, [resolve_bot(seat, game_id) for seat in seats]


def _rows(outcome: GameOutcome) -> tuple[Any, ...]:
    game = {key: value for key, value in outcome.game.items() if key != "wall_time"}
    tables = {name: list(rows) for name, rows in outcome.tables.items()}
    return game, list(outcome.seats), tables, outcome.error


@pytest.mark.parametrize(("game_id", "players", "variant", "seats"), SETUPS)
def test_isolated_messages_survive_the_picklers_and_play_the_same_game(
    monkeypatch: pytest.MonkeyPatch,
    game_id: str,
    players: int,
    variant: dict[str, Any],
    seats: list[str],
) -> None:
    monkeypatch.setattr(isolation, "_HOST_RULES", None)
    game, rules, specs = _setup(game_id, players, variant, seats)
    shared = play_game(game, rules, 7, specs)
    processes = [Loopback(game, rules, spec) for spec in specs]
    isolated_specs = [
        isolation.IsolatedSpec(spec.label, spec.name, spec.cls, spec.params, process, seat)  # type: ignore[arg-type]
        for seat, (spec, process) in enumerate(zip(specs, processes, strict=True))
    ]
    isolated = play_game(game, rules, 7, isolated_specs)
    assert shared.error is None and isolated.error is None
    assert _rows(isolated) == _rows(shared)
    sent = {kind for process in processes for kind in process.sent}
    watches = any(loop.overrides_observe(spec.create()) for spec in specs)
    assert sent == {"create", "new_game", "choose"} | ({"observe"} if watches else set())


@pytest.mark.parametrize("pickler", list(PICKLERS))
@pytest.mark.parametrize(("game_id", "players", "variant", "seats"), SETUPS)
def test_what_the_pools_send_survives_each_pickler(
    pickler: str, game_id: str, players: int, variant: dict[str, Any], seats: list[str]
) -> None:
    game, rules, specs = _setup(game_id, players, variant, seats)
    for isolate in (False, True):
        context = WorkerContext(game_id, rules, tuple(specs), True, 0.5, isolate)
        back = _trip(pickler, context)
        for field in dataclasses.fields(WorkerContext):
            if field.name != "rules":
                assert getattr(back, field.name) == getattr(context, field.name), field.name
        assert pickle.dumps(back.rules) == pickle.dumps(rules)
    spec = GameSpec(3, 1, 7, 9, tuple(range(len(specs))))
    assert _trip(pickler, spec) == spec
    batch = Batch.of([play_game(game, rules, 7, specs, record=True)], seconds=0.5)
    back_batch = _trip(pickler, batch)
    assert back_batch.games.data == batch.games.data
    assert back_batch.seats.data == batch.seats.data
    assert {name: rows.data for name, rows in back_batch.tables.items()} == {
        name: rows.data for name, rows in batch.tables.items()
    }
    assert back_batch.records == batch.records


def test_the_compiled_classes_that_may_travel_rebuild_themselves() -> None:
    """Compiled classes, sent or kept in what is sent (a bot's weights, a watch's
    reading), each round trip through every pickler."""
    values: list[Any] = [LegalActions([(0, (1, 2)), (64, ())]), Weights(turn_value=2.5)]
    values.append(Running(1, 2, 0.5))
    for pickler in PICKLERS:
        for value in values:
            back = _trip(pickler, value)
            assert type(back) is type(value)
            if isinstance(value, LegalActions):
                assert list(back) == list(value) == [1, 2]
            else:
                assert back == value


def test_every_compiled_frozen_dataclass_rebuilds_itself() -> None:
    """Compiled, a frozen dataclass unpickles by setting its fields, which it refuses:
    each one says how it is rebuilt (``__reduce__``, or ``__setstate__``)."""
    found = []
    for modules in compiled.compiled_groups(ROOT).values():
        for name in modules:
            for value in vars(importlib.import_module(name)).values():
                if (
                    isinstance(value, type)
                    and value.__module__ == name
                    and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
                ):
                    found.append(value.__name__)
                    assert {"__reduce__", "__setstate__"} & set(vars(value)), value
    assert {"Weights", "Running", "Rules"} <= set(found)


def _installed_mode() -> str:
    """How the engines run in this process: compiled when built and fresh (unless pure
    Python is asked for), which is how ``make test`` runs them."""
    built = compiled._built("cgsim.games.cottage.actions")
    fresh = not compiled._stale()
    return "compiled" if built and fresh and not compiled.pure_requested() else "pure"


def test_these_tests_run_the_installed_build() -> None:
    """Under ``make test`` (engines built) the tests above run compiled code."""
    for module in ("bots.turn_model", "cgsim.games.cottage.rules", "cgsim.games.kitchen.rules"):
        importlib.import_module(module)

    expected = _installed_mode()
    for package in ("cgsim.games.cottage", "cgsim.games.kitchen", "cgsim.games.loop", "bots"):
        mode = compiled.engine_mode(package)
        assert mode.startswith("compiled" if expected == "compiled" else "pure Python"), mode


@pytest.mark.skipif(compiled.pure_requested(), reason="this run is pure Python already")
def test_the_pure_python_engines_send_the_same() -> None:
    """The tests above again, in pure Python (the compiled build ran them in-process), one
    setup of each game: pure-Python classes pickle by the language's own rules, so the
    setups the compiled run covers add little here but time."""
    env = {**os.environ, compiled.PURE_ENV: "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            str(Path(__file__)),
            "-k",
            "not pure_python and not cottage-solo and not cottage-children and not cottage-4",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
