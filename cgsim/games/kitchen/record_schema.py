"""The shape of a Kitchen Garden record (``cgsim.kitchen-record/1``, docs/kitchen-record.md),
checked before the engine replays it or the independent checker reads it.

Written from the format document alone: it imports nothing of the engine nor of the
checker, so both can rely on it. Its bounds are the format's outer ones (types, lengths,
card ids, a few hundred of anything): enough that no reader loops or allocates without
bound. The rule settings' own ranges are the game's (``settings.py``), applied on replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.shapes import (
    FAULT,
    Anything,
    Either,
    Int,
    ListOf,
    MapOf,
    Num,
    Obj,
    Shape,
    Str,
    Tagged,
    strings,
    validate,
)

FORMAT = "cgsim.kitchen-record/1"
GAME = "kitchen-garden"

SEED = Int(-(2**63), 2**64 - 1)
SEAT = Int(0, 3)
SETTING = Int(0, 100)
"""Every rule setting but ``turn_cap`` (the game's own ranges are narrower)."""
COUNT = Int(0, 1000)
CARD = Int(0, 99_999)
CARDS = ListOf(CARD, 0, 100_000)
NAME = Str(100)
SPECIAL = strings("crow", "bazaar", "holiday")
HOLDER = Either(SEAT, strings("middle", "used"), "a seat 0..3, 'middle' or 'used'")
SWAP = Obj({"give": CARD, "take": CARD, "slot": Int(0, 100)})

RULES = Obj(
    {
        "players": Int(2, 4),
        "hand_limit": SETTING,
        "market_size": SETTING,
        "deal": SETTING,
        "turn_cap": Int(0, 100_000),
        "holiday_cards": SETTING,
        "bazaar_swaps": SETTING,
        "base_actions": SETTING,
        "worker_actions": SETTING,
        "special_actions": SETTING,
        "prize_cards": SETTING,
    }
)

COMPONENTS = Obj(
    {
        "crops": ListOf(NAME, 1, 16),
        "deck": Obj(
            {"plants": MapOf(Str(3), COUNT, 16)},
            {"weed": COUNT, "worker": COUNT, "sluggard": COUNT},
        ),
        "tasks": MapOf(NAME, MapOf(NAME, Obj({"plants": COUNT, "slots": Int(0, 64)}), 16), 16),
    }
)

SETUP = Obj(
    {
        "tasks": ListOf(NAME, 2, 4),
        "hands": ListOf(CARDS, 2, 4),
        "market": CARDS,
        "deck": CARDS,
        "specials": Obj({name: ListOf(HOLDER, 0, 4) for name in ("crow", "bazaar", "holiday")}),
        "first": SEAT,
    }
)

EVENT = Tagged(
    "e",
    {
        "end_conditions": Obj({}),
        "cond_worker": Obj({"card": CARD}),
        "cond_special": Obj({"special": SPECIAL}),
        "sluggard": Obj({"target": SEAT, "card": CARD}),
        "sluggard_cancel": Obj({"seat": SEAT, "worker": CARD}),
        "sluggard_accept": Obj({"seat": SEAT}),
        "harvest": Obj({"card": CARD}),
        "plant": Obj({"card": CARD, "bed": NAME}),
        "prize": Obj({"card": CARD}),
        "win": Obj({"seat": SEAT}),
        "weed": Obj({"target": SEAT, "bed": NAME, "card": CARD}),
        "weeding": Obj({"worker": CARD, "bed": NAME, "card": CARD}),
        "market": SWAP,
        "bazaar": Obj({"discarded": CARDS}),
        "market_laid": Obj({"market": CARDS}),
        "bazaar_swap": SWAP,
        "bazaar_done": Obj({}),
        "holiday": Obj({}),
        "discard": Obj({"seat": SEAT, "card": CARD, "why": strings("holiday", "clean")}),
        "draw": Obj({"seat": SEAT, "card": CARD, "why": strings("holiday")}),
        "crow": Obj({"card": CARD}),
        "steal": Obj({"target": SEAT, "bed": NAME, "card": CARD, "sluggard": CARD}),
        "special_passes": Obj({"special": SPECIAL, "to": SEAT}),
        "specials_return": Obj({"special": SPECIAL}),
        "reshuffle": Obj({"deck": CARDS}),
        "action_lost": Obj({}),
        "skip": Obj({"seat": SEAT, "card": CARD}),
        "aborted": Obj({}),
    },
)

TURN = Obj({"n": Int(0, 1_000_000), "seat": SEAT, "events": ListOf(EVENT, 0, 10_000)})

PER_SEAT = ListOf(COUNT, 2, 4)
RESULT = Obj(
    {
        "turns": Int(0, 1_000_000),
        "end": strings("normal", "aborted", "error"),
        "winners": ListOf(SEAT, 0, 4),
    },
    {
        "scores": ListOf(Num(0, 1e9), 2, 4),
        "ranks": ListOf(Num(1, 4), 2, 4),
        "plants": PER_SEAT,
        "beds_full": PER_SEAT,
        "hands": PER_SEAT,
    },
)

RECORD: Shape = Obj(
    {
        "format": strings(FORMAT),
        "game": strings(GAME),
        "seed": SEED,
        "players": Int(2, 4),
        "rules": RULES,
        "seats": ListOf(Obj({"bot": NAME, "params": MapOf(NAME, Anything(), 100)}), 2, 4),
        "components": COMPONENTS,
        "setup": SETUP,
        "turns": ListOf(TURN, 1, 1_000_000),
        "result": RESULT,
    },
    {"version": NAME, "error": FAULT},
)


def validate_record(record: Any) -> None:
    """Raise ``RecordError`` (``kitchen-garden record: WHERE what``) at the first field of
    the wrong type, range or length."""
    validate(RECORD, record, GAME)


def is_stopped(record: Mapping[str, Any]) -> bool:
    """Whether the record is of a game stopped before its end (a person quit): its
    ``result.end`` is ``error``, and it goes as far as the game went."""
    result = record.get("result")
    return isinstance(result, Mapping) and result.get("end") == "error"
