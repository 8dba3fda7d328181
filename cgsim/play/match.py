"""Playing one game of a run: engine plus bots in, flat result rows (and maybe the record) out.

The game is played by the one loop (``cgsim.games.loop``); this module adds what a run
needs on top: the referee (the per-decision time limit), the record, the result rows,
and fault containment. A bot that cannot be created, raises, returns an action outside
the legal list, or exceeds the time limit ends the game with end ``error`` naming the
seat and the reason, and an exception of the engine itself is recorded as
``engine: ...`` rather than blamed on a bot. A :class:`~cgsim.games.loop.watch.BotWatch`
knows which seat's code runs, so even a ``KeyboardInterrupt`` or another
``BaseException`` raised by a bot (where SIGINT is ignored, as in a worker: there it
cannot be the user's) is that seat's error. Either way the caller gets rows and the run
goes on: the fault told in one line for the bot's author, its full traceback, and with
records on the record up to the fault (``cgsim.play.diagnosis``). With ``debug`` the
fault is raised instead, for a debugger.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any, NamedTuple

from cgsim.games import loop
from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame, GameResult, GameSummary, Row
from cgsim.games.loop import BotFault, EngineFault, bot_name, describe
from cgsim.games.loop.rows import finished_rows, game_row, seat_row
from cgsim.games.loop.watch import BotWatch
from cgsim.play.bot_registry import BotSpec
from cgsim.play.diagnosis import diagnose, traceback_text
from cgsim.play.seeds import seat_seed

ERROR_END = "error"
MAX_ACTIONS = 500_000
"""Actions of one game at most, whatever the caller asks: a backstop behind each game's
own turn cap (which no setting can switch off), so no input can make a game run forever.
Well above the longest game any accepted setting allows."""


class GameSpec(NamedTuple):
    """One game of a run: small and picklable (a tuple pickles fastest), so it is what
    worker processes receive."""

    game_id: int
    block: int
    """Deal block: games sharing ``seed``."""
    seed: int
    """Deal seed for ``game.new_game``."""
    bot_seed: int
    """Base of the seats' generator seeds (distinct for every game of a block)."""
    seats: tuple[int, ...]
    """Index into the run's bot list, per seat."""


@dataclass(frozen=True, slots=True)
class GameError:
    """Why a game ended in error: ``seat`` is the faulty bot's, None for the engine's."""

    reason: str
    seat: int | None
    trace: str = ""
    """The full traceback, as text, for the run's ``errors`` folder ('' for none)."""


@dataclass(slots=True)
class GameOutcome:
    """What one game adds to the result tables (see the results-directory contract)."""

    game: Row
    seats: Sequence[Row]
    """One row per seat: a list of dicts, or a ``TableRows`` (see ``tables``)."""
    tables: dict[str, Sequence[Row]]
    """Each game-specific table's rows: a list of dicts, or the game's ``TableRows`` (tuples
    under one header, read as dicts)."""
    record: dict[str, Any] | None
    error: GameError | None


class DecisionTimeout(BaseException):
    """Raised inside a bot by the alarm when a decision runs out of time.

    A ``BaseException`` so that a bot's own ``except Exception`` cannot swallow it.
    """


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise DecisionTimeout


class _Referee:
    """The loop's ``decide`` hook under a time limit: a late bot is a ``BotFault``."""

    def __init__(self, time_limit: float) -> None:
        self.limit = time_limit
        self.alarm = hasattr(signal, "setitimer") and (
            threading.current_thread() is threading.main_thread()
        )

    def __call__(
        self, seat: int, bot: Bot, view: Any, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        start = time.perf_counter()
        try:
            if self.alarm:
                signal.setitimer(signal.ITIMER_REAL, self.limit)
            try:
                action = bot.choose(view, legal, rng)
            finally:
                if self.alarm:
                    signal.setitimer(signal.ITIMER_REAL, 0)
        except DecisionTimeout as timeout:
            took = time.perf_counter() - start
            reason = f"exceeded the time limit of {self.limit:g} s (stopped after {took:.3f} s)"
            raise BotFault(seat, reason, bot_name(bot)) from timeout
        elapsed = time.perf_counter() - start
        if elapsed > self.limit:
            reason = f"took {elapsed:.3f} s, over the time limit of {self.limit:g} s"
            late = BotFault(seat, reason, bot_name(bot))
            late.answered = True
            raise late
        return action


class _Recording:
    """The game's recorder and the last state it was given: a game that ends in error
    keeps its record up to the fault."""

    def __init__(self, recorder: Any, state: Any) -> None:
        self.recorder = recorder
        self.state = state

    def step(self, before: Any, action: Action, after: Any) -> None:
        self.recorder.step(before, action, after)
        self.state = after

    def finish(self, final: Any) -> dict[str, Any]:
        data: dict[str, Any] = self.recorder.finish(final)
        return data

    def so_far(self) -> dict[str, Any]:
        """The record of the game as far as it went."""
        return self.finish(self.state)


def _play(
    game: AnyGame,
    rules: Any,
    seed: int,
    specs: Sequence[BotSpec],
    referee: _Referee | None,
    seat_seeds: Sequence[int],
    max_actions: int | None,
    record: bool,
    watch: BotWatch,
    kept: list[_Recording],
) -> tuple[GameResult, GameSummary, dict[str, Any] | None]:
    """Play the game; its summary comes from its record when the record is kept, else
    from the game's tally (the same summary, without building the record). The record
    being built is put in ``kept`` first, for the caller to finish if the game fails."""
    state = game.new_game(rules, seed)
    # The game's summary is built as it goes: by its tally, or by its recorder.
    folder: Any
    if record:
        seat_data = [{"bot": spec.name, "params": spec.params_dict()} for spec in specs]
        folder = _Recording(game.recorder(rules, seed, seat_data, state), state)
        kept.append(folder)
    else:
        folder = game.tally(rules, state)
    bots: list[Bot] = []
    for seat, spec in enumerate(specs):
        watch.enter(seat)
        try:
            bots.append(spec.create())
        except (BotFault, EngineFault):
            raise
        except (Exception, SystemExit) as error:
            raise BotFault(seat, f"cannot be created: {describe(error)}", spec.name) from error
        watch.leave()
    rngs = [random.Random(s) for s in seat_seeds]
    cap = MAX_ACTIONS if max_actions is None else min(max_actions, MAX_ACTIONS)
    # A game's own tally is folded natively (``loop.Fold``); anything else through a hook.
    fold = folder if isinstance(folder, loop.Fold) else None
    final = loop.play(
        game,
        state,
        bots,
        rngs,
        decide=referee,
        after_action=None if fold is not None else folder.step,
        fold=fold,
        watch=watch,
        max_actions=cap,
    )
    result = game.result(final)
    if not record:
        return result, folder.finish(final, result), None
    record_data = folder.finish(final)
    return result, game.summarize(record_data), record_data


def error_outcome(
    game: AnyGame,
    *,
    game_id: int,
    block: int,
    seed: int,
    labels: Sequence[str],
    reason: str,
    seat: int | None,
    wall_time: float = 0.0,
    trace: str = "",
) -> GameOutcome:
    """Rows of a game that ended in error: no scores, no winner, the faulty seat last
    (``trace``: the fault's full traceback, if any)."""
    players = len(labels)
    row = game_row(
        game.info, game_id, block, seed, labels, (None, ERROR_END, [], wall_time, reason, seat)
    )
    seats = []
    for position in range(players):
        if seat is None:
            rank = (players + 1) / 2
        else:
            rank = float(players) if position == seat else players / 2
        seats.append(seat_row(game_id, block, position, labels, (0.0, rank, 0.0, ERROR_END)))
    return GameOutcome(row, seats, {}, None, GameError(reason, seat, trace))


def play_game(
    game: AnyGame,
    rules: Any,
    seed: int,
    bots: Sequence[BotSpec],
    record: bool = False,
    time_limit: float = 0.0,
    *,
    game_id: int = 0,
    block: int | None = None,
    bot_seed: int | None = None,
    max_actions: int | None = None,
    watch: BotWatch | None = None,
    debug: bool = False,
) -> GameOutcome:
    """Play one game with ``bots`` in seat order and return its rows.

    ``seed`` deals the game; seat ``s`` gets ``random.Random(seat_seed(bot_seed, s))``
    (``bot_seed`` defaults to ``seed``). ``record`` keeps the game record in the outcome
    (with ``game_id`` and ``block`` added), also of a game that ends in error (as far
    as it went, with its ``error``). ``time_limit`` is seconds per decision, 0 for none;
    in the main thread an alarm also interrupts a bot that never returns.
    ``max_actions`` ends a game that has not finished after that many actions as an
    engine error (never more than :data:`MAX_ACTIONS`). ``watch`` is told which seat's
    bot runs (a worker's shares it with the parent). Never raises for a bot's or the
    engine's fault (see ``GameOutcome.error``), unless ``debug``: then the bot's own
    exception is raised again with its traceback (a ``BotFault`` for an illegal action
    or a timeout), and so is the engine's, for a debugger to open at the fault.
    """
    block = game_id if block is None else block
    base = seed if bot_seed is None else bot_seed
    labels = [spec.label for spec in bots]
    seat_seeds = [seat_seed(base, seat) for seat in range(len(bots))]
    referee = _Referee(time_limit) if time_limit > 0 else None
    alarm = referee is not None and referee.alarm
    previous = signal.signal(signal.SIGALRM, _on_alarm) if alarm else None
    watch = watch if watch is not None else BotWatch()
    watch.timed = referee is not None
    watch.game(game_id)
    kept: list[_Recording] = []
    turn: int | None = None
    decision: int | None = None
    pending: BaseException | None = None
    start = time.perf_counter()
    try:
        result, summary, record_data = _play(
            game, rules, seed, bots, referee, seat_seeds, max_actions, record, watch, kept
        )
        row, seats, tables = finished_rows(
            game.info, game_id, block, seed, labels, result, summary, time.perf_counter() - start
        )
        outcome = GameOutcome(row, seats, tables, None, None)
    except BotFault as fault:
        # Raised below, out of this handler: the bot's exception keeps its own context.
        pending = _own_error(fault) if debug else None
        seat = fault.seat
        cls = bots[seat].cls if 0 <= seat < len(bots) else None
        told = diagnose(game, fault, cls)
        reason, trace, turn, decision = told.reason, told.trace, told.turn, told.decision
    except EngineFault as fault:
        if debug:
            raise
        reason, seat = f"engine: {fault}", None
        trace = traceback_text(fault)
    except Exception as error:
        if debug:
            raise
        reason, seat = f"engine: {describe(error)}", None
        trace = traceback_text(error)
    except BaseException as error:
        seat = watch.seat
        if debug or seat is None or not _raised_by_bot(error):
            raise
        raised = BotFault(seat, describe(error), labels[seat])
        raised.__cause__ = error
        told = diagnose(game, raised, bots[seat].cls)
        reason, trace = told.reason, told.trace
    else:
        if record_data is not None:
            outcome.record = {**record_data, "game_id": game_id, "block": block}
        return outcome
    finally:
        watch.game(None)
        if previous is not None:
            signal.signal(signal.SIGALRM, previous)
    if pending is not None:
        raise pending
    so_far = None
    if kept:
        try:
            so_far = kept[0].so_far()
        except Exception as error:  # the engine's fault again: the game keeps no record
            trace += f"\nThe record could not be finished: {describe(error)}\n"
    who = "the engine" if seat is None else f"seat {seat} ({labels[seat]})"
    outcome = error_outcome(
        game,
        game_id=game_id,
        block=block,
        seed=seed,
        labels=labels,
        reason=reason,
        seat=seat,
        wall_time=time.perf_counter() - start,
        trace=f"game {game_id} (deal seed {seed}), {who}:\n{reason}\n\n{trace}",
    )
    if so_far is not None:
        fault_data = {"seat": seat, "reason": reason, "turn": turn, "decision": decision}
        outcome.record = {**so_far, "game_id": game_id, "block": block, "error": fault_data}
    return outcome


def _own_error(fault: BotFault) -> BaseException:
    """What a debugger should see of a fault: the bot's own exception when it raised one,
    else the fault itself (an illegal action; a timeout, caused where the bot was)."""
    cause = fault.__cause__
    if cause is None or isinstance(cause, DecisionTimeout):
        return fault
    return cause


def _raised_by_bot(error: BaseException) -> bool:
    """Whether a ``BaseException`` raised while a bot ran is the bot's own: any but a
    ``KeyboardInterrupt`` where SIGINT can reach us (that one is the user's Ctrl-C)."""
    if not isinstance(error, KeyboardInterrupt):
        return True
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def play_spec(
    game: AnyGame,
    rules: Any,
    spec: GameSpec,
    pool: Sequence[BotSpec],
    record: bool = False,
    time_limit: float = 0.0,
) -> GameOutcome:
    """Play the game a :class:`GameSpec` describes, its seats indexing ``pool``."""
    return play_game(
        game,
        rules,
        spec.seed,
        [pool[index] for index in spec.seats],
        record,
        time_limit,
        game_id=spec.game_id,
        block=spec.block,
        bot_seed=spec.bot_seed,
    )
