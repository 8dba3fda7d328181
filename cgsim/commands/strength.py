"""Commands of the strength group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
