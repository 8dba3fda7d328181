"""What each mechanic is worth: restricted play (Jaffe et al., 2012).

The config's first seat is the bot studied; the other seats keep their bots. The bot is
played unrestricted (as ``restricted`` with no restriction: the same games, under a
name of its own) and then under each restriction the game declares (or those the
config's ``[mechanics] restrictions`` lists), every run on the config's seed, so every
run deals the same games and the seats rotate over each deal. A mechanic's worth is what
the bot loses when it may not use it: the drop of its win share and of its score, per
deal paired, with 95% t intervals and Holm over every test.

Flags: a mechanic is *worth nothing* when the win-share change's interval lies within
``negligible`` (default 0.02) of zero (established to be tiny, not merely not found),
and *worth everything* when the restricted bot's win share stays below ``everything``
(default 0.2) times the fair share with its whole interval: a mechanic without which
the bot cannot win. Both are design flags.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from cgsim.errors import CgsimError, ConfigError
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.config import RunConfig, with_overrides
from cgsim.play.restricted import chosen_restrictions, restricted_spec
from cgsim.play.results import load_tables
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
from cgsim.reporting.stats import block_mean_interval, holm_adjust, pair_by_key, paired_difference

Echo = Callable[[str], Any]
SETTINGS = frozenset({"restrictions", "negligible", "everything"})
BASELINE = "unrestricted"


class MechanicsError(CgsimError):
    """A mechanics study that cannot be played."""


class MechanicsStopped(Exception):
    """A run stopped before its last game."""

    def __init__(self, point: str, status: str) -> None:
        super().__init__(f"{point}: {status}")
        self.point = point
        self.status = status


@dataclass(frozen=True, slots=True)
class MechanicsSettings:
    """What the study plays and how it flags."""

    bot: str
    restrictions: tuple[str, ...]
    negligible: float
    everything: float


def mechanics_settings(config: RunConfig) -> MechanicsSettings:
    """The studied bot (first seat) and the restrictions, checked against the game."""
    settings = dict(config.mechanics)
    unknown = sorted(set(settings) - SETTINGS)
    if unknown:
        raise ConfigError(
            f"mechanics.{unknown[0]}: unknown key; allowed: {', '.join(sorted(SETTINGS))}"
        )
    if config.players < 2:
        raise MechanicsError("mechanics: restricted play needs opponents; give players >= 2")
    if not config.seats:
        raise MechanicsError("mechanics: give seats; the first seat's bot is the one restricted")
    game = get_game(config.game)
    declared = [r.name for r in game.info.restrictions]
    if not declared:
        raise MechanicsError(f"mechanics: {config.game} declares no restrictions")
    names = settings.get("restrictions", declared)
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"mechanics.restrictions = {names!r}: expected a non-empty list")
    for name in names:
        chosen_restrictions(game, name)
    bounds = {}
    for key, default in (("negligible", 0.02), ("everything", 0.2)):
        value = settings.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise ConfigError(f"mechanics.{key} = {value!r}: expected a number 0 to 1")
        bounds[key] = float(value)
    bot = resolve_bot(config.seats[0].as_spec(), config.game).label
    return MechanicsSettings(bot, tuple(names), bounds["negligible"], bounds["everything"])


def _point(config: RunConfig, name: str, bot: str, without: tuple[str, ...]) -> RunConfig:
    seats = [restricted_spec(bot, without), *[s.as_spec() for s in config.seats[1:]]]
    return with_overrides(
        config,
        {
            "name": name,
            "out": config.out / config.name,
            "seats": seats,
            "sweep": {},
            "tune": {},
            "mechanics": {},
        },
    )


def _studied(folder: Path) -> pl.DataFrame:
    """Per deal seed: the studied seat's (seat entry 0, the restricted bot) mean win share
    and score."""
    tables = load_tables(folder)
    games = tables["games"].filter(pl.col("end").is_in(["normal", "stalled"]))
    restricted = pl.col("bot").str.starts_with("cgsim.play.restricted:")
    seats = tables["seats"].filter(restricted).join(games.select("game_id", "seed"), on="game_id")
    return seats.group_by("seed").agg(
        pl.col("win_share").cast(pl.Float64).mean(), pl.col("score").cast(pl.Float64).mean()
    )


def _play(config: RunConfig, fresh: bool, progress: bool | None) -> pl.DataFrame:
    result = run_games(config, plan_for(config, "run"), fresh=fresh, progress=progress)
    if result.status != "complete":
        raise MechanicsStopped(config.name, result.status)
    return _studied(result.results_dir)


def worth_rows(
    base: pl.DataFrame, restricted: Mapping[str, pl.DataFrame], players: int
) -> list[dict[str, Any]]:
    """Per restriction and measure: unrestricted and restricted means, the paired change
    (restricted - unrestricted) with its 95% interval and p-value, and the share of
    deals whose result the restriction changed."""
    rows = []
    for name, frame in restricted.items():
        for measure in ("win_share", "score"):
            mine, theirs = pair_by_key(
                frame["seed"].to_numpy(),
                frame[measure].to_numpy(),
                base["seed"].to_numpy(),
                base[measure].to_numpy(),
            )
            diff = paired_difference(mine, theirs)
            level = block_mean_interval(mine, np.arange(mine.size))
            changed = float(np.mean(mine != theirs)) if mine.size else math.nan
            rows.append(
                {
                    "restriction": name,
                    "measure": measure,
                    "unrestricted": float(np.mean(theirs)) if theirs.size else None,
                    "restricted": level.estimate,
                    "restricted_low": level.low,
                    "restricted_high": level.high,
                    "change": diff.estimate,
                    "low": diff.low,
                    "high": diff.high,
                    "p_value": 1.0 if math.isnan(diff.p_value) else diff.p_value,
                    "deals": diff.n,
                    "deals_changed": changed,
                    "fair_share": 1.0 / players,
                }
            )
    return rows


def flag_rows(
    rows: list[dict[str, Any]], settings: MechanicsSettings, alpha: float
) -> pl.DataFrame:
    """The table with Holm over every test, the verdict and the design flag."""
    table = pl.DataFrame(rows, infer_schema_length=None)
    adjusted = holm_adjust(table["p_value"].to_numpy())
    flags = []
    for row in table.iter_rows(named=True):
        flag = ""
        if row["measure"] == "win_share":
            if (
                row["low"] is not None
                and -settings.negligible <= row["low"]
                and row["high"] <= settings.negligible
            ):
                flag = "worth nothing"
            elif row["restricted_high"] is not None and row["restricted_high"] < (
                settings.everything * row["fair_share"]
            ):
                flag = "worth everything"
            if row["deals_changed"] == 0.0:
                flag = "never binding (never chosen, or never avoidable)"
        flags.append(flag)
    verdict = np.where(adjusted < alpha, "established", "not established").tolist()
    return table.with_columns(
        pl.Series("p_holm", adjusted), pl.Series("verdict", verdict), pl.Series("flag", flags)
    )


@dataclass(frozen=True, slots=True)
class Mechanics:
    """A finished study."""

    table: pl.DataFrame
    settings: MechanicsSettings


def run_mechanics(
    config: RunConfig,
    *,
    alpha: float = 0.05,
    fresh: bool = False,
    progress: bool | None = None,
    echo: Echo = lambda _: None,
) -> Mechanics:
    """Play the bot unrestricted and under each restriction on the same deals."""
    settings = mechanics_settings(config)
    total = len(settings.restrictions) + 1
    echo(f"[1/{total}] {BASELINE}")
    base = _play(_point(config, BASELINE, settings.bot, ()), fresh, progress)
    played = {}
    for k, name in enumerate(settings.restrictions, start=2):
        echo(f"[{k}/{total}] without {name}")
        point = _point(config, f"without-{name}", settings.bot, (name,))
        played[name] = _play(point, fresh, progress)
    rows = worth_rows(base, played, config.players)
    return Mechanics(flag_rows(rows, settings, alpha), settings)


def write_mechanics_report(config: RunConfig, study: Mechanics, out_dir: Path) -> dict[str, Path]:
    """mechanics.csv, mechanics.md, mechanics.html and the plot of each mechanic's worth."""
    # Deferred: loads matplotlib, which most commands never need.
    from cgsim.reporting.studyplots import plot_worth

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out_dir / "mechanics.csv"}
    study.table.write_csv(paths["csv"])
    texts = {r.name: r.text for r in get_game(config.game).info.restrictions}
    plots = [
        plot_worth(
            study.table.filter(pl.col("measure") == measure),
            out_dir / "plots" / f"worth-{measure}.png",
            label=measure,
        )
        for measure in ("win_share", "score")
    ]
    s = study.settings
    lines = [
        f"What each mechanic of {config.game} is worth to {s.bot} in {config.name}: the bot "
        f"played unrestricted and under each restriction, {config.games} games each on the "
        f"same deals (run seed {config.seed}), seats rotated. Change = restricted - "
        "unrestricted, per deal paired, 95% intervals, Holm over every test.",
        f"Flags: worth nothing = the win-share change lies within +-{s.negligible:g}; worth "
        f"everything = the restricted win share stays below {s.everything:g} x the fair share.",
    ]
    notes = [f"{name}: {texts.get(name, '')}" for name in s.restrictions]
    shown = study.table.select(
        "restriction",
        "measure",
        "unrestricted",
        "restricted",
        "change",
        "low",
        "high",
        "deals_changed",
        "p_holm",
        "verdict",
        "flag",
    )
    page = Page(
        f"Mechanics: {config.name}",
        text=lines,
        notes=notes,
        sections=[
            PageSection(
                "Worth of each mechanic", tables=[PageTable(shown, "mechanics.csv")], plots=plots
            )
        ],
    )
    paths["markdown"], paths["html"] = write_page(page, out_dir, "mechanics")
    return paths
