"""The command line is assembled one way: each ``cgsim.commands`` module has one
``register(app)``, and starting ``cgsim`` loads neither the reports nor the studies' tools."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import typer

import cgsim.commands
from cgsim.cli import app

COMMANDS = [
    "play",
    "games",
    "replay",
    "rerun",
    "bench",
    "check",
    "matrix",
    "run",
    "tournament",
    "validate",
    "bots",
    "report",
    "strength",
    "compare",
    "sweep",
    "tune",
    "balance",
    "regress",
    "power",
    "sensitivity",
    "mechanics",
    "scaling",
]


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


def test_starting_the_command_line_loads_no_report_code() -> None:
    code = (
        "import sys, cgsim.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('cgsim.reporting')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"
