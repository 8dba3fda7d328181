"""The one game loop: bots take their seats' decisions until the game ends.

Runs (``cgsim.play.match``), the strength bench and the hand-odds tool all play through
:func:`play`, so a bot sees the same calls everywhere (OpenSpiel's ``evaluate_bots`` is
the model). A bot is asked only at real decisions: when exactly one action is legal it
is applied without asking, and bots hear of it through ``observe`` like any other
action. Each bot sees only ``game.observation`` of its seat (none is built for a bot
that declares it never looks: ``Bot.looks``). The engine is called through the game's
native :class:`Engine` where it offers one (:func:`engine_of`).

Callers add what they need through hooks, each ``None`` (and then free) by default:
``decide`` asks a bot in its own way (a referee's time limit, :class:`DecisionTimer`),
``before_decision`` looks at the state before a bot is asked, ``after_action`` sees
every applied action (a recorder's ``step``), ``fold`` too (a game's tally,
:class:`Fold`), ``watch`` is told which seat's bot code runs (so another process can
stop and blame it), ``max_actions`` caps a game that never ends. A bot that raises or
chooses an illegal action stops the loop with :class:`BotFault` naming its seat; an
exception of the engine propagates as it is, and so does an :class:`EngineFault` raised
where a bot is called.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from cgsim.games.bot import Bot
from cgsim.games.contract import Action, AnyGame, GameResult
from cgsim.games.loop.faults import BotFault, EngineFault, bot_name, raised
from cgsim.games.loop.watch import BotWatch

MAX_UNLIMITED: Final = 1 << 62
"""The action count that stands for "no cap" (no game comes near it)."""

Decide = Callable[[int, Bot, Any, Sequence[Action], random.Random], Action]
"""``decide(seat, bot, view, legal, rng)``: asks ``bot`` for its choice; it may raise
:class:`BotFault` itself (a referee's time limit), which passes through unchanged."""
BeforeDecision = Callable[[Any, int], None]
"""``before_decision(state, seat)``: called before ``seat``'s bot is asked."""
AfterAction = Callable[[Any, Action, Any], None]
"""``after_action(before, action, after)``: called once per applied action, forced or not."""


# Both bases below may be subclassed in Python too (a game of a plugin): compiled, such a
# subclass's methods are then called through the native method table like the rest.
@mypyc_attr(allow_interpreted_subclasses=True)
class Fold:
    """A base for what folds every applied action into a summary as a game is played (a
    game's tally): the loop calls its ``step`` natively when compiled, where a hook
    (``after_action``) is a Python call with its arguments parsed, at every action."""

    def step(self, before: Any, action: int, after: Any) -> None:
        """``action`` took ``before`` to ``after``."""
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class Engine:
    """A game's calls at every action, as native methods: a compiled engine subclasses
    this and its game offers an instance as ``engine``, and the compiled loop calls it
    through the native method table, where a module function held as an attribute is a
    Python call with its arguments parsed, three or four times an action. A game that
    offers none is called through its contract (:class:`ContractCalls`)."""

    def is_terminal(self, state: Any) -> bool:
        raise NotImplementedError

    def current_player(self, state: Any) -> int:
        raise NotImplementedError

    def legal_actions(self, state: Any) -> Sequence[Action]:
        raise NotImplementedError

    def apply(self, state: Any, action: Any) -> Any:
        raise NotImplementedError


class ContractCalls(Engine):
    """The engine of a game that offers no native one: its contract's own calls."""

    def __init__(self, game: AnyGame) -> None:
        self._is_terminal = game.is_terminal
        self._current_player = game.current_player
        self._legal_actions = game.legal_actions
        self._apply = game.apply

    def is_terminal(self, state: Any) -> bool:
        return self._is_terminal(state)

    def current_player(self, state: Any) -> int:
        return self._current_player(state)

    def legal_actions(self, state: Any) -> Sequence[Action]:
        return self._legal_actions(state)

    def apply(self, state: Any, action: Any) -> Any:
        return self._apply(state, action)


def engine_of(game: AnyGame) -> Engine:
    """The calls the loop makes at every action: the game's native ``engine`` if it
    offers one, else its contract's."""
    offered = getattr(game, "engine", None)
    return offered if isinstance(offered, Engine) else ContractCalls(game)


def overrides_observe(bot: Bot) -> bool:
    """Whether the bot wants to hear every action (only those are told, to save calls)."""
    return type(bot).observe is not Bot.observe


def win_shares(result: GameResult) -> tuple[float, ...]:
    """Each seat's share of the win: 1/k for each of k winners, 0 for the others.

    A game nobody wins (Kitchen Garden's turn cap) is no win for anyone: every share 0.
    Runs, reports and the strength bench all count wins this way.
    """
    share = 1.0 / len(result.winners) if result.winners else 0.0
    return tuple(share if seat in result.winners else 0.0 for seat in range(len(result.scores)))


class DecisionTimer:
    """A ``decide`` hook that counts each seat's decisions and the seconds they took."""

    def __init__(self, players: int) -> None:
        self.decisions = [0] * players
        self.seconds = [0.0] * players

    def __call__(
        self, seat: int, bot: Bot, view: Any, legal: Sequence[Action], rng: random.Random
    ) -> Any:
        # Any: the answer is passed on as it is, for the loop to check (see ``play``).
        player: Any = bot
        start = time.perf_counter()
        action = player.choose(view, legal, rng)
        self.seconds[seat] += time.perf_counter() - start
        self.decisions[seat] += 1
        return action


def _among(action: Any, legal: Sequence[Action]) -> bool:
    """Whether ``action`` is one of the legal actions.

    A bot nearly always hands back one of the very objects it was offered, so a list is
    first searched by identity (a pointer comparison per element, where ``in`` compares
    values: an int comparison each, or the bot's own ``__eq__``); a game's own sequence
    type answers ``in`` its own way (Cottage Garden's without building its actions).
    """
    if type(legal) is list:
        offered: list[Any] = legal
        for candidate in offered:
            if candidate is action:
                return True
    return action in legal


def _illegal(seat: int, bot: Bot, action: Any) -> BotFault:
    """The fault of a bot that chose ``action``, which is not among the legal ones."""
    reason = f"illegal action {action!r} (not among the legal actions)"
    fault = BotFault(seat, reason, bot_name(bot))
    fault.answered, fault.illegal, fault.action = True, True, action
    return fault


def _start(game: AnyGame, state: Any, bots: list[Bot], watch: BotWatch | None) -> None:
    """Tell every bot of the new game (its seat and what it sees)."""
    for seat, bot in enumerate(bots):
        view = game.observation(state, seat)
        if watch is not None:
            watch.enter(seat)
        try:
            bot.new_game(game, seat, view)
        except EngineFault:
            raise
        except BotFault as fault:
            fault.at(state, 0, None)
            raise
        except (Exception, SystemExit) as error:
            raise raised(seat, error, bot).at(state, 0, None) from error
        if watch is not None:
            watch.leave()


def _tell(
    game: AnyGame,
    after: Any,
    watchers: list[tuple[int, Bot]],
    seat: int,
    action: Action,
    watch: BotWatch | None,
    decisions: int,
) -> None:
    """Tell the bots that observe what ``seat`` did (``decisions``: the game's so far)."""
    for watcher_seat, watcher in watchers:
        view = game.observation(after, watcher_seat)
        if watch is not None:
            watch.enter(watcher_seat)
        try:
            watcher.observe(view, seat, action)
        except EngineFault:
            raise
        except BotFault as fault:
            fault.at(after, decisions, None)
            raise
        except (Exception, SystemExit) as error:
            raise raised(watcher_seat, error, watcher).at(after, decisions, None) from error
        if watch is not None:
            watch.leave()


def play(
    game: AnyGame,
    state: Any,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    *,
    decide: Decide | None = None,
    before_decision: BeforeDecision | None = None,
    after_action: AfterAction | None = None,
    fold: Fold | None = None,
    watch: BotWatch | None = None,
    max_actions: int | None = None,
) -> Any:
    """Play ``state`` to its end with ``bots`` in seat order and return the final state.

    Seat ``s`` draws its randomness from ``rngs[s]``. Raises :class:`BotFault` for a
    bot's failure (``new_game``, ``choose`` or ``observe``), placed in the game
    (``BotFault.at``: the state, the decision's number, the legal actions), and
    ``RuntimeError`` for a state without legal actions or a game still running after
    ``max_actions`` actions.
    """
    seated = list(bots)
    generators = list(rngs)
    _start(game, state, seated, watch)
    watchers = [(seat, bot) for seat, bot in enumerate(seated) if overrides_observe(bot)]
    looks = [bot.looks for bot in seated]
    # The game's calls found once: this loop runs once per action of every game.
    engine = engine_of(game)
    observation = game.observation
    limit = MAX_UNLIMITED if max_actions is None else max_actions
    actions = 0
    decisions = 0
    # Whatever a bot returns, until it is found among the legal actions: called through
    # Any, so compiled code takes the answer as it is (not as the declared int).
    action: Any
    ask: Any = decide
    while not engine.is_terminal(state):
        legal: Sequence[Action] = engine.legal_actions(state)
        count = len(legal)
        # Whose action it is, asked only where somebody is told: a forced action is
        # applied without asking its seat's bot, so only observing bots need the seat.
        seat: int = -1
        if count == 1:
            action = legal[0]
            if watchers:
                seat = engine.current_player(state)
        elif count == 0:
            raise RuntimeError("no legal action in a non-terminal state")
        else:
            seat = engine.current_player(state)
            if before_decision is not None:
                before_decision(state, seat)
            bot: Any = seated[seat]
            view = observation(state, seat) if looks[seat] else None
            if watch is not None:
                watch.enter(seat)
            decisions += 1
            try:
                if decide is None:
                    action = bot.choose(view, legal, generators[seat])
                else:
                    action = ask(seat, bot, view, legal, generators[seat])
            except EngineFault:
                raise
            except BotFault as fault:
                fault.at(state, decisions, legal)
                raise
            except (Exception, SystemExit) as error:
                raise raised(seat, error, bot).at(state, decisions, legal) from error
            if not _among(action, legal):  # may run the bot's code (its action's __eq__)
                raise _illegal(seat, bot, action).at(state, decisions, legal)
            if watch is not None:
                watch.leave()
        after = engine.apply(state, action)
        if fold is not None:
            fold.step(state, action, after)
        if after_action is not None:
            after_action(state, action, after)
        if watchers:
            _tell(game, after, watchers, seat, action, watch, decisions)
        state = after
        actions += 1
        if actions >= limit and not engine.is_terminal(state):
            raise RuntimeError(f"no end after {max_actions} actions")
    return state
