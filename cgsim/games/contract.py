"""The small contract between a game and everything above it.

The runner, tournaments, storage, reports and comparisons speak to a game only through
:class:`Game`. A game is a module-level object; states and rules are opaque to the
machinery, must be picklable, and are never mutated (``apply`` returns a new state).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

Action = int
"""Actions are plain ints: cheap to enumerate, hash, store and compare."""

Row = dict[str, Any]
"""One flat row of a result table (column name to scalar value)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended, in terms every report understands."""

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


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a finished game contributes to the result tables.

    ``game`` holds game-specific columns for ``games.parquet``, ``seats`` one dict per
    seat of game-specific columns for ``seats.parquet``, and ``tables`` extra tables of
    the game's own (for Cottage Garden ``beds``), each a list of rows.
    """

    game: Row = field(default_factory=dict)
    seats: tuple[Row, ...] = ()
    tables: Mapping[str, Sequence[Row]] = field(default_factory=dict)


@runtime_checkable
class Recorder(Protocol):
    """Builds the game record while a game is played: one call per applied action."""

    def step(self, before: Any, action: Action, after: Any) -> None: ...

    def finish(self, final: Any) -> dict[str, Any]:
        """The complete JSON-ready record of the game."""
        ...


class Game(Protocol):
    """A simultaneous-free, turn-based game with seeded setup and explicit decisions."""

    name: str
    """Public id used in configs (``game = "cottage-garden"``)."""
    version: str
    """Engine version: stamped into every record, manifest and result row."""
    min_players: int
    max_players: int

    def make_rules(
        self,
        players: int,
        overrides: Mapping[str, Any],
        components: Path | None = None,
        variant: Mapping[str, Any] | None = None,
    ) -> Any:
        """Validated, resolved rule settings for a player count (picklable, frozen).

        ``overrides`` are rule-setting values from a config; ``components`` a data file
        replacing the default catalogue; ``variant`` game-specific seat options (e.g.
        Cottage Garden's ``solo`` and ``children``). Raises ``ConfigError`` naming the
        bad field and what is allowed.
        """
        ...

    def rules_dict(self, rules: Any) -> dict[str, Any]:
        """The resolved rules as JSON-ready data (for manifests and records)."""
        ...

    def new_game(self, rules: Any, seed: int) -> Any:
        """The initial state; the seed alone determines the deal."""
        ...

    def current_player(self, state: Any) -> int:
        """The seat that must choose the next action."""
        ...

    def is_terminal(self, state: Any) -> bool: ...

    def legal_actions(self, state: Any) -> Sequence[Action]:
        """Every legal action at the current decision point, in a fixed order."""
        ...

    def apply(self, state: Any, action: Action) -> Any:
        """A new state; raises ``IllegalActionError`` naming why an action is illegal."""
        ...

    def observation(self, state: Any, seat: int) -> Any:
        """What ``seat`` may see: the state itself in a game without hidden information."""
        ...

    def describe_action(self, state: Any, action: Action) -> str:
        """A short human-readable text for an action (logs, errors, rendering)."""
        ...

    def result(self, state: Any) -> GameResult:
        """Scores, winners and ending of a terminal state."""
        ...

    def recorder(
        self, rules: Any, seed: int, seats: Sequence[Mapping[str, Any]], state: Any
    ) -> Recorder:
        """A recorder for a game that starts at ``state`` (seats: ``{"bot", "params"}``)."""
        ...

    def summarize(self, record: Mapping[str, Any]) -> GameSummary:
        """Per-game, per-seat and extra statistics, derived from a finished record."""
        ...

    def render(self, state: Any) -> str:
        """A readable terminal picture of a state (plain text, no colour codes)."""
        ...

    def replay(self, record: Mapping[str, Any]) -> Iterator[tuple[int, Any]]:
        """Re-play a record through the engine, yielding ``(turn number, state after it)``.

        Yields the state at the start of every turn, the deal first and the final state
        last. Raises ``RecordError`` naming the turn and event at the first event that
        does not match what the engine does.
        """
        ...
