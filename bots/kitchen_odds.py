"""Measure what a Kitchen Garden player's last move says about its hidden hand.

``kitchen-search`` deals opponents' unknown cards with odds per card class
(``bots.kitchen_search.HAND_ODDS``). They come from here: ``kitchen-greedy`` plays
itself, and before every action-phase decision each hidden card of the other seat (in
its hand or in the deck) is counted by its class for that seat and by that seat's last
action-phase move. A class's odds are its share among hand cards over its share among
deck cards. Run ``python -m bots.kitchen_odds --games 3000`` to measure them again, for
instance after changing the deck.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from bots.kitchen_greedy import GreedyParams, KitchenGreedyBot, Scorer
from bots.kitchen_search import CARD_CLASSES, MODELLED_MOVES, card_class
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.state import Phase, State

FLOOR = 0.02
"""Smallest odds reported: a move never rules a card out (other players differ)."""

Counts = dict[int, list[list[int]]]
"""Per last move: per card class, [cards in the hand, cards in the deck]."""


def _count(state: State, holder: int, move: int, counts: Counts) -> None:
    scorer = Scorer(state, holder, GreedyParams())
    card_types = state.rules.catalogue.card_types
    table = counts.setdefault(move, [[0, 0] for _ in CARD_CLASSES])
    for where, cards in ((0, state.hands[holder]), (1, state.deck)):
        for card in cards:
            table[card_class(scorer, card_types[card])][where] += 1


def count_hidden_cards(games: int, seed: int) -> Counts:
    """Hidden cards by the holder's last move and their class, over 2-player games."""
    counts: Counts = {}
    for game in range(games):
        state = GAME.new_game(GAME.make_rules(2, {}), seed + game)
        bots = [KitchenGreedyBot(), KitchenGreedyBot()]
        rngs = [random.Random(f"odds:{seed}:{game}:{seat}") for seat in range(2)]
        last = [-1, -1]
        while not GAME.is_terminal(state):
            seat = GAME.current_player(state)
            if state.phase == Phase.ACTIONS and last[1 - seat] in MODELLED_MOVES:
                _count(state, 1 - seat, last[1 - seat], counts)
            legal = GAME.legal_actions(state)
            action = bots[seat].choose(GAME.observation(state, seat), legal, rngs[seat])
            if state.phase == Phase.ACTIONS:
                last[seat] = A.kind_of(action)
            state = GAME.apply(state, action)
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
