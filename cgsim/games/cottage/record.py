"""Game records (format ``cgsim.record/1``, game-record.md): writing and replaying.

A record is built from the events every state carries; replay feeds a record back
through the engine, deriving each decision from the next recorded event, and stops at
the first event the engine does not produce the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from cgsim.errors import ConfigError, IllegalActionError, RecordError
from cgsim.games.cottage import actions as act
from cgsim.games.cottage.components import catalogue_from_json, cell_index
from cgsim.games.cottage.nursery import CORNERS, nursery_index, nursery_rc
from cgsim.games.cottage.record_schema import FORMAT as FORMAT
from cgsim.games.cottage.record_schema import GAME as GAME_ID
from cgsim.games.cottage.record_schema import validate_record as validate_shape
from cgsim.games.cottage.rules import apply, make_rules, new_game
from cgsim.games.cottage.scoring import result_of
from cgsim.games.cottage.settings import SETTING_NAMES, make_settings
from cgsim.games.cottage.state import COLOR_NAMES, Event, Phase, State, board_json

TURN_MARKER = "_turn"


def setup_json(state: State) -> dict[str, Any]:
    """The record's ``setup``: the deal as the seed made it, before any decision."""
    catalogue = state.rules.catalogue
    tiles = catalogue.tiles
    supply_board = state.supply_board
    assert supply_board is not None
    return {
        "nursery": [[tiles[state.nursery[r * 4 + c]].id for c in range(4)] for r in range(4)],
        "path": [tiles[t].id for t in state.path],
        "beds": [
            [board_json(state.rules, bed.board, bed.dark) for bed in p.beds if bed is not None]
            for p in state.players
        ],
        "supply_board": board_json(state.rules, *supply_board),
        "gardener": {"space": state.space, "value": state.value},
        "cats": [p.cats for p in state.players],
        "supply": {"cats": state.supply_cats, "pots": state.supply_pots},
        "corner_cats": [],
    }


class CottageRecorder:
    """Collects a game's events into a record, turn by turn."""

    def __init__(
        self, seed: int, seats: Sequence[Mapping[str, Any]], state: State, engine: str
    ) -> None:
        rules = state.rules
        self.record: dict[str, Any] = {
            "format": FORMAT,
            "game": GAME_ID,
            "engine_version": engine,
            "seed": seed,
            "players": rules.players,
            "rules": rules.settings.to_json(),
            "seats": [{"bot": str(s["bot"]), "params": dict(s.get("params", {}))} for s in seats],
            "components": rules.catalogue.to_json(),
            "setup": setup_json(state),
            "turns": [],
        }
        self._turns: list[dict[str, Any]] = self.record["turns"]
        self._take(state.events)

    def _take(self, events: Sequence[Event]) -> None:
        for event in events:
            if event["e"] == TURN_MARKER:
                self._turns.append(
                    {
                        "n": event["n"],
                        "seat": event["seat"],
                        "final_round": event["final_round"],
                        "events": [],
                    }
                )
            else:
                self._turns[-1]["events"].append(event)

    def step(self, before: Any, action: int, after: Any) -> None:
        self._take(after.events)

    def finish(self, final: Any) -> dict[str, Any]:
        """The complete record; ``result`` is filled once the game is over (a game stopped
        before its end has none, and keeps only its complete turns)."""
        state: State = final
        setup = self.record["setup"]
        corner_cats = [
            {"seat": seat, "corner": list(nursery_rc(corner))}
            for seat, player in enumerate(state.players)
            for corner in player.corners
        ]
        if corner_cats and not setup["corner_cats"]:
            setup["corner_cats"] = corner_cats
            setup["supply"]["cats"] -= len(corner_cats)
        if state.phase == Phase.OVER:
            self.record["result"] = result_json(state)
        elif self._turns:
            # A game stopped before its end (a person quit) keeps its complete turns:
            # the turn in progress was never played out.
            self._turns.pop()
        return self.record


def result_json(state: State) -> dict[str, Any]:
    """The record's ``result`` of a finished game."""
    result = result_of(state)
    return {
        "scores": [int(x) for x in result.scores],
        "beehives": [p.beehive for p in state.players],
        "winners": list(result.winners),
        "turns": state.turn,
        "end": result.end,
    }


# --------------------------------------------------------------------------- replay


def _expected_stream(record: Mapping[str, Any]) -> list[tuple[int, int, Event]]:
    """The record's events as one stream with turn markers: (turn, index in turn, event)."""
    stream: list[tuple[int, int, Event]] = []
    try:
        for turn in record["turns"]:
            n = turn["n"]
            marker = {
                "e": TURN_MARKER,
                "n": n,
                "seat": turn["seat"],
                "final_round": turn["final_round"],
            }
            stream.append((n, -1, marker))
            stream.extend((n, i, event) for i, event in enumerate(turn["events"]))
    except (KeyError, TypeError) as error:
        raise RecordError(f"record turns are malformed: {error}") from None
    return stream


def rules_from_record(record: Mapping[str, Any]) -> Any:
    """The engine rules a record was played with (settings and embedded components).

    The settings go through the game's own validation with its ranges; a value it
    refuses is a ``RecordError`` naming the field.
    """
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        found = record.get("format") if isinstance(record, Mapping) else type(record).__name__
        raise RecordError(f"not a {FORMAT} record (format: {found!r})")
    try:
        players = record["players"]
        settings_data = {k: v for k, v in record["rules"].items() if k in SETTING_NAMES}
        settings = make_settings(players, settings_data)
        catalogue = catalogue_from_json(record["components"])
        return make_rules(players, settings, catalogue)
    except ConfigError as error:
        text = str(error)
        field = "" if text.startswith("rules.") else "rules: "
        raise RecordError(f"{GAME_ID} record: {field}{text}") from None
    except RecordError as error:
        raise RecordError(f"{GAME_ID} record: components: {error}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise RecordError(f"{GAME_ID} record: a malformed field: {error!r}") from None


def validate_record(record: Any) -> None:
    """The record's shape (``record_schema``), then its rules through the settings'
    validation: everything checked before a replay, as ``RecordError`` naming the field."""
    validate_shape(record)
    rules_from_record(record)


def _action_for(state: State, event: Event, record: Mapping[str, Any]) -> int:
    """The decision that produces ``event`` at the current decision point."""
    phase, e = state.phase, event.get("e")
    if phase == Phase.CORNERS:
        corners = {
            nursery_index(*c["corner"])
            for c in record["setup"]["corner_cats"]
            if c["seat"] == state.seat
        }
        mask = sum(1 << i for i, corner in enumerate(CORNERS) if corner in corners)
        return act.encode(act.CORNERS, mask)
    if phase == Phase.RAMBLE:
        return act.encode(act.RAMBLE, int(e == "refill" and bool(event.get("ramble"))))
    if phase == Phase.PENALTY and e == "penalty":
        return act.encode(
            act.PENALTY, act.cube_code(COLOR_NAMES.index(event["color"]), event["cube"])
        )
    if phase == Phase.CUBE and e == "move":
        return act.encode(act.CUBE, act.cube_code(COLOR_NAMES.index(event["color"]), event["cube"]))
    if phase == Phase.BONUS and e == "bonus_pot":
        return act.encode(act.BONUS_POT, cell_index(*event["cell"]))
    if phase == Phase.AFTER and e == "cat" and event.get("why") == "limit":
        return act.encode(act.DONE)  # the turn ended first; the cat limit placed this cat
    if phase in (Phase.PLANT, Phase.AFTER, Phase.LIMIT) and e == "cat":
        return act.encode(act.CAT, cell_index(*event["cell"]), bed=event["bed"])
    if phase == Phase.PLANT:
        if e == "take_pot":
            return act.encode(act.POT, cell_index(*event["cell"]), bed=event["bed"])
        if e == "pass":
            return act.encode(act.PASS)
        if e == "take_tile":
            return _tile_action(state, event)
    if phase == Phase.AFTER:
        if e == "score":
            return act.encode(act.SCORE, bed=event["bed"])
        return act.encode(act.DONE)
    raise RecordError(f"turn {state.turn}: event {e!r} cannot happen at this point of the turn")


def _tile_action(state: State, event: Event) -> int:
    catalogue = state.rules.catalogue
    cell = nursery_index(*event["from"])
    tile = state.nursery[cell]
    if tile < 0 or catalogue.tiles[tile].id != event["tile"]:
        raise RecordError(
            f"turn {state.turn}: tile {event['tile']} is not at nursery {event['from']}"
        )
    mask = sum(1 << cell_index(r, c) for r, c in event["cells"])
    features = {"pot": 0, "cloche": 0}
    for key, feature in event["features"].items():
        r, c = (int(x) for x in key.split(","))
        features[feature] |= 1 << cell_index(r, c)
    kind = catalogue.kinds[catalogue.tile_kind[tile]]
    for index, place in enumerate(kind.placements):
        if (place.mask, place.pots, place.cloches) == (mask, features["pot"], features["cloche"]):
            return act.encode(act.TILE, index, bed=event["bed"], cell=cell)
    raise RecordError(
        f"turn {state.turn}: cells {event['cells']} are not a placement of {event['tile']}"
    )


class _Stopped(Exception):
    """The record of a game stopped before its end ends here, where a turn starts."""


def _check(
    state: State,
    produced: Sequence[Event],
    stream: list[tuple[int, int, Event]],
    at: int,
    stopped: bool = False,
) -> int:
    for event in produced:
        if at >= len(stream):
            if stopped and event["e"] == TURN_MARKER:
                raise _Stopped
            raise RecordError(f"the engine goes on after the record ends: {event}")
        n, i, expected = stream[at]
        if event != expected:
            where = f"turn {n} start" if i < 0 else f"turn {n} event {i}"
            raise RecordError(f"{where}: the record says {expected}, the engine does {event}")
        at += 1
    return at


def replay(record: Mapping[str, Any]) -> Iterator[tuple[int, State]]:
    """Re-play a record, yielding ``(turn, state)`` at the first decision of every turn.

    The first item is the deal (turn 0 while children still choose corners, else turn
    1); the last item is the final state, or, for a game stopped before its end (a
    record without ``result``, holding whole turns), the start of the turn it stopped
    in. The record is validated first
    (``validate_record``); any failure later, even one the engine did not foresee, is a
    ``RecordError`` naming the turn and event reached.
    """
    validate_record(record)
    position = _Position()
    try:
        yield from _replay(record, position)
    except RecordError:
        raise
    except Exception as error:
        raise RecordError(
            f"{position.where()}: the engine cannot replay the record here "
            f"({type(error).__name__}: {error})"
        ) from None


class _Position:
    """How far a replay got in the record's event stream, for error messages."""

    def __init__(self) -> None:
        self.stream: list[tuple[int, int, Event]] = []
        self.at = -1

    def where(self) -> str:
        if self.at < 0:
            return "setup"
        if self.at >= len(self.stream):
            return "after the last event"
        n, i, _ = self.stream[self.at]
        return f"turn {n} start" if i < 0 else f"turn {n} event {i}"


def _replay(record: Mapping[str, Any], position: _Position) -> Iterator[tuple[int, State]]:
    rules = rules_from_record(record)
    state = new_game(rules, int(record["seed"]))
    expected_setup = dict(record["setup"])
    actual = setup_json(state)
    corner_cats = expected_setup.get("corner_cats") or []
    if corner_cats:
        actual["corner_cats"] = corner_cats
        actual["supply"]["cats"] -= len(corner_cats)
    for key, value in actual.items():
        if expected_setup.get(key) != value:
            raise RecordError(
                f"setup.{key}: the record says {expected_setup.get(key)}, the seed deals {value}"
            )
    stream = position.stream = _expected_stream(record)
    stopped = "result" not in record
    try:
        at = position.at = _check(state, state.events, stream, 0, stopped)
    except _Stopped:
        yield state.turn, state
        return
    yield state.turn, state
    shown = state.turn
    while state.phase != Phase.OVER:
        if shown != state.turn and state.phase != Phase.CORNERS:
            shown = state.turn
            yield state.turn, state
        if stopped and state.phase == Phase.CORNERS and not _chose_corners(record, state.seat):
            yield state.turn, state  # stopped while this seat's child chose its corners
            return
        event = stream[at][2] if at < len(stream) else {"e": "end of record"}
        action = _action_for(state, event, record)
        try:
            state = apply(state, action)
        except IllegalActionError as error:
            raise RecordError(
                f"turn {state.turn}: the recorded event {event} is illegal: {error}"
            ) from None
        try:
            at = position.at = _check(state, state.events, stream, at, stopped)
        except _Stopped:
            yield state.turn, state  # where the game stopped: a turn no one played
            return
    if at != len(stream):
        n, i, event = stream[at]
        raise RecordError(
            f"turn {n} event {i}: the game is over but the record goes on with {event}"
        )
    _check_result(record, state)
    yield state.turn, state


def _chose_corners(record: Mapping[str, Any], seat: int) -> bool:
    """Whether the record's setup has the corners the child of ``seat`` chose."""
    return any(cat["seat"] == seat for cat in record["setup"]["corner_cats"])


def _check_result(record: Mapping[str, Any], state: State) -> None:
    expected = record.get("result")
    actual = result_json(state)
    if not isinstance(expected, Mapping):
        raise RecordError("the record has no result")
    for key, value in actual.items():
        if expected.get(key) != value:
            raise RecordError(
                f"result.{key}: the record says {expected.get(key)}, the engine gives {value}"
            )
