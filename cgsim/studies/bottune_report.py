"""What a bot tuning leaves behind: ``tuned.toml`` (a run config that replays the
confirmation and carries the tuned bot entry), the page and the tables of the search."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import ConfigError
from cgsim.play.config import RunConfig
from cgsim.reporting.pages import Page, PageSection, PageTable, write_page
from cgsim.reporting.stats import Interval
from cgsim.studies.bottune import BotTuneResult
from cgsim.studies.tune import candidate_label

BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
TUNED_FILE = "tuned.toml"


def toml_value(value: Any) -> str:
    """A value in TOML: strings, numbers, booleans, arrays and inline tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ConfigError(f"{value!r} cannot be written to a config")
        return repr(value)
    if isinstance(value, str | Path):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, Mapping):
        items = ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return f"{{ {items} }}" if items else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise ConfigError(f"{value!r} cannot be written to a config")


def toml_key(key: str) -> str:
    """A key, quoted unless it is bare."""
    return key if BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _seat_data(seat: Mapping[str, Any]) -> Any:
    return {"bot": seat["bot"], "params": seat["params"]} if seat.get("params") else seat["bot"]


def run_config_text(config: RunConfig) -> str:
    """The fields of a run config that decide its games, as TOML (``seats`` one a line)."""
    data = config.as_data()
    lines = [f"{key} = {toml_value(data[key])}" for key in ("name", "game", "players", "seed")]
    lines.append(f"games = {data['games']}")
    for key in ("variant", "rules"):
        if data[key]:
            lines.append(f"{key} = {toml_value(data[key])}")
    if data["components"] is not None:
        lines.append(f"components = {toml_value(data['components'])}")
    if data["time_limit"]:
        lines.append(f"time_limit = {toml_value(data['time_limit'])}")
    lines.append("seats = [")
    lines += [f"    {toml_value(_seat_data(seat))}," for seat in data["seats"]]
    lines.append("]")
    return "\n".join(lines) + "\n"


def strength_text(result: BotTuneResult) -> str:
    """``win rate 0.532 [0.511, 0.553] against greedy over 1,000 fresh deals (2,000 games)``."""
    search = result.search
    s = result.strength
    deals = f"{s.n:,} fresh deals ({s.n * search.config.players:,} games)"
    figure = f"{s.estimate:.3f} [{s.low:.3f}, {s.high:.3f}]"
    if search.opponent is None:
        return f"mean solo score {figure} over {deals}"
    fair = "" if search.config.players == 2 else f" (fair share {1 / search.config.players:.3f})"
    return f"{search.objective} {figure}{fair} against {search.opponent.label} over {deals}"


def tuned_text(result: BotTuneResult, command: str) -> str:
    """``tuned.toml``: the confirmation run as a config, its result in the comments."""
    return (
        f"# {result.search.bot.name} tuned by: {command}\n"
        f"# confirmed: {strength_text(result)}\n"
        f"# spec string: {result.label}\n"
        "# The first seat is the tuned bot: copy it into any config's seats or bots.\n"
        "# 'cgsim run' of this file plays the confirmation's games again.\n"
        + run_config_text(result.confirm_config)
    )


def _interval_row(what: str, interval: Interval) -> dict[str, Any]:
    return {
        "measure": what,
        "estimate": interval.estimate,
        "low": interval.low,
        "high": interval.high,
        "deals": interval.n,
    }


def write_bot_tune_report(result: BotTuneResult, out_dir: Path, command: str) -> dict[str, Path]:
    """tuned.toml, tune.md, tune.html, tune_path.csv and tune_finalists.csv."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "tuned": out_dir / TUNED_FILE,
        "path_csv": out_dir / "tune_path.csv",
        "finalists_csv": out_dir / "tune_finalists.csv",
    }
    paths["tuned"].write_text(tuned_text(result, command), encoding="utf-8")
    result.path.write_csv(paths["path_csv"])
    result.finalists.write_csv(paths["finalists_csv"])
    search = result.search
    spec = search.spec
    confirmation = pl.DataFrame(
        [_interval_row(search.objective, result.strength)]
        + ([] if search.opponent is None else [_interval_row("mean score", result.score)])
    )
    by_round = (
        result.path.group_by("round", maintain_order=True)
        .agg(
            candidates=pl.len(),
            best_value=pl.col("value").max(),
            mean_value=pl.col("value").mean(),
        )
        .sort("round")
    )
    intro = [
        f"Tuned {', '.join(search.names)} of `{search.bot.label}` for its {search.objective}"
        + (f" against `{search.opponent.label}`" if search.opponent else "")
        + f" by NTBEA: {spec.evaluations} candidates in {spec.rounds} rounds, {spec.deals} "
        f"deals each (search seed {spec.seed}), then {len(result.finalists)} finalists on "
        f"{spec.final_deals} fresh deals, then a confirmation on {spec.confirm_deals} fresh "
        f"deals (run seed {search.config.seed}); {result.games:,} games in "
        f"{result.seconds:.0f} s.",
        f"Tuned: `{result.label}`, {candidate_label(result.best)}.",
        f"Confirmed: {strength_text(result)}. The search's and the race's figures chose "
        "the winner and are biased upwards (the winner's curse); only the confirmation "
        "measures its strength.",
        f"`{TUNED_FILE}` replays the confirmation with `cgsim run` and holds the bot entry.",
    ]
    sections = [
        PageSection("Confirmation (95% t interval over deals)", tables=[PageTable(confirmation)]),
        PageSection(
            "Final race (fresh deals shared by the finalists)",
            tables=[PageTable(result.finalists, "tune_finalists.csv")],
        ),
        PageSection(
            "Search rounds (each candidate's value on its round's deals)",
            tables=[PageTable(by_round, "tune_path.csv")],
        ),
    ]
    page = Page(f"Bot tuning: {search.config.name}", text=intro, sections=sections)
    paths["markdown"], paths["html"] = write_page(page, out_dir, "tune")
    return paths
