"""Bots by name, by module:Class path and by entry point; specs, labels and errors."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest
import toygame
from hypothesis import given
from hypothesis import strategies as st

from bots.random_bot import RandomBot
from cgsim.errors import ConfigError, UnknownBotError
from cgsim.games.bot import Bot
from cgsim.play import bot_registry as registry
from cgsim.play.bot_registry import (
    ENTRY_POINT_GROUP,
    known_bots,
    list_bots,
    parse_bot_spec,
    parse_value,
    resolve_bot,
)

toygame.register()
WANDERER = toygame.target(toygame.Wanderer)


@pytest.mark.parametrize(
    ("spec", "target", "params"),
    [
        ("random", "random", {}),
        ("greedy:pots=1.5", "greedy", {"pots": 1.5}),
        (
            "greedy:depth=2,cautious=true,note=hi,x=-3",
            "greedy",
            {"depth": 2, "cautious": True, "note": "hi", "x": -3},
        ),
        ("pkg.mod:Bot", "pkg.mod:Bot", {}),
        ("pkg.mod:Bot:a=1,b=False", "pkg.mod:Bot", {"a": 1, "b": False}),
    ],
)
def test_parse_bot_spec(spec: str, target: str, params: dict[str, object]) -> None:
    assert parse_bot_spec(spec) == (target, params)


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "greedy:pots=1,depth",
        "greedy:pots=1,pots=2",
        "pkg.mod:Bot:flag",
        "a:b:c=1:d",
        "greedy:=1",
    ],
)
def test_malformed_specs(spec: str) -> None:
    with pytest.raises(ConfigError):
        parse_bot_spec(spec)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "is empty; give a bot name or module.path:Class"),
        ("greedy:pots=1,depth", "parameter 'depth' must be written key=value"),
        ("greedy:pots=1,pots=2", "parameter 'pots' is given twice"),
        ("greedy:pots=1:depth=2", "parameters must come after one colon"),
        ("a:b:c=1:d", r"must be module\.path:Class\[:key=value,\.\.\.\]"),
    ],
)
def test_malformed_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_bot_spec(spec)


@given(st.integers())
def test_integers_parse_as_int(value: int) -> None:
    assert parse_value(str(value)) == value


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_parse_back(value: float) -> None:
    assert parse_value(repr(value)) == value


def test_builtin_bot_by_name() -> None:
    spec = resolve_bot("random", "cottage-garden")
    assert spec.label == "random"
    assert spec.cls is RandomBot
    assert isinstance(spec.create(), RandomBot)


def test_builtin_bots_are_listed_for_their_games() -> None:
    names = [info.name for info in list_bots("cottage-garden")]
    assert "random" in names
    assert "greedy" not in [info.name for info in list_bots("toy")]
    assert "random" in [info.name for info in list_bots("toy")]  # it plays any game
    info = next(info for info in list_bots() if info.name == "random")
    assert info.description and info.source == "built-in" and info.params == ()


def test_unknown_bot_lists_the_known_ones() -> None:
    with pytest.raises(UnknownBotError, match=r"unknown bot 'nosuch'.*random"):
        resolve_bot("nosuch", "cottage-garden")


def test_unknown_bot_for_a_game_lists_only_the_bots_that_play_it() -> None:
    with pytest.raises(UnknownBotError, match=r"known bots for toy: random \(or give module"):
        resolve_bot("nosuch", "toy")


def test_bot_that_does_not_play_the_game() -> None:
    with pytest.raises(
        ConfigError, match=r"'greedy' does not play 'toy'; it plays: cottage-garden"
    ):
        resolve_bot("greedy", "toy")


class Gameless(Bot):
    """A bot that declares no game."""

    games = ()


def test_a_bot_that_does_not_say_which_games_it_plays_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"does not say which games it plays; give its class"):
        resolve_bot(f"{__name__}:Gameless", "cottage-garden")


def test_module_class_with_params_has_a_canonical_label() -> None:
    spec = resolve_bot(f"{WANDERER}:depth=2,bias=0.5", "toy")
    assert spec.label == f"{WANDERER}:bias=0.5,depth=2"
    assert spec.params_dict() | {"bias": 0.5, "depth": 2} == spec.params_dict()
    same = resolve_bot({"bot": f"{WANDERER}:bias=0.5", "params": {"depth": 2}}, "toy")
    assert same.label == spec.label
    assert resolve_bot(f"{WANDERER}:bias=1", "toy").label == f"{WANDERER}:bias=1.0"


def test_unknown_parameter_lists_the_parameters() -> None:
    with pytest.raises(UnknownBotError) as error:
        resolve_bot(f"{WANDERER}:speed=3", "toy")
    message = str(error.value)
    assert "no parameter 'speed'" in message
    assert "bias (float, default 0.0)" in message
    assert "depth (int, default 1)" in message


def test_unknown_parameter_of_a_bot_without_parameters() -> None:
    with pytest.raises(UnknownBotError, match=r"no parameter 'foo'; it takes no parameters"):
        resolve_bot("random:foo=1", "cottage-garden")


def test_bad_parameter_value_names_it() -> None:
    with pytest.raises(ConfigError, match=r"parameter depth='abc'.*integer.*bias \(float"):
        resolve_bot(f"{WANDERER}:depth=abc", "toy")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no_such_module_xyz:Bot", "cannot import module"),
        ("toygame:NoSuchClass", "has no 'NoSuchClass'"),
        ("toygame:ToyGame", "not a subclass"),
    ],
)
def test_bad_class_paths(spec: str, message: str) -> None:
    with pytest.raises(UnknownBotError, match=message):
        resolve_bot(spec, "toy")


def test_mapping_form_errors() -> None:
    with pytest.raises(ConfigError, match="allowed keys: bot, params"):
        resolve_bot({"bot": "random", "weight": 1}, "cottage-garden")
    with pytest.raises(ConfigError, match="given twice"):
        resolve_bot({"bot": f"{WANDERER}:bias=1", "params": {"bias": 2}}, "toy")
    with pytest.raises(ConfigError, match=r"bot entry needs bot = 'name' \(a string\), got 3"):
        resolve_bot({"bot": 3}, "cottage-garden")
    with pytest.raises(ConfigError, match=r"'random': params must be a table, got \[1\]"):
        resolve_bot({"bot": "random", "params": [1]}, "cottage-garden")


def test_bot_specs_pickle() -> None:
    spec = resolve_bot(f"{WANDERER}:bias=0.5", "toy")
    copy = pickle.loads(pickle.dumps(spec))
    assert copy == spec
    assert copy.create().params.bias == 0.5


def _install_plugin(root: Path, entries: str = "plugin-bot = plugin_pkg:PluginBot\n") -> None:
    dist = root / "cgsim_plugin_demo-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: cgsim-plugin-demo\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entries}")


def test_entry_point_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_plugin(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    infos = {info.name: info for info in list_bots("toy")}
    assert infos["plugin-bot"].source == "plugin cgsim-plugin-demo"
    assert infos["plugin-bot"].params[0].name == "strength"
    spec = resolve_bot("plugin-bot:strength=3", "toy")
    assert spec.label == "plugin-bot:strength=3"
    assert spec.create().params.strength == 3


def test_a_module_in_the_working_directory_loads_by_module_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "localbot_mod.py").write_text(
        "from cgsim.games.bot import Bot\n\n\nclass Local(Bot):\n    name = 'local'\n"
        "    games = ('cottage-garden',)\n"
        "    def choose(self, state, legal_actions, rng):\n        return legal_actions[0]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    spec = resolve_bot("localbot_mod:Local", "cottage-garden")
    assert spec.cls.__name__ == "Local"


def test_broken_plugins_warn_and_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install_plugin(
        tmp_path,
        "broken = no_such_module_xyz:Bot\n"
        "notabot = plugin_pkg:PluginParams\n"
        "random = plugin_pkg:PluginBot\n",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.warns(UserWarning) as caught:
        known = known_bots()
    messages = [str(w.message) for w in caught]
    assert any(m.startswith("bot plugin broken cannot be loaded: ") for m in messages)
    assert "bot plugin notabot (plugin_pkg:PluginParams) is not a Bot" in messages
    assert "bot plugin 'random' is shadowed by a built-in bot" in messages
    assert "broken" not in known and "notabot" not in known
    assert known["random"] == (RandomBot, "built-in")


def test_a_builtin_module_that_fails_to_import_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "cgsim_broken_bots"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "bad.py").write_text("raise RuntimeError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "BUILTIN_PACKAGE", "cgsim_broken_bots")
    try:
        with pytest.warns(
            UserWarning,
            match=r"bot module cgsim_broken_bots\.bad cannot be imported: \S*bad\.py:1: "
            r"RuntimeError: boom$",
        ):
            known_bots()
    finally:
        sys.modules.pop("cgsim_broken_bots", None)
