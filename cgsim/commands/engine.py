"""Commands of the engine group (registered on the main app by ``cgsim.cli``)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    @app.command()
    def version() -> None:
        """Print the package and engine versions."""
        from cgsim import __version__

        typer.echo(__version__)
