"""Built-in bots (the engines' internals they read are imported from ``cgsim.games``)."""

from cgsim.games.compiled import guard

COMPILED = ("evaluation", "quick_eval", "turn_model", "kitchen_policy")
"""The bots' hot modules (the shared evaluation, the turn model, Kitchen Garden's greedy
scorer and playouts), compiled with mypyc at install (``cgsim.games.compiled``); the bots
themselves, pydantic parameters and all, stay pure Python and call into them."""

guard(__name__, COMPILED)
