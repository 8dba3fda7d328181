"""Nothing above the game contract names a game, a game's column or a game's bot.

Adding a game means writing its package (and its bots) alone: the machinery learns
everything from the game's declaration. This reads every string literal of the code
outside the game packages, the ``bots`` package and the game registry (docstrings and
comments aside: they may give examples) and looks for the games' ids, the columns they
declare and the bots of their ladders.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cgsim.games.drama import DRAMA_NAMES
from cgsim.games.registry import DEFAULT_GAME, game_names, get_game

ROOT = Path(__file__).resolve().parents[1] / "cgsim"
EXEMPT = ("games/cottage/", "games/kitchen/", "games/registry.py")
GENERIC = {"seat", "bot", "turn", "players", "random", "score", "rank", "end", "block", "aborted"}
"""Names a game may use that are the machinery's own words (core columns, end statuses,
the random bot)."""


def _game_words() -> set[str]:
    words: set[str] = set()
    for name in game_names():
        game = get_game(name)
        if not type(game).__module__.startswith("cgsim.games."):
            continue  # a test's game (registered by another test module) is not shipped
        info = game.info
        setup = info.setups[0]
        schema = game.schema(game.make_rules(setup.players, {}, None, dict(setup.variant)))
        words |= {info.id, info.record_format, *info.ladder, *info.variant.model_fields}
        for table in ("games", "seats"):
            words |= {column.name for column in schema.columns(table)}
        for extra in schema.tables:
            words |= {extra.name, *(column.name for column in extra.columns)}
    # The drama columns are the machinery's own (cgsim.games.drama), added by every game.
    return words - GENERIC - set(DRAMA_NAMES)


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            # A string expression statement is documentation wherever it stands.
            for statement in body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    found.add(id(statement.value))
    return found


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstring_nodes(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def _sources() -> list[Path]:
    return [
        path
        for path in sorted(ROOT.rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(EXEMPT)
    ]


def _tokens(text: str) -> set[str]:
    """The names a literal holds: every piece of an identifier-like literal (a column name,
    a spec such as ``greedy:pots=1.5``); in prose, only compound names (``pots_scored``,
    ``cottage-garden``) and quoted ones (``'greedy'``), since plain English words such as
    "side" or "solo" are no game's property."""
    if not re.search(r"\s", text.strip()) and "/" not in text:
        return set(re.split(r"[:=,.\[\]{}()/]+", text.strip()))
    compound = set(re.findall(r"[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+", text))
    quoted = set(re.findall(r"'([A-Za-z0-9_-]+)'", text))
    return compound | quoted


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_game_vocabulary_above_the_contract(path: Path) -> None:
    words = _game_words()
    found = []
    for line, text in _literals(path):
        hits = sorted(_tokens(text) & words)
        if hits:
            found.append(f"line {line}: {hits} in {text!r}")
    assert found == [], "\n".join(found)


def test_the_registry_names_the_default_game_only_there() -> None:
    assert DEFAULT_GAME in game_names()
