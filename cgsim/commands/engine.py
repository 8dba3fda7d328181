"""Commands around single games: ``play``, ``rerun``, ``replay`` and ``bench``."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from cgsim.commands.runs import BackendOpt, DebugOpt, PdbOpt, SchedulerOpt
from cgsim.errors import ConfigError, RecordError
from cgsim.games.checkers import is_stopped
from cgsim.games.contract import AnyGame
from cgsim.games.narrate import end_meaning, fault_text, legend_lines, tell
from cgsim.games.recordio import read_record, write_record
from cgsim.games.registry import DEFAULT_GAME, game_names, get_game
from cgsim.play.backend import using_backend
from cgsim.play.bot_registry import BotSpec, resolve_bot, split_bot_list
from cgsim.play.foreground import debugging, play_one_here
from cgsim.play.human import HELP, HUMAN, Console, Table, human_spec, partial_record, quit_outcome
from cgsim.play.limits import MAX_GAMES, MAX_TIME_LIMIT, check_float, check_int, check_seed
from cgsim.play.match import GameSpec, play_game
from cgsim.play.paths import require_output_file
from cgsim.play.pool import Batch, WorkerContext, play_in_worker
from cgsim.play.rerun import differences, game_of_run, seat_differences
from cgsim.play.session import Session, Setup, open_session
from cgsim.studies.bench import memory_bench, run_bench

MAX_BENCH_GAMES = 100_000
"""Games per speed measurement."""


def parse_rule_overrides(pairs: list[str]) -> dict[str, Any]:
    """``--rule cat_limit=3 --rule beehives=[3,1]``: values read as JSON, else text."""
    overrides: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"--rule {pair!r}: expected NAME=VALUE")
        try:
            overrides[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            overrides[key.strip()] = value
    return overrides


def parse_variant_options(pairs: list[str]) -> dict[str, Any]:
    """``--variant children=5,none --variant solo=true``: the game's own seat options.

    A value is read as JSON, a comma-separated value as a list of such values, else as
    text; the game's variant model judges them.
    """

    def value_of(text: str) -> Any:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text.strip().lower()

    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--variant {pair!r}: expected NAME=VALUE")
        is_list = "," in value and not value.lstrip().startswith(("[", "{", '"'))
        options[key.strip()] = (
            [value_of(v) for v in value.split(",")] if is_list else value_of(value)
        )
    return options


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

    @app.command()
    def play(
        players: Annotated[int, typer.Option("--players", "-p", help="Number of seats.")] = 2,
        bots: Annotated[
            str, typer.Option(help="Bot per seat, comma-separated (one bot fills every seat).")
        ] = "random",
        seed: Annotated[
            int | None,
            typer.Option(
                help="Deal seed (default 1); with --out the session's run seed, kept by the "
                "folder (its game N is dealt as deal block N of a run with that seed)."
            ),
        ] = None,
        variant: Annotated[
            list[str] | None,
            typer.Option(
                help="The game's own option NAME=VALUE (repeatable), e.g. children=5,none; "
                "'cgsim games' lists each game's options."
            ),
        ] = None,
        rule: Annotated[
            list[str] | None, typer.Option(help="Rule setting override NAME=VALUE (repeatable).")
        ] = None,
        components: Annotated[
            Path | None, typer.Option(help="Component file replacing the default catalogue.")
        ] = None,
        game: Annotated[str, typer.Option(help="Which game.")] = DEFAULT_GAME,
        record: Annotated[
            Path | None, typer.Option(help="Write the game record (JSON) to this file.")
        ] = None,
        show: Annotated[bool, typer.Option("--show", help="Render the game turn by turn.")] = False,
        isolate: Annotated[
            bool, typer.Option("--isolate", help="Each bot in its own process (untrusted bots).")
        ] = False,
        human: Annotated[
            list[int] | None,
            typer.Option(help="Play this seat yourself at the terminal (repeatable)."),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(
                help="Add the game (and its record) to this results directory: each call adds "
                "the next game of the same setup, so 'cgsim report DIR' reads a playtest "
                "session like a run."
            ),
        ] = None,
        time_limit: Annotated[
            float,
            typer.Option(
                "--time-limit",
                help="Seconds each bot has per decision, as a run's time_limit (0: none).",
            ),
        ] = 0.0,
        html: Annotated[
            Path | None,
            typer.Option(help="Write the game as one self-contained page to browse in a browser."),
        ] = None,
        debug: DebugOpt = False,
        pdb: PdbOpt = False,
    ) -> None:
        """Play one game and print its result table.

        The game is played in a worker process, so a bot that ends or hangs its process
        is reported as that seat's error; with --human seats it is played here, at the
        terminal, and the record is always kept (playtest-seed<SEED>.json by default,
        or in the --out folder). With --out the game joins the folder's earlier games
        (refused, exit 2, when they were played with another game, seats, rules or
        components); a game a person quit is stored unfinished, like a game ended in
        error. With --debug the game is played here and a bot's fault is shown with its
        full traceback (--pdb: in the debugger) instead of as one line.
        """
        if seed is not None:
            check_seed("--seed", seed)
        check_float("--time-limit", time_limit, 0.0, MAX_TIME_LIMIT)
        for path, option in ((record, "--record"), (html, "--html")):
            if path is not None:
                require_output_file(path, option)
        the_game = get_game(game)
        if not the_game.info.min_players <= players <= the_game.info.max_players:
            raise ConfigError(
                f"--players {players} is not allowed for {game}; expected "
                f"{the_game.info.min_players} to {the_game.info.max_players}"
            )
        names = split_bot_list(bots)
        if len(names) == 1:
            names *= players
        if len(names) != players:
            raise ConfigError(
                f"--bots gives {len(names)} bots for {players} players; give 1 or {players}"
            )
        humans = sorted(set(human or []))
        for person in humans:
            if not 0 <= person < players:
                raise ConfigError(f"--human {person}: no such seat; seats are 0 to {players - 1}")
        if humans and isolate:
            raise ConfigError("--human and --isolate: a person's game is played here, not isolated")
        if humans and time_limit:
            raise ConfigError("--human and --time-limit: a person's decisions are not timed")
        if humans and html is not None:
            raise ConfigError(
                "--human and --html: keep the record (--record FILE), then "
                "'cgsim replay FILE --html PAGE'"
            )
        debug = debug or pdb
        if debug and (humans or isolate):
            other = "--human" if humans else "--isolate"
            raise ConfigError(f"--debug and {other}: --debug is for a game of bots played here")
        playing = Playing(isolate, time_limit, debug, pdb)
        table = Table(Console())
        seat_bots = [
            human_spec(table, logs=seat == humans[0]) if seat in humans else resolve_bot(name, game)
            for seat, name in enumerate(names)
        ]
        options = parse_variant_options(variant or [])
        overrides = parse_rule_overrides(rule or [])
        rules = the_game.make_rules(players, overrides, components, options)
        shown = Shown(show, record, html)
        if out is None:
            deal = 1 if seed is None else seed
            spec = GameSpec(0, 0, deal, deal, tuple(range(players)))
            if humans:
                target = record if record is not None else Path(f"playtest-seed{deal}.json")
                require_output_file(target, "--record")
                _play_with_people(the_game, rules, spec, seat_bots, table, target)
            else:
                played = _play_by_bots(the_game, rules, spec, seat_bots, playing, shown)
                _exit_if_error(played)
            return
        setup = Setup(
            the_game, rules, tuple(seat_bots), options, overrides, components, seed, time_limit
        )
        with open_session(out, setup) as session:
            if humans:
                _play_with_people(the_game, rules, session.spec, seat_bots, table, record, session)
            else:
                _exit_if_error(
                    _play_by_bots(the_game, rules, session.spec, seat_bots, playing, shown, session)
                )

    @app.command()
    def games() -> None:
        """List every game: players, setups, its own variant options and its bot ladder."""
        for name in game_names():
            info = get_game(name).info
            typer.echo(f"{info.id}: {info.title} (engine {info.version})")
            typer.echo(f"    players: {info.min_players} to {info.max_players}")
            typer.echo(f"    setups: {'; '.join(setup.name for setup in info.setups)}")
            fields = info.variant.model_fields
            if not fields:
                typer.echo("    variant options: none")
            for key, field in fields.items():
                typer.echo(f"    variant option {key}: {field.description or ''}")
            typer.echo(f"    ladder, weakest first: {', '.join(info.ladder) or 'none'}")
            typer.echo(f"    record format: {info.record_format}")

    @app.command()
    def replay(
        file: Annotated[Path, typer.Argument(help="A record file (.json, .jsonl or .jsonl.zst).")],
        turn: Annotated[
            int | None, typer.Option(help="Show only the state at the start of this turn.")
        ] = None,
        index: Annotated[
            int,
            typer.Option(
                help="Which record of a JSON Lines file, counting from 1 as 'cgsim check' "
                "and the messages do.",
            ),
        ] = 1,
        events: Annotated[bool, typer.Option(help="List the moves played in each turn.")] = True,
        html: Annotated[
            Path | None,
            typer.Option(help="Write the game as one self-contained page to browse in a browser."),
        ] = None,
    ) -> None:
        """Replay a recorded game through the engine and render it turn by turn, with the
        game's notation and the moves played (or, with --html, as a page)."""
        check_int("--index", index, 1, MAX_GAMES)
        if html is not None:
            require_output_file(html, "--html")
        data = read_record(file, index - 1)
        where = str(file) if file.name.endswith(".json") else f"{file}: record {index}"
        the_game = _game_of_record(data, where)
        try:
            the_game.validate_record(data)
            if html is not None:
                # Deferred: report code stays out of the command line's start-up.
                from cgsim.reporting.viewer import write_viewer

                write_viewer(the_game, data, html)
                typer.echo(f"viewer written to {html}")
                return
            for line in tell(the_game, data, turn=turn, moves=events):
                typer.echo(line)
        except RecordError as error:
            raise RecordError(f"{where}: {error}") from None
        fault = fault_text(data)
        if fault is not None:
            typer.echo(f"\nresult: none, the game ended in error: {fault}")
            typer.echo("(the record goes as far as the game went)")
            return
        if is_stopped(data):
            typer.echo(
                "\nresult: none, the game was stopped before its end (the record goes this far)"
            )
            return
        result = data.get("result") or {}
        end = str(result.get("end"))
        meaning = end_meaning(the_game.info, end)
        typer.echo(
            f"\nresult: scores {result.get('scores')}, winners {result.get('winners')}, end {end}"
        )
        typer.echo(f"score: {the_game.info.score_unit.label()}")
        if meaning:
            typer.echo(f"  {end}: {meaning}")

    @app.command()
    def rerun(
        results: Annotated[Path, typer.Argument(help="A run's results folder.")],
        game_id: Annotated[
            int, typer.Argument(help="The game's id: its game_id in the run's tables.")
        ],
        show: Annotated[bool, typer.Option("--show", help="Render the game turn by turn.")] = False,
        record: Annotated[
            Path | None, typer.Option(help="Write the game record (JSON) to this file.")
        ] = None,
        html: Annotated[
            Path | None,
            typer.Option(help="Write the game as one self-contained page to browse in a browser."),
        ] = None,
        debug: DebugOpt = False,
        pdb: PdbOpt = False,
    ) -> None:
        """Play one game of a run again, exactly: the same deal, bots with the same
        parameters and seeds, seats, rules, components and time limit, all read from the
        run's folder. Prints its result and whether it is the one the run stored; exit 1
        when the game ends in error."""
        check_int("GAME_ID", game_id, 0, MAX_GAMES)
        for path, option in ((record, "--record"), (html, "--html")):
            if path is not None:
                require_output_file(path, option)
        again = game_of_run(results, game_id)
        spec, config = again.spec, again.config
        say = f"game {game_id} of {results}: deal seed {spec.seed} (block {spec.block}), seats "
        say += ", ".join(bot.label for bot in again.bots)
        if config.time_limit:
            say += f"; time limit {config.time_limit:g} s per decision"
        typer.echo(say, err=True)
        if again.engine_version != again.game.info.version:
            typer.echo(
                f"warning: the run was played with engine {again.engine_version}, this is "
                f"{again.game.info.version}: the game may differ",
                err=True,
            )
        playing = Playing(config.isolate, config.time_limit, debug or pdb, pdb)
        played = _play_by_bots(
            again.game, again.rules, spec, again.bots, playing, Shown(show, record, html)
        )
        seats = [played.seats.row(i) for i in range(played.seats.count)]
        changed = differences(again.stored_game, played.games.row(0))
        changed += seat_differences(again.stored_seats, seats)
        if again.stored_game is None:
            typer.echo(f"the run has not stored game {game_id} yet: nothing to compare")
        elif changed:
            typer.echo(
                f"differs from the run's game {game_id} in: {', '.join(changed)} "
                "(a bot drawing on randomness other than its generator, or another build)"
            )
        else:
            typer.echo(f"the same result as the run's game {game_id}")
        _exit_if_error(played)

    @app.command()
    def bench(
        games: Annotated[int, typer.Option(help="Games per measurement.")] = 300,
        seed: Annotated[int, typer.Option(help="First deal seed.")] = 1,
        parallel: Annotated[bool, typer.Option(help="Also measure parallel runs.")] = True,
        memory_games: Annotated[
            int, typer.Option(help="Also run this many games and report the peak memory (0: skip).")
        ] = 0,
        game: Annotated[str, typer.Option(help="Which game.")] = DEFAULT_GAME,
        backend: BackendOpt = None,
        scheduler: SchedulerOpt = None,
    ) -> None:
        """Print speed figures: games per second, per-decision cost, parallel efficiency
        (with --backend dask: the Dask backend's against the local pool's)."""
        get_game(game)  # an unknown game fails before any measurement
        check_int("--games", games, 1, MAX_BENCH_GAMES)
        check_int("--memory-games", memory_games, 0, MAX_GAMES)
        check_seed("--seed", seed)
        with using_backend(backend, scheduler):
            run_bench(games=games, seed=seed, parallel=parallel, echo=typer.echo, game=game)
        if memory_games > 0:
            typer.echo("")
            memory_bench(memory_games, seed, typer.echo, game=game)


def _game_of_record(record: dict[str, Any], where: str) -> Any:
    """The game whose record format the record claims (its ``format`` tag)."""
    tag = record.get("format")
    for name in game_names():
        game = get_game(name)
        if game.info.record_format == tag:
            return game
    known = ", ".join(get_game(name).info.record_format for name in game_names())
    raise RecordError(f"{where}: format is {tag!r}, not a known record format (known: {known})")


def _print_result(info: Any, game_row: dict[str, Any], seat_rows: Sequence[dict[str, Any]]) -> None:
    """The result table of one game: seats, bots, scores (with their unit), ranks (whole
    numbers unless tied seats share a place) and winners, then how the game ended."""
    winners = set(game_row.get("winners") or [])
    width = max([3, *(len(str(row["bot"])) for row in seat_rows)])
    typer.echo(f"\n{'seat':<5} {'bot':<{width}} {'score':>6} {'rank':>5}  winner")
    for row in seat_rows:
        mark = "*" if row["seat"] in winners else ""
        typer.echo(
            f"{row['seat']:<5} {row['bot']:<{width}} {row['score']:>6.0f} {row['rank']:>5g}  {mark}"
        )
    end = str(game_row.get("end"))
    meaning = end_meaning(info, end)
    turns = game_row.get("turns")
    length = "not finished" if turns is None else f"turns: {turns}"
    typer.echo(f"score: {info.score_unit.label()}; rank 1 is first, tied seats share a place")
    typer.echo(f"end: {end}, {length}, seed: {game_row.get('seed')}")
    if meaning:
        typer.echo(f"  {end}: {meaning}")


@dataclass(frozen=True)
class Playing:
    """How a game of bots is played: isolated or not, under which time limit, and
    whether here with its fault raised (``debug``) and debugged (``pdb``)."""

    isolate: bool = False
    time_limit: float = 0.0
    debug: bool = False
    pdb: bool = False


@dataclass(frozen=True)
class Shown:
    """What is made of a played game: rendered, its record and its page written."""

    show: bool = False
    record: Path | None = None
    html: Path | None = None


def _play_by_bots(
    game: AnyGame,
    rules: Any,
    spec: GameSpec,
    bots: Sequence[BotSpec],
    playing: Playing,
    shown: Shown,
    session: Session | None = None,
) -> Batch:
    """Play one game of bots in a worker process (here with ``playing.debug``: a bot's
    fault is raised, shown with its traceback, and ends the command); print (and store)
    its result, and return it."""
    start = time.perf_counter()
    context = WorkerContext(
        game.info.id, rules, tuple(bots), True, playing.time_limit, playing.isolate
    )
    if playing.debug:
        with debugging(playing.pdb):
            played = play_one_here(context, spec)
    else:
        played = play_in_worker(context, spec)
    if session is not None:
        session.add(played, time.perf_counter() - start)
    game_row = played.games.row(0)
    seat_rows = [played.seats.row(i) for i in range(played.seats.count)]
    data = json.loads(played.records[0][1]) if played.records else None
    error = game_row.get("error")
    if error is not None:
        seat = game_row.get("error_seat")
        who = f"seat {seat} ({bots[seat].label}): " if seat is not None else ""
        typer.echo(f"game ended in error: {who}{error}", err=True)
        if seat is not None and not playing.isolate:
            typer.echo(
                "  the bot's full traceback: the same command with --debug "
                "(--pdb opens the debugger at the fault)",
                err=True,
            )
    if shown.show and data is not None:
        for line in tell(game, data):
            typer.echo(line)
    if shown.record is not None and data is not None:
        write_record(shown.record, data)
    if shown.html is not None and data is not None:
        # Deferred: report code stays out of the command line's start-up.
        from cgsim.reporting.viewer import write_viewer

        write_viewer(game, data, shown.html)
        typer.echo(f"viewer written to {shown.html}")
    _print_result(game.info, game_row, seat_rows)
    if session is not None:
        _say_stored(typer.echo, session, f"game {spec.game_id}")
    return played


def _exit_if_error(played: Batch) -> None:
    """Exit 1 when the game ended in error (its error is printed already)."""
    if played.games.row(0).get("error") is not None:
        raise typer.Exit(1)


def _say_stored(say: Any, session: Session, what: str) -> None:
    where = session.store.path
    say(f"{what} added to {where} ('cgsim report {where}' reports every game stored there)")


def _play_with_people(
    game: AnyGame,
    rules: Any,
    spec: GameSpec,
    bots: Sequence[BotSpec],
    table: Table,
    record: Path | None,
    session: Session | None = None,
) -> None:
    """Play one game here, the human seats asking the table's console; write its record
    (partial if a person quits) to ``record`` and the ``session``, and print the result
    table of a finished game."""
    humans = [seat for seat, bot in enumerate(bots) if bot.label == HUMAN]
    say = table.console.say
    say("\n".join(legend_lines(game.info)))
    say(f"\nYou play seat{'s' * (len(humans) > 1)} {', '.join(map(str, humans))}.\n{HELP}")
    start = time.perf_counter()
    outcome = play_game(
        game,
        rules,
        spec.seed,
        bots,
        record=True,
        game_id=spec.game_id,
        block=spec.block,
        bot_seed=spec.bot_seed,
    )
    wall = time.perf_counter() - start
    if table.quitter is not None:
        data = partial_record(game, rules, spec.seed, bots, table.actions)
        data |= {"game_id": spec.game_id, "block": spec.block}
        kept = []
        if record is not None:
            write_record(record, data)
            kept.append(f"in {record} (cgsim replay {record})")
        if session is not None:
            session.add(Batch.of([quit_outcome(game, spec, bots, table, data, wall)]), wall)
            kept.append(f"in {session.store.path} as game {spec.game_id}, unfinished")
        say(
            f"\nseat {table.quitter} quit after {len(table.actions)} actions; the game so far "
            f"is kept {' and '.join(kept)}"
        )
        return
    if session is not None:
        session.add(Batch.of([outcome]), wall)
    if outcome.error is not None or outcome.record is None:
        reason = outcome.error.reason if outcome.error is not None else "no record"
        typer.echo(f"game ended in error: {reason}", err=True)
        raise typer.Exit(1)
    if record is not None:
        write_record(record, outcome.record)
    final = list(game.replay(outcome.record))[-1][1]
    say("\n" + game.render(final))
    _print_result(game.info, outcome.game, outcome.seats)
    if record is not None:
        say(f"record written to {record}")
    if session is not None:
        _say_stored(say, session, f"game {spec.game_id}")
