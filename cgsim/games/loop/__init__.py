"""The one game loop (``core``), what it reports of a bot's faults (``faults``), the
watch that tells another process which seat's bot code runs (``watch``) and a played
game's result rows (``rows``).

The loop runs once per action of every game and the rows once per game, so ``core``,
``watch`` and ``rows`` are compiled with mypyc like the engines
(``cgsim.games.compiled``), with the same pure-Python fallback. ``faults`` stays Python:
its exception crosses process boundaries in pickles.
"""

from cgsim.games.compiled import guard

COMPILED = ("watch", "core", "rows")

guard(__name__, COMPILED)

from cgsim.games.loop.core import (  # noqa: E402
    MAX_UNLIMITED,
    AfterAction,
    BeforeDecision,
    Decide,
    DecisionTimer,
    Engine,
    Fold,
    engine_of,
    overrides_observe,
    play,
    win_shares,
)
from cgsim.games.loop.faults import (  # noqa: E402
    REASON_LIMIT,
    BotFault,
    EngineFault,
    bot_name,
    describe,
)

__all__ = [
    "MAX_UNLIMITED",
    "REASON_LIMIT",
    "AfterAction",
    "BeforeDecision",
    "BotFault",
    "Decide",
    "DecisionTimer",
    "Engine",
    "EngineFault",
    "Fold",
    "bot_name",
    "describe",
    "engine_of",
    "overrides_observe",
    "play",
    "win_shares",
]
