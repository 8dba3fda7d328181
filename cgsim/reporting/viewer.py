"""The replay viewer: one self-contained HTML page drawing a recorded game turn by turn.

The record is replayed through the engine here, in Python, and every state is embedded
as the game's own picture data (``Pictured.picture``); the page only draws, steps and
charts. Nothing is fetched: the styles, the scripts and the data are all inlined.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError
from cgsim.games.contract import AnyGame, Pictured
from cgsim.games.narrate import end_meaning, fault_text, turn_label

PLACEHOLDERS = ("/*TITLE*/", "/*DATA*/", "/*DRAWING*/")


def viewer_data(game: AnyGame, record: Mapping[str, Any]) -> dict[str, Any]:
    """Every state of a record as the page's steps: label, picture, scores, and the
    events played from that state until the next one (``RecordError`` as ``replay``)."""
    if not isinstance(game, Pictured):
        raise ConfigError(f"{game.info.id} has no viewer")
    described = game.describe_turns(record)
    items = list(game.replay(record))
    steps = []
    for i, (number, state) in enumerate(items):
        upto = items[i + 1][0] if i + 1 < len(items) else max(described, default=0) + 1
        terminal = game.is_terminal(state)
        played = [] if terminal else range(number, max(upto, number + 1))
        events = [{"turn": n, "lines": list(described.get(n, ()))} for n in played]
        picture = game.picture(state)
        steps.append(
            {
                "turn": number,
                "label": turn_label(game, number, state),
                "events": [e for e in events if e["lines"]],
                "scores": picture.get("scores", []),
                "picture": picture,
            }
        )
    info = game.info
    result = dict(record.get("result") or {})
    end = str(result.get("end", ""))
    return {
        "game": info.id,
        "title": info.title,
        "seats": [str(seat.get("bot", "?")) for seat in record.get("seats", [])],
        "seed": record.get("seed"),
        "score_label": info.score_unit.lead,
        "legend": [[term.word, term.meaning] for term in info.notation],
        "result": result,
        "end_meaning": end_meaning(info, end) if end else "the game was not finished",
        "fault": fault_text(record),
        "steps": steps,
    }


def _script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` can close it early)."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def viewer_page(game: AnyGame, record: Mapping[str, Any]) -> str:
    """The whole page of one record."""
    data = viewer_data(game, record)
    assert isinstance(game, Pictured)
    template = (files("cgsim.reporting") / "viewer.html").read_text(encoding="utf-8")
    seats = " vs ".join(data["seats"])
    title = f"{data['title']}: {seats} (seed {data['seed']})".replace("<", "&lt;")
    values = (title, _script_json(data), game.drawing().replace("</", "<\\/"))
    for placeholder, value in zip(PLACEHOLDERS, values, strict=True):
        template = template.replace(placeholder, value, 1)
    return template


def write_viewer(game: AnyGame, record: Mapping[str, Any], out: Path) -> None:
    """Write the page of one record to ``out``."""
    out.write_text(viewer_page(game, record), encoding="utf-8")
