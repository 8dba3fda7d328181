"""Isolation mode: each bot in a process of its own that sees only what its seat may see.

In the default mode a bot runs inside the worker that plays the game, so it can read
anything the worker holds (the call stack leads to the full state: the other hands, the
deck order) and change anything the engine uses. In isolation mode, as chess engine
testers run engines, a bot lives in a *bot process*: the game's process sends it the
seat's observation and the legal actions and gets back the index of the chosen action.
The bot process is a new interpreter (never a fork of a process holding seeds or
states, and never a re-run of the caller's ``__main__``), talking over a socket pair; it
keeps the same bot author's code for many games (one process per bot of the pool and per
copy of it in a game, so two bots never share a process), and is restarted after it
dies or hangs.

The game's process trusts nothing a bot process sends: replies are small JSON objects
(never pickles, which could run code), at most :data:`REPLY_LIMIT` bytes. A bot's
exception comes back as its type name and message, with the frames of the bot's code
and its traceback, and is raised again under that name, so a game ends with the same
error text as in the default mode; with a time limit the
bot process runs the same alarm as a worker, and a bot process that does not answer
within the limit plus a grace is killed. The rules travel once, when the process
starts: observations refer to them by name, so a decision costs one small round trip.

Everything sent is pickled: the engine's views, legal actions and actions must survive
a round trip (compiled classes rebuild themselves with ``__reduce__``). When one does
not, the game is the engine's error naming it (``engine: cannot send the legal actions
to the bot's process: TypeError: ...``), never the bot's: a bot process that cannot read
a request says so, and the game's process checks that the request indeed does not read
back before it believes it.
"""

from __future__ import annotations

import contextlib
import copyreg
import functools
import io
import json
import os
import pickle
import random
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from multiprocess.connection import Connection

from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame
from cgsim.games.loop import REASON_LIMIT, BotFault, EngineFault
from cgsim.games.loop.faults import Located
from cgsim.games.loop.watch import grace_deadline
from cgsim.play.bot_registry import BotSpec
from cgsim.play.diagnosis import FRAMES_SHOWN, MESSAGE_LIMIT, bot_frames, traceback_text
from cgsim.play.lifeline import exit_with_parent
from cgsim.play.match import _on_alarm, _Referee

REPLY_LIMIT = 1 << 16
"""Largest reply accepted from a bot process, in bytes."""
START_LIMIT = 60.0
"""Seconds a bot process may take to start (a new interpreter importing the engine and
the bot's module), apart from any time limit: a loaded machine starts slowly."""
PROTOCOL = pickle.HIGHEST_PROTOCOL
EXIT_WAIT = 2.0
"""Seconds a bot process that closed its socket may take to end before it is killed:
the game then reports its own exit code (a kill would report -9)."""
PARTS: dict[str, tuple[str, ...]] = {
    "start": ("the game", "the rules", "the time limit"),
    "create": (),
    "new_game": ("the seat", "the view"),
    "choose": ("the seat", "the view", "the legal actions", "the generator state"),
    "observe": ("the view", "the seat", "the action"),
}
"""What each part of a message to a bot process is (after its kind), for the error that
names the one that cannot be sent."""


REPLY_TRACE = 32_000
"""Characters of a bot's traceback a bot process sends (its end), within the reply limit."""


class RemoteError(Located):
    """An exception raised in a bot process, raised again here under its own name, with
    the bot's frames and traceback as that process told them."""


@functools.lru_cache(maxsize=256)
def _remote_error(name: str) -> type[RemoteError]:
    return type(name, (RemoteError,), {"__module__": __name__})


_HOST_RULES: Any = None
"""In a bot process: its copy of the rules, which observations refer to."""


def _host_rules() -> Any:
    return _HOST_RULES


def _dumps(message: tuple[Any, ...], rules: Any) -> bytes:
    """Pickle a message to a bot process, the rules (sent at its start) by reference."""

    def reduce(obj: Any) -> Any:
        if obj is rules:
            return (_host_rules, ())
        return obj.__reduce_ex__(PROTOCOL)

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, type(rules): reduce}
    pickler.dump(message)
    return buffer.getvalue()


def unsendable(message: tuple[Any, ...]) -> tuple[str, str] | None:
    """The first part of ``message`` that does not come back from a pickle round trip
    here, and why (None: every part does)."""
    kind, *parts = message
    for name, part in zip(PARTS[kind], parts, strict=True):
        try:
            pickle.loads(pickle.dumps(part, protocol=PROTOCOL))
        except Exception as error:
            return name, _describe(error)
    return None


def _cannot_send(message: tuple[Any, ...], error: BaseException) -> str:
    """Why ``message`` cannot be sent (its pickling raised ``error``), naming the part."""
    found = unsendable(message)
    what, why = found if found is not None else ("a request", _describe(error))
    return f"cannot send {what} to the bot's process: {why}"


def _text(error: BaseException) -> str:
    try:
        return str(error)[:REASON_LIMIT]
    except Exception:
        return "<unprintable>"


def _describe(error: BaseException) -> str:
    text = _text(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _told(error: Located, reply: dict[str, Any]) -> Located:
    """``error`` with the frames and traceback a bot process sent (bounded: the process
    is not trusted), returned to be raised."""
    where = reply.get("where")
    if isinstance(where, list):
        error.where = tuple(str(frame)[:MESSAGE_LIMIT] for frame in where[:FRAMES_SHOWN])
    trace = reply.get("trace")
    if isinstance(trace, str):
        error.trace = trace[-REPLY_TRACE:]
    if isinstance(error, BotFault) and reply.get("answered") is True:
        error.answered = True
    return error


class _Host:
    """What runs in a bot process: one bot at a time, created afresh for each game."""

    def __init__(self, game: AnyGame, spec: BotSpec, time_limit: float) -> None:
        self.game = game
        self.spec = spec
        self.referee = _Referee(time_limit) if time_limit > 0 else None
        self.bot: Bot | None = None
        self.rng = random.Random()

    def serve(self, message: tuple[Any, ...]) -> dict[str, Any]:
        kind = message[0]
        try:
            if kind == "create":
                self.bot = self.spec.create()
            elif kind == "new_game":
                _, seat, view = message
                self._bot().new_game(self.game, seat, view)
            elif kind == "choose":
                return self._choose(*message[1:])
            elif kind == "observe":
                _, view, seat, action = message
                self._bot().observe(view, seat, action)
            else:
                return {"fault": f"unknown request {kind!r}"}
        except BotFault as fault:
            told = {"fault": fault.reason, "answered": fault.answered}
            return {**told, **self._located(fault.__cause__)}
        except BaseException as error:  # a bot's KeyboardInterrupt too: SIGINT is ignored
            return {"raised": [type(error).__name__, _text(error)], **self._located(error)}
        return {"ok": True}

    def _located(self, error: BaseException | None) -> dict[str, Any]:
        """Where in the bot's code ``error`` arose (its frames and traceback), for the
        game's process to tell as it would of a bot in its own process."""
        if error is None:
            return {}
        where = bot_frames(error, self.spec.cls)
        return {"where": list(where), "trace": traceback_text(error)[-REPLY_TRACE:]}

    def _bot(self) -> Bot:
        if self.bot is None:
            raise RuntimeError("no bot created")
        return self.bot

    def _choose(
        self, seat: int, view: Any, legal: Sequence[Action], rng_state: Any
    ) -> dict[str, Any]:
        if rng_state is not None:
            self.rng.setstate(rng_state)
        bot = self._bot()
        if self.referee is not None:
            action = self.referee(seat, bot, view, legal, self.rng)
        else:
            action = bot.choose(view, legal, self.rng)
        for index, candidate in enumerate(legal):
            if candidate == action:
                return {"action": index}
        if type(action) is int:  # the game's process judges it as it would its own bot's
            return {"chosen": action}
        return {"illegal": repr(action)}


HOST_COMMAND = "from cgsim.play.isolation import host_main; host_main()"


def host_main() -> None:
    """A bot process's life (``python -c HOST_COMMAND FD``): read the parent's Python
    path, then the game, rules, bot and time limit, then answer requests until the
    socket closes or an empty request comes."""
    global _HOST_RULES
    conn = Connection(int(sys.argv[1]))
    parent = os.getppid()
    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        sys.path[:] = json.loads(conn.recv_bytes())
        setup, bot = conn.recv_bytes(), conn.recv_bytes()
    except (EOFError, OSError):
        return
    try:
        game, rules, time_limit = pickle.loads(setup)
    except Exception as error:  # the engine's objects: not the bot's doing
        conn.send_bytes(json.dumps({"unreadable": _describe(error)}).encode())
        return
    try:
        spec = pickle.loads(bot)  # imports the bot's module
    except BaseException as error:  # the bot's module failing to load here: one reply
        conn.send_bytes(json.dumps({"fault": f"cannot start: {_describe(error)}"}).encode())
        return
    _HOST_RULES = rules
    host = _Host(game, spec, time_limit)
    if host.referee is not None and host.referee.alarm:
        signal.signal(signal.SIGALRM, _on_alarm)
    conn.send_bytes(json.dumps({"ready": True}).encode())
    while True:
        try:
            data = conn.recv_bytes()
            if not data:
                return
            try:
                message = pickle.loads(data)
            except Exception as error:
                reply = {"unreadable": _describe(error)}
            else:
                reply = host.serve(message)
            conn.send_bytes(json.dumps(reply).encode())
        except (EOFError, OSError):
            return


class BotProcess:
    """The game's side of one bot process: started on first use, restarted after a death."""

    def __init__(self, game: AnyGame, rules: Any, spec: BotSpec, time_limit: float) -> None:
        self.game = game
        self.rules = rules
        self.spec = spec
        self.time_limit = time_limit
        self.deadline = grace_deadline(time_limit) if time_limit > 0 else None
        self.name = spec.cls.name or spec.cls.__name__
        self.process: subprocess.Popen[bytes] | None = None
        self.conn: Any = None
        self.starting = False
        """Started, its ``ready`` not yet read."""
        # What every start sends, pickled once; when it cannot be, the process is never
        # started and each call says why.
        self.setup_data = self.spec_data = b""
        self.refusal: str | None = None
        """Why the engine's objects cannot be sent (each call is an :class:`EngineFault`)."""
        self.bot_refusal: str | None = None
        """Why the bot cannot be sent (each call is its seat's :class:`BotFault`)."""
        try:
            self.setup_data = pickle.dumps((game, rules, time_limit), protocol=PROTOCOL)
        except Exception as error:
            self.refusal = _cannot_send(self._start_message(), error)
        try:
            self.spec_data = pickle.dumps(spec, protocol=PROTOCOL)
        except Exception as error:
            self.bot_refusal = (
                f"cannot start: cannot send the bot to its process: {_describe(error)}"
            )

    def _start_message(self) -> tuple[Any, ...]:
        return ("start", self.game, self.rules, self.time_limit)

    def _start(self) -> None:
        mine, theirs = socket.socketpair()
        with mine, theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-c", HOST_COMMAND, str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
            self.conn = Connection(mine.detach())
        self.conn.send_bytes(json.dumps(sys.path).encode())
        self.conn.send_bytes(self.setup_data)
        self.conn.send_bytes(self.spec_data)
        self.starting = True

    def _started(self, seat: int) -> None:
        """Wait for the process's ``ready`` (within :data:`START_LIMIT`, not the time
        limit: starting is the interpreter's time, not the bot's)."""
        self.starting = False
        if not self.conn.poll(START_LIMIT):
            self.stop()
            raise BotFault(seat, f"its process did not start within {START_LIMIT:g} s", self.name)
        reply = self._reply(seat, self.conn.recv_bytes(REPLY_LIMIT))
        self._raise_faults(seat, reply, self._start_message())

    def stop(self, grace: float = 0.0) -> int | None:
        """End the process and return its exit code: after ``grace`` seconds to end by
        itself, then at once (it may be stuck)."""
        if self.process is None:
            return None
        self.conn.close()
        if grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=grace)
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait()
        self.process = self.conn = None
        self.starting = False
        return code

    def close(self) -> None:
        """Ask the process to end, then make sure it has."""
        if self.process is None:
            return
        with contextlib.suppress(OSError):
            self.conn.send_bytes(b"")
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=1.0)
        self.stop()

    def ready(self) -> None:
        """Start the process if it is not running (it loads while others do)."""
        if self.refusal is not None or self.bot_refusal is not None:
            return
        if self.process is None or self.process.poll() is not None:
            self.stop()
            self._start()

    def call(self, seat: int, message: tuple[Any, ...]) -> dict[str, Any]:
        """Send a request and return the reply; a bot that dies, hangs or answers
        nonsense is a :class:`BotFault` of ``seat``; a message that cannot be sent is an
        :class:`EngineFault`."""
        if self.refusal is not None:
            raise EngineFault(self.refusal)
        if self.bot_refusal is not None:
            raise BotFault(seat, self.bot_refusal, self.name)
        try:
            request = _dumps(message, self.rules)
        except Exception as error:
            raise EngineFault(_cannot_send(message, error)) from error
        self.ready()
        try:
            if self.starting:
                self._started(seat)
            self.conn.send_bytes(request)
            if not self.conn.poll(self.deadline):
                self.stop()
                reason = (
                    f"did not return within {self.deadline:g} s (the time limit of "
                    f"{self.time_limit:g} s and a grace); its process was stopped"
                )
                raise BotFault(seat, reason, self.name)
            data = self.conn.recv_bytes(REPLY_LIMIT)
        except (EOFError, OSError):
            code = self.stop(EXIT_WAIT)
            raise BotFault(seat, f"its process ended (exit code {code})", self.name) from None
        return self._raise_faults(seat, self._reply(seat, data), message)

    def _reply(self, seat: int, data: bytes) -> dict[str, Any]:
        """A reply as a JSON object; anything else stops the process."""
        try:
            reply = json.loads(data)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            self.stop()
            raise BotFault(seat, "its process sent an unreadable reply", self.name)
        return reply

    def _raise_faults(
        self, seat: int, reply: dict[str, Any], message: tuple[Any, ...]
    ) -> dict[str, Any]:
        if "unreadable" in reply:
            # Believed only when the message indeed does not read back here: a bot's
            # process cannot pass its own failure off as the engine's.
            found = unsendable(message)
            if found is None:
                text = str(reply["unreadable"])[:REASON_LIMIT]
                raise BotFault(seat, f"its process could not read a request ({text})", self.name)
            what, why = found
            raise EngineFault(f"cannot send {what} to the bot's process: {why}")
        if "fault" in reply:
            raise _told(BotFault(seat, str(reply["fault"])[:REASON_LIMIT], self.name), reply)
        raised = reply.get("raised")
        if isinstance(raised, list) and len(raised) == 2:
            raise _told(_remote_error(str(raised[0])[:100])(str(raised[1])), reply)
        if "illegal" in reply:
            text = str(reply["illegal"])[:REASON_LIMIT]
            fault = BotFault(
                seat, f"illegal action {text} (not among the legal actions)", self.name
            )
            fault.answered = True
            raise fault
        return reply


class IsolatedBot(Bot):
    """Stands in the game for a bot living in its own process."""

    process: BotProcess
    seat_of: int
    sent: random.Random | None = None

    def new_game(self, game: AnyGame, seat: int, state: Any) -> None:
        self.seat = seat
        self.process.call(self.seat_of, ("new_game", seat, state))

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        rng_state = None if rng is self.sent else rng.getstate()
        self.sent = rng
        reply = self.process.call(
            self.seat_of, ("choose", self.seat, state, legal_actions, rng_state)
        )
        chosen = reply.get("chosen")
        if type(chosen) is int:  # not a legal action: the loop says so, as of any bot
            return chosen
        index = reply.get("action")
        if not isinstance(index, int) or not 0 <= index < len(legal_actions):
            raise BotFault(self.seat_of, "its process sent no action", self.process.name)
        return legal_actions[index]


class IsolatedWatcher(IsolatedBot):
    """An isolated bot that hears every action (its real class overrides ``observe``)."""

    def observe(self, state: Any, seat: int, action: Action) -> None:
        self.process.call(self.seat_of, ("observe", state, seat, action))


@functools.cache
def _proxy_class(name: str, watches: bool) -> type[IsolatedBot]:
    base = IsolatedWatcher if watches else IsolatedBot
    return type(base.__name__, (base,), {"name": name, "__module__": __name__})


@dataclass(frozen=True, slots=True)
class IsolatedSpec(BotSpec):
    """A seat's bot spec whose ``create`` makes the bot in its process and returns a proxy."""

    process: BotProcess | None = None
    seat: int = 0

    def create(self) -> Bot:
        if self.process is None:
            raise RuntimeError("an isolated spec without a process")
        self.process.call(self.seat, ("create",))
        proxy = _proxy_class(self.process.name, overrides_observe_class(self.cls))()
        proxy.process, proxy.seat_of = self.process, self.seat
        return proxy


def overrides_observe_class(cls: type[Bot]) -> bool:
    """Whether instances of ``cls`` want every action (see ``loop.overrides_observe``)."""
    return cls.observe is not Bot.observe


@dataclass
class BotProcesses:
    """A worker's bot processes, one per bot of the pool and copy of it in a game."""

    game: AnyGame
    rules: Any
    bots: Sequence[BotSpec]
    time_limit: float
    processes: dict[tuple[int, int], BotProcess] = field(default_factory=dict)

    def specs(self, seats: Sequence[int]) -> list[BotSpec]:
        """The specs of one game's seats (indexes into the pool), each with its process."""
        specs: list[BotSpec] = []
        for seat, index in enumerate(seats):
            key = (index, seats[:seat].count(index))
            process = self.processes.get(key)
            if process is None:
                process = BotProcess(self.game, self.rules, self.bots[index], self.time_limit)
                self.processes[key] = process
            process.ready()
            spec = self.bots[index]
            specs.append(IsolatedSpec(spec.label, spec.name, spec.cls, spec.params, process, seat))
        return specs

    def close(self) -> None:
        for process in self.processes.values():
            process.close()
        self.processes.clear()
