"""Every command line of the README runs as written, at a small size.

The README's command lines are its inline code spans and shell-block lines that start
with ``cgsim `` or ``python -m ``. They run in the order they appear, grouped by what
they share (:func:`chain`: ``replay game.json`` runs after the ``play ... --record
game.json`` that writes it, ``report results/default`` after the tournament), each
group in a scratch folder holding links to the checkout's ``configs/`` and ``tests/``
and the README's own bot example as ``mybots.py``. The groups are separate test cases,
so they run side by side under ``pytest -n``.

Each line runs exactly as written, with the options of :data:`SMALL` appended where it
would play many games: a repeated option takes its last value, so ``--games 2000``
plays a game or two and nothing else changes. That is the only liberty taken; to run a
line at full size, copy it from the README. Kitchen Garden's strength ladder ends with
``kitchen-search``, which has no search budget to shrink (a game of it takes seconds),
so its lines run with no deals: the command's checks and its printing only. A ``*`` is
expanded as a shell would. Commands run in this process (no start-up cost per line) and
must exit 0, or 1 for a ``--fail-on`` comparison (a change beyond tolerance was found).
"""

from __future__ import annotations

import glob
import re
import runpy
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cgsim.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PREFIXES = ("cgsim ", "python -m ")

SMALL: dict[str, list[str]] = {
    "run": ["--games", "1"],
    "tournament": ["--games", "1"],
    "compare": ["--games", "6"],
    "compare --sprt": ["--batch", "4", "--max-games", "8"],
    "sweep": ["--games", "3"],
    "power": ["--games", "6"],
    "sensitivity": ["--games", "3"],
    "mechanics": ["--games", "3"],
    "scaling": ["--games", "3"],
    "tune": ["--games", "1", "--workers", "1"],
    "bench": ["--games", "2", "--no-parallel"],
    "strength": ["--games", "1", "--solo-games", "1", "--budget", "2", "--workers", "1"],
    "strength --game kitchen-garden": ["--games", "0"],
    "report": ["--bootstrap", "20"],
    "bots.kitchen_odds": ["--games", "2"],
}
"""What each kind of line gets appended so that it plays only a few games (a tournament
plays at least one deal: every pairing in both seat orders)."""

CHAINS = {"replay": "play", "check": "run", "report": "tournament", "balance": "tournament"}
"""Commands that read what another command wrote, and that command."""
SAME_RUN = {"cgsim run": "tournament", "cgsim tournament": "tournament"}
"""Lines that play the shipped default config, as the README's tournament line does:
they run after it and find its games already played (a run resumes)."""


def readme_command_lines(text: str) -> list[str]:
    """The README's command lines in order, each once."""
    found: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        found += [line.split("#")[0].strip() for line in block.splitlines()]
    found += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
    lines = [line for line in dict.fromkeys(found) if line.startswith(PREFIXES)]
    spans = {line: text.find(f"`{line}`") for line in lines}
    return sorted(lines, key=lambda line: spans[line] if spans[line] >= 0 else text.find(line))


def small(words: list[str]) -> list[str]:
    """The options that keep this command line small (``words`` after the program)."""
    for flag in ("--sprt", "--game kitchen-garden"):
        if f"{words[0]} {flag}" in SMALL and flag in " ".join(words):
            return SMALL[f"{words[0]} {flag}"]
    return SMALL.get(words[0], [])


def chain(line: str) -> str:
    """The group a line runs in: its command, or the command whose output it reads."""
    if line in SAME_RUN:
        return SAME_RUN[line]
    words = line.split()
    command = words[1] if words[0] == "cgsim" else "python"
    return CHAINS.get(command, command)


def chains() -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for line in readme_command_lines(README.read_text(encoding="utf-8")):
        grouped.setdefault(chain(line), []).append(line)
    return grouped


def bot_example() -> str:
    section = README.read_text(encoding="utf-8").split("### Write your own bot", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "the README's bot example is missing"
    return match.group(1)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "configs").symlink_to(ROOT / "configs")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    (tmp_path / "mybots.py").write_text(bot_example(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def run_line(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    words = [w for word in shlex.split(line) for w in (sorted(glob.glob(word)) or [word])]
    if words[0] == "python":
        module = words[2]
        monkeypatch.setattr(sys, "argv", [module, *words[3:], *small([module])])
        monkeypatch.delitem(sys.modules, module, raising=False)  # run afresh, as -m does
        runpy.run_module(module, run_name="__main__")
        return
    args = words[1:] + small(words[1:])
    result = CliRunner().invoke(app, args)
    allowed = (0, 1) if "--fail-on" in words else (0,)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{line}: {result.exception!r}\n{result.output}"
    )
    assert result.exit_code in allowed, f"{line} (+{small(words[1:])}):\n{result.output}"


def test_the_readme_lists_its_commands_without_placeholders() -> None:
    lines = readme_command_lines(README.read_text(encoding="utf-8"))
    assert len(lines) >= 30
    assert sum(len(group) for group in chains().values()) == len(lines)
    assert (
        "cgsim compare configs/compare-a.toml configs/compare-b.toml --fail-on mean_score:1.0"
        in lines
    )
    placeholders = [
        line for line in lines if re.search(r"\[|\]|\.\.\.|<|\bA B\b|results/x\b", line)
    ]
    assert placeholders == []


@pytest.mark.parametrize("group", sorted(chains()))
def test_every_readme_command_line_runs(
    group: str, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for line in chains()[group]:
        run_line(line, monkeypatch)
