"""Run configs: TOML files validated into a frozen :class:`RunConfig`.

Validation happens once, at the edge: every problem becomes one line of a single
``ConfigError`` naming the field path, the value and what is allowed, and unknown keys
are errors rather than silently ignored. Rule overrides are the game's to check
(``game.make_rules`` raises its own ``ConfigError``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from cgsim.errors import CgsimError, ConfigError
from cgsim.games.datafile import read_toml_file
from cgsim.games.registry import DEFAULT_GAME, game_names, get_game
from cgsim.play.bot_registry import BotSpec, resolve_bot
from cgsim.play.limits import (
    MAX_CHUNKS,
    MAX_GAMES,
    MAX_POOL,
    MAX_SEED,
    MAX_TIME_LIMIT,
    MAX_WORKERS,
    shown,
)
from cgsim.play.shipped import config_path, shipped_names

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]*$"
MAX_NAME = 100
SCHEDULER_PATTERN = r"^[a-z][a-z0-9+.-]*://\S+$"
"""A Dask scheduler address: ``tcp://host:8786`` (any protocol Dask knows)."""
"""Characters of a run name (a folder name)."""
MAX_SHOWN = 80
"""Characters of a bad value an error repeats."""
MAX_PROBLEMS = 10
"""Problems an error lists one per line (then how many more)."""


class BotEntry(BaseModel):
    """One bot of a config: a spec string plus optional extra parameters."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bot: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)

    def as_spec(self) -> str | dict[str, Any]:
        """The form ``resolve_bot`` takes (the bare string when there are no extra params)."""
        return {"bot": self.bot, "params": dict(self.params)} if self.params else self.bot


def _bot_entry(value: Any) -> Any:
    if isinstance(value, str):
        return {"bot": value}
    if isinstance(value, Mapping | BotEntry):
        return value
    raise ValueError(
        "a bot is a spec string such as 'NAME:PARAM=VALUE' or a table "
        "{bot = 'NAME', params = {PARAM = VALUE}}"
    )


BotField = Annotated[BotEntry, BeforeValidator(_bot_entry)]


class RunConfig(BaseModel):
    """Everything a run or tournament needs; frozen so a run cannot drift from its file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(
        pattern=NAME_PATTERN, max_length=MAX_NAME, description="results go to <out>/<name>"
    )
    game: str = Field(default=DEFAULT_GAME, description="public id of the game")
    players: int = Field(default=2, ge=1, description="number of seats")
    variant: dict[str, Any] = Field(default_factory=dict, description="game seat options")
    seats: tuple[BotField, ...] = Field(default=(), description="one bot per seat (run)")
    bots: tuple[BotField, ...] = Field(
        default=(), max_length=MAX_POOL, description="bot pool (tournament)"
    )
    rules: dict[str, Any] = Field(default_factory=dict, description="rule-setting overrides")
    components: Path | None = Field(default=None, description="component catalogue file")
    games: int = Field(default=100, ge=1, le=MAX_GAMES, description="games to play")
    seed: int = Field(default=1, ge=0, le=MAX_SEED, description="run seed")
    workers: int = Field(
        default=0, ge=0, le=MAX_WORKERS, description="worker processes, 0 = all cores"
    )
    out: Path = Field(default=Path("results"), description="parent of the results folder")
    records: bool = Field(default=False, description="keep game records")
    time_limit: float = Field(
        default=0.0,
        ge=0,
        le=MAX_TIME_LIMIT,
        allow_inf_nan=False,
        description="seconds per decision, 0 = none",
    )
    isolate: bool = Field(default=False, description="each bot in its own process")
    backend: Literal["local", "dask"] = Field(
        default="local", description="where games are played: local processes or Dask"
    )
    scheduler: str | None = Field(
        default=None,
        max_length=MAX_NAME * 3,
        description="Dask scheduler address, e.g. tcp://host:8786 (none: a local cluster)",
    )
    chunk_size: int = Field(default=500, ge=1, le=MAX_GAMES, description="games per chunk file")
    sweep: dict[str, list[Any]] = Field(
        default_factory=dict, description="grid for 'cgsim sweep': rule setting or components"
    )
    tune: dict[str, Any] = Field(
        default_factory=dict, description="'cgsim tune': [tune.free] settings, [tune.targets]"
    )
    tune_bot: dict[str, Any] = Field(
        default_factory=dict, description="'cgsim tune': [tune_bot] a bot's free parameters"
    )
    sensitivity: dict[str, Any] = Field(
        default_factory=dict,
        description="'cgsim sensitivity': knobs, steps, interactions",
    )
    mechanics: dict[str, Any] = Field(
        default_factory=dict, description="'cgsim mechanics': restrictions, negligible"
    )

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in game_names():
            raise ValueError(f"unknown game; known games: {', '.join(game_names())}")
        return value

    @model_validator(mode="after")
    def _players_fit_the_game(self) -> RunConfig:
        info = get_game(self.game).info
        if not info.min_players <= self.players <= info.max_players:
            raise ValueError(
                f"players = {self.players}: allowed {info.min_players} to {info.max_players} "
                f"for {self.game}"
            )
        return self

    @model_validator(mode="after")
    def _chunks_within_bounds(self) -> RunConfig:
        chunks = -(-self.games // self.chunk_size)
        if chunks > MAX_CHUNKS:
            raise ValueError(
                f"games / chunk_size = {self.games:,} / {self.chunk_size:,} = {chunks:,} chunks: "
                f"allowed at most {MAX_CHUNKS:,}; raise chunk_size"
            )
        return self

    @field_validator("scheduler")
    @classmethod
    def _scheduler_address(cls, value: str | None) -> str | None:
        if value is not None and not re.match(SCHEDULER_PATTERN, value):
            raise ValueError("expected a scheduler address such as 'tcp://host:8786'")
        return value

    @model_validator(mode="after")
    def _scheduler_is_for_dask(self) -> RunConfig:
        if self.scheduler is not None and self.backend != "dask":
            raise ValueError(
                f"scheduler = {self.scheduler!r} is for backend = 'dask' (backend is "
                f"{self.backend!r}); add backend = 'dask' or drop the scheduler"
            )
        return self

    @model_validator(mode="after")
    def _one_bot_per_seat(self) -> RunConfig:
        if self.seats and len(self.seats) != self.players:
            raise ValueError(
                f"seats: {len(self.seats)} bots given for players = {self.players}; "
                "give exactly one bot per seat"
            )
        return self

    @property
    def results_dir(self) -> Path:
        """Where the run writes: ``<out>/<name>``."""
        return self.out / self.name

    def as_data(self) -> dict[str, Any]:
        """The config as JSON-ready data (for manifests and ``cgsim validate``)."""
        return self.model_dump(mode="json")


def _path_of(loc: Sequence[int | str]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _allowed_keys(loc: Sequence[int | str], model: type[BaseModel]) -> str:
    if model is RunConfig and len(loc) > 2 and loc[0] in ("seats", "bots"):
        model = BotEntry
    return ", ".join(model.model_fields)


_BOUND_ERRORS = frozenset(
    {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"}
)


def _range_of(model: type[BaseModel], loc: Sequence[int | str]) -> str | None:
    """``allowed LOW to HIGH (what it is)`` for a top-level field bounded on both sides."""
    if len(loc) != 1 or not isinstance(loc[0], str) or loc[0] not in model.model_fields:
        return None
    field = model.model_fields[loc[0]]
    low = high = None
    for item in field.metadata:
        low = getattr(item, "ge", getattr(item, "gt", low))
        high = getattr(item, "le", getattr(item, "lt", high))
    if low is None or high is None:
        return None
    note = f" ({field.description})" if field.description else ""
    return f"allowed {shown(low)} to {shown(high)}{note}"


def _describe(error: ErrorDetails, model: type[BaseModel]) -> str:
    loc = error["loc"]
    path = _path_of(loc)
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        return f"{path}: unknown key; allowed keys: {_allowed_keys(loc, model)}"
    if error["type"] == "missing":
        return f"{path}: required"
    if not path:
        return message
    allowed = _range_of(model, loc) if error["type"] in _BOUND_ERRORS else None
    value = shown(error.get("input"))
    if len(value) > MAX_SHOWN:
        value = value[: MAX_SHOWN - 3] + "..."
    return f"{path} = {value}: {allowed or message}"


def config_error(
    error: ValidationError, source: str, model: type[BaseModel] | None = None
) -> ConfigError:
    """One ``ConfigError`` naming every problem of a pydantic validation error, numbered on
    one line (an error is one line, whatever reads it); a bound of a field of ``model``
    (default :class:`RunConfig`) names the allowed range."""
    problems = error.errors()
    lines = [_describe(item, model or RunConfig) for item in problems[:MAX_PROBLEMS]]
    if len(problems) == 1:
        return ConfigError(f"{source}: {lines[0]}")
    text = "; ".join(f"({number}) {line}" for number, line in enumerate(lines, 1))
    if len(problems) > MAX_PROBLEMS:
        text += f"; and {len(problems) - MAX_PROBLEMS} more"
    return ConfigError(f"{source}: {len(problems)} problems: {text}")


def validate_config(data: Mapping[str, Any], source: str = "config") -> RunConfig:
    """Validate config data (``source`` names it in errors)."""
    try:
        return RunConfig.model_validate(dict(data))
    except ValidationError as error:
        raise config_error(error, source) from None


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML config file as data, with a ``ConfigError`` naming the file when it cannot be
    read or parsed (a missing file also lists the shipped configs a name may give)."""
    if not path.exists():
        raise ConfigError(
            f"config file {str(path)!r} does not exist, nor is it a shipped config "
            f"({', '.join(shipped_names())})"
        )
    return read_toml_file(path, "config file")


def load_config(
    path: Path | str | None = None, overrides: Mapping[str, Any] | None = None
) -> RunConfig:
    """Read and validate a TOML config; ``overrides`` (None values skipped) win over it.

    ``path`` is a file, or the name of a shipped config when no such file exists (None:
    the shipped default). ``name`` defaults to the file's stem; a relative ``components``
    path (also in the ``sweep`` grid) is relative to the config file, and ``out`` to the
    working directory.
    """
    path = config_path(path)
    data = read_toml(path)
    data.setdefault("name", path.stem)
    components = data.get("components")
    if isinstance(components, str):
        data["components"] = str((path.parent / components).resolve())
    sweep = data.get("sweep")
    if isinstance(sweep, dict) and isinstance(sweep.get("components"), list):
        sweep["components"] = [
            str((path.parent / item).resolve()) if isinstance(item, str) else item
            for item in sweep["components"]
        ]
    data.update({key: value for key, value in (overrides or {}).items() if value is not None})
    config = validate_config(data, str(path))
    if config.components is not None and not config.components.is_file():
        raise ConfigError(f"{path}: components = {str(config.components)!r}: file not found")
    return config


def with_overrides(config: RunConfig, overrides: Mapping[str, Any]) -> RunConfig:
    """A copy of ``config`` with some fields replaced (None values skipped), re-validated."""
    data = config.model_dump()
    data.update({key: value for key, value in overrides.items() if value is not None})
    return validate_config(data, f"config {config.name!r}")


def resolve_rules(config: RunConfig) -> Any:
    """The game's validated rules for this config (the game raises ``ConfigError``)."""
    game = get_game(config.game)
    return game.make_rules(config.players, config.rules, config.components, config.variant)


def resolve_bots(config: RunConfig, field: Literal["seats", "bots"]) -> tuple[BotSpec, ...]:
    """The config's seats or bot pool resolved through the registry.

    Errors keep their class and gain the entry's field path (``seats[1]: ...``).
    """
    entries: tuple[BotEntry, ...] = getattr(config, field)
    resolved: list[BotSpec] = []
    for index, entry in enumerate(entries):
        try:
            resolved.append(resolve_bot(entry.as_spec(), config.game))
        except CgsimError as error:
            raise type(error)(f"{field}[{index}]: {error}") from None
    return tuple(resolved)
