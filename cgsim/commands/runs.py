"""Commands of the runs group: ``run``, ``tournament``, ``validate`` and ``bots``.

Thin on purpose: parse, call the planner and runner, print, choose the exit code
(0 done, 1 some games ended in error, 2 a user error, 130 interrupted).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Literal

import typer

from cgsim.errors import ConfigError
from cgsim.games.registry import game_names, get_game
from cgsim.play import shipped
from cgsim.play.backend import using_backend
from cgsim.play.bot_registry import list_bots, split_bot_list
from cgsim.play.config import load_config
from cgsim.play.foreground import debugging
from cgsim.play.runner import check_resumable, format_summary, run_games
from cgsim.play.schedules import plan_for

EXIT_GAME_ERRORS = 1
EXIT_INTERRUPTED = 130

ConfigArg = Annotated[
    Path | None,
    typer.Argument(
        help="TOML config file, or the name of a shipped config (smoke, solo, ...); "
        "none: the shipped default",
        show_default=False,
    ),
]
GamesOpt = Annotated[int | None, typer.Option("--games", help="Games to play (overrides)")]
WorkersOpt = Annotated[
    int | None, typer.Option("--workers", help="Worker processes, 0 = all cores (overrides)")
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Run seed (overrides)")]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Parent of the results folder")]
RecordsOpt = Annotated[
    bool | None, typer.Option("--records/--no-records", help="Keep game records (overrides)")
]
FailFastOpt = Annotated[bool, typer.Option("--fail-fast", help="Stop at the first error game")]
FreshOpt = Annotated[
    bool, typer.Option("--fresh", help="Discard earlier results of this run instead of resuming")
]
NoReportOpt = Annotated[bool, typer.Option("--no-report", help="Skip the report at the end")]
BackendOpt = Annotated[
    str | None,
    typer.Option(
        "--backend",
        help="Where games are played: local (this machine's processes) or dask "
        "(a Dask cluster); overrides the config",
    ),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option(
        "--scheduler",
        help="Dask scheduler address, e.g. tcp://host:8786 (implies --backend dask; "
        "without it --backend dask starts a local cluster of --workers processes)",
    ),
]
PoolOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--bots",
        help="The pool of bots, comma-separated or the option repeated (replaces the config's "
        "bots)",
    ),
]
IsolateOpt = Annotated[
    bool,
    typer.Option(
        "--isolate", help="Each bot in its own process, seeing only its seat (untrusted bots)"
    ),
]

DebugOpt = Annotated[
    bool,
    typer.Option(
        "--debug",
        help="Play here and stop at the first bot fault, showing the bot's own exception "
        "with its full traceback",
    ),
]
PdbOpt = Annotated[
    bool, typer.Option("--pdb", help="As --debug, then open the Python debugger at the fault")
]


def write_report_if_available(results_dir: Path) -> None:
    """Write the report of a results directory, when the report module is installed."""
    if importlib.util.find_spec("cgsim.reporting.report") is None:
        return
    report = importlib.import_module("cgsim.reporting.report")
    report.write_report(results_dir)
    typer.echo(f"report written in {results_dir}")


def play(
    command: Literal["run", "tournament"],
    config_path: Path | None,
    overrides: Mapping[str, object],
    *,
    fail_fast: bool,
    fresh: bool,
    no_report: bool,
    debug: bool = False,
    pdb: bool = False,
) -> None:
    """Load, plan, run, summarise, report; exit with the run's code. ``debug`` (or
    ``pdb``) plays here and stops at the first bot fault, shown with its traceback."""
    config = load_config(config_path, overrides)
    plan = plan_for(config, command)
    check_resumable(config, plan, fresh=fresh)

    def header(workers: int) -> None:
        where = f"results in {config.results_dir}"
        place = "here, stopping at the first bot fault" if debug or pdb else f"{workers} worker"
        plural = "s" * (workers > 1 and not (debug or pdb))
        typer.echo(f"{plan.description}; {place}{plural}; {where}", err=True)

    kept = "the games played before it are kept: the same command without --debug finishes the run"
    with debugging(pdb, after=kept):
        result = run_games(
            config, plan, fresh=fresh, fail_fast=fail_fast, announce=header, debug=debug or pdb
        )
    typer.echo(format_summary(result))
    if result.status == "interrupted":
        raise typer.Exit(EXIT_INTERRUPTED)
    if result.status == "complete" and not no_report:
        write_report_if_available(result.results_dir)
    if result.errors or result.status != "complete":
        raise typer.Exit(EXIT_GAME_ERRORS)


def _play_command(command: Literal["run", "tournament"], doc: str) -> Callable[..., None]:
    """The ``run`` or ``tournament`` command: one signature, read by typer for both."""

    def play_command(
        config: ConfigArg = None,
        bots: PoolOpt = None,
        games: GamesOpt = None,
        workers: WorkersOpt = None,
        seed: SeedOpt = None,
        out: OutOpt = None,
        records: RecordsOpt = None,
        fail_fast: FailFastOpt = False,
        fresh: FreshOpt = False,
        no_report: NoReportOpt = False,
        isolate: IsolateOpt = False,
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
        debug: DebugOpt = False,
        pdb: PdbOpt = False,
    ) -> None:
        pool = [spec for value in bots or [] for spec in split_bot_list(value)]
        overrides = {
            "bots": pool or None,
            "games": games,
            "workers": workers,
            "seed": seed,
            "out": out,
            "records": records,
            "isolate": isolate or None,
        }
        with using_backend(backend, scheduler):
            play(
                command,
                config,
                overrides,
                fail_fast=fail_fast,
                fresh=fresh,
                no_report=no_report,
                debug=debug,
                pdb=pdb,
            )

    play_command.__doc__ = doc
    if command == "run":  # a run plays the config's seats: no pool to name
        signature = inspect.signature(play_command, eval_str=True)
        kept = [p for p in signature.parameters.values() if p.name != "bots"]
        play_command.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    return play_command


PLAY_COMMANDS: dict[Literal["run", "tournament"], str] = {
    "run": "Play the config's seats, rotated so every bot sits in every seat equally.\n\n"
    "A config with a bot pool and no seats is played as a tournament.",
    "tournament": "Play every combination of the pool's bots, every seating on the same deals.",
}
"""The commands that play a config, with their help texts."""


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    for command, doc in PLAY_COMMANDS.items():
        app.command(command)(_play_command(command, doc))

    @app.command()
    def validate(config: ConfigArg = None) -> None:
        """Check a config and print the resolved settings, rules, bots and plans."""
        loaded = load_config(config)
        plans = []
        if loaded.seats or not loaded.bots:
            plans.append(plan_for(loaded, "run"))
        if loaded.bots:
            plans.append(plan_for(loaded, "tournament"))
        game = get_game(loaded.game)
        resolved: dict[str, object] = {"config": loaded.as_data()}
        resolved["rules"] = game.rules_dict(plans[0].rules)
        for plan in plans:
            resolved[f"{plan.command} bots"] = [bot.label for bot in plan.bots]
        typer.echo(json.dumps(resolved, indent=2))
        for plan in plans:
            typer.echo(plan.description)
        typer.echo(f"{shipped.config_path(config)}: valid")

    @app.command()
    def bots(
        game: Annotated[
            str | None, typer.Option("--game", help="Only bots that play this game")
        ] = None,
    ) -> None:
        """List the bots (built-in and plugins) with their parameters."""
        if game is not None and game not in game_names():
            raise ConfigError(
                f"--game {game!r}: unknown game; known games: {', '.join(game_names())}"
            )
        infos = list_bots(game)
        if not infos:
            typer.echo(f"no bots{f' for {game}' if game else ''}")
        for info in infos:
            typer.echo(f"{info.name}: {info.description}")
            typer.echo(f"    games: {', '.join(info.games)} ({info.source})")
            if not info.params:
                typer.echo("    no parameters")
            for param in info.params:
                note = f"  {param.description}" if param.description else ""
                typer.echo(f"    {param.name}: {param.type} = {param.default!r}{note}")
