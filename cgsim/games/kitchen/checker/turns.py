"""One turn replayed event by event, in the order of kitchen-record.md ("Order of events")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.kitchen.checker.actions import action_phase
from cgsim.games.kitchen.checker.conditions import conditions
from cgsim.games.kitchen.checker.context import TurnContext
from cgsim.games.kitchen.checker.fields import is_int
from cgsim.games.kitchen.checker.state import State
from cgsim.games.kitchen.checker.violations import Fatal, Violation


def play_turn(
    state: State, turn: Any, count: int, out: list[Violation], may_stop: bool
) -> str | None:
    """Replay the ``count``-th turn (1-based); how the game ended on it, or None.

    Raises ``Fatal`` (already recorded in ``out``) once the replay cannot go on, and
    ``Stopped`` when ``may_stop`` and the events end at a decision.
    """
    raw_n = turn.get("n") if isinstance(turn, Mapping) else None
    n = raw_n if is_int(raw_n) else count
    if not isinstance(turn, Mapping):
        return _stop(out, n, None, f"turn is not an object: {turn!r}")
    if raw_n != count:
        out.append(Violation(n, None, f"turn n is {raw_n!r}, expected {count}"))
    events = turn.get("events")
    if not isinstance(events, list):
        return _stop(out, n, None, "turn.events: expected a list")
    seat = (count - 1) % state.players
    if turn.get("seat") != seat or not is_int(turn.get("seat")):
        return _stop(out, n, None, f"turn seat is {turn.get('seat')!r}, seat {seat} plays now")
    ctx = TurnContext(state, events, n, seat, out, may_stop)
    try:
        end = _phases(ctx, count)
        if ctx.peek() is not None:
            ctx.current = ctx.position
            after = "the game" if end else "the turn"
            raise ctx.fail(f"unexpected event after the end of {after}")
    except Fatal as fatal:
        event = fatal.event if fatal.event is not None else ctx.current
        return _stop(out, n, event if event < len(events) else None, fatal.message)
    return end


def _stop(out: list[Violation], n: int, event: int | None, message: str) -> str:
    out.append(Violation(n, event, message))
    raise Fatal(message, event)


def _phases(ctx: TurnContext, count: int) -> str | None:
    """Skip, or conditions, actions and cleaning; then the turn cap."""
    state, seat = ctx.state, ctx.seat
    sluggard = state.sluggards[seat]
    if sluggard is not None:
        event = ctx.take("skip", f"a Sluggard lies in front of seat {seat}")
        ctx.expect(event, "seat", seat)
        ctx.expect(event, "card", sluggard)
        state.sluggards[seat] = None
        state.discard.append(sluggard)
    else:
        extra = conditions(ctx)
        if action_phase(ctx, ctx.rules.base_actions + extra):
            return "normal"
        _cleaning(ctx)
    if count >= ctx.rules.turn_cap:
        ctx.take("aborted", f"turn {count} reaches the turn cap {ctx.rules.turn_cap}")
        return "aborted"
    return None


def _cleaning(ctx: TurnContext) -> None:
    """Cleaning the shack: one discard at a time down to the hand limit."""
    hand, limit = ctx.state.hands[ctx.seat], ctx.rules.hand_limit
    while len(hand) > limit:
        ctx.decision(("discard",), f"seat {ctx.seat} to clean the shack ({len(hand)} cards)")
        event = ctx.take("discard")
        ctx.expect(event, "seat", ctx.seat)
        ctx.expect(event, "why", "clean")
        ctx.state.discard.append(ctx.from_hand(event, "card", ctx.seat))
