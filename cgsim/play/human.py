"""A person at the terminal in a seat: ``cgsim play --human SEAT``.

The person is a bot like any other to the game loop (its seat is labelled ``human`` in
the record and the result rows), so a playtest game is stored and reported like a bot
game. It is played in the foreground process, where the terminal is. The person picks
from the game's own menu (``Playable.choices``); ``q`` stops the game, and the actions
played so far are replayed into a partial record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel

from cgsim.games.bot import ANY_GAME, Bot, NoParams
from cgsim.games.contract import Action, AnyGame, Choice, Playable
from cgsim.play.bot_registry import BotSpec

HUMAN = "human"
"""The label of a person's seat in records and result tables."""

HELP = """\
Type the number of a choice and press Enter. A choice ending in '...' opens further
choices (a tile, then a bed, then where it goes); 'b' goes back up.
  ?  this help        s  show the table again        b  back        q  quit (the game
  so far is kept as a record)"""

COLUMN = 20
"""Width of one drawn placement when several are shown side by side."""
PER_ROW = 5


class Quit(Exception):
    """The person chose to stop the game."""


@dataclass
class Console:
    """Where the person reads and types: ``input``/``print`` unless a test says otherwise."""

    ask: Callable[[str], str] = input
    say: Callable[[str], None] = print


@dataclass
class Table:
    """What the human seats of one game share: the console and the actions played (the
    partial record is rebuilt from them if the person quits)."""

    console: Console
    actions: list[Action] = field(default_factory=list)
    quitter: int | None = None


class HumanBot(Bot):
    """A seat played by a person through the console of its table."""

    games: ClassVar[tuple[str, ...]] = (ANY_GAME,)
    table: ClassVar[Table]
    logs: ClassVar[bool]
    """Whether this seat keeps the table's action list (one human seat does)."""

    def choose(self, state: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        game, say = self.game, self.table.console.say
        if isinstance(game, Playable):
            picture = game.render_view(state)
            menu = game.choices(state, legal_actions)
        else:
            picture = game.render(state)
            menu = tuple(Choice(game.describe_action(state, a), a) for a in legal_actions)
        say(f"\n{picture}\n\nseat {self.seat} (you) to choose; ? for help, q to quit")
        return self._pick(menu, picture)

    def _pick(self, menu: tuple[Choice, ...], picture: str) -> Action:
        """Walk down the menu until an action is chosen."""
        path: list[tuple[Choice, ...]] = [menu]
        while True:
            level = path[-1]
            self.table.console.say(_menu_text(level))
            answer = self._read(f"choice 1-{len(level)}: ")
            if answer == "?":
                self.table.console.say(HELP)
            elif answer == "s":
                self.table.console.say(picture)
            elif answer == "b":
                if len(path) > 1:
                    path.pop()
            elif answer.isdigit() and 1 <= int(answer) <= len(level):
                chosen = level[int(answer) - 1]
                if chosen.action is not None:
                    return chosen.action
                path.append(chosen.options)
            else:
                self.table.console.say(
                    f"'{answer}' is not a choice: type 1 to {len(level)}, "
                    "b to go back, ? for help, q to quit"
                )

    def _read(self, prompt: str) -> str:
        try:
            answer = self.table.console.ask(prompt).strip().lower()
        except EOFError:
            answer = "q"
        if answer in ("q", "quit"):
            self.table.quitter = self.seat
            raise Quit(f"seat {self.seat} quit")
        return answer

    def observe(self, state: Any, seat: int, action: Action) -> None:
        if self.logs:
            self.table.actions.append(action)


def _menu_text(level: Sequence[Choice]) -> str:
    """A menu level: drawn choices side by side, others one per line."""
    drawn = [c for c in level if c.drawing and c.action is not None]
    if len(drawn) == len(level) and len(level) > 1:
        return _side_by_side(level)
    lines = []
    for number, choice in enumerate(level, 1):
        more = " ..." if choice.action is None else ""
        lines.append(f"{number:>3}) {choice.label}{more}")
        lines += [f"       {line}" for line in choice.drawing.splitlines()]
    return "\n".join(lines)


def _side_by_side(level: Sequence[Choice]) -> str:
    """Placements drawn in rows of :data:`PER_ROW`, each under its number."""
    blocks = []
    for start in range(0, len(level), PER_ROW):
        group = list(enumerate(level[start : start + PER_ROW], start + 1))
        drawings = [choice.drawing.splitlines() for _, choice in group]
        height = max(len(d) for d in drawings)
        lines = ["".join(f"{n:>3}) {'':<{COLUMN - 5}}" for n, _ in group).rstrip()]
        for row in range(height):
            lines.append(
                "".join(
                    f"     {(d[row] if row < len(d) else ''):<{COLUMN - 5}}" for d in drawings
                ).rstrip()
            )
        blocks.append("\n".join(lines))
    legend = "      ## the new tile (#p a pot, #c a cloche on it)"
    return "\n\n".join(blocks) + "\n" + legend


def human_spec(table: Table, logs: bool) -> BotSpec:
    """The bot spec of one human seat at ``table``."""
    seat_class = type("HumanSeat", (HumanBot,), {"table": table, "logs": logs})
    params: BaseModel = NoParams()
    return BotSpec(label=HUMAN, name=HUMAN, cls=seat_class, params=params)


def partial_record(
    game: AnyGame, rules: Any, seed: int, specs: Sequence[BotSpec], actions: Sequence[Action]
) -> dict[str, Any]:
    """The record of a game stopped early: its actions replayed through the engine into
    the game's recorder (a record without a ``result``: the game is unfinished)."""
    state = game.new_game(rules, seed)
    seats = [{"bot": spec.name, "params": spec.params_dict()} for spec in specs]
    recorder = game.recorder(rules, seed, seats, state)
    for action in actions:
        after = game.apply(state, action)
        recorder.step(state, action, after)
        state = after
    return recorder.finish(state)
