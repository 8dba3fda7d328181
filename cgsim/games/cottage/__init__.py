"""The Cottage Garden game: its components and its rules."""

from cgsim.games.compiled import guard

COMPILED = (
    "actions",
    "cells",
    "fitting",
    "nursery",
    "state",
    "work",
    "describe",
    "planting",
    "scoring",
    "gardener",
    "turn",
    "decisions",
    "rules",
    "summary",
)
"""The engine's modules compiled with mypyc at install (``cgsim.games.compiled``)."""

guard(__name__, COMPILED)
