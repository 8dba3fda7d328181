"""Isolation mode: each bot in its own process, seeing only its seat's observation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import toygame
from buggy_bots import site
from test_runner import GREEDY, WANDERER, make_config, run, tables
from typer.testing import CliRunner

from cgsim.cli import app
from cgsim.play.bot_registry import BotSpec, resolve_bot
from cgsim.play.isolation import BotProcesses
from cgsim.play.match import play_game

toygame.register()
PEEK = toygame.target(toygame.Peek)


def test_an_isolated_bot_cannot_see_hidden_cards() -> None:
    play = ["play", "--game", "kitchen-garden", "--bots", f"{PEEK},random", "--seed", "11"]
    shared = CliRunner().invoke(app, play)
    assert shared.exit_code == 1  # the stack leads to the full state
    assert "game ended in error: seat 0 (toygame:Peek): RuntimeError: saw hidden cards" in (
        shared.output
    )
    isolated = CliRunner().invoke(app, [*play, "--isolate"])
    assert isolated.exit_code == 0, isolated.output
    assert "error" not in isolated.output


@pytest.mark.parametrize("command", ["run", "tournament"])
def test_isolate_on_the_command_line(tmp_path: Path, command: str) -> None:
    killer = toygame.target(toygame.KillAlways)
    config = tmp_path / "c.toml"
    config.write_text(
        f'name = "c"\ngame = "toy"\nseats = ["{GREEDY}", "{killer}"]\n'
        f'bots = ["{GREEDY}", "{killer}"]\ngames = 2\nworkers = 1\nout = "{tmp_path}"\n'
    )
    result = CliRunner().invoke(app, [command, str(config), "--isolate", "--no-report"])
    assert result.exit_code == 1, result.output
    reasons = tables(tmp_path / "c")["games"]["error"].to_list()
    assert reasons == [
        "its process ended (exit code 4); turn 1, decision 2",
        "its process ended (exit code 4); turn 0, decision 1",
    ]


def _both_ways(
    tmp_path: Path, command: str = "run", **fields: Any
) -> list[dict[str, pl.DataFrame]]:
    found = []
    for isolate in (False, True):
        config = make_config(tmp_path / f"isolate-{isolate}", isolate=isolate, **fields)
        run(config, command)  # type: ignore[arg-type]
        found.append(tables(config.results_dir))
    return found


def test_isolated_results_equal_shared_ones(tmp_path: Path) -> None:
    pool = [GREEDY, f"{WANDERER}:bias=0.3", toygame.target(toygame.Watcher)]
    pool += [toygame.target(toygame.Crash), toygame.target(toygame.Cheat)]
    shared, isolated = _both_ways(tmp_path, "tournament", seats=[], bots=pool, games=20)
    for name in shared:
        assert shared[name].equals(isolated[name]), name
    assert shared["games"]["end"].to_list().count("error") > 0  # the faults read the same


def test_isolated_kitchen_games_equal_shared_ones(tmp_path: Path) -> None:
    seats = ["kitchen-greedy", "random"]
    shared, isolated = _both_ways(tmp_path, game="kitchen-garden", seats=seats, games=4)
    for name in shared:
        assert shared[name].equals(isolated[name]), name


WHEN = r"; turn \d, decision \d"
"""The first decision of the faulty bot: seat 0's or seat 1's."""


def _at(method: Any, text: str) -> str:
    """The frames a fault names: a line of a toy bot's method, called from ``choose``."""
    return re.escape(f"; at {site(method, text)} (from {site(toygame.Faulty.choose, 'misbehave')})")


@pytest.mark.parametrize(
    ("players", "variant", "seats"),
    [
        pytest.param(1, {}, ["greedy"], id="solo"),
        pytest.param(
            3, {"children": [5, "none", 7]}, ["greedy", "random", "greedy"], id="children"
        ),
        pytest.param(4, {}, ["random", "greedy", "greedy", "random"], id="4"),
    ],
)
def test_isolated_cottage_games_equal_shared_ones(
    tmp_path: Path, players: int, variant: dict[str, Any], seats: list[str]
) -> None:
    fields: dict[str, Any] = {"players": players, "variant": variant, "seats": seats, "games": 3}
    shared, isolated = _both_ways(tmp_path, game="cottage-garden", **fields)
    assert shared["games"]["error"].is_null().all()
    for name in shared:
        assert shared[name].equals(isolated[name]), name


def test_a_run_with_isolate_true_plays_the_cottage_games_of_a_shared_run(tmp_path: Path) -> None:
    found = []
    for isolate in ("false", "true"):
        config = tmp_path / f"{isolate}.toml"
        config.write_text(
            f'name = "c"\ngame = "cottage-garden"\nseats = ["greedy", "random"]\ngames = 4\n'
            f'workers = 1\nisolate = {isolate}\nout = "{tmp_path / isolate}"\n'
        )
        result = CliRunner().invoke(app, ["run", str(config), "--no-report"])
        assert result.exit_code == 0, result.output
        found.append(tables(tmp_path / isolate / "c"))
    shared, isolated = found
    assert shared["games"]["error"].is_null().all()
    for name in shared:
        assert shared[name].equals(isolated[name]), name


def test_play_isolate_plays_the_cottage_game_play_plays() -> None:
    play = ["play", "--bots", "greedy,random", "--seed", "3"]
    shared = CliRunner().invoke(app, play)
    isolated = CliRunner().invoke(app, [*play, "--isolate"])
    assert shared.exit_code == isolated.exit_code == 0, isolated.output
    assert "end: normal" in shared.output
    assert isolated.output == shared.output


@pytest.mark.parametrize(
    ("actions", "why"),
    [
        (toygame.UnreadableActions, "TypeError: __init__() missing required argument 'segments'"),
        (toygame.UnpicklableActions, "TypeError: cannot pickle 'UnpicklableActions' object"),
    ],
)
def test_legal_actions_that_cannot_be_sent_are_the_engines_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, actions: type[list[int]], why: str
) -> None:
    """Not a bot's fault, nor a kill: the game names what could not be sent and why."""
    legal_actions = toygame.ToyGame.legal_actions

    def unsendable(self: toygame.ToyGame, state: Any) -> list[int]:
        return actions(legal_actions(self, state))

    monkeypatch.setattr(toygame.ToyGame, "legal_actions", unsendable)
    config = make_config(tmp_path, games=2, isolate=True)
    result = run(config)
    assert (result.status, result.errors, result.games_done) == ("complete", 2, 2)
    games = tables(config.results_dir)["games"]
    reason = f"engine: cannot send the legal actions to the bot's process: {why}"
    assert games["error"].to_list() == [reason] * 2
    assert games["error_seat"].to_list() == [None] * 2


@pytest.mark.parametrize(
    ("rules_class", "why"),
    [
        (toygame.UnreadableRules, "TypeError: __init__() missing required argument 'segments'"),
        (toygame.UnpicklableRules, "TypeError: cannot pickle 'UnpicklableRules' object"),
    ],
)
def test_rules_that_cannot_be_sent_are_the_engines_error(
    rules_class: type[toygame.ToyRules], why: str
) -> None:
    rules = rules_class(players=2)
    processes = BotProcesses(toygame.GAME, rules, (resolve_bot(GREEDY, "toy"),) * 2, 0.0)
    try:
        outcome = play_game(toygame.GAME, rules, 1, processes.specs((0, 1)))
    finally:
        processes.close()
    reason = f"engine: cannot send the rules to the bot's process: {why}"
    assert outcome.error is not None
    assert (outcome.error.reason, outcome.error.seat) == (reason, None)
    assert outcome.error.trace.startswith(f"game 0 (deal seed 1), the engine:\n{reason}\n")


def test_a_bot_that_cannot_be_sent_is_its_seats_error() -> None:
    class Local(toygame.Greedy):
        """Defined here: its process cannot import it."""

    greedy = resolve_bot(GREEDY, "toy")
    local = BotSpec("local", "local", Local, greedy.params)
    rules = toygame.GAME.make_rules(2, {})
    processes = BotProcesses(toygame.GAME, rules, (greedy, local), 0.0)
    try:
        outcome = play_game(toygame.GAME, rules, 1, processes.specs((0, 1)))
    finally:
        processes.close()
    assert outcome.error is not None and outcome.error.seat == 1
    assert outcome.error.reason.startswith("cannot start: cannot send the bot to its process: ")


def test_a_bot_process_cannot_pass_its_fault_off_as_the_engines(tmp_path: Path) -> None:
    """A bot's process that claims it could not read a request readable here is at fault."""
    forge = toygame.target(toygame.Forge)
    config = make_config(tmp_path, seats=[GREEDY, forge], games=1, isolate=True)
    result = run(config)
    assert (result.status, result.errors) == ("complete", 1)
    games = tables(config.results_dir)["games"]
    (error,) = games["error"].to_list()
    assert re.fullmatch(
        re.escape("its process could not read a request (TypeError: forged)") + WHEN, error
    )
    assert games["error_seat"].to_list() == [1]


@pytest.mark.parametrize(
    ("bot", "params", "time_limit", "reason"),
    [
        (toygame.KillAlways, {}, 0.0, re.escape("its process ended (exit code 4)") + WHEN),
        (toygame.Linger, {}, 0.0, re.escape("its process ended (exit code 5)") + WHEN),
        (
            toygame.Interrupt,
            {},
            0.0,
            "KeyboardInterrupt" + WHEN + _at(toygame.Interrupt.misbehave, "raise"),
        ),
        (
            toygame.Slow,
            {"delay": 30.0},
            0.05,
            r"exceeded the time limit of 0\.05 s \(stopped after \d\.\d{3} s\)"
            + WHEN
            + _at(toygame.Slow.misbehave, "sleep"),
        ),
        (
            toygame.Stubborn,
            {},
            0.05,
            re.escape(
                "did not return within 1.05 s (the time limit of 0.05 s and a grace); "
                "its process was stopped"
            )
            + WHEN,
        ),
    ],
)
def test_an_isolated_bot_fails_alone(
    tmp_path: Path, bot: type[Any], params: dict[str, Any], time_limit: float, reason: str
) -> None:
    faulty = {"bot": toygame.target(bot), "params": params}
    config = make_config(
        tmp_path, seats=[GREEDY, faulty], games=2, time_limit=time_limit, isolate=True
    )
    result = run(config)
    assert (result.status, result.errors, result.games_done) == ("complete", 2, 2)
    for row in tables(config.results_dir)["games"].iter_rows(named=True):
        assert row["seats"][row["error_seat"]] == toygame.target(bot) + (
            "" if not params else ":" + ",".join(f"{k}={v}" for k, v in params.items())
        )
        assert re.fullmatch(reason, row["error"]), row["error"]
