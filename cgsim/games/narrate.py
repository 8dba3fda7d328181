"""A game record told as text: the game's notation legend, then each turn's state and the
moves played in it.

``cgsim play --show`` and ``cgsim replay`` print through these functions, so what a
newcomer reads is the same wherever a game is rendered: the legend the game declares
(``GameInfo.notation``), the state at the start of every turn (``Game.render``), and
what was played (``Game.describe_turns``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.contract import AnyGame, GameInfo

ERROR_END = (
    "a bot failed (raised an error, chose an illegal action or ran out of time) and lost, "
    "or a person quit: the game was not finished"
)
"""What the machinery's own end status ``error`` means, in every game."""


LINE_WIDTH = 100
"""Terminal lines are wrapped to this many characters."""
WORD_WIDTH = 16


def legend_lines(info: GameInfo) -> list[str]:
    """The game's notation as an indented legend, wrapped to :data:`LINE_WIDTH` (empty
    when the game declares none); a long word stands on a line of its own."""
    if not info.notation:
        return []
    lines = [f"Notation of {info.title}:"]
    indent = " " * (WORD_WIDTH + 4)
    for term in info.notation:
        if len(term.word) <= WORD_WIDTH:
            first = f"  {term.word:<{WORD_WIDTH}}  "
        else:
            lines.append(f"  {term.word}")
            first = indent
        lines += textwrap.wrap(
            term.meaning, LINE_WIDTH, initial_indent=first, subsequent_indent=indent
        )
    return lines


def end_meaning(info: GameInfo, end: str) -> str:
    """What an end status means in this game ('' when it does not say)."""
    if end == "error":
        return ERROR_END
    return next((term.meaning for term in info.ends if term.word == end), "")


def fault_text(record: Mapping[str, Any]) -> str | None:
    """Why the recorded game ended in error, from its ``error``: ``seat 1 (mybot:Bot):
    AssertionError: ...; turn 12, decision 34; at mybot.py:41 in score_tile`` (control
    characters escaped: a record is untrusted); None for a record without one."""
    fault = record.get("error")
    if not isinstance(fault, Mapping):
        return None
    seat = fault.get("seat")
    seats = record.get("seats")
    who = "the engine"
    if type(seat) is int and isinstance(seats, list) and 0 <= seat < len(seats):
        entry = seats[seat]
        bot = entry.get("bot") if isinstance(entry, Mapping) else None
        who = f"seat {seat} ({bot})"
    text = f"{who}: {fault.get('reason')}"
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in text)


def turn_label(game: AnyGame, turn: int, state: Any) -> str:
    """``setup``, ``turn 12`` or ``final``."""
    if game.is_terminal(state):
        return "final"
    return "setup" if turn == 0 else f"turn {turn}"


def tell(
    game: AnyGame, record: Mapping[str, Any], *, turn: int | None = None, moves: bool = True
) -> Iterator[str]:
    """The lines of a record told turn by turn (only ``turn`` when given), the legend
    first; each state is followed by the moves played until the next state shown.

    The record is replayed through the engine (``RecordError`` at the first event it
    does not match); a ``turn`` the record does not show is a ``ConfigError`` naming
    the turns it does.
    """
    described: Mapping[int, Sequence[str]] = game.describe_turns(record) if moves else {}
    last_turn = max(described, default=0)
    shown: list[int] = []
    found = False
    items: list[tuple[int, Any]] = []
    for number, state in game.replay(record):
        items.append((number, state))
        if not game.is_terminal(state):
            shown.append(number)
        if len(items) == 2:
            found = yield from _one(game, items.pop(0), number, turn, described, found)
    if items:
        found = yield from _one(game, items[0], last_turn + 1, turn, described, found)
    if turn is not None and not found:
        raise ConfigError(f"--turn {turn}: {_turns_text(shown)}")


def _one(
    game: AnyGame,
    item: tuple[int, Any],
    upto: int,
    wanted: int | None,
    described: Mapping[int, Sequence[str]],
    shown_before: bool,
) -> Generator[str, None, bool]:
    """One state, then the moves of its turn and of any turn before ``upto`` without a
    state of its own (a skipped turn); nothing unless it is the ``wanted`` turn. The
    legend comes before the first state shown. Returns whether any state was shown."""
    number, state = item
    if wanted is not None and number != wanted:
        return shown_before
    if not shown_before:
        yield from legend_lines(game.info)
    yield ""
    yield f"=== {turn_label(game, number, state)} ==="
    yield game.render(state)
    if game.is_terminal(state):
        return True
    for n in range(number, max(upto, number + 1)):
        played = described.get(n, ())
        if played:
            yield f"--- played in turn {n}:"
            yield from (f"  {line}" for line in played)
    return True


def _turns_text(shown: Sequence[int]) -> str:
    """Which turns a record shows: ``the record shows turns 1 to 84`` (and the gaps)."""
    if not shown:
        return "the record shows no turn"
    first, last = min(shown), max(shown)
    gaps = sorted(set(range(first, last + 1)) - set(shown))
    text = f"the record shows turns {first} to {last}"
    if gaps:
        listed = ", ".join(str(n) for n in gaps[:8]) + (", ..." if len(gaps) > 8 else "")
        text += f", except {listed} (turns without a decision, shown with the turn before)"
    return text
