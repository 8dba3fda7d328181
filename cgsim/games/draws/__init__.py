"""Random draws that match ``random.Random``'s own, draw for draw, as compiled code: the
engines deal with them and the searching bots sample hidden cards with them, so the same
seed gives the same games compiled or not (``cgsim.games.compiled``)."""

from cgsim.games.compiled import guard

COMPILED = ("exact",)

guard(__name__, COMPILED)
