"""The compiled engines and bots and their pure-Python sources play the same games; the
guard never lets a stale or unwanted extension module run."""

from __future__ import annotations

import abc
import importlib
import random
import subprocess
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from cgsim.games import compiled
from cgsim.games.contract import HeldRows, LedRows, TableRows
from cgsim.games.cottage.actions import LegalActions
from cgsim.games.draws.exact import randbelow, shuffle

ROOT = Path(__file__).resolve().parents[1]

PURE_CHECK = """
from pathlib import Path
from cgsim.games.compiled import engine_mode
from cgsim.studies.golden import check_golden, playthrough_games
from cgsim.studies.playthrough import check_playthroughs
tests = Path({tests!r})
for folder in ("golden", "golden-kitchen"):
    count, differences = check_golden(tests / folder)
    assert count and not differences, [d.where for d in differences]
assert check_playthroughs(tests / "playthroughs", playthrough_games()) == {{}}
print(engine_mode("cgsim.games.cottage"))
print(engine_mode("cgsim.games.kitchen"))
"""

STUDY_GAME = """
from cgsim.games.compiled import engine_mode
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.studies.strength import play
game = get_game("cottage-garden")
bots = [resolve_bot(spec, game.info.id).create() for spec in {specs!r}]
print([(seat.score, seat.decisions) for seat in play(game, bots, 5, 6)])
import bots.turn_model
print(engine_mode("bots"))
"""


def test_the_pure_python_engines_play_the_golden_games_and_playthroughs() -> None:
    """The same check as ``test_golden`` (which runs whatever is installed, compiled when
    the build compiled), against the pure-Python modules."""
    code = PURE_CHECK.format(tests=str(ROOT / "tests"))
    env = {"PATH": "/usr/bin:/bin", compiled.PURE_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"pure Python ({compiled.PURE_ENV} is set)"] * 2


def _study_game(env: dict[str, str]) -> list[str]:
    specs = ["study:width=2,depth=1,branch=2,solo_width=2,solo_branch=2", "greedy"]
    code = STUDY_GAME.format(specs=specs)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_pure_python_bots_play_the_compiled_bots_games() -> None:
    """The bots' compiled modules (the shared evaluation, the turn model) choose what
    their sources choose: a study bot's game, pure Python and as installed."""
    pure = _study_game({"PATH": "/usr/bin:/bin", compiled.PURE_ENV: "1"})
    installed = _study_game({"PATH": "/usr/bin:/bin"})
    assert pure[0] == installed[0]
    assert pure[1] == f"pure Python ({compiled.PURE_ENV} is set)"


KITCHEN_GAME = """
from cgsim.games.compiled import engine_mode
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.studies.strength import play
game = get_game("kitchen-garden")
bots = [resolve_bot(spec, game.info.id).create() for spec in {specs!r}]
print([(seat.score, seat.decisions) for seat in play(game, bots, 3, 4)])
import bots.kitchen_policy
print(engine_mode("bots"))
"""


def test_the_pure_python_kitchen_search_plays_the_compiled_ones_game() -> None:
    """``kitchen-search`` and its greedy rollouts (``bots.kitchen_policy``) choose, and
    draw from their rng, what their sources do: one game, pure Python and as installed."""
    code = KITCHEN_GAME.format(specs=["kitchen-search:worlds=4,batch=2", "kitchen-greedy"])
    outputs = []
    for env in ({"PATH": "/usr/bin:/bin", compiled.PURE_ENV: "1"}, {"PATH": "/usr/bin:/bin"}):
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.splitlines())
    assert outputs[0][0] == outputs[1][0]
    assert outputs[0][1] == f"pure Python ({compiled.PURE_ENV} is set)"


def test_the_deal_shuffle_draws_what_random_shuffle_draws() -> None:
    for seed in range(300):
        for size in (1, 2, 9, 36, 200):
            expected, ours = list(range(size)), list(range(size))
            theirs_rng, our_rng = random.Random(seed), random.Random(seed)
            theirs_rng.shuffle(expected)
            shuffle(our_rng, ours)
            assert ours == expected
            assert our_rng.random() == theirs_rng.random()


def test_the_exact_draws_draw_what_random_draws() -> None:
    """``randbelow`` leaves the rng where ``randrange`` does, with the same result: the
    games' shuffles stay the same."""
    for seed in range(300):
        theirs, ours = random.Random(seed), random.Random(seed)
        for n in (1, 2, 7, 64, 1000):
            assert randbelow(ours, n) == theirs.randrange(n)
        assert ours.random() == theirs.random()


def test_a_compiled_sequence_class_keeps_its_own_abc_and_a_list_is_none_of_them() -> None:
    """Compiled, a class deriving from ``Sequence`` shared its registry and cache: once a
    list had been seen to be a ``Sequence``, it was a ``TableRows`` too."""
    assert isinstance([], Sequence)
    for cls in (HeldRows, TableRows, LedRows, LegalActions):
        assert not isinstance([], cls) and not issubclass(list, cls)
    rows = TableRows(("a",), [(1,)])
    assert isinstance(rows, HeldRows) and isinstance(rows, Sequence)
    assert isinstance(LegalActions([(0, (1,))]), Sequence)
    assert rows != [{"a": 1, "b": 2}] and rows == [{"a": 1}]


def test_every_compiled_class_deriving_from_an_abc_keeps_its_own_abc() -> None:
    """Not only the classes above: any class a compiled module defines on an ABC (one
    added later too) has its own registry and cache, so no list passes for it."""
    assert isinstance([], Sequence)
    found = []
    for modules in compiled.compiled_groups(ROOT).values():
        for name in modules:
            module = importlib.import_module(name)
            for value in vars(module).values():
                if isinstance(value, abc.ABCMeta) and value.__module__ == name:
                    found.append(value)
                    assert "_abc_impl" in value.__dict__, value
                    assert not isinstance([], value), value
    assert {HeldRows, TableRows, LedRows, LegalActions} <= set(found)


def test_every_compiled_package_declares_existing_modules() -> None:
    groups = compiled.compiled_groups(ROOT)
    assert set(groups) == {
        "cgsim.games.cottage._engine",
        "cgsim.games.kitchen._engine",
        "cgsim.games.drama._engine",
        "cgsim.games.draws._engine",
        "cgsim.games.loop._engine",
        "cgsim.games.held._engine",
        "bots._engine",
    }
    hot = {"bots": "turn_model", "drama": "fold", "draws": "exact", "loop": "core", "held": "rows"}
    for group, modules in groups.items():
        key = hot.get(group.split(".")[-2], "rules")
        assert key in {name.rsplit(".", 1)[1] for name in modules}
        assert all(compiled.source_path(name, ROOT).is_file() for name in modules)


def _fake_game(root: Path) -> Path:
    package = root / "cgsim" / "games" / "fakegame"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('COMPILED = ("engine",)\n', encoding="utf-8")
    source = package / "engine.py"
    source.write_text("VALUE = 1\n", encoding="utf-8")
    return source


def test_an_edited_source_is_stale_until_the_next_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _fake_game(tmp_path)
    compiled.write_manifest(tmp_path)
    monkeypatch.setattr(compiled, "_GAMES_DIR", tmp_path / "cgsim" / "games")
    module = "cgsim.games.fakegame.engine"
    assert not compiled._stale([module])
    source.write_text("VALUE = 2\n", encoding="utf-8")
    assert compiled._stale([module])
    compiled.write_manifest(tmp_path)
    assert not compiled._stale([module])


@pytest.mark.parametrize("pure", [True, False])
def test_the_guard_loads_the_sources_of_a_stale_or_unwanted_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pure: bool
) -> None:
    source = _fake_game(tmp_path)
    compiled.write_manifest(tmp_path)
    source.with_name("engine" + EXTENSION_SUFFIXES[0]).touch()
    monkeypatch.setattr(compiled, "_GAMES_DIR", tmp_path / "cgsim" / "games")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    if pure:
        monkeypatch.setenv(compiled.PURE_ENV, "1")
    else:
        monkeypatch.delenv(compiled.PURE_ENV, raising=False)
        source.write_text("VALUE = 2\n", encoding="utf-8")
    compiled.guard("cgsim.games.fakegame", ("engine",))
    finder = sys.meta_path[0]
    spec = finder.find_spec("cgsim.games.fakegame.engine", None)
    assert spec is not None and spec.origin == str(source)
    assert finder.find_spec("cgsim.games.fakegame.other", None) is None
    reason = compiled._REASONS.pop("cgsim.games.fakegame")
    assert (compiled.PURE_ENV in reason) is pure


def test_an_edit_in_one_package_sends_every_package_to_its_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The packages are compiled together and read each other's classes natively, so a
    compiled package must never run beside another one's sources."""
    source = _fake_game(tmp_path)
    other = tmp_path / "cgsim" / "games" / "othergame"
    other.mkdir()
    (other / "__init__.py").write_text('COMPILED = ("engine",)\n', encoding="utf-8")
    (other / "engine.py").write_text("VALUE = 1\n", encoding="utf-8")
    compiled.write_manifest(tmp_path)
    for built in (source, other / "engine.py"):
        built.with_name("engine" + EXTENSION_SUFFIXES[0]).touch()
    monkeypatch.setattr(compiled, "_GAMES_DIR", tmp_path / "cgsim" / "games")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    source.write_text("VALUE = 2\n", encoding="utf-8")
    compiled.guard("cgsim.games.othergame", ("engine",))
    spec = sys.meta_path[0].find_spec("cgsim.games.othergame.engine", None)
    assert spec is not None and spec.origin == str(other / "engine.py")
    assert "changed" in compiled._REASONS.pop("cgsim.games.othergame")


def test_a_fresh_build_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _fake_game(tmp_path)
    compiled.write_manifest(tmp_path)
    source.with_name("engine" + EXTENSION_SUFFIXES[0]).touch()
    monkeypatch.setattr(compiled, "_GAMES_DIR", tmp_path / "cgsim" / "games")
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    before = list(sys.meta_path)
    compiled.guard("cgsim.games.fakegame", ("engine",))
    assert sys.meta_path == before
