"""The seal on the rules, the game and the engine's code that a worker checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cgsim.games.cottage import state
from cgsim.games.registry import get_game
from cgsim.play import match
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.seal import SEALED_DATA, SEALED_PACKAGES, Seal

GAME = get_game("cottage-garden")


def _seal(game: Any, rules: Any) -> Seal:
    """The seal a worker makes."""
    modules = (*SEALED_PACKAGES, type(game).__module__)
    return Seal.of({"game": game, "rules": rules}, modules, SEALED_DATA)


@pytest.fixture
def sealed() -> Iterator[tuple[object, Seal]]:
    rules = GAME.make_rules(2, {}, None, {})
    yield rules, _seal(GAME, rules)


@pytest.mark.parametrize("name", ["cottage-garden", "kitchen-garden"])
def test_honest_games_leave_the_seal_whole(name: str) -> None:
    game = get_game(name)
    for players in (2, 4):
        rules = game.make_rules(players, {}, None, {})
        seal = _seal(game, rules)
        bots = [resolve_bot("random", name)] * players
        for seed in range(2):
            assert match.play_game(game, rules, seed, bots).error is None
            assert seal.broken() is None, (players, seed)


def test_an_untouched_seal_holds_while_caches_grow_and_clear(sealed: tuple[object, Seal]) -> None:
    rules, seal = sealed
    assert seal.broken() is None
    rules.fits(0, 0)  # type: ignore[attr-defined]
    assert seal.broken() is None
    rules.fit_cache.clear()  # type: ignore[attr-defined]
    assert seal.broken() is None


def test_a_changed_setting_or_cache_breaks_it(sealed: tuple[object, Seal]) -> None:
    rules, seal = sealed
    settings = rules.settings  # type: ignore[attr-defined]
    original = settings.orange_track
    object.__setattr__(settings, "orange_track", tuple(range(1000, 1017)))
    assert seal.broken() == "rules.settings"
    object.__setattr__(settings, "orange_track", original)
    assert seal.broken() is None
    rules.fits(0, 0)  # type: ignore[attr-defined]
    assert seal.broken() is None  # the new entry is remembered from now on
    key = next(iter(rules.fit_cache))  # type: ignore[attr-defined]
    rules.fit_cache[key] = (0, 1, 2)  # type: ignore[attr-defined]
    assert seal.broken() == "rules.fit_cache"
    object.__setattr__(rules, "fit_cache", {})
    assert seal.broken() == "rules"


def test_patched_code_breaks_it(
    sealed: tuple[object, Seal], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, seal = sealed
    with monkeypatch.context() as patch:
        patch.setattr(match, "error_outcome", lambda **_: None)
        assert seal.broken() == "cgsim.play.match.error_outcome"
    with monkeypatch.context() as patch:
        patch.setattr(type(GAME), "apply", lambda self, state, action: state)
        assert seal.broken() == f"{type(GAME).__module__}.{type(GAME).__qualname__}.apply"
    with monkeypatch.context() as patch:
        patch.setattr(GAME, "apply", lambda state, action: state, raising=False)
        assert seal.broken() == "game"
    assert seal.broken() is None


def test_a_changed_engine_table_breaks_it(
    sealed: tuple[object, Seal], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, seal = sealed
    # The summary's dispatch table: which kind each event name has (read at every event of
    # a record).
    table = state.EVENT_KINDS
    name = "cgsim.games.cottage.state.EVENT_KINDS"
    kind = next(iter(table))
    with monkeypatch.context() as patch:
        patch.setitem(table, kind, 0)
        assert seal.broken() == name
    assert seal.broken() is None
    kept = dict(table)
    try:
        del table[kind]
        assert seal.broken() == name
    finally:
        table.clear()
        table.update(kept)
    assert seal.broken() is None
