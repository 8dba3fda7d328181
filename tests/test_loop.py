"""The one game loop: its hooks, its faults, and that runs, the strength bench and the
hand-odds tool all play through it and count a game nobody wins the same way."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest
import toygame
from hypothesis import given
from hypothesis import strategies as st

from cgsim.errors import IllegalActionError
from cgsim.games import loop
from cgsim.games.bot import Bot
from cgsim.games.contract import GameResult
from cgsim.games.loop import BotFault, DecisionTimer, win_shares
from cgsim.games.loop.core import ContractCalls, _among
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import play_game
from cgsim.studies import strength

toygame.register()
GAME = toygame.GAME
RULES = GAME.make_rules(2, {})


class Counting(Bot):
    """Takes the largest step and counts what the loop tells it."""

    games: ClassVar[tuple[str, ...]] = ("toy",)

    def __init__(self, params: Any = None) -> None:
        super().__init__(params)
        self.asked = 0
        self.heard = 0

    def choose(self, state: Any, legal_actions: Sequence[int], rng: random.Random) -> int:
        assert len(legal_actions) > 1
        self.asked += 1
        return legal_actions[-1]

    def observe(self, state: Any, seat: int, action: int) -> None:
        self.heard += 1


def _rngs(players: int = 2) -> list[random.Random]:
    return [random.Random(seat) for seat in range(players)]


def test_hooks_see_every_decision_and_every_action() -> None:
    bots = [Counting(), Counting()]
    decisions: list[int] = []
    actions: list[int] = []
    final = loop.play(
        GAME,
        GAME.new_game(RULES, 3),
        bots,
        _rngs(),
        before_decision=lambda state, seat: decisions.append(seat),
        after_action=lambda before, action, after: actions.append(action),
    )
    assert GAME.is_terminal(final)
    assert len(actions) == final.turn
    assert len(decisions) == bots[0].asked + bots[1].asked < len(actions)
    assert bots[0].heard == bots[1].heard == len(actions)


def _spy_on_the_loop(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every later call of ``loop.play``'s hooks, in order (the loop still plays)."""
    calls: list[dict[str, Any]] = []
    original = loop.play

    def spy(*args: Any, **hooks: Any) -> Any:
        calls.append(hooks)
        return original(*args, **hooks)

    monkeypatch.setattr(loop, "play", spy)
    return calls


@pytest.mark.parametrize("name", ["cottage-garden", "kitchen-garden"])
def test_a_games_tally_is_folded_natively_with_the_summary_of_the_hook(name: str) -> None:
    """Runs hand each built-in game's tally to the loop as a ``Fold`` (its ``step`` called
    natively, compiled); folded or hooked, the tally sees the same actions and sums up
    the same game."""
    game = get_game(name)
    rules = game.make_rules(2, {})
    start = game.new_game(rules, 5)
    summaries = []
    for how in ("fold", "after_action"):
        tally = game.tally(rules, start)
        assert isinstance(tally, loop.Fold)
        bots = [resolve_bot("random", name).create() for _ in range(2)]
        hooks: dict[str, Any] = {how: tally if how == "fold" else tally.step}
        final = loop.play(game, start, bots, _rngs(), **hooks)
        summaries.append(tally.finish(final, game.result(final)))
    assert summaries[0] == summaries[1]
    assert summaries[0].seats


def test_a_run_folds_a_games_own_tally_and_hooks_any_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``play_game`` hands a tally that is a ``Fold`` to the loop's native ``fold``, and a
    plain one (the toy game's ``RecordTally``) to ``after_action``: never both."""
    calls = _spy_on_the_loop(monkeypatch)
    cottage = get_game("cottage-garden")
    random_bot = resolve_bot("random", "cottage-garden")
    assert play_game(cottage, cottage.make_rules(2, {}), 1, [random_bot] * 2).error is None
    assert isinstance(calls[-1]["fold"], loop.Fold) and calls[-1]["after_action"] is None
    greedy = resolve_bot(toygame.target(toygame.Greedy), "toy")
    assert play_game(GAME, RULES, 3, [greedy, greedy]).error is None
    assert calls[-1]["fold"] is None and calls[-1]["after_action"] is not None


def test_the_fold_base_has_no_step_of_its_own() -> None:
    with pytest.raises(NotImplementedError):
        loop.Fold().step(None, 0, None)


class CountingFold(loop.Fold):
    """A fold written in Python (a plugin's tally): counts the actions it is told of."""

    def __init__(self) -> None:
        self.steps = 0

    def step(self, before: Any, action: int, after: Any) -> None:
        self.steps += 1


def test_a_fold_written_in_python_is_told_of_every_action() -> None:
    folded = CountingFold()
    actions: list[int] = []
    loop.play(
        GAME,
        GAME.new_game(RULES, 3),
        [Counting(), Counting()],
        _rngs(),
        fold=folded,
        after_action=lambda before, action, after: actions.append(action),
    )
    assert folded.steps == len(actions) > 0


class GameSeen:
    """A game seen with another engine than its own, or none (as the toy game and any
    Python game offer none): every other attribute is the game's own."""

    def __init__(self, game: Any, engine: loop.Engine | None = None) -> None:
        self.game = game
        if engine is not None:
            self.engine = engine

    def __getattr__(self, name: str) -> Any:
        if name == "engine":
            raise AttributeError(name)
        return getattr(self.game, name)


class PythonEngine(loop.Engine):
    """An engine written in Python (a plugin's): the game's contract, its calls counted."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.calls = 0

    def is_terminal(self, state: Any) -> bool:
        self.calls += 1
        return bool(self.game.is_terminal(state))

    def current_player(self, state: Any) -> int:
        return int(self.game.current_player(state))

    def legal_actions(self, state: Any) -> Sequence[int]:
        return self.game.legal_actions(state)  # type: ignore[no-any-return]

    def apply(self, state: Any, action: Any) -> Any:
        return self.game.apply(state, action)


def _random_game(game: Any, name: str, state: Any) -> tuple[list[Any], GameResult]:
    """The actions and the result of a game of random bots from ``state``."""
    actions: list[Any] = []

    def heard(before: Any, action: Any, after: Any) -> None:
        actions.append(action)

    bots = [resolve_bot("random", name).create() for _ in range(3)]
    final = loop.play(game, state, bots, _rngs(3), after_action=heard)
    return actions, game.result(final)


@pytest.mark.parametrize("name", ["cottage-garden", "kitchen-garden"])
def test_the_loop_calls_a_games_native_engine_and_its_contract_plays_the_same_game(
    name: str,
) -> None:
    """Each built-in game offers its engine's calls natively, and the loop takes them;
    a game without them is called through its contract, and one offering an engine
    written in Python through that: each plays exactly the same."""
    game = get_game(name)
    native = getattr(game, "engine", None)
    assert isinstance(native, loop.Engine)
    assert loop.engine_of(game) is native
    assert type(loop.engine_of(GameSeen(game))) is ContractCalls
    assert type(loop.engine_of(GAME)) is ContractCalls
    written = PythonEngine(game)
    rules = game.make_rules(3, {})
    played = [
        _random_game(seen, name, game.new_game(rules, 11))
        for seen in (game, GameSeen(game), GameSeen(game, written))
    ]
    assert played[0] == played[1] == played[2]
    assert len(played[0][0]) > 20
    # An engine written in Python is called too (compiled, through the same method table).
    assert written.calls > len(played[0][0])


@pytest.mark.parametrize("name", ["cottage-garden", "kitchen-garden"])
def test_a_native_engine_refuses_an_illegal_action_as_the_contract_does(name: str) -> None:
    game = get_game(name)
    state = game.new_game(game.make_rules(2, {}), 3)
    for apply in (game.apply, loop.engine_of(game).apply):
        with pytest.raises(IllegalActionError):
            apply(state, 10**9)


def test_the_engine_base_makes_no_call_of_its_own() -> None:
    engine = loop.Engine()
    calls = (
        lambda: engine.is_terminal(None),
        lambda: engine.current_player(None),
        lambda: engine.legal_actions(None),
        lambda: engine.apply(None, 0),
    )
    for call in calls:
        with pytest.raises(NotImplementedError):
            call()


class Listening(Counting):
    """Keeps the seat and action of everything it hears."""

    def __init__(self, params: Any = None) -> None:
        super().__init__(params)
        self.told: list[tuple[int, int]] = []

    def observe(self, state: Any, seat: int, action: int) -> None:
        self.told.append((seat, action))


def test_observing_bots_hear_the_seat_of_every_action_forced_ones_too() -> None:
    # The loop asks whose a forced action is only for observing bots: they must still
    # hear the right seat.
    bots = [Listening(), Listening()]
    taken: list[tuple[int, int]] = []
    loop.play(
        GAME,
        GAME.new_game(RULES, 3),
        bots,
        _rngs(),
        after_action=lambda before, action, after: taken.append(
            (GAME.current_player(before), action)
        ),
    )
    forced = len(taken) - bots[0].asked - bots[1].asked
    assert forced > 0
    assert bots[0].told == bots[1].told == taken


def test_the_timer_counts_each_seats_decisions() -> None:
    bots = [Counting(), Counting()]
    timer = DecisionTimer(2)
    loop.play(GAME, GAME.new_game(RULES, 3), bots, _rngs(), decide=timer)
    assert timer.decisions == [bots[0].asked, bots[1].asked]
    assert all(seconds >= 0.0 for seconds in timer.seconds)


def test_the_action_cap_stops_a_game_that_goes_on() -> None:
    with pytest.raises(RuntimeError, match="no end after 3 actions"):
        loop.play(GAME, GAME.new_game(RULES, 3), [Counting(), Counting()], _rngs(), max_actions=3)


class Cheat(Counting):
    name: ClassVar[str] = "cheat"

    def choose(self, state: Any, legal_actions: Sequence[int], rng: random.Random) -> int:
        return 99


class LoudWatcher(Counting):
    def observe(self, state: Any, seat: int, action: int) -> None:
        raise ValueError("too loud")


@pytest.mark.parametrize(
    ("bad", "text"),
    [
        (Cheat(), "bot cheat (seat 1): illegal action 99 (not among the legal actions)"),
        (LoudWatcher(), "bot LoudWatcher (seat 1): ValueError: too loud"),
    ],
)
def test_a_failing_bot_is_a_fault_naming_its_seat(bad: Bot, text: str) -> None:
    with pytest.raises(BotFault) as fault:
        loop.play(GAME, GAME.new_game(RULES, 3), [Counting(), bad], _rngs())
    assert fault.value.seat == 1 and str(fault.value) == text


def test_an_engine_fault_is_not_a_bot_fault() -> None:
    rules = GAME.make_rules(2, {"explode": 2})
    with pytest.raises(RuntimeError, match="the toy engine exploded"):
        loop.play(GAME, GAME.new_game(rules, 3), [Counting(), Counting()], _rngs())


def test_runs_the_strength_bench_and_the_odds_tool_play_through_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bots.kitchen_odds import count_hidden_cards

    calls = _spy_on_the_loop(monkeypatch)
    greedy = resolve_bot(toygame.target(toygame.Greedy), "toy")
    assert play_game(GAME, RULES, 3, [greedy, greedy]).error is None
    assert calls[-1]["after_action"] is not None  # the recorder's step
    strength.play(GAME, [Counting(), Counting()], 3, 3)
    assert isinstance(calls[-1]["decide"], DecisionTimer)
    count_hidden_cards(1, 50)
    assert calls[-1]["before_decision"] is not None and calls[-1]["after_action"] is not None
    assert len(calls) == 3


class NobodyWins(toygame.ToyGame):
    """The toy game, ending without a winner (like Kitchen Garden's turn cap)."""

    def result(self, state: Any) -> GameResult:
        result = super().result(state)
        return GameResult(result.scores, (), "aborted", result.turns, result.ranks)


def test_a_game_nobody_wins_is_no_win_for_anyone_everywhere() -> None:
    game = NobodyWins()
    greedy = resolve_bot(toygame.target(toygame.Greedy), "toy")
    run = play_game(game, RULES, 3, [greedy, greedy])
    bench = strength.play(game, [Counting(), Counting()], 3, 3)
    assert [row["win_share"] for row in run.seats] == [0.0, 0.0]
    assert [seat.win for seat in bench] == [0.0, 0.0]
    assert all(seat.won_by_nobody for seat in bench)


def test_win_shares_split_a_shared_win() -> None:
    result = GameResult((5.0, 5.0, 2.0), (0, 1), "normal", 3, (1.5, 1.5, 3.0))
    assert win_shares(result) == (0.5, 0.5, 0.0)
    assert win_shares(GameResult((1.0, 2.0), (1,), "normal", 3, (2.0, 1.0))) == (0.0, 1.0)


class Blind(Bot):
    """Declares it never reads its view, and records what it was handed."""

    games: ClassVar[tuple[str, ...]] = ("toy",)
    looks: ClassVar[bool] = False

    def __init__(self, params: Any = None) -> None:
        super().__init__(params)
        self.views: list[Any] = []

    def choose(self, state: Any, legal_actions: Sequence[int], rng: random.Random) -> int:
        self.views.append(state)
        return legal_actions[0]


class Looking(Blind):
    looks: ClassVar[bool] = True


def test_a_bot_that_never_looks_gets_no_view_and_one_that_looks_gets_its_own() -> None:
    blind, looking = Blind(), Looking()
    loop.play(GAME, GAME.new_game(RULES, 3), [blind, looking], _rngs())
    assert blind.views and all(view is None for view in blind.views)
    assert looking.views and all(view is not None for view in looking.views)


def test_the_watch_tells_the_running_seat_and_writes_shared_cells_only_when_given() -> None:
    from multiprocess import RawArray

    from cgsim.games.loop.watch import GAME as GAME_CELL
    from cgsim.games.loop.watch import NOBODY, SEAT, SINCE, BotWatch, read

    private = BotWatch()
    private.enter(1)
    assert private.seat == 1 and private.cells is None
    private.leave()
    assert private.seat is None

    cells = RawArray("d", 3)
    shared = BotWatch(cells)
    shared.game(7)
    shared.enter(0)
    assert (cells[GAME_CELL], cells[SEAT], cells[SINCE]) == (7.0, 0.0, 0.0)  # untimed
    shared.leave()
    assert cells[SEAT] == NOBODY
    shared.timed = True
    shared.enter(1)
    assert cells[SINCE] > 0.0 and read(cells).seat == 1 and read(cells).game_id == 7
    checked: list[int | None] = []
    shared.check = checked.append
    shared.leave()
    assert checked == [1] and read(cells).seat is None


@given(st.lists(st.integers(-(1 << 40), 1 << 40), max_size=30), st.integers(-(1 << 40), 1 << 40))
def test_the_legality_check_answers_as_in_whether_or_not_the_object_was_offered(
    legal: list[int], other: int
) -> None:
    # A bot's answer is looked for by identity first: an equal int built anew (another
    # object), an offered one and one never offered are all judged as `in` judges them.
    for answer in [*legal[:3], other]:
        rebuilt = int(str(answer))
        assert _among(answer, legal) == (answer in legal)
        assert _among(rebuilt, legal) == (rebuilt in legal)
        assert _among(rebuilt, tuple(legal)) == (rebuilt in legal)
    assert not _among(str(other), legal)
