"""The games behind the numbers: a report's notable games, each with its viewer page.

When a run kept its records, the report lists the longest game, the closest and the most
one-sided finish, the largest comeback and every game that ended in error, and writes the
replay viewer of each (``games/game-N.html``) beside the report.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import CgsimError
from cgsim.games.contract import AnyGame
from cgsim.games.recordio import iter_records
from cgsim.games.registry import DEFAULT_GAME, get_game
from cgsim.play.match import ERROR_END
from cgsim.play.results import read_manifest, scan
from cgsim.reporting.pages import PageSection
from cgsim.reporting.viewer import viewer_data, write_viewer

COMEBACK_GAMES = 60
"""Games replayed to find the largest comeback (the first ones kept, to bound the cost)."""
VIEWER_DIR = "games"


@dataclass(frozen=True)
class Notable:
    why: str
    game_id: int
    text: str


def _records(results_dir: Path) -> Iterator[dict[str, Any]]:
    for chunk in sorted((results_dir / "records").glob("chunk-*.jsonl*")):
        yield from iter_records(chunk)


def _margins(results_dir: Path) -> pl.DataFrame:
    """Per decided game with 2+ seats: turns, the winning score and its lead on the next."""
    seats = scan(results_dir, "seats").select("game_id", "score", "end").collect()
    decided = seats.filter(pl.col("end").is_in(["normal", "stalled"]))
    return (
        decided.sort("score", descending=True)
        .group_by("game_id")
        .agg(
            pl.col("score").first().alias("top"), pl.col("score").slice(1, 1).first().alias("next")
        )
        .drop_nulls()
        .with_columns((pl.col("top") - pl.col("next")).alias("margin"))
    )


def _comeback(game: AnyGame, record: dict[str, Any]) -> float:
    """How far behind the leader the eventual winner once was (0 if never behind)."""
    winners = (record.get("result") or {}).get("winners") or []
    if len(winners) != 1:
        return 0.0
    steps = viewer_data(game, record)["steps"]
    return max(
        (max(step["scores"]) - step["scores"][winners[0]] for step in steps if step["scores"]),
        default=0.0,
    )


def pick_notable(results_dir: Path) -> tuple[list[Notable], dict[int, dict[str, Any]]]:
    """The notable games and the records of those that have one."""
    game = get_game(str(read_manifest(results_dir).get("game", DEFAULT_GAME)))
    games = scan(results_dir, "games").select("game_id", "turns", "end", "error").collect()
    picks: list[Notable] = []
    played = games.filter(pl.col("turns").is_not_null())
    if played.height:
        row = played.sort(["turns", "game_id"], descending=[True, False]).row(0, named=True)
        picks.append(Notable("longest", row["game_id"], f"{row['turns']} turns"))
    margins = _margins(results_dir)
    unit = game.info.score_unit
    if margins.height:
        for why, descending in (("closest", False), ("biggest margin", True)):
            row = margins.sort(["margin", "game_id"], descending=[descending, False]).row(
                0, named=True
            )
            lead = unit.in_lead(row["margin"])
            picks.append(Notable(why, row["game_id"], f"won by {lead:g} {unit.lead}"))
    records: dict[int, dict[str, Any]] = {}
    wanted = {pick.game_id for pick in picks}
    errors = games.filter(pl.col("end") == ERROR_END)
    wanted |= set(errors["game_id"].to_list())
    best: tuple[float, int] = (0.0, -1)
    for count, record in enumerate(_records(results_dir)):
        game_id = int(record.get("game_id", -1))
        if game_id in wanted:
            records[game_id] = record
        if count < COMEBACK_GAMES:
            try:
                behind = _comeback(game, record)
            except CgsimError:
                continue
            if behind > best[0]:
                best = (behind, game_id)
                records[game_id] = record
        elif wanted <= set(records):
            break
    if best[1] >= 0:
        text = f"the winner was {unit.in_lead(best[0]):g} {unit.lead} behind"
        picks.append(Notable("largest comeback", best[1], text))
    for row in errors.iter_rows(named=True):
        picks.append(Notable("error", row["game_id"], str(row["error"])))
    return picks, records


def notable_section(results_dir: Path, out_dir: Path) -> PageSection | None:
    """The report's section of notable games, their viewer pages written in ``games/``;
    None when the run kept no records."""
    if not any((results_dir / "records").glob("chunk-*")):
        return None
    picks, records = pick_notable(results_dir)
    game = get_game(str(read_manifest(results_dir).get("game", DEFAULT_GAME)))
    folder = out_dir / VIEWER_DIR
    links: list[tuple[str, str]] = []
    for pick in picks:
        record = records.get(pick.game_id)
        label = f"{pick.why}: game {pick.game_id}, {pick.text}"
        if record is None:
            links.append((label + " (no record kept)", ""))
            continue
        folder.mkdir(parents=True, exist_ok=True)
        name = f"game-{pick.game_id}.html"
        try:
            write_viewer(game, record, folder / name)
        except CgsimError as error:
            links.append((f"{label} (cannot be shown: {error})", ""))
            continue
        links.append((label, f"{VIEWER_DIR}/{name}"))
    text = (
        "The games behind the numbers: open one to step through it turn by turn in the "
        "browser (each page stands alone)."
    )
    return PageSection("Notable games", text, links=links)
