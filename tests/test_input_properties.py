"""Properties of input handling: any file a user hands over gets exit 0 or 2 without a
traceback, and any accepted rule setting gives a game that ends, quickly.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
import toygame
from cli_helpers import assert_user_outcome, run_cli
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cgsim.errors import ConfigError
from cgsim.games.cottage.settings import LIST_RANGES
from cgsim.games.cottage.settings import SETTING_RANGES as COTTAGE_RANGES
from cgsim.games.kitchen.settings import SETTING_RANGES as KITCHEN_RANGES
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.config import RunConfig
from cgsim.play.match import play_game

toygame.register()

QUICK = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
FILES = settings(
    QUICK,
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "3000"))
    if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
    else 25,
)
"""Random config and component files: a few each in ``make test``, thousands in ``make fuzz``."""
SECONDS_PER_FILE = 2.0
SECONDS_PER_GAME = 10.0
"""Budgets in CPU seconds of this process (a loaded machine slows the wall clock);
the worst accepted game takes about 2 s."""

# ---------------------------------------------------------------- random files


def _key(text: str) -> str:
    return text if text.replace("_", "").replace("-", "").isalnum() else _string(text)


def _string(text: str) -> str:
    escaped = "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in text)
    return f'"{escaped}"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"


def toml_text(document: dict[str, Any]) -> str:
    """A TOML document from generated data (every table written inline)."""
    return "".join(f"{_key(key)} = {_value(value)}\n" for key, value in document.items())


SCALARS = (
    st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, 1, 2, 3, 4, 5, 100, 767, 10**12, -1])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["random", "toy", "cottage-garden", "kitchen-garden", "/proc/x", "../up"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
CONFIG_KEYS = st.sampled_from([*RunConfig.model_fields, "gmaes", "cubes"])
RULE_NAMES = st.sampled_from([*COTTAGE_RANGES, *LIST_RANGES, *KITCHEN_RANGES, "nosuch"])


@st.composite
def config_documents(draw: st.DrawFn) -> dict[str, Any]:
    """Config-shaped documents: mostly real keys, some valid values, some of anything."""
    document: dict[str, Any] = {}
    if draw(st.booleans()):
        document |= {"game": draw(st.sampled_from(["toy", "cottage-garden", "kitchen-garden"]))}
        document |= {"players": draw(st.integers(0, 5)), "seats": ["random"] * 2}
    for key in draw(st.lists(CONFIG_KEYS, max_size=6)):
        document[key] = draw(VALUES)
    if draw(st.booleans()):
        document["rules"] = draw(st.dictionaries(RULE_NAMES, SCALARS | VALUES, max_size=3))
    return document


@st.composite
def component_documents(draw: st.DrawFn) -> dict[str, Any]:
    """Catalogue-shaped documents of either game, with counts of any size."""
    counts = st.integers(-5, 10) | st.sampled_from([10**6, 10**12, 2**70])
    tiles = draw(
        st.dictionaries(
            st.text("1A2BC", min_size=1, max_size=3),
            st.fixed_dictionaries(
                {"copies": counts, "shape": st.lists(st.text("#.PCx", max_size=6), max_size=6)}
            ),
            max_size=4,
        )
    )
    document: dict[str, Any] = {"tiles": tiles, "boards": draw(VALUES)}
    if draw(st.booleans()):
        document = {
            "crops": draw(st.lists(st.text(max_size=5), max_size=10)),
            "deck": {"plants": {"1": draw(counts), "2": draw(counts)}, "weed": draw(counts)},
            "tasks": draw(VALUES),
        }
    return document


def _validate(text: bytes | str, *, component: bool, game: str = "cottage-garden") -> None:
    """``cgsim validate`` on the file (a config, or a config naming it as components)."""
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / ("parts.toml" if component else "config.toml")
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        config = target
        if component:
            config = Path(folder) / "config.toml"
            config.write_text(
                f'game = "{game}"\nplayers = 2\nseats = ["random", "random"]\n'
                f'components = "parts.toml"\n'
            )
        start = time.process_time()
        outcome = run_cli(["validate", str(config)])
        assert time.process_time() - start < SECONDS_PER_FILE
    assert_user_outcome(outcome)


@FILES
@given(st.binary(max_size=400))
def test_random_bytes_as_a_config(data: bytes) -> None:
    _validate(data, component=False)


@FILES
@given(config_documents())
def test_random_toml_as_a_config(document: dict[str, Any]) -> None:
    _validate(toml_text(document), component=False)


def test_control_characters_in_a_bad_key_are_escaped_in_the_one_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('game = "cottage-garden"\n"bad\\u001ekey\\u001b[2J" = 1\n')
    outcome = run_cli(["validate", str(config)])
    assert_user_outcome(outcome)
    assert outcome.code == 2 and outcome.err.count("\n") == 1, outcome.err
    assert "\x1e" not in outcome.err and "\x1b" not in outcome.err
    assert "bad\\x1ekey\\x1b[2J" in outcome.err


@FILES
@given(st.binary(max_size=400), st.sampled_from(["cottage-garden", "kitchen-garden"]))
def test_random_bytes_as_a_component_file(data: bytes, game: str) -> None:
    _validate(data, component=True, game=game)


@FILES
@given(component_documents(), st.sampled_from(["cottage-garden", "kitchen-garden"]))
def test_random_toml_as_a_component_file(document: dict[str, Any], game: str) -> None:
    _validate(toml_text(document), component=True, game=game)


# ---------------------------------------------------------------- extreme settings


def _edge(low: int, high: int) -> st.SearchStrategy[int]:
    return st.sampled_from([low, high]) | st.integers(low, high)


@st.composite
def cottage_settings(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """Settings drawn at and between the ends of every allowed range."""
    players = draw(st.integers(1, 4))
    values: dict[str, Any] = {
        name: draw(_edge(low, high)) for name, (low, high, _) in COTTAGE_RANGES.items()
    }
    values["track_spaces"] = draw(st.sampled_from([16, 20]))
    for name in ("orange_track", "blue_track"):
        _, longest, _, highest = LIST_RANGES[name]
        steps = draw(st.lists(st.integers(1, highest), min_size=1, max_size=longest - 1))
        track = [0]
        for step in steps:
            if track[-1] + step <= highest:
                track.append(track[-1] + step)
        values[name] = track
    values["beehives"] = draw(st.lists(st.integers(0, 100), max_size=4))
    return players, values


def _finishes(game_id: str, players: int, overrides: dict[str, Any]) -> None:
    game = get_game(game_id)
    try:
        rules = game.make_rules(players, overrides)
    except ConfigError:
        assume(False)
        raise
    start = time.process_time()
    outcome = play_game(game, rules, 7, [resolve_bot("random", game_id)] * players)
    assert outcome.error is None, outcome.error
    assert outcome.game["end"] in ("normal", "stalled", "aborted")
    assert time.process_time() - start < SECONDS_PER_GAME


@settings(max_examples=12, deadline=None, database=None)
@given(cottage_settings())
def test_every_accepted_cottage_setting_gives_a_game_that_ends(
    drawn: tuple[int, dict[str, Any]],
) -> None:
    players, overrides = drawn
    _finishes("cottage-garden", players, overrides)


@settings(max_examples=6, deadline=None, database=None)
@given(
    st.integers(2, 4),
    st.fixed_dictionaries({name: _edge(low, high) for name, (low, high) in KITCHEN_RANGES.items()}),
)
def test_every_accepted_kitchen_setting_gives_a_game_that_ends(
    players: int, overrides: dict[str, Any]
) -> None:
    _finishes("kitchen-garden", players, overrides)


def test_the_longest_settings_still_end_within_the_cap() -> None:
    """The worst cases by hand: every count at its maximum and the cap at its highest."""
    cottage = {name: high for name, (_, high, _) in COTTAGE_RANGES.items()}
    cottage |= {"track_spaces": 20, "turning_space": 0, "gardener_value": 1, "final_value": 20}
    cottage |= {"gardener_step": 1, "refill_mandatory": 4}
    _finishes("cottage-garden", 4, cottage)
    kitchen = {name: high for name, (_, high) in KITCHEN_RANGES.items()}
    kitchen |= {"deal": 10, "market_size": 20}
    _finishes("kitchen-garden", 4, kitchen)


def test_the_match_loop_stops_a_runaway_game_whatever_the_caller_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hard action cap backs up every game's own turn cap: no caller can lift it."""
    from cgsim.play import match

    monkeypatch.setattr(match, "MAX_ACTIONS", 50)
    game = get_game("toy")
    rules = game.make_rules(2, {"rounds": 1000})
    for asked in (None, 10**9):
        outcome = play_game(game, rules, 1, [resolve_bot("random", "toy")] * 2, max_actions=asked)
        assert outcome.error is not None and outcome.error.seat is None
        assert outcome.error.reason == "engine: RuntimeError: no end after 50 actions"
    finished = play_game(
        game, game.make_rules(2, {"rounds": 3}), 1, [resolve_bot("random", "toy")] * 2
    )
    assert finished.error is None
