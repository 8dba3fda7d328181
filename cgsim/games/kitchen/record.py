"""Kitchen Garden game records (format ``cgsim.kitchen-record/1``): write and replay.

The recorder re-runs each action through ``rules.apply`` with an event log, so a record
says exactly what the engine did. Replay rebuilds the rules from the record itself
(settings and embedded components), checks the setup the seed deals, then for each
recorded decision finds the one legal action whose events are the next recorded ones.
The document ``docs/kitchen-record.md`` describes every field.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from cgsim.errors import CgsimError, ConfigError, RecordError
from cgsim.games.contract import Action
from cgsim.games.kitchen.cards import SPECIALS, catalogue_dict, catalogue_from_mapping
from cgsim.games.kitchen.record_schema import FORMAT as FORMAT
from cgsim.games.kitchen.record_schema import GAME as GAME_NAME
from cgsim.games.kitchen.record_schema import validate_record as validate_shape
from cgsim.games.kitchen.rules import apply, legal_actions, new_game
from cgsim.games.kitchen.scoring import beds_full, plants_planted, result
from cgsim.games.kitchen.settings import KitchenRules, make_rules, settings_dict
from cgsim.games.kitchen.state import MIDDLE, USED, Phase, State


def _holder(holder: int) -> int | str:
    if holder == USED:
        return "used"
    if holder == MIDDLE:
        return "middle"
    return holder


def specials_dict(state: State) -> dict[str, list[int | str]]:
    """Where each special card is: per type, per copy, a seat, ``used`` or ``middle``."""
    return {
        name: [_holder(holder) for holder in state.specials[index]]
        for index, name in enumerate(SPECIALS)
    }


def setup_dict(state: State) -> dict[str, Any]:
    """The deal a state starts from: tasks, hands, market, deck (top first), specials."""
    catalogue = state.rules.catalogue
    return {
        "tasks": [catalogue.tasks[task].name for task in state.tasks],
        "hands": [list(hand) for hand in state.hands],
        "market": list(state.market),
        "deck": list(state.deck[::-1]),
        "specials": specials_dict(state),
        "first": state.active,
    }


def result_dict(state: State) -> dict[str, Any]:
    """The ``result`` object: the ``GameResult`` plus plants, full beds and hand sizes."""
    players = state.players
    base: dict[str, Any] = {
        "plants": [plants_planted(state, seat) for seat in range(players)],
        "beds_full": [beds_full(state, seat) for seat in range(players)],
        "hands": [len(hand) for hand in state.hands],
    }
    if state.phase != Phase.OVER:
        return {"end": "error", "turns": state.turn, "winners": [], **base}
    outcome = result(state)
    return {
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "ranks": list(outcome.ranks),
        "turns": outcome.turns,
        "end": outcome.end,
        **base,
    }


class KitchenRecorder:
    """Collects the events of a game, grouped by turn, into one JSON-ready record."""

    def __init__(
        self,
        rules: KitchenRules,
        seed: int,
        seats: Sequence[Mapping[str, Any]],
        state: State,
        version: str,
    ) -> None:
        self._head: dict[str, Any] = {
            "format": FORMAT,
            "game": GAME_NAME,
            "version": version,
            "seed": seed,
            "players": rules.players,
            "rules": settings_dict(rules),
            "seats": [dict(seat) for seat in seats],
            "components": catalogue_dict(rules.catalogue),
            "setup": setup_dict(state),
        }
        self._turns: list[dict[str, Any]] = [{"n": state.turn, "seat": state.active, "events": []}]

    def step(self, before: Any, action: Action, after: Any) -> None:
        log: list[dict[str, Any]] = []
        apply(before, action, log)
        for event in log:
            if event["e"] == "turn":
                self._turns.append({"n": event["n"], "seat": event["seat"], "events": []})
            else:
                self._turns[-1]["events"].append(event)

    def finish(self, final: Any) -> dict[str, Any]:
        return {**self._head, "turns": self._turns, "result": result_dict(final)}


def rules_from_record(record: Mapping[str, Any]) -> KitchenRules:
    """The rules a record was played with, from its own ``rules`` and ``components``.

    The settings go through the game's own validation with its ranges; a value it
    refuses is a ``RecordError`` naming the field.
    """
    if record.get("format") != FORMAT:
        raise RecordError(f"record format {record.get('format')!r}; expected {FORMAT!r}")
    try:
        catalogue = catalogue_from_mapping(record["components"], "components")
        settings = dict(record["rules"])
        players = settings.pop("players")
        if players != record["players"]:
            raise ConfigError(f"players is {players!r}, the record's players {record['players']!r}")
        return make_rules(players, settings, catalogue=catalogue)
    except KeyError as error:
        raise RecordError(f"{GAME_NAME} record: misses the field {error.args[0]!r}") from None
    except ConfigError as error:
        text = str(error)
        field = "" if text.startswith("components") else "rules: "
        raise RecordError(f"{GAME_NAME} record: {field}{text}") from None
    except (CgsimError, TypeError, AttributeError, ValueError) as error:
        raise RecordError(f"{GAME_NAME} record: a malformed field: {error}") from None


def validate_record(record: Any) -> None:
    """The record's shape (``record_schema``), then its rules through the settings'
    validation: everything checked before a replay, as ``RecordError`` naming the field."""
    validate_shape(record)
    rules_from_record(record)


def _event_stream(record: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """Every event with the turn it belongs to; turn starts become ``turn`` events again."""
    stream: list[tuple[int, dict[str, Any]]] = []
    turns = record.get("turns")
    if not isinstance(turns, list) or not turns:
        raise RecordError("record field 'turns' must be a non-empty list")
    for index, turn in enumerate(turns):
        try:
            number = turn["n"]
            events = turn["events"]
            if index:
                stream.append((number, {"e": "turn", "n": number, "seat": turn["seat"]}))
        except (KeyError, TypeError):
            raise RecordError(f"turn entry {index} needs 'n', 'seat' and 'events'") from None
        stream.extend((number, event) for event in events)
    return stream


def replay(record: Mapping[str, Any]) -> Iterator[tuple[int, State]]:
    """Re-play a record through the engine, yielding ``(turn, state)`` at the start of
    every turn (the deal first, the final state last), as the ``Game`` contract says.

    The record is validated first (``validate_record``); any failure later, even one the
    engine did not foresee, is a ``RecordError`` naming the turn and event reached.
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
        self.stream: list[tuple[int, dict[str, Any]]] = []
        self.at = -1

    def where(self) -> str:
        if self.at < 0:
            return "setup"
        if self.at >= len(self.stream):
            return "after the last event"
        number = self.stream[self.at][0]
        first = next(i for i, (n, _) in enumerate(self.stream) if n == number)
        return f"turn {number} event {self.at - first}"


def _replay(record: Mapping[str, Any], position: _Position) -> Iterator[tuple[int, State]]:
    rules = rules_from_record(record)
    seed = record["seed"]
    state = new_game(rules, seed)
    if setup_dict(state) != record["setup"]:
        raise RecordError(f"setup does not match what seed {seed} deals")
    yield state.turn, state
    stream = position.stream = _event_stream(record)
    position.at = 0
    while position.at < len(stream):
        number, event = stream[position.at]
        if state.phase == Phase.OVER:
            raise RecordError(f"turn {number}: event {event} comes after the end of the game")
        expected = [item for _, item in stream[position.at :]]
        for action in legal_actions(state):
            log: list[dict[str, Any]] = []
            following = apply(state, action, log)
            if log and log == expected[: len(log)]:
                break
        else:
            raise RecordError(f"turn {number}: event {event} does not match any legal action")
        position.at += len(log)
        if following.turn != state.turn and following.phase != Phase.OVER:
            yield following.turn, following
        state = following
    if state.phase == Phase.OVER:
        yield state.turn, state
    recorded = record.get("result")
    if isinstance(recorded, Mapping) and recorded.get("end") == "error":
        return
    if state.phase != Phase.OVER:
        raise RecordError(f"turn {state.turn}: the record ends before the game does")
    if recorded != result_dict(state):
        raise RecordError(f"result {recorded} does not match the replayed {result_dict(state)}")
