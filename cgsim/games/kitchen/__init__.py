"""Kitchen Garden (Rightgames, 2013): the second game simulated on the cgsim machinery.

``cgsim.games.kitchen.game.GAME`` is the entry point; the engine modules below it are pure
functions over the frozen ``State`` of ``cgsim.games.kitchen.state``.
"""

from cgsim.games.compiled import guard

COMPILED = (
    "cards",
    "settings",
    "actions",
    "state",
    "piles",
    "beds",
    "work",
    "legal",
    "perform",
    "settle",
    "scoring",
    "observation",
    "rules",
    "summary",
)
"""The engine's modules compiled with mypyc at install (``cgsim.games.compiled``)."""

guard(__name__, COMPILED)
