"""Golden games: fixed, deterministic games whose records are stored and compared.

``record`` plays a fixed list of games (every player count, the solo game and the
children's variant) and stores, per game, a compact digest (seed, seats, settings,
final scores, a hash of the record) plus the full records. ``check`` plays them again
and lists every game whose record changed, with the first turn and event that differ,
so an unintended rule change shows exactly where it bites. A few short games, listed in
:func:`playthrough_games`, are also kept as readable playthroughs (see
:mod:`cgsim.studies.playthrough`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zstandard

from cgsim.errors import CgsimError
from cgsim.games.recordio import iter_records
from cgsim.games.registry import DEFAULT_GAME, builtin_game_names, get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import play_game

DIGESTS = "golden.jsonl"
RECORDS = "records.jsonl.zst"
VOLATILE = ("engine_version", "game_id", "block")
"""Record fields that do not describe play; left out of the hash."""


@dataclass(frozen=True, slots=True)
class GoldenGame:
    """One golden game: enough to play it again exactly."""

    game: str
    players: int
    variant: Mapping[str, Any]
    rules: Mapping[str, Any]
    seats: tuple[str, ...]
    seed: int


PLAYTHROUGH_SEED = 1


def playthrough_games(games: Sequence[str] | None = None) -> dict[str, GoldenGame]:
    """The games written out as playthroughs (``tests/playthroughs/<name>.txt``), by file
    name: every setup a game declares with ``playthrough``, the second rung of its ladder
    (a cheap heuristic bot) against random play, so each file stays a few thousand lines.
    ``games``: the ids to cover (default: the games shipped with cgsim)."""
    found: dict[str, GoldenGame] = {}
    for name in games if games is not None else builtin_game_names():
        info = get_game(name).info
        player = info.ladder[1] if len(info.ladder) > 1 else "random"
        for setup in info.setups:
            if not setup.playthrough:
                continue
            seats = tuple(player if seat % 2 == 0 else "random" for seat in range(setup.players))
            variant = {key: _json_ready(value) for key, value in setup.variant.items()}
            slug = re.sub(r"[^a-z0-9]+", "-", setup.name.lower()).strip("-")
            found[f"{name}-{slug}"] = GoldenGame(
                name, setup.players, variant, {}, seats, PLAYTHROUGH_SEED
            )
    return found


def default_games(
    games_per_setup: int, bots: Sequence[str], game: str = DEFAULT_GAME
) -> list[GoldenGame]:
    """Golden games over every setup ``game`` declares, seats taken by ``bots`` in turn."""
    games = []
    for index, setup in enumerate(get_game(game).info.setups):
        for k in range(games_per_setup):
            seats = tuple(bots[(k + seat) % len(bots)] for seat in range(setup.players))
            variant = {key: _json_ready(value) for key, value in setup.variant.items()}
            games.append(GoldenGame(game, setup.players, variant, {}, seats, 1000 * index + k))
    return games


def _json_ready(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def record_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a record, volatile fields left out."""
    stable = {k: v for k, v in record.items() if k not in VOLATILE}
    text = json.dumps(stable, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def play(golden: GoldenGame) -> dict[str, Any]:
    """Play a golden game and return its record."""
    game = get_game(golden.game)
    rules = game.make_rules(golden.players, dict(golden.rules), None, dict(golden.variant))
    specs = [resolve_bot(seat, golden.game) for seat in golden.seats]
    outcome = play_game(game, rules, golden.seed, specs, record=True)
    if outcome.error is not None or outcome.record is None:
        reason = outcome.error.reason if outcome.error else "no record"
        raise CgsimError(f"golden game seed {golden.seed} did not finish: {reason}")
    return {k: v for k, v in outcome.record.items() if k not in ("game_id", "block")}


def _digest(golden: GoldenGame, record: Mapping[str, Any]) -> dict[str, Any]:
    result = record.get("result", {})
    return {
        "game": golden.game,
        "players": golden.players,
        "variant": dict(golden.variant),
        "rules": dict(golden.rules),
        "seats": list(golden.seats),
        "seed": golden.seed,
        "scores": result.get("scores"),
        "end": result.get("end"),
        "turns": result.get("turns"),
        "hash": record_hash(record),
    }


def record_golden(out: Path, games: Sequence[GoldenGame]) -> int:
    """Play ``games`` and store their digests and records in ``out``; returns the count."""
    out.mkdir(parents=True, exist_ok=True)
    lines, records = [], []
    for golden in games:
        record = play(golden)
        lines.append(json.dumps(_digest(golden, record), separators=(",", ":")))
        records.append(json.dumps(record, separators=(",", ":")))
    (out / DIGESTS).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / RECORDS).write_bytes(compressed_lines(records))
    return len(games)


@dataclass(frozen=True, slots=True)
class Difference:
    """A golden game that no longer plays the same."""

    index: int
    golden: GoldenGame
    where: str
    """First diverging turn and event, in words."""


def _stored(folder: Path) -> Iterator[tuple[dict[str, Any], dict[str, Any] | None]]:
    digests_file = folder / DIGESTS
    if not digests_file.is_file():
        raise CgsimError(
            f"{folder}: not a golden-games folder (no {DIGESTS}); make one with 'cgsim golden record'"
        )
    digests = [
        json.loads(line) for line in digests_file.read_text(encoding="utf-8").splitlines() if line
    ]
    records: list[dict[str, Any] | None] = []
    if (folder / RECORDS).is_file():
        records = list(iter_records(folder / RECORDS))
    records += [None] * (len(digests) - len(records))
    yield from zip(digests, records, strict=True)


def first_difference(stored: Mapping[str, Any] | None, now: Mapping[str, Any]) -> str:
    """Where two records of the same game first differ: setup, a turn's event, or result."""
    if stored is None:
        return "record hash differs (no stored record to compare events)"
    for key in ("seed", "players", "rules", "seats", "components", "setup"):
        if stored.get(key) != now.get(key):
            return f"{key} differs"
    old_turns, new_turns = stored.get("turns", []), now.get("turns", [])
    for old, new in zip(old_turns, new_turns, strict=False):
        if old == new:
            continue
        old_events, new_events = old.get("events", []), new.get("events", [])
        for i, (a, b) in enumerate(zip(old_events, new_events, strict=False)):
            if a != b:
                return f"turn {old.get('n')} event {i}: stored {a}, now {b}"
        if len(old_events) != len(new_events):
            i = min(len(old_events), len(new_events))
            extra = old_events[i] if len(old_events) > i else new_events[i]
            side = "stored" if len(old_events) > i else "now"
            return f"turn {old.get('n')} event {i}: only {side} has {extra}"
        return f"turn {old.get('n')}: the turn header differs"
    if len(old_turns) != len(new_turns):
        return f"stored {len(old_turns)} turns, now {len(new_turns)}"
    return f"result: stored {stored.get('result')}, now {now.get('result')}"


def check_golden(folder: Path) -> tuple[int, list[Difference]]:
    """Play every stored golden game again; returns (games checked, differences)."""
    differences = []
    count = 0
    for index, (digest, stored) in enumerate(_stored(folder)):
        golden = GoldenGame(
            digest["game"],
            digest["players"],
            digest.get("variant", {}),
            digest.get("rules", {}),
            tuple(digest["seats"]),
            digest["seed"],
        )
        count += 1
        now = play(golden)
        if record_hash(now) != digest["hash"]:
            differences.append(Difference(index, golden, first_difference(stored, now)))
    return count, differences


def compressed_lines(text_lines: Sequence[str]) -> bytes:
    """Zstandard-compressed JSON Lines (deterministic bytes for the same lines)."""
    data = ("\n".join(text_lines) + "\n").encode("utf-8")
    return zstandard.ZstdCompressor(level=19).compress(data)
