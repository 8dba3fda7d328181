"""A ``[tune_bot]`` table checked against its bot: the grid of values the search may try.

The table names the bot, its fixed opponent and the parameters left free, each a range or
a list of choices::

    players = 2
    seed = 7                      # the confirmation run's seed (as for 'cgsim run')

    [tune_bot]
    bot = "greedy"                # whose parameters are searched (fixed ones allowed)
    opponent = "greedy"           # every other seat (leave out with players = 1)
    evaluations = 96              # candidates the search plays, `batch` per round
    deals = 8                     # deals per candidate (each in every seating)

    [tune_bot.free]
    pots = { min = 0.5, max = 1.5, step = 0.1 }    # float range (11 values without step)
    depth = { min = 1, max = 4 }                   # integer range (step 1)
    style = ["safe", "bold"]                       # choices

Every value is read by the bot's own ``Params`` model before any game is played, so an
unknown parameter or a value the bot refuses is one line naming the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cgsim.errors import CgsimError, ConfigError
from cgsim.play.bot_registry import BotSpec, describe_params, param_infos, resolve_bot
from cgsim.play.config import BotEntry, BotField, RunConfig, config_error
from cgsim.play.limits import MAX_GAMES, MAX_SEED, shown
from cgsim.play.schedules import Seating
from cgsim.studies.ntbea import Point
from cgsim.studies.tune import TuneError, candidate_label

MAX_VALUES = 1000
"""Values of one free parameter."""
FLOAT_POINTS = 11
"""Values of a float range given without a step."""
MAX_DEALS = 100_000
"""Deals of one stage per candidate."""


class ParamRange(BaseModel):
    """``min..max`` by ``step``: integers when all three are, else floats."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    min: int | float
    max: int | float
    step: int | float | None = None

    @model_validator(mode="after")
    def _sound(self) -> ParamRange:
        for name in ("min", "max", "step"):
            value = getattr(self, name)
            if value is not None and not math.isfinite(value):
                raise ValueError(f"{name} = {value}: a finite number is needed")
        if self.max < self.min:
            raise ValueError(f"max ({shown(self.max)}) is below min ({shown(self.min)})")
        if self.step is not None and self.step <= 0:
            raise ValueError(f"step = {shown(self.step)}: a positive step is needed")
        if self.count > MAX_VALUES:
            raise ValueError(f"{self.count:,} values; allowed at most {MAX_VALUES:,}: raise step")
        return self

    @property
    def integers(self) -> bool:
        """Whether min, max and step (when given) are all integers."""
        return all(isinstance(v, int) for v in (self.min, self.max, self.step) if v is not None)

    @property
    def step_size(self) -> int | float:
        """The step given, else 1 for integers and a tenth of the span for floats."""
        if self.step is not None:
            return self.step
        return 1 if self.integers else (self.max - self.min) / (FLOAT_POINTS - 1)

    @property
    def count(self) -> int:
        """How many values the range holds (computed without listing them)."""
        span, step = self.max - self.min, self.step_size
        if span == 0:
            return 1
        return int(span // step) + 1 if self.integers else math.floor(span / step + 1e-9) + 1

    def values(self) -> list[int | float]:
        """Every value of the range, ``min`` first (floats rounded to 10 decimals, so a
        step of 0.1 gives 0.3, not 0.30000000000000004)."""
        if self.integers:
            return list(range(int(self.min), int(self.max) + 1, int(self.step_size)))
        return [round(self.min + k * self.step_size, 10) for k in range(self.count)]


class BotTuneSpec(BaseModel):
    """The ``[tune_bot]`` table of a config, validated."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    bot: BotField
    opponent: BotField | None = None
    evaluations: int = Field(default=96, ge=1, le=100_000)
    batch: int = Field(default=8, ge=1, le=1000)
    deals: int = Field(default=8, ge=1, le=MAX_DEALS)
    neighbours: int = Field(default=50, ge=1, le=10_000)
    exploration: float = Field(default=1.0, ge=0.0, le=100.0, allow_inf_nan=False)
    tuples: tuple[int, ...] = Field(default=(1, 2), max_length=8)
    finalists: int = Field(default=4, ge=1, le=100)
    final_deals: int = Field(default=100, ge=1, le=MAX_DEALS)
    confirm_deals: int = Field(default=500, ge=2, le=MAX_DEALS)
    seed: int = Field(default=1, ge=0, le=MAX_SEED)
    free: dict[str, ParamRange | list[Any]]
    start: dict[str, Any] = Field(default_factory=dict)
    """Values the search starts from (nearest on the grid); the bot's own for the rest."""

    @model_validator(mode="after")
    def _searchable(self) -> BotTuneSpec:
        if not self.free:
            raise ValueError("tune_bot.free: name at least one bot parameter to search")
        for key, choices in self.free.items():
            if isinstance(choices, list) and not choices:
                raise ValueError(f"tune_bot.free.{key}: an empty list of choices")
        if any(size < 1 for size in self.tuples):
            raise ValueError("tune_bot.tuples: sizes of 1 or more (1 = single parameters)")
        for key in self.start:
            if key not in self.free:
                raise ValueError(
                    f"tune_bot.start.{key}: not a free parameter; free: {', '.join(self.free)}"
                )
        return self

    @property
    def rounds(self) -> int:
        """Search rounds: ``evaluations`` in batches."""
        return math.ceil(self.evaluations / self.batch)


@dataclass(frozen=True)
class BotSearch:
    """A ``[tune_bot]`` table checked against its bot: the grid of accepted values."""

    config: RunConfig
    spec: BotTuneSpec
    bot: BotSpec
    """The bot with its fixed parameters."""
    opponent: BotSpec | None
    names: tuple[str, ...]
    grid: tuple[tuple[Any, ...], ...]
    """Per free parameter, its values as the bot's ``Params`` model reads them."""
    start: Point
    """Where the search starts: ``tune_bot.start`` or the bot's current values, snapped
    to the grid."""

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(values) for values in self.grid)

    @property
    def objective(self) -> str:
        """``win rate``, ``win share`` (3+ players) or ``mean score`` (solo)."""
        players = self.config.players
        return "mean score" if players == 1 else "win rate" if players == 2 else "win share"

    def values(self, point: Point) -> dict[str, Any]:
        """The free parameters' values at ``point``."""
        return {
            name: self.grid[d][i] for d, (name, i) in enumerate(zip(self.names, point, strict=True))
        }

    def entry(self, point: Point) -> BotEntry:
        """The bot as a config entry, with the point's values added to its fixed ones."""
        return BotEntry(
            bot=self.spec.bot.bot, params={**self.spec.bot.params, **self.values(point)}
        )

    def candidate(self, point: Point) -> BotSpec:
        """The bot with the point's values (a combination its model refuses: ``ConfigError``)."""
        try:
            return resolve_bot(self.entry(point).as_spec(), self.config.game)
        except CgsimError as error:
            label = candidate_label(self.values(point))
            raise ConfigError(f"tune_bot candidate {label}: {error}") from None

    def seats(self, player: int) -> Seating:
        """The seating with bot ``player`` at seat 0 and the opponent (bot 0) elsewhere."""
        return (player,) + (0,) * (self.config.players - 1)


def bot_tune_spec(config: RunConfig) -> BotTuneSpec:
    """The config's ``[tune_bot]`` table validated (``ConfigError`` naming the bad field)."""
    if not config.tune_bot:
        raise TuneError(f"{config.name}: no [tune_bot] table; add tune_bot.bot and [tune_bot.free]")
    try:
        return BotTuneSpec.model_validate(config.tune_bot)
    except ValidationError as error:
        raise config_error(error, f"{config.name}: tune_bot", BotTuneSpec) from None


def _accepted_values(
    bot: BotSpec, fixed: Mapping[str, Any], name: str, values: Sequence[Any]
) -> tuple[Any, ...]:
    """The values as the bot's ``Params`` model reads them; a refused one names the field,
    the value and what the bot says, with the parameter's type and default."""
    cls = bot.cls
    if name not in cls.Params.model_fields:
        raise ConfigError(
            f"tune_bot.free.{name}: bot {bot.name!r} has no parameter {name!r}; "
            f"{describe_params(cls)}"
        )
    if name in fixed:
        raise ConfigError(f"tune_bot.free.{name}: also fixed in tune_bot.bot; give it in one place")
    info = next(p for p in param_infos(cls) if p.name == name)
    accepted = []
    for value in values:
        try:
            model = cls.Params.model_validate({**fixed, name: value})
        except ValidationError as error:
            first = error.errors()[0]
            raise ConfigError(
                f"tune_bot.free.{name}: {shown(value)} is not accepted by {bot.name!r} "
                f"({first['msg']}); {name} is {info.type}, default {info.default!r}"
            ) from None
        accepted.append(getattr(model, name))
    if len(set(map(repr, accepted))) < len(accepted):
        raise ConfigError(f"tune_bot.free.{name}: a value is given twice")
    return tuple(accepted)


def _snapped(current: Any, values: Sequence[Any]) -> int:
    """The index of ``current`` in ``values``, or of the nearest number, else 0."""
    for index, value in enumerate(values):
        if value == current and type(value) is type(current):
            return index
    numbers = [
        (abs(v - current), i)
        for i, v in enumerate(values)
        if isinstance(v, int | float) and not isinstance(v, bool)
    ]
    if isinstance(current, int | float) and not isinstance(current, bool) and numbers:
        return min(numbers)[1]
    return 0


def bot_search(config: RunConfig) -> BotSearch:
    """Validate a config's ``[tune_bot]`` against its bot and opponent."""
    spec = bot_tune_spec(config)
    if config.seats or config.bots:
        raise ConfigError(
            f"{config.name}: seats and bots are not used by tune_bot (the seats are "
            "tune_bot.bot and tune_bot.opponent); remove them"
        )
    try:
        bot = resolve_bot(spec.bot.as_spec(), config.game)
    except CgsimError as error:
        raise type(error)(f"{config.name}: tune_bot.bot: {error}") from None
    opponent = None
    if config.players == 1 and spec.opponent is not None:
        raise ConfigError(f"{config.name}: tune_bot.opponent: the solo game has none; remove it")
    if config.players > 1:
        if spec.opponent is None:
            raise ConfigError(
                f"{config.name}: tune_bot.opponent: required with players = {config.players} "
                "(the fixed bot in every other seat)"
            )
        try:
            opponent = resolve_bot(spec.opponent.as_spec(), config.game)
        except CgsimError as error:
            raise type(error)(f"{config.name}: tune_bot.opponent: {error}") from None
    fixed = {key: getattr(bot.params, key) for key in bot.params.model_fields_set}
    names = tuple(spec.free)
    try:
        grid = tuple(
            _accepted_values(bot, fixed, name, v.values() if isinstance(v, ParamRange) else v)
            for name, v in spec.free.items()
        )
    except ConfigError as error:
        raise ConfigError(f"{config.name}: {error}") from None
    start = tuple(
        _snapped(spec.start.get(name, getattr(bot.params, name)), values)
        for name, values in zip(names, grid, strict=True)
    )
    search = BotSearch(config, spec, bot, opponent, names, grid, start)
    total = planned_games(search)
    if total > MAX_GAMES:
        raise ConfigError(
            f"{config.name}: tune_bot plays {total:,} games; allowed at most {MAX_GAMES:,}"
        )
    return search


def planned_games(search: BotSearch) -> int:
    """Games of the whole tuning: search, final race and confirmation."""
    spec = search.spec
    deals = spec.evaluations * spec.deals + spec.finalists * spec.final_deals + spec.confirm_deals
    return deals * search.config.players
