"""Built-in bots (the engines' internals they read are imported from ``cgsim.games``)."""

from cgsim.games.compiled import guard

COMPILED = ("evaluation", "quick_eval", "turn_model")
"""The bots' hot modules (the shared evaluation and the turn model), compiled with mypyc
at install (``cgsim.games.compiled``); the bots themselves, pydantic parameters and all,
stay pure Python and call into them."""

guard(__name__, COMPILED)
