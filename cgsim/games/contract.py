"""The small contract between a game and everything above it.

The runner, tournaments, storage, reports and studies speak to a game only through
:class:`Game` and the :class:`GameInfo` it declares (OpenSpiel's ``GameType`` is the
model): its id, player counts, setups, variant options, bot ladder, score benchmarks,
record format and the columns it adds to the result tables, with how balance breaks
each one down. Nothing above this module names a game, a game's column or a game's bot.

States and rules are opaque to the machinery, must be picklable, and are never mutated
(``apply`` returns a new state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import (
    Any,
    NamedTuple,
    Protocol,
    TypeAlias,
    TypeVar,
    runtime_checkable,
)

from pydantic import BaseModel, ValidationError

from cgsim.errors import ConfigError

# A result row, and rows held as tuples (built by every game of a run, so compiled: see
# ``cgsim.games.held``), named here with the rest of the contract.
from cgsim.games.held import LEAD_NAMES as LEAD_NAMES
from cgsim.games.held import HeldRows as HeldRows
from cgsim.games.held import LedRows as LedRows
from cgsim.games.held import Row as Row
from cgsim.games.held import TableRows as TableRows

Action = int
"""Actions are plain ints: cheap to enumerate, hash, store and compare."""


class GameResult(NamedTuple):
    """How a finished game ended, in terms every report understands.

    A named tuple: every game of a run builds one, and a tuple is built in a third of the
    time a frozen dataclass takes."""

    scores: tuple[float, ...]
    """Final score per seat."""
    winners: tuple[int, ...]
    """Seats that share the win (one seat unless tied; empty when nobody wins)."""
    end: str
    """``normal``, ``stalled`` or ``aborted`` (and ``error`` when the runner stops a game)."""
    turns: int
    """Turns played, every seat's."""
    ranks: tuple[float, ...]
    """Finishing position per seat, 1 is best; tied seats share the mean position."""


_NO_TABLES: Mapping[str, Sequence[Row]] = MappingProxyType({})
"""No extra tables: the default of every summary, shared, so read-only."""


class GameSummary(NamedTuple):
    """What a finished game contributes to the result tables.

    ``game`` holds game-specific columns for ``games.parquet``, ``seats`` one row per
    seat of game-specific columns for ``seats.parquet`` (dicts, or a :class:`TableRows`),
    and ``tables`` extra tables of the game's own (for Cottage Garden ``beds``), each a
    list of rows or a :class:`TableRows`. A named tuple, as :class:`GameResult` is (one a
    game).
    """

    game: Row
    seats: Sequence[Row] = ()
    tables: Mapping[str, Sequence[Row]] = _NO_TABLES


# ---------------------------------------------------------------- what a game declares


class ColumnType(StrEnum):
    """The type of a result-table column, as stored in Parquet."""

    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    STR = "str"
    INT_LIST = "list[int]"


class Breakdown(StrEnum):
    """How balance analyses a column the game adds."""

    STORED = "stored"
    """Kept in the tables for the user's own queries; no balance section reads it."""
    MEASURE = "measure"
    """A per-game number (``games`` table): mean with its block interval and quartiles."""
    RATE = "rate"
    """A per-game yes/no (``games`` table): a proportion with its block interval."""
    COUNT = "count"
    """A per-seat count (``seats`` table): mean per seat-game, and compared between
    winners and the others ("choices that go with winning")."""
    ECONOMY = "economy"
    """A per-seat count that is part of the game's economy (bonuses, attacks...): as
    ``COUNT``, and tabled per player count in the economy section."""
    CATEGORY = "category"
    """A per-seat category (a secret task, a faction): the win share is split by its
    values against the fair share, and a value whose interval excludes it is flagged."""


@dataclass(frozen=True, slots=True)
class Column:
    """One column a game adds to a result table."""

    name: str
    type: ColumnType
    text: str
    """What it counts, in words a designer reads (with its unit)."""
    breakdown: Breakdown = Breakdown.STORED


@dataclass(frozen=True, slots=True)
class Comparison:
    """Within each value of ``group``, the values of ``between`` (exactly two) compared on
    ``measures`` (a name and the columns summed into it), deal blocks as units."""

    group: str
    between: str
    measures: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class Frequency:
    """How often each value of ``key`` occurs per game, with ``attributes`` (constant per
    key) shown beside it, and for ``feature`` the share of rows where it is above zero
    and its mean."""

    key: str
    attributes: tuple[str, ...] = ()
    feature: str | None = None


@dataclass(frozen=True, slots=True)
class ComponentTable:
    """An extra result table of the game's own: one row per component use (a bed scored,
    a tile taken...). The machinery leads each row with ``game_id``, ``block``, ``seat``
    and, when the row names a seat, that seat's ``bot``."""

    name: str
    text: str
    """What one row is."""
    columns: tuple[Column, ...]
    keys: tuple[str, ...] = ()
    """The columns naming a component: ``measures`` are averaged per combination."""
    measures: tuple[str, ...] = ()
    comparison: Comparison | None = None
    frequency: Frequency | None = None


@dataclass(frozen=True, slots=True)
class Schema:
    """Every column a game adds to each result table, and its own extra tables."""

    games: tuple[Column, ...] = ()
    seats: tuple[Column, ...] = ()
    tables: tuple[ComponentTable, ...] = ()

    def columns(self, table: str) -> tuple[Column, ...]:
        """The declared columns of ``games``, ``seats`` or an extra table (none if unknown)."""
        if table == "games":
            return self.games
        if table == "seats":
            return self.seats
        return next((t.columns for t in self.tables if t.name == table), ())

    def with_breakdown(self, table: str, *breakdowns: Breakdown) -> tuple[str, ...]:
        """Names of the table's columns analysed in one of these ways, in declared order."""
        return tuple(c.name for c in self.columns(table) if c.breakdown in breakdowns)

    def to_json(self) -> dict[str, Any]:
        """The schema as JSON-ready data (stamped into every manifest; read back by
        :meth:`from_json`, so reports need neither the game nor a played game)."""

        def columns(cols: Sequence[Column]) -> list[dict[str, str]]:
            return [
                {"name": c.name, "type": c.type.value, "text": c.text, "breakdown": c.breakdown}
                for c in cols
            ]

        def comparison(c: Comparison | None) -> dict[str, Any] | None:
            if c is None:
                return None
            measures = [[name, list(parts)] for name, parts in c.measures]
            return {"group": c.group, "between": c.between, "measures": measures}

        def frequency(f: Frequency | None) -> dict[str, Any] | None:
            if f is None:
                return None
            return {"key": f.key, "attributes": list(f.attributes), "feature": f.feature}

        return {
            "games": columns(self.games),
            "seats": columns(self.seats),
            "tables": [
                {
                    "name": t.name,
                    "text": t.text,
                    "columns": columns(t.columns),
                    "keys": list(t.keys),
                    "measures": list(t.measures),
                    "comparison": comparison(t.comparison),
                    "frequency": frequency(t.frequency),
                }
                for t in self.tables
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Schema:
        """The schema back from :meth:`to_json`'s form (``KeyError``/``ValueError`` if
        malformed: the caller names the file)."""

        def columns(cols: Sequence[Mapping[str, Any]]) -> tuple[Column, ...]:
            return tuple(
                Column(
                    str(c["name"]),
                    ColumnType(c["type"]),
                    str(c.get("text", "")),
                    Breakdown(c.get("breakdown", Breakdown.STORED)),
                )
                for c in cols
            )

        def table(t: Mapping[str, Any]) -> ComponentTable:
            comparison = t.get("comparison")
            frequency = t.get("frequency")
            return ComponentTable(
                str(t["name"]),
                str(t.get("text", "")),
                columns(t.get("columns", [])),
                tuple(t.get("keys", [])),
                tuple(t.get("measures", [])),
                None
                if comparison is None
                else Comparison(
                    comparison["group"],
                    comparison["between"],
                    tuple((m[0], tuple(m[1])) for m in comparison["measures"]),
                ),
                None
                if frequency is None
                else Frequency(
                    frequency["key"],
                    tuple(frequency.get("attributes", [])),
                    frequency.get("feature"),
                ),
            )

        return cls(
            columns(data.get("games", [])),
            columns(data.get("seats", [])),
            tuple(table(t) for t in data.get("tables", [])),
        )


@dataclass(frozen=True, slots=True)
class Setup:
    """A named way to set the game up: a player count and the variant options it uses."""

    name: str
    players: int
    variant: Mapping[str, Any] = field(default_factory=dict)
    playthrough: bool = False
    """Kept as a readable golden playthrough (a short game written out as text)."""


@dataclass(frozen=True, slots=True)
class Term:
    """A word or symbol of the game's own, and what it means to a newcomer (the legends of
    renderings and reports are built from these)."""

    word: str
    meaning: str


@dataclass(frozen=True, slots=True)
class ScoreUnit:
    """What a score counts, so every table, plot and summary can name its unit.

    ``lead`` is the unit a designer speaks in when it is coarser than the score (Kitchen
    Garden's plants, worth 100 score points each); differences are also shown in it.
    """

    name: str = "points"
    text: str = ""
    """How the score is made, in a few words."""
    lead: str = "points"
    per_lead: float = 1.0
    """Score points per ``lead`` unit."""

    def label(self) -> str:
        """``points`` or ``points (100 per plant, +1 per full bed)``: an axis or column label."""
        return f"{self.name} ({self.text})" if self.text else self.name

    def in_lead(self, score: float) -> float:
        """A score (or a score difference) in the lead unit."""
        return score / self.per_lead


@dataclass(frozen=True, slots=True)
class Benchmark:
    """A reference score from the rulebook (e.g. a solo game's "very good")."""

    label: str
    score: float
    players: int
    """The player count it applies to."""


@dataclass(frozen=True, slots=True)
class Restriction:
    """A restriction a bot can be put under to measure what a mechanic is worth
    (restricted play): the actions it forbids, told by the action alone."""

    name: str
    text: str
    """What the restricted player never does, in words."""
    forbids: Callable[[Action], bool]


class NoVariant(BaseModel):
    """The variant options of a game that has none."""

    model_config = {"extra": "forbid", "frozen": True}


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game declares about itself; every layer above the contract reads this."""

    id: str
    """Public id used in configs and records (``game = "cottage-garden"``)."""
    title: str
    version: str
    """Engine version: bumped whenever a change alters any outcome; stamped into every
    record, manifest and result row."""
    min_players: int
    max_players: int
    record_format: str
    """The ``format`` tag of its game records."""
    setups: tuple[Setup, ...]
    """The setups benches, golden games and playthroughs cover, most common first."""
    ladder: tuple[str, ...]
    """Its built-in bots from weakest to strongest (the strength bench plays each rung
    against the one below)."""
    variant: type[BaseModel] = NoVariant
    """A frozen pydantic model of the game's own seat options (Cottage Garden's solo and
    children's ages); its fields become ``cgsim play`` options and config keys."""
    benchmarks: tuple[Benchmark, ...] = ()
    bench_seats: tuple[str, ...] = ()
    """The bots of the parallel-throughput bench (cheap ones: a bench measures the
    machinery, not the search); empty for random players."""
    score_unit: ScoreUnit = ScoreUnit()
    notation: tuple[Term, ...] = ()
    """The symbols and words its renderings and tables use (board ids, tile kinds, track
    marks...), explained: the legend printed beside every rendering and in every report."""
    ends: tuple[Term, ...] = ()
    """What each of its end statuses (``normal``, ``stalled``, ``aborted``) means in this
    game; the machinery adds ``error`` (a bot failed)."""
    restrictions: tuple[Restriction, ...] = ()
    """What a bot can be made to never do (``cgsim mechanics`` plays a bot with and
    without each): one per mechanic worth measuring."""

    def setup(self, name: str) -> Setup:
        """The declared setup of that name."""
        for setup in self.setups:
            if setup.name == name:
                return setup
        known = ", ".join(s.name for s in self.setups)
        raise KeyError(f"{self.id} has no setup {name!r}; known: {known}")

    def validate_variant(self, variant: Mapping[str, Any] | None) -> dict[str, Any]:
        """The variant options checked against the game's model: unknown options and
        wrong types are one error naming the option and what is allowed."""
        data = dict(variant or {})
        allowed = ", ".join(self.variant.model_fields) or "none"
        unknown = sorted(set(data) - set(self.variant.model_fields))
        if unknown:
            raise ConfigError(
                f"variant option {unknown[0]!r} is not one of {self.id}'s; allowed: {allowed}"
            )
        try:
            model = self.variant.model_validate(data)
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in problem["loc"])
            raise ConfigError(
                f"variant option {where} = {problem.get('input')!r}: {problem['msg']}"
            ) from None
        return {key: getattr(model, key) for key in data}

    def benchmarks_for(self, players: int) -> dict[str, float]:
        """The reference scores that apply to a player count, by label."""
        return {b.label: b.score for b in self.benchmarks if b.players == players}


@runtime_checkable
class Recorder(Protocol):
    """Builds the game record while a game is played: one call per applied action."""

    def step(self, before: Any, action: Action, after: Any) -> None: ...

    def finish(self, final: Any) -> dict[str, Any]:
        """The complete JSON-ready record of the game."""
        ...


@runtime_checkable
class Tally(Protocol):
    """Collects a game's statistics while it is played, without building its record:
    one call per applied action. A run that keeps no record uses it instead of a
    recorder and ``Game.summarize``, and must get the same summary from it. A tally that
    subclasses ``cgsim.games.loop.Fold`` is called through the loop's native method table
    (a Python one too); any other through its ``step`` as a hook."""

    def step(self, before: Any, action: Action, after: Any) -> None: ...

    def finish(self, final: Any, result: GameResult) -> GameSummary:
        """The summary of the game, equal to ``summarize`` of its record (``result``:
        ``Game.result`` of ``final``, which the caller has already worked out)."""
        ...


class RecordTally:
    """A tally that builds the record all the same and summarizes it: for a game that has
    no cheaper way (its summary is then identical by construction)."""

    def __init__(self, game: Game[Any, Any, Any], recorder: Recorder) -> None:
        self.game = game
        self.recorder = recorder

    def step(self, before: Any, action: Action, after: Any) -> None:
        self.recorder.step(before, action, after)

    def finish(self, final: Any, result: GameResult) -> GameSummary:
        return self.game.summarize(self.recorder.finish(final))


StateT = TypeVar("StateT")
RulesT = TypeVar("RulesT")
ObsT = TypeVar("ObsT", covariant=True)


class Game(Protocol[StateT, RulesT, ObsT]):
    """A simultaneous-free, turn-based game with seeded setup and explicit decisions.

    Generic over the game's state, rules and observation types, so mypy checks bots and
    tools against a game's own types; the machinery holds a ``Game[Any, Any, Any]``.

    A game may also offer ``engine``: a subclass of ``cgsim.games.loop.Engine`` making
    ``is_terminal``, ``current_player``, ``legal_actions`` and ``apply``, the calls of
    every action, through the loop's native method table (a compiled one skips a Python
    call per call; one written in Python works too). Without one the loop calls the
    methods below.
    """

    info: GameInfo
    """What the game declares about itself (see :class:`GameInfo`)."""

    def make_rules(
        self,
        players: int,
        overrides: Mapping[str, Any],
        components: Path | None = None,
        variant: Mapping[str, Any] | None = None,
    ) -> RulesT:
        """Validated, resolved rule settings for a player count (picklable, frozen).

        ``overrides`` are rule-setting values from a config; ``components`` a data file
        replacing the default catalogue; ``variant`` game-specific seat options (e.g.
        Cottage Garden's ``solo`` and ``children``). Raises ``ConfigError`` naming the
        bad field and what is allowed.
        """
        ...

    def rules_dict(self, rules: RulesT) -> dict[str, Any]:
        """The resolved rules as JSON-ready data (for manifests and records)."""
        ...

    def new_game(self, rules: RulesT, seed: int) -> StateT:
        """The initial state; the seed alone determines the deal."""
        ...

    def current_player(self, state: StateT) -> int:
        """The seat that must choose the next action."""
        ...

    def is_terminal(self, state: StateT) -> bool: ...

    def legal_actions(self, state: StateT) -> Sequence[Action]:
        """Every legal action at the current decision point, in a fixed order."""
        ...

    def apply(self, state: StateT, action: Action) -> StateT:
        """A new state; raises ``IllegalActionError`` naming why an action is illegal."""
        ...

    def observation(self, state: StateT, seat: int) -> ObsT:
        """What ``seat`` may see: the state itself in a game without hidden information."""
        ...

    def describe_action(self, state: StateT, action: Action) -> str:
        """A short human-readable text for an action (logs, errors, rendering)."""
        ...

    def result(self, state: StateT) -> GameResult:
        """Scores, winners and ending of a terminal state."""
        ...

    def recorder(
        self, rules: RulesT, seed: int, seats: Sequence[Mapping[str, Any]], state: StateT
    ) -> Recorder:
        """A recorder for a game that starts at ``state`` (seats: ``{"bot", "params"}``)."""
        ...

    def tally(self, rules: RulesT, state: StateT) -> Tally:
        """A tally for a game that starts at ``state``: what ``summarize`` would make of
        the game's record, without the record."""
        ...

    def schema(self, rules: RulesT) -> Schema:
        """Every column the game adds to the result tables under ``rules`` (declared, never
        inferred from a played game), with how balance breaks each one down."""
        ...

    def summarize(self, record: Mapping[str, Any]) -> GameSummary:
        """Per-game, per-seat and extra statistics, derived from a finished record."""
        ...

    def render(self, state: StateT) -> str:
        """A readable terminal picture of a state (plain text, no colour codes)."""
        ...

    def describe_turns(self, record: Mapping[str, Any]) -> Mapping[int, Sequence[str]]:
        """Every recorded turn's events in words, one line each, by turn number: what was
        played, shown under each rendered state by ``play --show`` and ``replay``. The
        record has been validated (``validate_record``) first."""
        ...

    def validate_record(self, record: Any) -> None:
        """Check a record read from a file before anything uses it: its shape (types,
        ranges, lengths, by the game's declared record schema) and its rules (by the
        game's settings validation). Raises ``RecordError`` naming the game and the field,
        e.g. ``cottage-garden record: turn 12 event 3: cell[0] must be 0..4, got 7``.
        """
        ...

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[int, StateT]]:
        """Re-play a record through the engine, yielding ``(turn number, state after it)``.

        Yields the state at the start of every turn, the deal first and the final state
        last. Validates the record first (``validate_record``); raises ``RecordError``
        naming the turn and event at the first event that does not match what the engine
        does, or that the engine cannot replay at all (never another exception).
        """
        ...


@runtime_checkable
class Pictured(Protocol):
    """A game the browser viewer can draw (``cgsim replay --html``): the engine says what
    each state shows, as data, and a script of the game's own draws that data."""

    def picture(self, state: Any) -> dict[str, Any]:
        """What the viewer draws of a state, JSON-ready; ``scores`` holds each seat's
        score so far in the score unit's lead unit (the page's chart)."""
        ...

    def drawing(self) -> str:
        """The page script defining ``drawGame(element, picture, options)``."""
        ...


@dataclass(frozen=True, slots=True)
class Choice:
    """One entry of the menu a person picks from: an action (a leaf) or a group of further
    choices (a tile, then a bed, then a placement), with an optional drawing."""

    label: str
    action: Action | None = None
    drawing: str = ""
    """Lines drawn under the label (a placement on its bed), empty for none."""
    options: tuple[Choice, ...] = ()


@runtime_checkable
class Playable(Protocol):
    """A game a person can play at the terminal (``cgsim play --human``)."""

    def choices(self, view: Any, legal: Sequence[Action]) -> tuple[Choice, ...]:
        """The legal actions as a menu a person can use, from what the seat sees."""
        ...

    def render_view(self, view: Any) -> str:
        """What the seat sees, drawn as text (its observation: hidden cards stay hidden)."""
        ...


def raw_event(event: Mapping[str, Any]) -> str:
    """A recorded event as its type and fields (``gardener: space=3, value=2``): how a
    game's ``describe_turns`` shows an event it has no sentence for."""
    fields = ", ".join(f"{key}={value}" for key, value in event.items() if key != "e")
    return f"{event.get('e')}: {fields}"


AnyGame: TypeAlias = Game[Any, Any, Any]
"""A game of any types: what the machinery above the contract holds."""
