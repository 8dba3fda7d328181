"""The report of a results directory: tables, plots, ``report.md`` and ``report.html``.

All aggregation runs in polars, lazily over the Parquet chunks; only aggregates are
collected (per bot, seat or deal block), so a report of a huge run needs little memory.
Outcome statistics (win rates, ratings, positions, scores, lengths) use the games that
ended ``normal`` or ``stalled``; aborted and error games are counted and listed apart.
Nothing here knows a particular game: game-specific columns and tables are summarised
generically when the results have them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl

from cgsim.errors import ConfigError
from cgsim.games.contract import GameInfo, ScoreUnit
from cgsim.games.narrate import ERROR_END
from cgsim.games.registry import get_game
from cgsim.play.results import (
    CORE_SCHEMAS,
    ERRORS_DIR,
    GAMES_SCHEMA,
    MANIFEST,
    SEATS_SCHEMA,
    open_results,
    read_manifest,
    scan,
    table_names,
    trace_path,
)
from cgsim.reporting import plots
from cgsim.reporting.balance import (
    MIN_DEPTH_ELO,
    NO_SCHEMA_NOTE,
    balance_tables,
    shown_sections,
)
from cgsim.reporting.intervals import benchmark_shares, interval_table
from cgsim.reporting.metrics import DECIDED_ENDS, schema_of
from cgsim.reporting.notable import notable_section
from cgsim.reporting.pages import Page, PageSection, PageTable, format_value, shown_rows, write_page
from cgsim.reporting.ratings import rate_bots
from cgsim.reporting.stats import SUMMARY_QUANTILES
from cgsim.reporting.verdict import verdict_lines

END_STATUSES = ("normal", "stalled", "aborted", "error")
MAX_SHOWN_ROWS = 50
"""Rows shown per table in report.md/html; the CSV always has every row."""
ID_COLUMNS = ("game_id", "block", "seat")

PlotMaker = Callable[[Path], Path]


@dataclass(frozen=True)
class Section:
    """A titled part of the report: an explanation, its tables and its plots (by name)."""

    title: str
    text: str
    tables: tuple[str, ...] = ()
    plots: tuple[str, ...] = ()


@dataclass
class Report:
    """Everything a report shows, before it is written anywhere."""

    results_dir: Path
    overview: list[tuple[str, str]]
    notes: list[str]
    tables: dict[str, pl.DataFrame]
    sections: list[Section]
    plot_makers: dict[str, PlotMaker] = field(default_factory=dict)
    verdict: list[str] = field(default_factory=list)
    """The plain-language verdict the report opens with (``cgsim.reporting.verdict``)."""


@dataclass(frozen=True)
class ReportPaths:
    """Where a report was written."""

    markdown: Path
    html: Path
    tables: dict[str, Path]
    """Table name to its CSV file (in ``tables/``)."""
    plots: dict[str, Path]
    """Plot name to its PNG file (in ``plots/``)."""


def write_report(
    results_dir: Path,
    *,
    n_bootstrap: int = 200,
    seed: int = 0,
    out_dir: Path | None = None,
    leave_out: Sequence[str] = (),
) -> ReportPaths:
    """Build the report of ``results_dir`` and write it (into ``out_dir``, default the
    results directory itself): report.md, report.html, plots/*.png, tables/*.csv."""
    report = build_report(results_dir, n_bootstrap=n_bootstrap, seed=seed, leave_out=leave_out)
    return save_report(report, Path(results_dir) if out_dir is None else out_dir)


def build_report(
    results_dir: Path, *, n_bootstrap: int = 200, seed: int = 0, leave_out: Sequence[str] = ()
) -> Report:
    """Compute every table of the report (raises ResultsError for a non-results path or a
    damaged one, naming the file). ``leave_out`` names bots the ratings plot leaves out
    (reference bots such as ``random``); a name the run has not is a ``ConfigError``."""
    results = open_results(results_dir)
    builder = _Builder(Path(results_dir), read_manifest(results_dir), n_bootstrap, seed)
    with results.reading():
        builder.check_bots(leave_out)
        builder.leave_out = tuple(leave_out)
        return builder.build()


def save_report(report: Report, out_dir: Path) -> ReportPaths:
    """Write a built report: CSV tables, PNG plots, then Markdown and HTML that show them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    _clear_previous(out_dir)
    table_paths: dict[str, Path] = {}
    (out_dir / "tables").mkdir(exist_ok=True)
    for name, table in report.tables.items():
        table_paths[name] = out_dir / "tables" / f"{name}.csv"
        table.write_csv(table_paths[name])
    plot_paths = {
        name: make(out_dir / "plots" / f"{name}.png") for name, make in report.plot_makers.items()
    }
    page_of_report = report_page(report, plot_paths)
    notable = notable_section(report.results_dir, out_dir)
    if notable is not None:
        sections = [*page_of_report.sections, notable]
        page_of_report = replace(page_of_report, sections=sections)
    markdown, page = write_page(page_of_report, out_dir, "report")
    return ReportPaths(markdown=markdown, html=page, tables=table_paths, plots=plot_paths)


def _clear_previous(out_dir: Path) -> None:
    """Remove the CSVs and PNGs of an earlier report, so none outlives its table or plot."""
    for folder, pattern in (("tables", "*.csv"), ("plots", "*.png")):
        for stale in (out_dir / folder).glob(pattern):
            stale.unlink()


# ---------------------------------------------------------------- aggregation helpers


def _is_numeric(dtype: pl.DataType) -> bool:
    return dtype.is_numeric() or dtype == pl.Boolean


def _extra_numeric(schema: pl.Schema, core: Mapping[str, pl.DataType]) -> list[str]:
    return [
        n for n, t in schema.items() if n not in core and n not in ID_COLUMNS and _is_numeric(t)
    ]


def _quantile_name(q: float) -> str:
    return f"q{round(q * 100):02d}"


def _distribution(frame: pl.LazyFrame, keys: Sequence[str], column: str) -> pl.DataFrame:
    """Count, mean, sd, min, 5/25/50/75/95% quantiles and max of ``column`` per group."""
    value = pl.col(column).cast(pl.Float64)
    aggregates = [
        value.count().cast(pl.Int64).alias("n"),
        value.mean().alias("mean"),
        value.std().alias("sd"),
        value.min().alias("min"),
        *[
            value.quantile(q, interpolation="linear").alias(_quantile_name(q))
            for q in SUMMARY_QUANTILES
        ],
        value.max().alias("max"),
    ]
    if keys:
        return frame.group_by(list(keys)).agg(aggregates).sort(list(keys)).collect()
    table = frame.select(aggregates).collect()
    return table.filter(pl.col("n") > 0)


def _histogram(frame: pl.LazyFrame, column: str) -> pl.DataFrame:
    return (
        frame.select(pl.col(column).alias("value"))
        .drop_nulls()
        .group_by("value")
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort("value")
        .collect()
    )


def declaration(manifest: Mapping[str, Any]) -> GameInfo | None:
    """What the run's game declares (its notation, endings, score unit), or None for a
    game this installation does not know."""
    try:
        return get_game(str(manifest.get("game"))).info
    except ConfigError:
        return None


def score_benchmarks(manifest: Mapping[str, Any]) -> dict[str, float]:
    """Reference scores from the manifest (``score_benchmarks``: label to score), at the top
    level or under ``rules``; empty when the game has none."""
    for source in (manifest, manifest.get("rules")):
        if isinstance(source, Mapping):
            found = source.get("score_benchmarks")
            if isinstance(found, Mapping) and found:
                return {str(label): float(value) for label, value in found.items()}
    return {}


# ---------------------------------------------------------------- the builder


class _Builder:
    """Computes the report's tables and sections in reading order."""

    def __init__(
        self, results: Path, manifest: dict[str, Any], n_bootstrap: int, seed: int
    ) -> None:
        self.results = results
        self.manifest = manifest
        self.n_bootstrap = n_bootstrap
        self.seed = seed
        self.tables: dict[str, pl.DataFrame] = {}
        self.sections: list[Section] = []
        self.notes: list[str] = []
        self.plot_makers: dict[str, PlotMaker] = {}
        self.games = scan(results, "games")
        self.seats = scan(results, "seats")
        self.decided_games = self.games.filter(pl.col("end").is_in(DECIDED_ENDS))
        self.decided_ids = self.decided_games.select("game_id")
        self.decided_seats = self.seats.join(self.decided_ids, on="game_id", how="semi")
        self.schema = schema_of(manifest, str(results / MANIFEST))
        self.balance: dict[str, pl.DataFrame] = {}
        self.info = declaration(manifest)
        self.unit = self.info.score_unit if self.info else ScoreUnit()
        self.leave_out: tuple[str, ...] = ()

    def check_bots(self, names: Sequence[str]) -> None:
        """Every name must be a bot of this run (a ``ConfigError`` listing them)."""
        bots = sorted(self.seats.select(pl.col("bot").unique()).collect().to_series().to_list())
        unknown = [name for name in names if name not in bots]
        if unknown:
            raise ConfigError(
                f"--leave-out {unknown[0]!r}: not a bot of this run; its bots: {', '.join(bots)}"
            )

    def build(self) -> Report:
        counts = self.games.select(
            pl.len().alias("games"),
            pl.col("end").is_in(DECIDED_ENDS).sum().alias("decided"),
            pl.col("players").max().alias("max_players"),
        ).collect()
        total, decided = int(counts["games"][0]), int(counts["decided"][0])
        max_players = counts["max_players"][0] or 0
        overview = self._overview(total)
        if total == 0:
            self.notes.append("This run has no games yet: nothing to report beyond the overview.")
        elif decided == 0:
            self.notes.append(
                f"None of the {total} games ended normally, so there are no outcome "
                "statistics; see End status and Errors."
            )
        else:
            declared = {term.word for term in self.info.ends} if self.info else set()
            ends = [end for end in DECIDED_ENDS if end in declared or not declared]
            self.notes.append(
                f"Outcome statistics use the {decided} of {total} games that ended "
                f"{' or '.join(ends)} (End status says what each ending means)."
            )
            self.notes.append(f"Scores are in {self.unit.label()}.")
            if "schema" not in self.manifest:
                self.notes.append(NO_SCHEMA_NOTE)
            names = [*CORE_SCHEMAS]
            names += [n for n in table_names(self.results) if n not in CORE_SCHEMAS]
            tables = {name: scan(self.results, name) for name in names}
            self.balance = balance_tables(tables, self.schema, seed=self.seed)
            if max_players > 1:
                self._outcomes()
            else:
                self.notes.append("Solo run: no win rates or ratings; the score is the measure.")
            self._scores()
            self._lengths()
            self._game_specific()
            self._balance()
        if total > 0:
            self._ends()
            self._notation()
        return Report(
            self.results,
            overview,
            self.notes,
            self.tables,
            self.sections,
            self.plot_makers,
            verdict_lines({**self.balance, **self.tables}),
        )

    # -- overview

    def _overview(self, total: int) -> list[tuple[str, str]]:
        m = self.manifest
        facts = self.games.select(
            pl.col("seed").n_unique().alias("seeds"),
            pl.col("seed").min().alias("seed_min"),
            pl.col("seed").max().alias("seed_max"),
            pl.col("block").n_unique().alias("blocks"),
            pl.col("players").unique().sort().implode().alias("players"),
            (pl.col("end") == "error").sum().alias("errors"),
        ).collect()
        bots = self.seats.select(pl.col("bot").n_unique()).collect().item()
        timings = m.get("timings") if isinstance(m.get("timings"), Mapping) else {}
        wall = timings.get("wall_seconds") if timings else None
        rate = timings.get("games_per_second") if timings else None
        wall_text = "unknown" if wall is None else f"{float(wall):.1f} s"
        if rate is not None:
            wall_text += f" ({float(rate):.1f} games/s)"
        players = facts["players"][0].to_list() if total else []
        seeds_text = (
            f"{facts['seeds'][0]} distinct ({facts['seed_min'][0]}..{facts['seed_max'][0]})"
            if total
            else "none"
        )
        return [
            ("Run", str(m.get("name", self.results.name))),
            ("Command", str(m.get("command", "unknown"))),
            ("Game", str(m.get("game", "unknown"))),
            ("Engine version", str(m.get("engine_version", "unknown"))),
            ("cgsim version", str(m.get("cgsim_version", "unknown"))),
            (
                "Games",
                f"{total} in tables ({m.get('games_done', '?')} done of {m.get('games_planned', '?')} planned)",
            ),
            ("Errors", str(facts["errors"][0] if total else 0)),
            ("Players", ", ".join(str(p) for p in players) or "none"),
            ("Bots", str(bots)),
            ("Run seed", str(m.get("run_seed", "unknown"))),
            ("Deal seeds", seeds_text),
            ("Deal blocks", str(facts["blocks"][0] if total else 0)),
            ("Wall time", wall_text),
            ("Started", str(m.get("started") or "unknown")),
            ("Finished", str(m.get("finished") or "not finished")),
        ]

    # -- multi-player outcomes

    def _outcomes(self) -> None:
        contest = self.decided_seats.filter(pl.col("players") > 1)
        win_rate = interval_table(contest, ["bot"], pl.col("win_share"), "win_rate", rate=True)
        win_rate = win_rate.with_columns(
            (pl.col("win_rate") * pl.col("games")).round(9).alias("wins")
        ).select("bot", "games", "blocks", "wins", "win_rate", "low", "high")
        win_rate = win_rate.sort(["win_rate", "bot"], descending=[True, False])
        self.tables["win_rate"] = win_rate
        fairs = contest.select((1.0 / pl.col("players")).unique()).collect().to_series().to_list()
        fair = fairs[0] if len(fairs) == 1 else None
        self.plot_makers["win_rate"] = lambda path: plots.plot_win_rates(win_rate, path, fair)
        self.sections.append(
            Section(
                "Win rate per bot",
                "Share of games won (a shared win counts 1/k for each of k winners), with 95% "
                "intervals that treat each deal block as one unit (cluster-robust).",
                ("win_rate",),
                ("win_rate",),
            )
        )
        ratings = rate_bots(contest, n_bootstrap=self.n_bootstrap, seed=self.seed)
        self.tables["ratings"] = ratings
        leave_out = self.leave_out
        self.plot_makers["ratings"] = lambda path: plots.plot_ratings(ratings, path, leave_out)
        far = plots.off_scale(
            {
                row["bot"]: row["rating"]
                for row in ratings.iter_rows(named=True)
                if row["bot"] not in leave_out
            }
        )
        shown = ""
        if far:
            shown += (
                f" The plot's axis is zoomed to the bots that matter: {', '.join(sorted(far))} "
                "lies far from the others and is marked at the edge with its value."
            )
        if leave_out:
            shown += f" Left out of the plot (not of the fit): {', '.join(leave_out)}."
        self.sections.append(
            Section(
                "Ratings",
                "Bradley-Terry strengths fitted to every pair of seats in every game (a tie is "
                "half a win each way), on the Elo scale (+400 = 10:1 odds), mean bot 0. "
                f"95% intervals: {self.n_bootstrap} bootstrap resamples of whole deal blocks. "
                "The gap from the strongest to the weakest bot is the skill depth: a gap "
                f"below {MIN_DEPTH_ELO:.0f} Elo is flagged in the balance flags." + shown,
                ("ratings",),
                ("ratings",),
            )
        )
        self._head_to_head(contest)
        position = interval_table(contest, ["bot"], pl.col("rank"), "mean_rank", rate=False)
        self.tables["finishing_position"] = position.sort(["mean_rank", "bot"])
        self.sections.append(
            Section(
                "Mean finishing position",
                "1 is first; tied seats share the mean position. 95% block intervals.",
                ("finishing_position",),
            )
        )
        self._seats_advantage(contest)

    def _head_to_head(self, contest: pl.LazyFrame) -> None:
        rows = contest.select("game_id", "bot", "rank")
        pairs = rows.join(rows, on="game_id", suffix="_opponent").filter(
            pl.col("bot") != pl.col("bot_opponent")
        )
        long = (
            pairs.group_by("bot", pl.col("bot_opponent").alias("opponent"))
            .agg(
                pl.len().cast(pl.Int64).alias("games"),
                (pl.col("rank") < pl.col("rank_opponent")).sum().cast(pl.Int64).alias("ahead"),
                (pl.col("rank") == pl.col("rank_opponent")).sum().cast(pl.Int64).alias("tied"),
                (pl.col("rank") > pl.col("rank_opponent")).sum().cast(pl.Int64).alias("behind"),
            )
            .with_columns(
                ((pl.col("ahead") + 0.5 * pl.col("tied")) / pl.col("games")).alias("score")
            )
            .sort("bot", "opponent")
            .collect()
        )
        self.tables["head_to_head"] = long
        bots = sorted(contest.select(pl.col("bot").unique()).collect().to_series().to_list())
        score = {(r["bot"], r["opponent"]): r["score"] for r in long.iter_rows(named=True)}
        matrix = pl.DataFrame(
            {"bot": bots, **{o: [score.get((b, o)) for b in bots] for o in bots}},
            schema={"bot": pl.String(), **{o: pl.Float64() for o in bots}},
        )
        self.tables["head_to_head_matrix"] = matrix
        if len(bots) > 1:
            self.plot_makers["head_to_head"] = lambda path: plots.plot_head_to_head(matrix, path)
        self.sections.append(
            Section(
                "Head to head",
                "Row bot against column bot, among games where both played: share of games the "
                "row bot finished ahead, a shared place counting half. The long table counts "
                "seat pairs (equal to games when each bot holds one seat).",
                ("head_to_head_matrix", "head_to_head"),
                ("head_to_head",) if len(bots) > 1 else (),
            )
        )

    def _seats_advantage(self, contest: pl.LazyFrame) -> None:
        """Seat advantage is a balance table; the report shows it here, once."""
        by_seat = self.balance.get("balance_seat_advantage")
        if by_seat is None:
            return
        self.tables["balance_seat_advantage"] = by_seat
        self.tables["seat_win_rate_by_bot"] = interval_table(
            contest, ["bot", "players", "seat"], pl.col("win_share"), "win_rate", rate=True
        )
        shares = by_seat.rename({"win_share": "win_rate"})
        self.plot_makers["seat_win_rate"] = lambda path: plots.plot_seat_win_rates(shares, path)
        self.sections.append(
            Section(
                "Win rate by seat",
                "Seat 0 plays first; a fair game gives every seat 1/players. 95% block intervals; "
                "'unfair' marks an interval that excludes the fair share. Then per bot.",
                ("balance_seat_advantage", "seat_win_rate_by_bot"),
                ("seat_win_rate",),
            )
        )

    # -- scores, lengths, game-specific columns

    def _scores(self) -> None:
        by_bot = _distribution(self.decided_seats, ["bot"], "score")
        by_seat = _distribution(self.decided_seats, ["players", "seat"], "score")
        self.tables["score_by_bot"] = by_bot
        self.tables["score_by_seat"] = by_seat
        benchmarks = score_benchmarks(self.manifest)
        seat_labels = by_seat.with_columns(
            (pl.col("players").cast(pl.String) + "p seat " + pl.col("seat").cast(pl.String)).alias(
                "label"
            )
        )
        label = f"score, {self.unit.label()}"
        unit = self.unit
        self.plot_makers["score_by_bot"] = lambda path: plots.plot_distribution(
            by_bot,
            "bot",
            path,
            title="Score per bot",
            value_label=label,
            references=benchmarks,
            unit=unit,
        )
        self.plot_makers["score_by_seat"] = lambda path: plots.plot_distribution(
            seat_labels,
            "label",
            path,
            title="Score per seat",
            value_label=label,
            references=benchmarks,
            unit=unit,
        )
        self.sections.append(
            Section(
                "Score distribution",
                f"Scores in {self.unit.label()}, per bot and per seat: mean, standard deviation "
                "and quantiles (q05 is the score 5% of games stay below). Plots: box 25-75%, "
                "line the median, diamond the mean, whiskers 5-95%.",
                ("score_by_bot", "score_by_seat"),
                ("score_by_bot", "score_by_seat"),
            )
        )
        if benchmarks:
            self._benchmarks(benchmarks)

    def _benchmarks(self, benchmarks: Mapping[str, float]) -> None:
        self.tables["score_benchmarks"] = benchmark_shares(self.decided_seats, ["bot"], benchmarks)
        listed = ", ".join(f"{label} {value:g}" for label, value in benchmarks.items())
        self.sections.append(
            Section(
                "Score benchmarks",
                f"Reference scores of the game ({listed}): share of games scoring at least each, "
                "per bot, with 95% Wilson intervals (solo games are independent).",
                ("score_benchmarks",),
            )
        )

    def _lengths(self) -> None:
        metrics = ["turns", *_extra_numeric(self.games.collect_schema(), GAMES_SCHEMA)]
        texts = {c.name: c.text for c in self.schema.columns("games")}
        texts["turns"] = "turns per game, every seat's"
        parts = [
            _distribution(self.decided_games, [], metric).select(
                pl.lit(metric).alias("metric"),
                pl.lit(texts.get(metric, "")).alias("meaning"),
                pl.all(),
            )
            for metric in metrics
        ]
        self.tables["game_length"] = pl.concat(parts)
        lengths = [metric for metric in metrics if metric.endswith("turns")]
        histograms = {metric: _histogram(self.decided_games, metric) for metric in lengths}
        labels = {metric: f"{metric}: {texts[metric]}" for metric in lengths if metric in texts}
        self.plot_makers["game_length"] = lambda path: plots.plot_histograms(
            histograms, path, title="Game length", labels=labels
        )
        self.sections.append(
            Section(
                "Game length and per-game counts",
                "Turns per game (every seat's), then every per-game count the game records "
                "(e.g. turns of the final round). Histograms: every count named '...turns'.",
                ("game_length",),
                ("game_length",),
            )
        )

    def _game_specific(self) -> None:
        columns = _extra_numeric(self.seats.collect_schema(), SEATS_SCHEMA)
        if columns:
            by_bot = (
                self.decided_seats.group_by("bot")
                .agg(
                    pl.len().cast(pl.Int64).alias("games"),
                    *[pl.col(c).cast(pl.Float64).mean() for c in columns],
                )
                .sort("bot")
                .collect()
            )
            self.tables["seat_columns_by_measure"] = self._by_measure(by_bot, columns)
            self.sections.append(
                Section(
                    "Game-specific seat statistics",
                    "Mean per seat-game of every per-seat count the game records: one row per "
                    "count with what it counts, one column per bot with its seat-games.",
                    ("seat_columns_by_measure",),
                )
            )
        for table in table_names(self.results):
            if table in ("games", "seats"):
                continue
            summary = self._extra_table(table)
            if summary is not None:
                name = f"{table}_by_bot"
                self.tables[name] = summary
                declared = next((t for t in self.schema.tables if t.name == table), None)
                meanings = ""
                if declared is not None:
                    meanings = f" One row is {declared.text}. Columns: " + "; ".join(
                        f"{c.name}: {c.text}" for c in declared.columns if c.name in summary.columns
                    )
                self.sections.append(
                    Section(
                        f"Table '{table}'",
                        f"Rows of the game's '{table}' table per bot (and per seat-game), with the "
                        f"mean of each numeric column.{meanings}",
                        (name,),
                    )
                )

    def _by_measure(self, by_bot: pl.DataFrame, columns: Sequence[str]) -> pl.DataFrame:
        """The per-bot means turned on their side: a row per count, with its meaning from
        the game's schema, and a column per bot (narrow enough for any number of counts)."""
        texts = {c.name: c.text for c in self.schema.columns("seats")}
        heads = [f"{bot} ({games} games)" for bot, games in by_bot.select("bot", "games").rows()]
        data: dict[str, list[Any]] = {
            "measure": list(columns),
            "meaning": [texts.get(c, "") for c in columns],
        }
        for index, head in enumerate(heads):
            data[head] = [float(by_bot[name][index]) for name in columns]
        return pl.DataFrame(
            data,
            schema={"measure": pl.String(), "meaning": pl.String()}
            | {head: pl.Float64() for head in heads},
        )

    def _extra_table(self, table: str) -> pl.DataFrame | None:
        frame = scan(self.results, table)
        schema = frame.collect_schema()
        if "game_id" in schema:
            frame = frame.join(self.decided_ids, on="game_id", how="semi")
        numeric = [n for n, t in schema.items() if n not in ID_COLUMNS and _is_numeric(t)]
        means = [pl.col(c).cast(pl.Float64).mean() for c in numeric]
        if "bot" not in schema:
            return frame.select(pl.len().cast(pl.Int64).alias("rows"), *means).collect()
        seat_games = self.decided_seats.group_by("bot").agg(pl.len().alias("seat_games"))
        return (
            frame.group_by("bot")
            .agg(pl.len().cast(pl.Int64).alias("rows"), *means)
            .join(seat_games, on="bot", how="left")
            .with_columns((pl.col("rows") / pl.col("seat_games")).alias("rows_per_seat_game"))
            .select("bot", "rows", "rows_per_seat_game", *numeric)
            .sort("bot")
            .collect()
        )

    # -- balance

    def _balance(self) -> None:
        """The balance tables of ``cgsim.reporting.balance``, each shown once: seat advantage
        is already in "Win rate by seat", and skill depth repeats the win rates and ratings
        per bot (its flag stays in the flags)."""
        shown = {*self.tables, "balance_skill_depth"}
        for section, names in shown_sections(self.balance, self.schema):
            fresh = tuple(name for name in names if name not in shown)
            if fresh:
                self.tables.update({name: self.balance[name] for name in fresh})
                title = section.title
                title = title if title.startswith("Balance") else f"Balance: {title}"
                self.sections.append(Section(title, section.text, fresh))

    # -- endings and errors

    def _ends(self) -> None:
        counted = self.games.group_by("end").agg(pl.len().cast(pl.Int64).alias("games")).collect()
        found = dict(zip(counted["end"].to_list(), counted["games"].to_list(), strict=True))
        declared = {term.word for term in self.info.ends} if self.info else set(END_STATUSES)
        ends = [e for e in END_STATUSES if e in declared or e == "error" or e in found]
        ends += sorted(e for e in found if e not in END_STATUSES)
        total = sum(found.values())
        meanings = {term.word: term.meaning for term in (self.info.ends if self.info else ())}
        meanings["error"] = ERROR_END
        self.tables["end_status"] = pl.DataFrame(
            {
                "end": ends,
                "games": [found.get(e, 0) for e in ends],
                "share": [found.get(e, 0) / total for e in ends],
                "meaning": [meanings.get(e, "") for e in ends],
            },
            schema={
                "end": pl.String(),
                "games": pl.Int64(),
                "share": pl.Float64(),
                "meaning": pl.String(),
            },
        )
        errors = (
            self.games.filter(pl.col("end") == "error")
            .select(
                "game_id",
                "seed",
                pl.col("error_seat").alias("seat"),
                pl.col("seats").list.get(pl.col("error_seat"), null_on_oob=True).alias("bot"),
                pl.col("error").alias("reason"),
            )
            .sort("game_id")
            .collect()
        )
        traces = [
            f"{ERRORS_DIR}/{game_id}.txt" if trace_path(self.results, game_id).is_file() else None
            for game_id in errors["game_id"].to_list()
        ]
        errors = errors.with_columns(pl.Series("traceback", traces, dtype=pl.String()))
        self.tables["errors"] = errors
        tables = ("end_status", "errors") if errors.height else ("end_status",)
        text = "How games ended."
        if errors.height:
            text += (
                f" {errors.height} games stopped on a bot error (the bot loses the game) or "
                "because a person quit; they are left out of outcome statistics. A bot's "
                "error names the turn and decision it happened at and the innermost lines "
                "of the bot's own code; the full traceback is in the results folder's file "
                "named under traceback."
            )
            self.notes.append(f"{errors.height} games ended in an error; see Errors.")
        self.sections.append(Section("End status and errors", text, tables))

    # -- notation

    def _notation(self) -> None:
        """The game's legend (the words and symbols of its tables and renderings), as the
        game declares it; nothing for a game that declares none."""
        if self.info is None or not self.info.notation:
            return
        self.tables["notation"] = pl.DataFrame(
            {
                "term": [term.word for term in self.info.notation],
                "meaning": [term.meaning for term in self.info.notation],
            },
            schema={"term": pl.String(), "meaning": pl.String()},
        )
        self.sections.insert(
            0,
            Section(
                f"Notation of {self.info.title}",
                "The game's own words and symbols, as they appear in these tables and in "
                "'cgsim play --show' and 'cgsim replay'.",
                ("notation",),
            ),
        )


# ---------------------------------------------------------------- rendering


def report_page(report: Report, plot_paths: Mapping[str, Path]) -> Page:
    """The report as a page: overview, notes, then each section's tables (cut to
    :data:`MAX_SHOWN_ROWS` rows, the CSV holds all) and plots."""
    overview = pl.DataFrame(report.overview, schema=["item", "value"], orient="row")
    return Page(
        f"Report: {_overview_value(report, 'Run')}",
        text=report.verdict,
        tables=[PageTable(overview)],
        notes=report.notes,
        sections=[
            PageSection(
                section.title,
                section.text,
                [
                    shown_rows(report.tables[name], f"tables/{name}.csv", MAX_SHOWN_ROWS)
                    for name in section.tables
                ],
                [plot_paths[name] for name in section.plots if name in plot_paths],
            )
            for section in report.sections
        ],
    )


def _overview_value(report: Report, item: str) -> str:
    return next((value for key, value in report.overview if key == item), "")


# ---------------------------------------------------------------- text summary


def _interval_text(estimate: Any, low: Any, high: Any) -> str:
    if low is None or high is None:
        return f"{format_value(estimate)}"
    return f"{format_value(estimate)} [{format_value(low)}, {format_value(high)}]"


def summary_text(report: Report) -> str:
    """A one-screen plain-text summary: run, win rates, seat advantage, ties, errors."""
    lines = [
        f"Run {_overview_value(report, 'Run')}: {_overview_value(report, 'Game')} "
        f"(engine {_overview_value(report, 'Engine version')}), "
        f"games {_overview_value(report, 'Games')}, wall time {_overview_value(report, 'Wall time')}"
    ]
    lines += [f"  {note}" for note in report.notes]
    if report.verdict:
        lines += [report.verdict[0], *(f"  {line}" for line in report.verdict[1:])]
    tables = report.tables
    if "win_rate" in tables:
        lines.append("Win rate per bot (95% block intervals):")
        width = max(len(b) for b in tables["win_rate"]["bot"].to_list())
        for row in tables["win_rate"].iter_rows(named=True):
            text = _interval_text(row["win_rate"], row["low"], row["high"])
            lines.append(f"  {row['bot']:<{width}}  {text}  ({row['games']} games)")
    if "balance_seat_advantage" in tables:
        lines.append("Win rate by seat (seat 0 plays first):")
        for row in tables["balance_seat_advantage"].iter_rows(named=True):
            text = _interval_text(row["win_share"], row["low"], row["high"])
            lines.append(
                f"  {row['players']}p seat {row['seat']}  {text}  (fair {row['fair']:.3f})"
            )
    outcome = tables.get("balance_outcome")
    ties = outcome.filter(pl.col("metric") == "tie_rate") if outcome is not None else None
    if ties is not None and ties.height:
        row = ties.row(0, named=True)
        lines.append(f"Tie rate: {_interval_text(row['estimate'], row['low'], row['high'])}")
    if "win_rate" not in tables and "score_by_bot" in tables:
        lines.append("Score per bot (mean, sd, median):")
        for row in tables["score_by_bot"].iter_rows(named=True):
            lines.append(
                f"  {row['bot']}  {format_value(row['mean'])}  sd {format_value(row['sd'])}  "
                f"median {format_value(row['q50'])}  ({row['n']} games)"
            )
    return "\n".join(lines)
