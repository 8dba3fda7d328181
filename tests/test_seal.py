"""The seal on the rules, the game and the engine's code that a worker checks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cgsim.games.registry import get_game
from cgsim.play import match
from cgsim.play.seal import SEALED_PACKAGES, Seal

GAME = get_game("cottage-garden")


@pytest.fixture
def sealed() -> Iterator[tuple[object, Seal]]:
    rules = GAME.make_rules(2, {}, None, {})
    yield rules, Seal.of({"game": GAME, "rules": rules}, (*SEALED_PACKAGES, type(GAME).__module__))


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
