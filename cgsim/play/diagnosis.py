"""What a bot's fault tells its author: where in the game, and where in the bot's code.

A fault's one line (a run's ``error`` column, its report, the terminal) names what went
wrong, the turn and decision, and the innermost frames of the bot's own code
(``mybot.py:41 in score_tile``); its full traceback is kept apart (a run's
``errors/GAME_ID.txt``). Both are built in the process that played the game, from the
fault as the loop placed it (``BotFault.at``), and depend on nothing of that process (no
memory address; paths from the bot's import root), so a run writes the same text for
any worker count.
"""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.loop import BotFault
from cgsim.games.loop.faults import Located

MESSAGE_LIMIT = 200
"""Characters of a fault's message shown in its one line (the traceback has it whole)."""
FRAMES_SHOWN = 3
"""Frames of the bot's own code in a fault's one line, innermost first."""
TRACE_LIMIT = 64_000
"""Characters of a full traceback kept (its end, where the bot's frames are)."""
LEGAL_LISTED = 40
"""Legal actions listed in words with an illegal action's traceback."""
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
_CGSIM = "cgsim"


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """A fault told for its bot's author."""

    reason: str
    """One bounded line: what, when (turn, decision) and where in the bot's code."""
    turn: int | None
    decision: int | None
    trace: str
    """The full traceback (and, for an illegal action, the legal ones in words)."""


def without_addresses(text: str) -> str:
    """``text`` with memory addresses blanked: they differ from process to process."""
    return _ADDRESS.sub("0x...", text)


def short_path(filename: str, module: str) -> str:
    """A source file as its path from the import root of ``module``:
    ``bots/turn_model.py``, ``mybot.py``, ``pkg/__init__.py`` (never the folder it lies
    in, which differs from machine to machine)."""
    path = Path(filename)
    depth = module.count(".") + 1 + (path.stem == "__init__")
    return "/".join(path.parts[-depth:])


def _module(frame: FrameType) -> str:
    name = frame.f_globals.get("__name__")
    return name if isinstance(name, str) else ""


class _Owner:
    """Which frames are the bot's own code: its package's (all of it, a bot's helpers
    included), or for a bot in a single module that module and its neighbours in the
    same folder; only the class's own module for a bot shipped inside cgsim."""

    def __init__(self, cls: type[Bot] | None) -> None:
        module = cls.__module__ if cls is not None else ""
        self.module = module
        self.package = module.partition(".")[0]
        file = getattr(sys.modules.get(module), "__file__", None)
        self.folder = Path(file).parent if file and "." not in module else None

    def owns(self, frame: FrameType) -> bool:
        module = _module(frame)
        if self.package == _CGSIM:
            return module == self.module
        if self.package and module.partition(".")[0] == self.package:
            return True
        return self.folder is not None and Path(frame.f_code.co_filename).parent == self.folder


def _frame_text(frame: FrameType, line: int) -> str:
    code = frame.f_code
    return f"{short_path(code.co_filename, _module(frame))}:{line} in {code.co_name}"


def bot_frames(error: BaseException, cls: type[Bot] | None) -> tuple[str, ...]:
    """The innermost frames of the bot's own code in ``error``'s traceback, innermost
    first (at most :data:`FRAMES_SHOWN`); any frames outside cgsim when none is the
    bot's (a bot class wrapping another's code)."""
    walked = list(traceback.walk_tb(error.__traceback__))
    owner = _Owner(cls)
    own = [(frame, line) for frame, line in walked if owner.owns(frame)]
    if not own:
        own = [(f, line) for f, line in walked if _module(f).partition(".")[0] != _CGSIM]
    return tuple(_frame_text(frame, line) for frame, line in reversed(own[-FRAMES_SHOWN:]))


def method_site(cls: type[Bot] | None, name: str = "choose") -> str | None:
    """Where a bot class's method is defined (``mybot.py:12 in choose``), if known."""
    code = getattr(getattr(cls, name, None), "__code__", None)
    if code is None or cls is None:
        return None
    module = getattr(getattr(cls, name), "__module__", None) or cls.__module__
    return f"{short_path(code.co_filename, module)}:{code.co_firstlineno} in {code.co_name}"


def traceback_text(error: BaseException) -> str:
    """``error``'s whole traceback as Python prints it, its causes included; addresses
    blanked, at most :data:`TRACE_LIMIT` characters (the end kept)."""
    text = without_addresses("".join(traceback.format_exception(error)))
    if len(text) > TRACE_LIMIT:
        text = "... (the start is cut)\n" + text[-TRACE_LIMIT:]
    return text


def located(error: BaseException) -> tuple[tuple[str, ...], str]:
    """The bot's frames and full traceback of an exception, as it already knows them
    (raised again here for a bot in another process) or from its own traceback."""
    for known in (error, error.__cause__):
        if isinstance(known, Located) and (known.where or known.trace):
            return known.where, known.trace
    return (), ""


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 3] + "..."


def _words(game: AnyGame, state: Any, action: Any) -> str | None:
    """The game's words for an action (None when it cannot say: not an action at all)."""
    if state is None:
        return None
    try:
        return _cut(str(game.describe_action(state, action)))
    except Exception:
        return None


def _what(game: AnyGame, fault: BotFault) -> str:
    """What went wrong: the bot's exception, or the illegal action in words."""
    legal = fault.legal
    if not fault.illegal:
        text = _cut(without_addresses(fault.reason))
        if legal is not None and text.startswith("illegal action"):  # told by a bot process
            text += f"; {len(legal)} legal actions"
        return text
    action = _cut(without_addresses(repr(fault.action)))
    words = _words(game, fault.state, fault.action)
    shown = f"{action} ({words})" if words and words != action else action
    count = f"the {len(legal)} legal actions" if legal is not None else "the legal actions"
    return f"illegal action {shown}, not among {count}"


def _turn(state: Any) -> int | None:
    """The state's turn number, for a game whose state says it (``state.turn``)."""
    turn = getattr(state, "turn", None)
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else None


def _when(turn: int | None, decision: int | None) -> str:
    parts = [] if turn is None else [f"turn {turn}"]
    if decision == 0:
        parts.append("before the first decision")
    elif decision is not None:
        parts.append(f"decision {decision}")
    return ", ".join(parts)


def _where(frames: Sequence[str]) -> str:
    if not frames:
        return ""
    rest = f" (from {', '.join(frames[1:])})" if len(frames) > 1 else ""
    return f"at {frames[0]}{rest}"


def _legal_listing(game: AnyGame, state: Any, legal: Sequence[Action]) -> Iterator[str]:
    yield f"The {len(legal)} legal actions were:"
    for index, action in enumerate(legal[:LEGAL_LISTED]):
        words = _words(game, state, action)
        yield f"  {index + 1:>3}) {action!r}" + (f": {words}" if words else "")
    if len(legal) > LEGAL_LISTED:
        yield f"  ... and {len(legal) - LEGAL_LISTED} more"


def diagnose(game: AnyGame, fault: BotFault, cls: type[Bot] | None) -> Diagnosis:
    """The fault of a bot of class ``cls`` (None: unknown) told in one line and in full."""
    cause = fault.__cause__
    frames, trace = located(fault)
    if not frames and cause is not None and not trace:
        frames, trace = bot_frames(cause, cls), traceback_text(cause)
    if not trace:
        trace = traceback_text(fault)
    parts = [_what(game, fault)]
    turn = _turn(fault.state)
    when = _when(turn, fault.decision)
    if when:
        parts.append(when)
    where = _where(frames)
    if not where and fault.answered:  # the fault is the bot's answer, or its lateness
        site = method_site(cls)
        where = f"returned by {site}" if site else ""
    if where:
        parts.append(where)
    if fault.illegal and fault.legal is not None:
        trace += "\n" + "\n".join(_legal_listing(game, fault.state, fault.legal)) + "\n"
    return Diagnosis("; ".join(parts), turn, fault.decision, trace)
