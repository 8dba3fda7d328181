"""cgsim: headless simulation and tournament toolkit for Cottage Garden."""

from __future__ import annotations

__version__ = "0.1.0"
