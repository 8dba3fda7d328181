"""The ``cgsim`` command line: thin commands, one error boundary.

Commands live in ``cgsim.commands.*``, registered one way: each module has one
``register(app)`` that defines its commands with ``@app.command()`` (a group with
``app.add_typer``) and imports what a command needs inside the command, so ``cgsim
--help`` starts without loading the studies or the reports. Every user mistake is a
``CgsimError``: one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys

import typer

from cgsim.commands import check, designer, engine, reports, runs, strength, studies
from cgsim.errors import CgsimError

app = typer.Typer(
    name="cgsim",
    help="Simulate, compare and rate bots and rule sets for Cottage Garden and Kitchen Garden.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (engine, check, runs, reports, strength, studies, designer):
    module.register(app)


def printable(message: str) -> str:
    """The message with control characters escaped (``\\x1e``), line breaks kept: a
    name taken from a bad file must not move the cursor or split the one-line error."""
    if message.isprintable():
        return message
    return "\n".join(
        "".join(char if char.isprintable() else ascii(char)[1:-1] for char in line)
        for line in message.split("\n")
    )


def main() -> None:
    """Console entry point: run the app and turn user errors into exit code 2."""
    try:
        app()
    except CgsimError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        sys.exit(error.exit_code)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
