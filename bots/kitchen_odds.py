"""Measure what a Kitchen Garden player's last move says about its hidden hand.

``kitchen-search`` deals opponents' unknown cards with odds per card class
(``bots.kitchen_worlds.HAND_ODDS``). They come from here: ``kitchen-greedy`` plays
itself through the one game loop (``cgsim.games.loop``), and before every action-phase
decision each hidden card of the other seat (in its hand or in the deck) is counted by
its class for that seat and by that seat's last action-phase move. A class's odds are its share among hand cards over its share among
deck cards. Run ``python -m bots.kitchen_odds --games 3000`` to measure them again, for
instance after changing the deck.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from bots.kitchen_greedy import GreedyParams, KitchenGreedyBot, Scorer
from bots.kitchen_worlds import CARD_CLASSES, MODELLED_MOVES, card_class
from cgsim.games import loop
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.state import Phase, State

FLOOR = 0.02
"""Smallest odds reported: a move never rules a card out (other players differ)."""

Counts = dict[int, list[list[int]]]
"""Per last move: per card class, [cards in the hand, cards in the deck]."""


def _count(state: State, holder: int, move: int, counts: Counts) -> None:
    scorer = Scorer(state, holder, GreedyParams().weights())
    card_types = state.rules.catalogue.card_types
    table = counts.setdefault(move, [[0, 0] for _ in CARD_CLASSES])
    for where, cards in ((0, state.hands[holder]), (1, state.deck)):
        for card in cards:
            table[card_class(scorer, card_types[card])][where] += 1


class _Watcher:
    """The loop's hooks of one game: remember each seat's last action-phase move, count
    the other seat's hidden cards before each action-phase decision."""

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self.last = [-1, -1]

    def before_decision(self, state: State, seat: int) -> None:
        other = 1 - seat
        if state.phase == Phase.ACTIONS and self.last[other] in MODELLED_MOVES:
            _count(state, other, self.last[other], self.counts)

    def after_action(self, before: State, action: int, after: State) -> None:
        if before.phase == Phase.ACTIONS:
            self.last[GAME.current_player(before)] = A.kind_of(action)


def count_hidden_cards(games: int, seed: int) -> Counts:
    """Hidden cards by the holder's last move and their class, over 2-player games."""
    counts: Counts = {}
    for game in range(games):
        watcher = _Watcher(counts)
        loop.play(
            GAME,
            GAME.new_game(GAME.make_rules(2, {}), seed + game),
            [KitchenGreedyBot(), KitchenGreedyBot()],
            [random.Random(f"odds:{seed}:{game}:{seat}") for seat in range(2)],
            before_decision=watcher.before_decision,
            after_action=watcher.after_action,
        )
    return counts


def hand_odds(counts: Counts) -> dict[int, tuple[float, ...]]:
    """Per last move, each class's share among hand cards over its share in the deck
    (``FLOOR`` at least; 1.0 for a class never seen in the deck)."""
    odds: dict[int, tuple[float, ...]] = {}
    for move, table in sorted(counts.items()):
        in_hand = sum(row[0] for row in table)
        in_deck = sum(row[1] for row in table)
        if not in_hand or not in_deck:
            continue
        odds[move] = tuple(
            max(FLOOR, (row[0] / in_hand) / (row[1] / in_deck)) if row[1] else 1.0 for row in table
        )
    return odds


def format_odds(odds: dict[int, tuple[float, ...]]) -> str:
    """The table as Python source for ``HAND_ODDS``."""
    lines = ["HAND_ODDS: dict[int, tuple[float, ...]] = {"]
    for move, row in odds.items():
        values = ", ".join(f"{value:.2g}" for value in row)
        lines.append(f"    A.{A.KIND_NAMES[move].upper().replace('-', '_')}: ({values}),")
    lines.append("}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3000, help="self-play games to count")
    parser.add_argument("--seed", type=int, default=10_000, help="seed of the first game")
    args = parser.parse_args(argv)
    print(format_odds(hand_odds(count_hidden_cards(args.games, args.seed))))


if __name__ == "__main__":
    main()
