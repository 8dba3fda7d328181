"""The Kitchen Garden rules: setup, legal actions and ``apply``, as pure functions.

``apply`` copies the state into a small mutable work object, performs the action and
every automatic consequence that follows it (the *settle* loop: skipped conditions
phases, lost actions, forced Holiday discards, the end of a turn, Sluggard skips, the
turn cap), and freezes the result. When a ``log`` list is passed, every change is
appended to it as a record event, so records and replays use this very code.

This module is the engine's public face; the rest lives in one module per concern:
``legal`` (legal actions), ``perform`` (a chosen action), ``settle`` (the automatic
steps), ``work`` (the working copy), ``beds`` and ``piles`` (bed arithmetic, card
lookups), ``scoring`` and ``describe`` (actions in words).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from cgsim.errors import IllegalActionError
from cgsim.games.contract import Action
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.beds import bed_full, bed_plants, can_plant
from cgsim.games.kitchen.cards import SPECIALS
from cgsim.games.kitchen.describe import describe_action
from cgsim.games.kitchen.legal import TURN_GENERATOR_OF, generate_legal_actions
from cgsim.games.kitchen.perform import perform
from cgsim.games.kitchen.piles import can_use_special, distinct_types
from cgsim.games.kitchen.scoring import beds_full, plants_planted
from cgsim.games.kitchen.settings import KitchenRules
from cgsim.games.kitchen.settle import settle
from cgsim.games.kitchen.state import (
    MIDDLE,
    NONE,
    PHASE_ACTIONS,
    PHASE_CONDITIONS,
    PHASE_NAMES,
    PHASE_OVER,
    State,
)
from cgsim.games.kitchen.work import Event, Work
from cgsim.games.loop.core import Engine

__all__ = [
    "apply",
    "bed_full",
    "bed_plants",
    "beds_full",
    "can_plant",
    "can_use_special",
    "describe_action",
    "is_over",
    "legal_actions",
    "new_game",
    "plants_planted",
]


# ---------------------------------------------------------------- setup


def new_game(rules: KitchenRules, seed: int) -> State:
    """Deal tasks, hands and the market from the seed alone; seat 0 starts."""
    catalogue = rules.catalogue
    settings = rules.settings
    players = rules.players
    rng = random.Random(f"kitchen-garden:{seed}")
    tasks = tuple(rng.sample(range(len(catalogue.tasks)), players))
    deck = list(range(catalogue.card_count))
    rng.shuffle(deck)
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(settings.deal):
        for seat in range(players):
            hands[seat].append(deck.pop())
    market = tuple(deck.pop() for _ in range(settings.market_size))
    specials: tuple[tuple[int, ...], ...]
    if players == 2:
        specials = tuple((MIDDLE,) for _ in SPECIALS)
    else:
        specials = tuple(tuple(range(players)) for _ in SPECIALS)
    empty_beds = tuple(() for _ in catalogue.crops)
    state = State(
        rules=rules,
        seed=seed,
        tasks=tasks,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        beds=tuple(empty_beds for _ in range(players)),
        market=market,
        deck=tuple(deck),
        discard=(),
        specials=specials,
        sluggards=(NONE,) * players,
        turn=1,
        active=0,
        phase=PHASE_CONDITIONS,
        flags=0,
        actions_left=settings.base_actions,
        sub=0,
        sub_seat=NONE,
        pending=NONE,
        reshuffles=0,
        winner=NONE,
        aborted=False,
    )
    work = Work(state, None)
    settle(work)
    return work.freeze()


# ---------------------------------------------------------------- legal actions


class _Memo:
    """The last state ``legal_actions`` answered for and its answer: ``apply`` on that very
    state (the usual next call) checks the action against it instead of generating again.
    States are immutable, so identity is enough; one tuple keeps reads consistent."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[State | None, tuple[Action, ...]] = (None, ())


_MEMO: Final = _Memo()


def legal_actions(state: State) -> list[Action]:
    """Every legal action at the current decision point, in a fixed order."""
    found = generate_legal_actions(state)
    _MEMO.last = (state, tuple(found))
    return found


# ---------------------------------------------------------------- apply


def current_player(state: State) -> int:
    """The seat that decides next."""
    return state.decider


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == PHASE_OVER


def _illegal(state: State, action: Action) -> IllegalActionError:
    phase = PHASE_NAMES[state.phase]
    kind = A.kind_of(action)
    if kind >= len(A.KIND_NAMES):
        return IllegalActionError(f"action {action} is not a kitchen-garden action")
    what = describe_action(state.rules, action)
    if state.phase == PHASE_OVER:
        return IllegalActionError(f"{what}: the game is over")
    legal_kinds = sorted({A.KIND_NAMES[A.kind_of(a)] for a in legal_actions(state)})
    return IllegalActionError(
        f"{what} is not legal for seat {state.decider} in the {phase} phase "
        f"(legal now: {', '.join(legal_kinds)})"
    )


def _is_legal(state: State, action: Action) -> bool:
    memo_state, memo_actions = _MEMO.last
    if memo_state is state:
        return action in memo_actions
    if state.phase == PHASE_ACTIONS:
        generator = TURN_GENERATOR_OF.get(A.kind_of(action))
        if generator is None:
            return False
        hand_types = distinct_types(state.rules.catalogue.card_types, state.hands[state.active])
        return action in generator(state, hand_types)
    return action in generate_legal_actions(state)


def apply(state: State, action: Action, log: list[Event] | None = None) -> State:
    """The state after ``action`` and every automatic consequence; the input is untouched."""
    if not _is_legal(state, action):
        raise _illegal(state, action)
    work = Work(state, log)
    perform(work, action)
    settle(work)
    return work.freeze()


class KitchenEngine(Engine):
    """This engine's calls at every action, made natively by the compiled loop."""

    def is_terminal(self, state: Any) -> bool:
        return is_over(state)

    def current_player(self, state: Any) -> int:
        return current_player(state)

    # The signatures are the base's, to the letter: a narrower one would be called
    # through a converting wrapper.
    def legal_actions(self, state: Any) -> Sequence[Action]:
        return legal_actions(state)

    def apply(self, state: Any, action: Any) -> Any:
        return apply(state, action)


ENGINE: Final = KitchenEngine()
"""The engine's native calls (the game offers it as ``engine``)."""
