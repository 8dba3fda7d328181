"""Playthroughs: short golden games written out as plain text a reviewer can read.

A playthrough lists every decision of one game (the turn, the seat, how many actions
were legal, the chosen action in words) under the state rendered at the start of each
turn, and ends with the result. Stored with the tests, it turns a rule change into a
readable diff, where a digest only says *that* a game changed. Everything goes through
the ``Game`` contract, so any registered game gets playthroughs.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cgsim.errors import CgsimError
from cgsim.games.bot import Bot
from cgsim.games.contract import AnyGame, GameResult
from cgsim.games.loop import play
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.seeds import seat_seed
from cgsim.studies.golden import GoldenGame

SUFFIX = ".txt"
MARK = "# playthrough "
"""How every playthrough file starts (only such files are ever deleted)."""
DIFF_LINES = 60
"""A failed comparison shows the unified diff up to this many lines."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One applied action: who chose, among how many, and what."""

    seat: int
    legal: int
    action: str


@dataclass(frozen=True, slots=True)
class Played:
    """A game played through the contract: the state before every decision, and after."""

    states: list[Any]
    decisions: list[Decision]
    final: Any
    record: dict[str, Any]


def play_through(game: AnyGame, golden: GoldenGame) -> Played:
    """Play ``golden`` through the one game loop, as a run does (same bots, same
    generators), keeping every state and decision."""
    rules = game.make_rules(golden.players, dict(golden.rules), None, dict(golden.variant))
    specs = [resolve_bot(seat, golden.game) for seat in golden.seats]
    bots: list[Bot] = [spec.create() for spec in specs]
    rngs = [random.Random(seat_seed(golden.seed, seat)) for seat in range(len(bots))]
    state = game.new_game(rules, golden.seed)
    seats = [{"bot": spec.name, "params": spec.params_dict()} for spec in specs]
    recorder = game.recorder(rules, golden.seed, seats, state)
    states: list[Any] = []
    decisions: list[Decision] = []

    def keep(before: Any, action: int, after: Any) -> None:
        states.append(before)
        legal = len(game.legal_actions(before))
        seat = game.current_player(before)
        decisions.append(Decision(seat, legal, game.describe_action(before, action)))
        recorder.step(before, action, after)

    final = play(game, state, bots, rngs, after_action=keep)
    return Played(states, decisions, final, recorder.finish(final))


def turn_starts(game: AnyGame, played: Played) -> dict[int, int]:
    """``{decision index: turn number}`` for the first decision of every turn.

    The turns are the game's own, from ``Game.replay`` of the record; a replayed turn
    start is matched to the first played state from there on that renders the same
    (both renderings name the turn, so a state of the turn before cannot match).
    """
    starts: dict[int, int] = {}
    index = 0
    for turn, replayed in game.replay(played.record):
        if game.is_terminal(replayed):
            break
        picture = game.render(replayed)
        while index < len(played.states) and game.render(played.states[index]) != picture:
            index += 1
        if index == len(played.states):
            raise CgsimError(f"playthrough: the replayed start of turn {turn} was never played")
        starts[index] = turn
        index += 1
    return starts


def _number(value: float) -> str:
    return f"{value:g}"


def _result_line(result: GameResult) -> str:
    scores = ", ".join(_number(score) for score in result.scores)
    ranks = ", ".join(_number(rank) for rank in result.ranks)
    winners = ", ".join(str(seat) for seat in result.winners) or "none"
    return (
        f"result: scores {scores}; winners {winners}; ranks {ranks}; "
        f"end {result.end}; turns {result.turns}"
    )


def _turn_label(turn: int) -> str:
    return "setup" if turn == 0 else f"turn {turn}"


def _header(name: str, game: AnyGame, golden: GoldenGame) -> list[str]:
    return [
        f"{MARK}{name}: regenerate with 'make golden', never by hand",
        f"game: {game.info.id} (engine {game.info.version})",
        f"players: {golden.players}",
        f"variant: {_mapping(golden.variant)}",
        f"rules: {_mapping(golden.rules)}",
        f"seats: {', '.join(golden.seats)}",
        f"seed: {golden.seed}",
    ]


def _mapping(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in sorted(values.items())) or "defaults"


def playthrough_text(name: str, golden: GoldenGame) -> str:
    """The playthrough of one golden game, as the stored file holds it."""
    game = get_game(golden.game)
    played = play_through(game, golden)
    starts = turn_starts(game, played)
    lines = _header(name, game, golden)
    turn = 0
    for index, (state, decision) in enumerate(zip(played.states, played.decisions, strict=True)):
        if index in starts:
            turn = starts[index]
            lines += ["", f"== {_turn_label(turn)} ==", *game.render(state).splitlines(), ""]
        lines.append(
            f"{_turn_label(turn)}, seat {decision.seat}, {decision.legal} legal: {decision.action}"
        )
    result = game.result(played.final)
    lines += ["", "== final ==", *game.render(played.final).splitlines(), ""]
    lines.append(_result_line(result))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _is_playthrough(path: Path) -> bool:
    with path.open(encoding="utf-8") as file:
        return file.readline().startswith(MARK)


def write_playthroughs(out: Path, setups: Mapping[str, GoldenGame]) -> list[Path]:
    """Write the playthrough of every setup to ``out/<name>.txt``, and delete the stored
    playthroughs no setup makes any more; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    for path in out.glob(f"*{SUFFIX}"):
        if path.stem not in setups and _is_playthrough(path):
            path.unlink()
    written = []
    for name, golden in setups.items():
        path = out / f"{name}{SUFFIX}"
        path.write_text(playthrough_text(name, golden), encoding="utf-8")
        written.append(path)
    return written


def text_diff(stored: str, now: str, name: str, limit: int = DIFF_LINES) -> str:
    """The unified diff from the stored playthrough to today's, cut after ``limit`` lines
    ('' when they are the same)."""
    diff = list(
        difflib.unified_diff(
            stored.splitlines(),
            now.splitlines(),
            fromfile=f"{name} (stored)",
            tofile=f"{name} (now)",
            lineterm="",
        )
    )
    if len(diff) > limit:
        diff = [*diff[:limit], f"... {len(diff) - limit} more diff lines"]
    return "\n".join(diff)


def check_playthroughs(folder: Path, setups: Mapping[str, GoldenGame]) -> dict[str, str]:
    """Regenerate every setup's playthrough and compare it with ``folder``'s file.

    Returns ``{name: what differs}`` (a unified diff, or why there is nothing to
    compare), empty when every stored playthrough is still played the same; a stored
    file that no setup makes any more is named too.
    """
    if not folder.is_dir():
        raise CgsimError(
            f"{folder}: no such folder; make the playthroughs with "
            "'cgsim golden playthrough --out FOLDER'"
        )
    problems: dict[str, str] = {}
    for name, golden in setups.items():
        path = folder / f"{name}{SUFFIX}"
        if not path.is_file():
            problems[name] = f"{path}: missing; regenerate with 'make golden'"
            continue
        diff = text_diff(path.read_text(encoding="utf-8"), playthrough_text(name, golden), name)
        if diff:
            problems[name] = diff
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        if path.stem not in setups:
            problems[path.stem] = f"{path}: stored, but no playthrough setup makes it"
    return problems
