"""Every command line of the README and of the pages under docs/ runs as written, small.

A page's command lines are its inline code spans and shell-block lines that start with
``cgsim `` or ``python -m ``. Lines that share a file or folder run together, in the order
they appear (the README first, then the pages by name): ``replay game.json`` after the
``play ... --record game.json`` that writes it, ``balance results/board-sides`` after the
run of ``configs/studies/board-sides.toml`` (a config's results folder is named by its
``name``). Each group runs in a scratch folder holding links to the checkout's
``configs/`` and ``tests/`` and docs/bots.md's bot example as ``mybots.py``. The groups
are separate test cases, so they run side by side under ``pytest -n``.

Each line runs exactly as written, with the options of :data:`SMALL` appended where it
would play many games: a repeated option takes its last value, so ``--games 2000`` plays a
game or two and nothing else changes. That is the only liberty taken; to run a line at
full size, copy it from its page. Kitchen Garden's strength ladder ends with
``kitchen-search``, which has no search budget to shrink (a game of it takes seconds), so
its lines run with no deals: the command's checks and its printing only. A ``*`` is
expanded as a shell would. Commands run in this process (no start-up cost per line) and
must exit 0, or 1 for a ``--fail-on`` comparison (a change beyond tolerance was found).
"""

from __future__ import annotations

import glob
import itertools
import re
import runpy
import shlex
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cgsim.cli import app

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PREFIXES = ("cgsim ", "python -m ")

SMALL: dict[str, list[str]] = {
    "run": ["--games", "1"],
    "tournament": ["--games", "1"],
    "compare": ["--games", "6"],
    "compare --sprt": ["--batch", "4", "--max-games", "8"],
    "sweep": ["--games", "3"],
    "power": ["--games", "6"],
    "sensitivity": ["--games", "3"],
    "mechanics": ["--games", "1"],
    "scaling": ["--games", "1"],
    "tune": ["--games", "1", "--workers", "1"],
    "bench": ["--games", "2", "--no-parallel"],
    "strength": ["--games", "1", "--solo-games", "1", "--budget", "2", "--workers", "1"],
    "strength --game kitchen-garden": ["--games", "0"],
    "golden record": ["--games", "1"],
    "report": ["--bootstrap", "20"],
    "bots.kitchen_odds": ["--games", "2"],
}
"""What each kind of line gets appended so that it plays only a few games (a tournament
plays at least one deal: every pairing in both seat orders; a sensitivity study's paired
differences need three). A key of several words
applies to the lines holding them all; the longest key that applies wins."""

WRITERS = ("--out", "--record", "--html")
"""The options that name what a command writes."""
SHARED = ("configs", "tests")
"""The checkout's folders a scratch folder links to: read, never written."""
PATHS = re.compile(r"/|\.(json|jsonl|zst|html|csv|md|txt)$")
"""A word naming a file or folder (other than a config, which is looked up first)."""


def command_lines(text: str) -> list[str]:
    """A page's command lines in order, each once."""
    found: list[str] = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL):
        found += [line.split("#")[0].strip() for line in block.splitlines()]
    found += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
    lines = [line for line in dict.fromkeys(found) if line.startswith(PREFIXES)]
    spans = {line: text.find(f"`{line}`") for line in lines}
    return sorted(lines, key=lambda line: spans[line] if spans[line] >= 0 else text.find(line))


def every_line() -> list[str]:
    """The command lines of every page, the README first, each once."""
    lines = (line for page in PAGES for line in command_lines(page.read_text(encoding="utf-8")))
    return list(dict.fromkeys(lines))


def config_name(word: str) -> str | None:
    """The ``name`` of the config a word names (a path or a shipped name), else None."""
    for path in (ROOT / word, ROOT / "configs" / word, ROOT / "configs" / f"{word}.toml"):
        if path.suffix == ".toml" and path.is_file():
            name = tomllib.loads(path.read_text(encoding="utf-8")).get("name", path.stem)
            return str(name)
    return None


def written(lines: list[str]) -> set[str]:
    """The files and folders the lines write by name (``--out my-golden``)."""
    pairs = (pair for line in lines for pair in itertools.pairwise(shlex.split(line)))
    return {Path(value).parts[0] for option, value in pairs if option in WRITERS}


def resources(line: str, named: set[str]) -> set[str]:
    """What a line reads or writes that another line may too: results folders, files, and
    the folders and files of ``named``."""
    words = shlex.split(line)
    found = set()
    for word in words[1:]:
        name = None if word.startswith("-") else config_name(word)
        if name is not None:
            found.add(f"results/{name}")
        elif not word.startswith("-") and (PATHS.search(word) or word.rstrip("/") in named):
            parts = Path(word).parts
            if parts[0] not in SHARED:
                found.add("/".join(parts[:2]) if parts[0] == "results" else parts[0])
    plays_default = words[1:2] in (["run"], ["tournament"])
    if plays_default and (len(words) == 2 or words[2].startswith("-")):
        found.add("results/default")
    return found


def groups() -> dict[str, list[str]]:
    """Lines that share a resource, transitively, in page order; named by their first."""
    lines = every_line()
    owner = list(range(len(lines)))

    def root(index: int) -> int:
        while owner[index] != index:
            index = owner[index]
        return index

    first: dict[str, int] = {}
    named = written(lines)
    for index, line in enumerate(lines):
        for resource in resources(line, named):
            owner[root(index)] = root(first.setdefault(resource, index))
    grouped: dict[int, list[str]] = {}
    for index, line in enumerate(lines):
        grouped.setdefault(root(index), []).append(line)
    return {members[0]: members for members in grouped.values()}


def small(words: list[str]) -> list[str]:
    """The options that keep this command line small (``words`` after the program)."""
    text = f" {' '.join(words)} "
    keys = [key for key in SMALL if key.split()[0] == words[0]]
    fits = [key for key in keys if all(f" {word} " in text for word in key.split()[1:])]
    return SMALL[max(fits, key=len)] if fits else []


def bot_example() -> str:
    section = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    match = re.search(r"## Write your own bot\n.*?```python\n(.*?)```", section, re.DOTALL)
    assert match, "docs/bots.md's bot example is missing"
    return match.group(1)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for folder in SHARED:
        (tmp_path / folder).symlink_to(ROOT / folder)
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


def test_the_pages_list_their_commands_without_placeholders() -> None:
    readme = command_lines((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(readme) >= 20
    assert (
        "cgsim compare configs/compare-a.toml configs/compare-b.toml --fail-on mean_score:1.0"
        in readme
    )
    lines = every_line()
    assert sum(len(group) for group in groups().values()) == len(lines)
    capitals = r"(^|\s)[A-Z][A-Z_]*(\s|$)"  # FILE, DIR, N: a word to replace
    placeholders = [line for line in lines if re.search(rf"\[|\]|\.\.\.|<|\$|{capitals}", line)]
    assert placeholders == []


def test_no_command_span_is_broken_across_lines() -> None:
    """A span split by the page's wrapping would escape the test: each stays on one line."""
    broken = []
    for page in PAGES:
        prose = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        for span in re.findall(r"`([^`]+)`", prose):
            if "\n" in span and re.sub(r"\s+", " ", span).startswith(PREFIXES):
                broken.append(f"{page.name}: {span}")
    assert broken == []


def test_no_command_line_writes_into_the_checkout() -> None:
    """Scratch folders link configs/ and tests/; a line writing there would change them."""
    lines = every_line()
    bad = [
        line
        for line in lines
        for option, value in itertools.pairwise(shlex.split(line))
        if option in WRITERS and Path(value).parts[0] in SHARED
    ]
    assert bad == []


def anchor(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_pages_resolves() -> None:
    """Pages move and merge; a link to a page or heading that is gone fails here."""
    broken = []
    for page in [*PAGES, ROOT / "CHANGELOG.md"]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, fragment = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.name}: {target}")
            elif fragment:
                text = linked.read_text(encoding="utf-8")
                if fragment not in map(anchor, re.findall(r"^#+ (.*)$", text, re.M)):
                    broken.append(f"{page.name}: {target}")
    assert broken == []


def test_the_readme_shows_every_command() -> None:
    commands = {
        command.name or (command.callback.__name__ if command.callback else "")
        for command in app.registered_commands
    } | {group.name for group in app.registered_groups}
    readme = command_lines((ROOT / "README.md").read_text(encoding="utf-8"))
    shown = {line.split()[1] for line in readme if line.startswith("cgsim ")}
    assert commands - shown == set()


@pytest.mark.parametrize("group", sorted(groups()))
def test_every_command_line_runs(
    group: str, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for line in groups()[group]:
        run_line(line, monkeypatch)
