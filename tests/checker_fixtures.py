"""Hand-built records for the checker's tests: a deal from the default catalogue plus turns."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

CATALOGUE = (
    Path(__file__).resolve().parent.parent / "cgsim" / "games" / "cottage" / "components.toml"
)


def default_components() -> dict[str, Any]:
    """The default catalogue in the record's ``components`` form."""
    raw = tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))
    tiles: dict[str, Any] = {}
    for kind, spec in raw["tiles"].items():
        cells = []
        features = {}
        for r, row in enumerate(spec["shape"]):
            for c, ch in enumerate(row):
                if ch != ".":
                    cells.append([r, c])
                if ch in "PC":
                    features[f"{r},{c}"] = "pot" if ch == "P" else "cloche"
        for copy_no in range(1, spec["copies"] + 1):
            tiles[f"{kind}-{copy_no}"] = {"kind": kind, "cells": cells, "features": features}
    boards = {b: {"light": s["light"], "dark": s["dark"]} for b, s in raw["boards"].items()}
    return {"tiles": tiles, "boards": boards}


def single_cell_components(count: int = 16) -> dict[str, Any]:
    """``count`` one-cell plain tiles (ids ``X-1``...) and the default boards."""
    components = default_components()
    components["tiles"] = {
        f"X-{i}": {"kind": "X", "cells": [[0, 0]], "features": {}} for i in range(1, count + 1)
    }
    return components


def default_rules(players: int, **changes: Any) -> dict[str, Any]:
    """The rulebook defaults for ``players`` seats, with ``changes`` applied."""
    rules: dict[str, Any] = {
        "solo": players == 1,
        "children": [None] * players,
        "ramble": True,
        "start_cats": 2,
        "cats_total": 30,
        "pots_total": 16,
        "cat_limit": 2,
        "cubes": 3,
        "refill_mandatory": 3,
        "ramble_cost": 1,
        "orange_track": [*range(16), 20],
        "blue_track": [*range(0, 16, 2), 20],
        "red_line": 6,
        "gardener_value": 2 if players <= 2 else 1,
        "final_value": 6,
        "gardener_step": 2 if players == 1 else 1,
        "track_spaces": 20 if players == 4 else 16,
        "turning_space": 14 if players == 3 else 0,
        "discard_below": 3,
        "penalty_points": 2,
        "penalty_orange_spaces": 2,
        "penalty_blue_spaces": 1,
        "beehives": [] if players == 1 else [2, 1],
        "bonus_red_line_cat": True,
        "bonus_start_pot": True,
        "bonus_cat_limit": True,
        "turn_cap": 500,
    }
    rules.update(changes)
    if any(age is not None for age in rules["children"]) and "ramble" not in changes:
        rules["ramble"] = False
    return rules


class RecordBuilder:
    """A record under construction: fixed deal (catalogue order), turns appended by hand.

    Seat ``s`` gets boards ``2s+1`` (light) and ``2s+2`` (dark); the next board is the
    supply board. Tiles fill the nursery in catalogue order, the rest form the path.
    """

    def __init__(
        self,
        players: int = 2,
        components: dict[str, Any] | None = None,
        corner_cats: list[dict[str, Any]] | None = None,
        **rule_changes: Any,
    ) -> None:
        self.components = components or default_components()
        self.rules = default_rules(players, **rule_changes)
        tile_ids = list(self.components["tiles"])
        corner_cats = corner_cats or []
        reserves = [self.rules["start_cats"]] * players
        self.record: dict[str, Any] = {
            "format": "cgsim.record/1",
            "seed": 1,
            "players": players,
            "rules": self.rules,
            "seats": [{"bot": "random", "params": {}} for _ in range(players)],
            "components": self.components,
            "setup": {
                "nursery": [tile_ids[r * 4 : r * 4 + 4] for r in range(4)],
                "path": tile_ids[16:],
                "beds": [
                    [
                        {"board": str(2 * s + 1), "side": "light"},
                        {"board": str(2 * s + 2), "side": "dark"},
                    ]
                    for s in range(players)
                ],
                "supply_board": {"board": str(2 * players + 1), "side": "light"},
                "gardener": {"space": 0, "value": self.rules["gardener_value"]},
                "cats": reserves,
                "supply": {
                    "cats": self.rules["cats_total"] - sum(reserves) - len(corner_cats),
                    "pots": self.rules["pots_total"],
                },
                "corner_cats": corner_cats,
            },
            "turns": [],
        }

    def turn(self, events: list[dict[str, Any]], final_round: bool = False) -> RecordBuilder:
        """Append the next turn (seat and ``n`` follow from the turns so far)."""
        n = len(self.record["turns"]) + 1
        seat = (n - 1) % self.record["players"]
        self.record["turns"].append(
            {"n": n, "seat": seat, "final_round": final_round, "events": events}
        )
        return self

    def result(
        self, scores: list[int], beehives: list[int], winners: list[int], end: str
    ) -> dict[str, Any]:
        """The finished record (a deep copy, safe to mutate)."""
        self.record["result"] = {
            "scores": scores,
            "beehives": beehives,
            "winners": winners,
            "turns": len(self.record["turns"]),
            "end": end,
        }
        return copy.deepcopy(self.record)

    def unfinished(self) -> dict[str, Any]:
        """The record so far, without a result (a deep copy)."""
        return copy.deepcopy(self.record)


def take_tile(
    components: dict[str, Any], tile: str, origin: list[int], bed: int, at: list[int]
) -> dict[str, Any]:
    """A ``take_tile`` event placing ``tile`` unrotated with its reference (0,0) at ``at``."""
    spec = components["tiles"][tile]
    cells = [[r + at[0], c + at[1]] for r, c in spec["cells"]]
    features = {}
    for key, kind in spec["features"].items():
        r, c = (int(v) for v in key.split(","))
        features[f"{r + at[0]},{c + at[1]}"] = kind
    return {
        "e": "take_tile",
        "from": origin,
        "tile": tile,
        "bed": bed,
        "cells": cells,
        "features": features,
    }


def gardener(space: int, value: int, final_round: bool = False) -> dict[str, Any]:
    """A ``gardener`` event."""
    return {"e": "gardener", "space": space, "value": value, "final_round": final_round}


def empty_cells(rows: list[str]) -> list[list[int]]:
    """Soil cells of a board side, row by row."""
    return [[r, c] for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
