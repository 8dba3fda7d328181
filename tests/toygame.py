"""A tiny game implementing the whole ``Game`` protocol, for testing the run machinery.

Each seat is dealt a secret target; on each turn the seat adds 1..max_take to its total
without passing the target (a seat at its target can only pass: a single legal action).
After ``rounds`` rounds the score is the total, plus 2 for hitting the target exactly.
The module also holds bots for it, including faulty ones for fault-containment tests.
"""

from __future__ import annotations

import gc
import inspect
import json
import os
import random
import signal
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from multiprocess.connection import Connection
from pydantic import BaseModel, ConfigDict

from cgsim.errors import ConfigError, IllegalActionError, RecordError
from cgsim.games.bot import ANY_GAME, Bot
from cgsim.games.contract import (
    Action,
    Breakdown,
    Column,
    ColumnType,
    ComponentTable,
    Frequency,
    GameInfo,
    GameResult,
    GameSummary,
    RecordTally,
    Restriction,
    Schema,
    Setup,
    Term,
)
from cgsim.games.registry import register_game

NAME = "toy"
PASS = 0


class ToyVariant(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    solo: bool | None = None


SCHEMA = Schema(
    games=(
        Column("rounds", ColumnType.INT, "rounds played"),
        Column("exact_hits", ColumnType.INT, "seats that hit their target", Breakdown.MEASURE),
    ),
    seats=(
        Column("target", ColumnType.INT, "the secret target"),
        Column("parity", ColumnType.STR, "odd or even target", Breakdown.CATEGORY),
        Column("takes", ColumnType.INT, "steps taken", Breakdown.COUNT),
        Column("passes", ColumnType.INT, "turns passed", Breakdown.ECONOMY),
    ),
    tables=(
        ComponentTable(
            "moves",
            "one row per step of 3 or more",
            (
                Column("seat", ColumnType.INT, "the seat"),
                Column("turn", ColumnType.INT, "the turn"),
                Column("take", ColumnType.INT, "the step"),
            ),
            frequency=Frequency(key="take"),
        ),
    ),
)
INFO = GameInfo(
    id=NAME,
    title="Toy",
    version="toy-1",
    min_players=1,
    max_players=4,
    record_format="toy/1",
    setups=(Setup("solo", 1), Setup("2 players", 2, playthrough=True), Setup("3 players", 3)),
    ladder=("random", f"{__name__}:Wanderer", f"{__name__}:Greedy"),
    variant=ToyVariant,
    notation=(Term("3/5", "a seat's total and its secret target"),),
    ends=(Term("normal", "every round was played"),),
    restrictions=(
        Restriction("big-steps", "never takes 2 or 3 at once", lambda action: action >= 2),
        Restriction(
            "passing",
            "never passes (passing is forced when it is legal)",
            lambda action: action == PASS,
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class ToyRules:
    players: int
    rounds: int = 4
    max_take: int = 3
    explode: int = -1
    decor: int = 0
    """Changes the deal's random stream and nothing else: a knob that cannot matter."""
    solo: bool = False


@dataclass(frozen=True, slots=True)
class ToyState:
    rules: ToyRules
    targets: tuple[int, ...]
    totals: tuple[int, ...]
    turn: int = 0


class ToyRecorder:
    def __init__(self, rules: ToyRules, seed: int, seats: Sequence[Mapping[str, Any]]) -> None:
        self.record: dict[str, Any] = {
            "format": "toy/1",
            "seed": seed,
            "players": rules.players,
            "rules": asdict(rules),
            "seats": [dict(seat) for seat in seats],
            "turns": [],
        }

    def step(self, before: Any, action: Action, after: Any) -> None:
        self.record["turns"].append({"seat": before.turn % before.rules.players, "take": action})

    def finish(self, final: Any) -> dict[str, Any]:
        result = GAME.result(final)
        self.record["targets"] = list(final.targets)
        self.record["result"] = {"scores": list(result.scores), "winners": list(result.winners)}
        return self.record


class ToyGame:
    info = INFO

    def make_rules(
        self,
        players: int,
        overrides: Mapping[str, Any],
        components: Path | None = None,
        variant: Mapping[str, Any] | None = None,
    ) -> ToyRules:
        if not INFO.min_players <= players <= INFO.max_players:
            raise ConfigError(f"players = {players}: the toy game takes 1 to 4")
        allowed = {"rounds", "max_take", "explode", "decor"}
        for key, value in overrides.items():
            if key not in allowed:
                raise ConfigError(
                    f"rules.{key}: unknown rule; allowed: {', '.join(sorted(allowed))}"
                )
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"rules.{key} = {value!r}: must be an integer")
        variant = INFO.validate_variant(variant)
        solo = bool(variant.get("solo", players == 1))
        return ToyRules(players=players, solo=solo, **dict(overrides))

    def rules_dict(self, rules: Any) -> dict[str, Any]:
        return asdict(rules)

    def new_game(self, rules: Any, seed: int) -> ToyState:
        rng = random.Random(seed + 1_000_003 * rules.decor)
        targets = tuple(rng.randint(4, 3 * rules.rounds) for _ in range(rules.players))
        return ToyState(rules=rules, targets=targets, totals=(0,) * rules.players)

    def current_player(self, state: Any) -> int:
        return int(state.turn % state.rules.players)

    def is_terminal(self, state: Any) -> bool:
        return bool(state.turn >= state.rules.rounds * state.rules.players)

    def legal_actions(self, state: Any) -> Sequence[Action]:
        seat = self.current_player(state)
        room = state.targets[seat] - state.totals[seat]
        if room <= 0:
            return [PASS]
        return list(range(1, min(state.rules.max_take, room) + 1))

    def apply(self, state: Any, action: Action) -> Any:
        if state.turn == state.rules.explode:
            raise RuntimeError("the toy engine exploded")
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"take {action} is not legal")
        seat = self.current_player(state)
        totals = list(state.totals)
        totals[seat] += action
        return replace(state, totals=tuple(totals), turn=state.turn + 1)

    def observation(self, state: Any, seat: int) -> Any:
        return state

    def describe_action(self, state: Any, action: Action) -> str:
        return "pass" if action == PASS else f"take {action}"

    def result(self, state: Any) -> GameResult:
        scores = tuple(
            float(total + (2 if total == target else 0))
            for total, target in zip(state.totals, state.targets, strict=True)
        )
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        ranks = tuple(
            sum(1 for other in scores if other > score)
            + (sum(1 for other in scores if other == score) + 1) / 2
            for score in scores
        )
        return GameResult(
            scores=scores, winners=winners, end="normal", turns=state.turn, ranks=ranks
        )

    def recorder(
        self, rules: Any, seed: int, seats: Sequence[Mapping[str, Any]], state: Any
    ) -> ToyRecorder:
        return ToyRecorder(rules, seed, seats)

    def tally(self, rules: Any, state: Any) -> RecordTally:
        return RecordTally(self, self.recorder(rules, 0, [], state))

    def schema(self, rules: ToyRules) -> Schema:
        return SCHEMA

    def summarize(self, record: Mapping[str, Any]) -> GameSummary:
        players = record["players"]
        turns = record["turns"]
        scores = record["result"]["scores"]
        seats = tuple(
            {
                "target": record["targets"][seat],
                "parity": "even" if record["targets"][seat] % 2 == 0 else "odd",
                "takes": sum(1 for t in turns if t["seat"] == seat and t["take"] != PASS),
                "passes": sum(1 for t in turns if t["seat"] == seat and t["take"] == PASS),
            }
            for seat in range(players)
        )
        moves = [
            {"seat": t["seat"], "turn": n, "take": t["take"]}
            for n, t in enumerate(turns)
            if t["take"] >= 3
        ]
        exact = sum(1 for seat in range(players) if scores[seat] > record["targets"][seat])
        return GameSummary(
            game={"rounds": record["rules"]["rounds"], "exact_hits": exact},
            seats=seats,
            tables={"moves": moves},
        )

    def render(self, state: Any) -> str:
        return " ".join(f"{t}/{g}" for t, g in zip(state.totals, state.targets, strict=True))

    def describe_turns(self, record: Mapping[str, Any]) -> dict[int, list[str]]:
        return {
            n: [f"seat {turn['seat']} takes {turn['take']}"]
            for n, turn in enumerate(record["turns"], start=1)
        }

    def validate_record(self, record: Any) -> None:
        if not isinstance(record.get("turns"), list):
            raise RecordError("toy record: turns must be a list")

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[int, Any]]:
        self.validate_record(record)
        rules = ToyRules(**record["rules"])
        state = self.new_game(rules, record["seed"])
        yield 0, state
        for n, turn in enumerate(record["turns"], start=1):
            if turn["take"] not in self.legal_actions(state):
                raise RecordError(f"turn {n}: take {turn['take']} is not legal")
            state = self.apply(state, turn["take"])
            yield n, state


GAME = ToyGame()


def register() -> None:
    """Make the toy game known as ``toy`` (idempotent)."""
    register_game(NAME, f"{__name__}:GAME")


def target(cls: type[Bot]) -> str:
    """The ``module:Class`` spec of a bot defined here."""
    return f"{__name__}:{cls.__name__}"


class ToyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    bias: float = 0.0
    depth: int = 1
    cautious: bool = False
    note: str = ""


class Greedy(Bot):
    """Takes as much as allowed."""

    name: ClassVar[str] = "toy-greedy"
    description: ClassVar[str] = "takes the largest step"
    games: ClassVar[tuple[str, ...]] = (NAME,)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return max(legal_actions)


class Wanderer(Bot):
    """Random steps, with a few typed parameters to exercise spec parsing."""

    name: ClassVar[str] = "toy-wanderer"
    description: ClassVar[str] = "random steps, biased to the largest"
    games: ClassVar[tuple[str, ...]] = (NAME,)
    Params: ClassVar[type[BaseModel]] = ToyParams

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if rng.random() < self.params.bias:
            return max(legal_actions)
        return legal_actions[rng.randrange(len(legal_actions))]


class Watcher(Wanderer):
    """Checks the hooks: new_game first, observe after every action."""

    def new_game(self, game: Any, seat: int, state: Any) -> None:
        super().new_game(game, seat, state)
        self.seen = 0

    def observe(self, state: Any, seat: int, action: Action) -> None:
        self.seen += 1
        if self.seen != state.turn:
            raise AssertionError("observe was not called after every action")


class FaultParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: int = 0
    delay: float = 0.0
    marker: str = ""


class Faulty(Bot):
    """Base of the faulty bots: misbehaves on the decision of turn ``at``."""

    games: ClassVar[tuple[str, ...]] = (NAME,)
    Params: ClassVar[type[BaseModel]] = FaultParams

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if state.turn >= self.params.at:
            return self.misbehave(legal_actions)
        return legal_actions[0]

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        raise NotImplementedError


class Crash(Faulty):
    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        raise ValueError("boom")


class Cheat(Faulty):
    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        return 99


class Slow(Faulty):
    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        time.sleep(self.params.delay)
        return legal_actions[0]


class KillOnce(Faulty):
    """Kills its own process the first time it plays (the marker file remembers)."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        marker = Path(self.params.marker)
        if not marker.exists():
            marker.write_text("killed\n")
            os._exit(3)
        return legal_actions[0]


class KillAlways(Faulty):
    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        os._exit(4)


class Linger(Faulty):
    """Closes its bot process's socket, then ends that process a moment later (in
    isolation mode; the game then reports the process's own exit code, not a kill)."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        os.close(int(sys.argv[1]))
        time.sleep(0.3)
        os._exit(5)


class Forge(Faulty):
    """Answers, from its bot process (in isolation mode), that it could not read the
    request: a bot's own failure passed off as the engine's."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        reply = json.dumps({"unreadable": "TypeError: forged"}).encode()
        Connection(int(sys.argv[1])).send_bytes(reply)
        os._exit(6)


class Stubborn(Faulty):
    """Ignores the time limit's alarm and never returns (only the parent can stop it)."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            time.sleep(0.01)


class Interrupt(Faulty):
    """Raises ``KeyboardInterrupt`` as if the user had pressed Ctrl-C."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        raise KeyboardInterrupt


class Swallow(Faulty):
    """Catches the time limit's timeout and carries on, forever."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        while True:
            try:
                while True:
                    time.sleep(0.01)
            except BaseException:  # the timeout too: swallowing is the point
                continue


class Quit(Faulty):
    """Raises ``SystemExit`` as if the program were done."""

    def misbehave(self, legal_actions: Sequence[Action]) -> Action:
        raise SystemExit(3)


class Tamper(Faulty):
    """Rewrites the shared rules through ``object.__setattr__``: every later game of its
    worker would allow steps of up to 9."""

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if state.turn >= self.params.at:
            object.__setattr__(state.rules, "max_take", 9)
        return legal_actions[0]


class Peek(Bot):
    """Looks for the full state (every hand, the deck) up the call stack and among all
    live objects; a game it could read ends in its error, naming what it saw."""

    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = (ANY_GAME,)

    looked: bool = False

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        frame = inspect.currentframe()
        candidates: list[Any] = []
        while frame is not None:
            candidates.extend(frame.f_locals.values())
            frame = frame.f_back
        if not self.looked:  # every live object, once a game (it is slow)
            candidates.extend(gc.get_objects())
            self.looked = True
        for candidate in candidates:
            kind = type(candidate)  # looked up on the class: no side effects
            if isinstance(candidate, type) or any(
                inspect.getattr_static(kind, name, None) is None for name in ("hands", "deck")
            ):
                continue
            raise RuntimeError(f"saw hidden cards: hands {candidate.hands}")
        return legal_actions[rng.randrange(len(legal_actions))]


class Inflate(Bot):
    """Multiplies Cottage Garden's orange scoring track by 1000 through
    ``object.__setattr__`` on the shared rule settings, then plays the first action."""

    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = (ANY_GAME,)

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        settings = state.rules.settings
        if max(settings.orange_track) < 1000:
            inflated = tuple(1000 * value for value in settings.orange_track)
            object.__setattr__(settings, "orange_track", inflated)
        return legal_actions[0]


class UnluckyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: int = 3
    chance: float = 0.1
    delay: float = 0.0


class Unlucky(Bot):
    """Random steps, but a draw below ``chance`` from turn ``at`` on is its fault: it
    raises (or, with a ``delay``, sleeps that long), so only some games of a run fail,
    each as its seed decides."""

    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = (NAME,)
    Params: ClassVar[type[BaseModel]] = UnluckyParams

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        draw = rng.random()
        if state.turn >= self.params.at and draw < self.params.chance:
            if self.params.delay:
                time.sleep(self.params.delay)
            else:
                self.despair(draw, state.turn)
        return legal_actions[rng.randrange(len(legal_actions))]

    def despair(self, draw: float, turn: int) -> None:
        raise ValueError(f"unlucky draw {draw:.9f} on turn {turn}")


def _unreadable() -> None:
    raise TypeError("__init__() missing required argument 'segments'")


class UnreadableActions(list[int]):
    """Legal actions that pickle but do not unpickle (as a compiled class without its own
    ``__reduce__`` did): isolation mode cannot send them to a bot's process."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unreadable, ())


class UnpicklableActions(list[int]):
    """Legal actions that do not pickle at all."""

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError(f"cannot pickle {type(self).__name__!r} object")


class UnreadableRules(ToyRules):
    """Rules that pickle but do not unpickle."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unreadable, ())


class UnpicklableRules(ToyRules):
    """Rules that do not pickle at all."""

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError(f"cannot pickle {type(self).__name__!r} object")
