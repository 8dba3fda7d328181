"""The ``cgsim`` command line: thin commands, one error boundary.

Commands live in ``cgsim.commands.*``, registered one way: each module has one
``register(app)`` that defines its commands with ``@app.command()`` (a group with
``app.add_typer``); a command defers only the heavy libraries (the studies' statistics
and plots, the reports), so ``cgsim --help`` starts quickly. ``--help`` lists the
commands by what the user is doing (:data:`PANELS`). Every user mistake is a
``CgsimError``: one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import inspect
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

PANELS: dict[str, tuple[str, ...]] = {
    "Play and watch": ("play", "replay", "games", "bots"),
    "Run and report": ("run", "tournament", "rerun", "report", "balance"),
    "Study": (
        *("compare", "sweep", "tune", "sensitivity", "mechanics", "scaling", "power"),
        *("strength", "regress"),
    ),
    "Check and inspect": ("check", "validate", "golden", "matrix", "bench"),
}
"""``cgsim --help``'s groups of commands, by what the user is doing."""


def reflowed(text: str) -> str:
    """A docstring as help: each paragraph one line, so the terminal wraps it at its own
    width instead of breaking a sentence where the source's line ended. A list item
    (``- ...``) or an indented line keeps its own line."""
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines = paragraph.split("\n")
        joined = [lines[0]]
        for line in lines[1:]:
            if line.startswith(("- ", "* ", " ")):
                joined.append(line)
            else:
                joined[-1] += " " + line
        paragraphs.append("\n".join(joined))
    return "\n\n".join(paragraphs)


def _arrange(typer_app: typer.Typer) -> None:
    """Put every command in its panel, the panels in order, and give each command its
    reflowed docstring as help."""
    order = [name for names in PANELS.values() for name in names]
    panel_of = {name: panel for panel, names in PANELS.items() for name in names}

    def name_of(command: typer.models.CommandInfo) -> str:
        return command.name or (command.callback.__name__ if command.callback else "")

    typer_app.registered_commands.sort(key=lambda command: order.index(name_of(command)))
    for command in typer_app.registered_commands:
        command.rich_help_panel = panel_of[name_of(command)]
        if command.help is None and command.callback is not None and command.callback.__doc__:
            command.help = reflowed(command.callback.__doc__)
    for group in typer_app.registered_groups:
        group.rich_help_panel = panel_of[str(group.name)]


_arrange(app)


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
