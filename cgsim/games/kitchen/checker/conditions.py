"""The conditions phase: Worker and special discards for extra actions, and the Sluggard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgsim.games.kitchen.checker.context import TurnContext
from cgsim.games.kitchen.checker.fields import get_str
from cgsim.games.kitchen.checker.moves import use_special
from cgsim.games.kitchen.checker.state import SPECIALS, State

CONDITION_KINDS = ("cond_worker", "cond_special", "sluggard", "end_conditions")


def conditions(ctx: TurnContext) -> int:
    """Replay the phase; the extra actions it earned."""
    state, seat, rules = ctx.state, ctx.seat, ctx.rules
    used: set[str] = set()
    extra = 0
    while _has_choice(state, seat, used):
        kind = ctx.decision(CONDITION_KINDS, f"seat {seat}'s conditions")
        event = ctx.take(kind)
        if kind == "end_conditions":
            return extra
        if kind in used:
            raise ctx.fail(f"seat {seat} has already used this ability this turn")
        used.add(kind)
        if kind == "cond_worker":
            state.discard.append(ctx.from_hand(event, "card", seat, "worker"))
            extra += rules.worker_actions
        elif kind == "cond_special":
            name = get_str(event, "special", kind)
            if name not in SPECIALS:
                raise ctx.fail(f"{name!r} is not a special card ({', '.join(SPECIALS)})")
            if not state.can_use(name, seat):
                raise ctx.fail(
                    f"seat {seat} cannot use the {name} (holders {state.specials[name]})"
                )
            extra += rules.special_actions
            use_special(ctx, name)
        else:
            _sluggard(ctx, event)
    if ctx.peek_kind() == "end_conditions":
        ctx.take("end_conditions")
        raise ctx.fail(f"seat {seat} has no condition to choose: the phase passes by itself")
    return extra


def _has_choice(state: State, seat: int, used: set[str]) -> bool:
    """Whether an ability is still available (else the phase passes without a decision)."""
    if "cond_worker" not in used and state.hand_has(seat, "worker"):
        return True
    if "cond_special" not in used and any(state.can_use(name, seat) for name in SPECIALS):
        return True
    return (
        "sluggard" not in used
        and state.hand_has(seat, "sluggard")
        and any(t != seat and state.sluggards[t] is None for t in range(state.players))
    )


def _sluggard(ctx: TurnContext, event: Mapping[str, Any]) -> None:
    """A Sluggard placed before ``target``, then the target's answer."""
    state = ctx.state
    target = ctx.opponent_field(event, "target")
    if state.sluggards[target] is not None:
        raise ctx.fail(f"a Sluggard already lies in front of seat {target}")
    card = ctx.from_hand(event, "card", ctx.seat, "sluggard")
    if state.hand_has(target, "worker"):
        answer = ctx.decision(
            ("sluggard_cancel", "sluggard_accept"), f"seat {target}'s answer to the Sluggard"
        )
    else:
        answer = "sluggard_accept"
    reply = ctx.take(answer, f"seat {target} holds no Worker")
    ctx.expect(reply, "seat", target)
    if answer == "sluggard_cancel":
        worker = ctx.from_hand(reply, "worker", target, "worker")
        state.discard.extend((card, worker))
    else:
        state.sluggards[target] = card
