"""The rules of Cottage Garden (rules.md): setup, legal actions and ``apply``.

``apply(state, action)`` copies the state into a private working object, performs the
action, then runs every automatic step (refills, scoring moves, bonuses, clean-up, the
gardener, the final round) until the next decision point, and freezes the result. The
input state is never mutated. Decision points with a single meaningful choice (one
distinct cube to move, one cell for a forced token) are resolved automatically.

This module is the engine's public face; the steps live in one module per concern:
``turn`` (the flow of a turn), ``decisions`` (one handler per decision point),
``planting``, ``scoring`` (and the final result), ``gardener`` (corners, the final
round and the end), ``work`` (the working copy) and ``describe`` (actions in words).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from cgsim.errors import IllegalActionError
from cgsim.games.cottage.actions import (
    BONUS_POT,
    CORNERS,
    CUBE,
    DONE,
    PASS,
    PENALTY,
    RAMBLE,
    SCORE,
    LegalActions,
    cube_code,
    encode,
)
from cgsim.games.cottage.cells import cells_of
from cgsim.games.cottage.components import Catalogue
from cgsim.games.cottage.decisions import handle
from cgsim.games.cottage.describe import describe
from cgsim.games.cottage.gardener import corner_choices, penalty_options
from cgsim.games.cottage.nursery import NURSERY_CELLS
from cgsim.games.cottage.planting import cat_segments, main_segments
from cgsim.games.cottage.scoring import complete_beds, cube_options
from cgsim.games.cottage.settings import Settings
from cgsim.games.cottage.state import (
    PHASE_AFTER,
    PHASE_BONUS,
    PHASE_CORNERS,
    PHASE_CUBE,
    PHASE_LIMIT,
    PHASE_OVER,
    PHASE_PENALTY,
    PHASE_PLANT,
    PHASE_RAMBLE,
    Player,
    Rules,
    State,
    bed_empty,
    board_json,
    cubes,
    new_bed,
)
from cgsim.games.cottage.turn import run_turns, start_turn
from cgsim.games.cottage.work import Work
from cgsim.games.draws.exact import shuffle
from cgsim.games.loop.core import Engine

__all__ = [
    "apply",
    "board_json",
    "corner_choices",
    "cube_options",
    "describe",
    "is_over",
    "legal_actions",
    "make_rules",
    "new_game",
    "penalty_options",
]


def make_rules(players: int, settings: Settings, catalogue: Catalogue) -> Rules:
    return Rules(players=players, settings=settings, catalogue=catalogue)


# --------------------------------------------------------------------------- setup


def new_game(rules: Rules, seed: int) -> State:
    """The initial state: the seed alone decides the deal (rules.md section 3)."""
    s = rules.settings
    catalogue = rules.catalogue
    rng = random.Random(seed)
    tiles = list(range(len(catalogue.tiles)))
    shuffle(rng, tiles)
    boards = list(range(len(catalogue.boards)))
    shuffle(rng, boards)
    players = []
    for seat in range(rules.players):
        first, second = boards[2 * seat], boards[2 * seat + 1]
        beds = (new_bed(rules, first, False, 0), new_bed(rules, second, True, 0))
        players.append(Player(beds, (0,) * s.cubes, (0,) * s.cubes, s.start_cats, 0, False, 0, ()))
    deal = State(
        rules=rules,
        seed=seed,
        nursery=tuple(tiles[:NURSERY_CELLS]),
        path=tuple(tiles[NURSERY_CELLS:]),
        players=tuple(players),
        supply_board=(boards[2 * rules.players], False),
        supply_cats=s.cats_total - rules.players * s.start_cats,
        supply_pots=s.pots_total,
        beehives_taken=0,
        space=0,
        value=s.gardener_value,
        final_round=False,
        turn=0,
        seat=0,
        phase=PHASE_PLANT,
        scoring=None,
        had_bed=True,
        placed=False,
        stall=0,
        end=None,
        events=(),
    )
    w = Work(deal)
    children = [seat for seat, age in enumerate(s.children) if age is not None]
    if children:
        w.seat = children[0]
        w.phase = PHASE_CORNERS
    else:
        start_turn(w)
        run_turns(w)
    return w.freeze()


# --------------------------------------------------------------------------- legal actions


def _plant_actions(state: State, player: Player) -> LegalActions:
    main = main_segments(state)
    if not any(lows for _, lows in main):
        main = [(encode(PASS), (0,))]
    return LegalActions(cat_segments(player) + main)


def _after_actions(state: State, player: Player) -> LegalActions:
    segments = cat_segments(player)
    complete = complete_beds(player)
    segments += [(encode(SCORE, bed=b), (0,)) for b in complete]
    if not complete:
        segments.append((encode(DONE), (0,)))
    return LegalActions(segments)


def _limit_actions(state: State, player: Player) -> LegalActions:
    return LegalActions(cat_segments(player))


def _cube_actions(state: State, player: Player) -> LegalActions:
    sc = state.scoring
    assert sc is not None
    options = cube_options(state.rules, cubes(player, sc.step), sc.step)
    return LegalActions([(encode(CUBE), tuple(cube_code(sc.step, k) for k in options))])


def _bonus_actions(state: State, player: Player) -> LegalActions:
    sc = state.scoring
    assert sc is not None
    other = player.beds[1 - sc.bed]
    assert other is not None
    return LegalActions([(encode(BONUS_POT), cells_of(bed_empty(other)))])


def _ramble_actions(state: State, player: Player) -> LegalActions:
    return LegalActions([(encode(RAMBLE), (0, 1))])


def _penalty_actions(state: State, player: Player) -> LegalActions:
    moves = penalty_options(state.rules, player)
    return LegalActions([(encode(PENALTY), tuple(cube_code(c, k) for c, k in moves))])


def _corner_actions(state: State, player: Player) -> LegalActions:
    return LegalActions([(encode(CORNERS), corner_choices(state))])


def legal_actions(state: State) -> LegalActions:
    """Every legal action at the current decision point, in a fixed order."""
    phase = state.phase
    player = state.players[state.seat]
    if phase == PHASE_PLANT:
        return _plant_actions(state, player)
    if phase == PHASE_AFTER:
        return _after_actions(state, player)
    if phase == PHASE_CUBE:
        return _cube_actions(state, player)
    if phase == PHASE_LIMIT:
        return _limit_actions(state, player)
    if phase == PHASE_BONUS:
        return _bonus_actions(state, player)
    if phase == PHASE_RAMBLE:
        return _ramble_actions(state, player)
    if phase == PHASE_PENALTY:
        return _penalty_actions(state, player)
    if phase == PHASE_CORNERS:
        return _corner_actions(state, player)
    return LegalActions([])


# --------------------------------------------------------------------------- apply


def current_player(state: State) -> int:
    """The seat that decides next."""
    return state.seat


def observation(state: State, seat: int) -> State:
    """What a seat sees: everything (Cottage Garden hides nothing)."""
    return state


def is_over(state: State) -> bool:
    """Whether the game has ended."""
    return state.phase == PHASE_OVER


def apply(state: State, action: object) -> State:
    """The state after ``action``; raises ``IllegalActionError`` naming why it is illegal.

    ``action`` is typed ``object`` because it is checked here: compiled code would turn a
    ``bool`` given for an ``int`` parameter into an int before any check could see it.
    """
    if state.phase == PHASE_OVER:
        raise IllegalActionError("the game is over")
    if not isinstance(action, int) or isinstance(action, bool) or action < 0:
        raise IllegalActionError(f"action {action!r} is not an action of this game")
    w = Work(state)
    handle(state, w, action)
    run_turns(w)
    return w.freeze()


class CottageEngine(Engine):
    """This engine's calls at every action, made natively by the compiled loop."""

    def is_terminal(self, state: Any) -> bool:
        return is_over(state)

    def current_player(self, state: Any) -> int:
        return current_player(state)

    # The signatures are the base's, to the letter: a narrower one would be called
    # through a converting wrapper.
    def legal_actions(self, state: Any) -> Sequence[int]:
        return legal_actions(state)

    def apply(self, state: Any, action: Any) -> Any:
        return apply(state, action)


ENGINE: Final = CottageEngine()
"""The engine's native calls (the game offers it as ``engine``)."""
