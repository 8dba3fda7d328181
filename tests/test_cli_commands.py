"""The command line is assembled one way: each ``cgsim.commands`` module has one
``register(app)``, and starting ``cgsim`` loads neither the reports nor the studies' tools."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import typer
from typer.testing import CliRunner

import cgsim.commands
from cgsim.cli import PANELS, app, reflowed

COMMANDS = [
    *("play", "replay", "games", "bots"),
    *("run", "tournament", "rerun", "report", "balance"),
    *("compare", "sweep", "tune", "sensitivity", "mechanics", "scaling", "power"),
    *("strength", "regress"),
    *("check", "validate", "matrix", "bench"),
]
"""The commands in ``cgsim --help``'s order: by panel, as the README's table lists them."""


def test_every_command_module_registers_its_commands_in_register() -> None:
    names = [info.name for info in pkgutil.iter_modules(cgsim.commands.__path__)]
    assert names
    for name in names:
        module = importlib.import_module(f"cgsim.commands.{name}")
        assert callable(getattr(module, "register", None)), name
        typers = [key for key, value in vars(module).items() if isinstance(value, typer.Typer)]
        assert typers == [], f"{name} builds a command group at import: {typers}"


def test_the_commands_keep_their_order_and_names() -> None:
    registered = [
        command.name or (command.callback.__name__ if command.callback else "")
        for command in app.registered_commands
    ]
    assert registered == COMMANDS
    assert [group.name for group in app.registered_groups] == ["golden"]


def test_every_command_sits_in_one_panel_and_its_help_reads_in_whole_lines() -> None:
    listed = [name for names in PANELS.values() for name in names]
    assert sorted(listed) == sorted([*COMMANDS, "golden"])
    shown = CliRunner().invoke(app, ["--help"], terminal_width=200).output
    for panel in PANELS:
        assert f"─ {panel} ─" in shown
    assert shown.index("Play and watch") < shown.index("Run and report") < shown.index("Study")
    for command in app.registered_commands:
        for paragraph in (command.help or "").split("\n\n"):
            for line in paragraph.split("\n")[1:]:
                assert line.startswith(("- ", "* ", " ")), (command.name, paragraph)


def test_reflowed_joins_a_paragraphs_lines_and_keeps_list_items() -> None:
    text = """First line
    goes on.

    A list:
    - one
    - two
      indented"""
    assert reflowed(text) == "First line goes on.\n\nA list:\n- one\n- two\n  indented"


def test_starting_the_command_line_loads_no_report_code() -> None:
    code = (
        "import sys, cgsim.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('cgsim.reporting')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"
