"""Checks of the record's top level, rules, components and deal, and the state they give."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from cgsim.games.kitchen.checker.catalogue import Catalogue, read_components
from cgsim.games.kitchen.checker.fields import get, int_list, is_int
from cgsim.games.kitchen.checker.state import MIDDLE, SETTINGS, SPECIALS, Holder, Rules, State
from cgsim.games.kitchen.checker.violations import Fatal, Violation

FORMAT = "cgsim.kitchen-record/1"
GAME = "kitchen-garden"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
AT_LEAST_ONE = ("turn_cap", "base_actions")
"""Settings that must be at least 1 (a game needs a turn, a turn an action)."""

Report = Callable[[str], None]


def read_setup(record: Mapping[str, Any], out: list[Violation]) -> State | None:
    """Check everything before the first turn; the initial state, or None if unusable."""

    def bad(message: str) -> None:
        out.append(Violation(None, None, message))

    if record.get("format") != FORMAT:
        bad(f"format is {record.get('format')!r}, expected {FORMAT!r}")
    if record.get("game") != GAME:
        bad(f"game is {record.get('game')!r}, expected {GAME!r}")
    if not is_int(record.get("seed")):
        bad(f"seed is {record.get('seed')!r}, expected an integer")
    raw_players = record.get("players")
    players = raw_players if is_int(raw_players) else 0
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        bad(f"players is {raw_players!r}, expected {MIN_PLAYERS} to {MAX_PLAYERS}")
        return None
    _check_seats(record.get("seats"), players, bad)
    try:
        rules = _read_rules(get(record, "rules", "record"), players, bad)
        catalogue = read_components(get(record, "components", "record"))
        if rules is None:
            return None
        return _read_deal(get(record, "setup", "record"), rules, catalogue, bad)
    except Fatal as fatal:
        bad(fatal.message)
        return None


def _check_seats(seats: Any, players: int, bad: Report) -> None:
    if not (isinstance(seats, list) and len(seats) == players):
        bad(f"seats: expected a list of {players} seats, got {seats!r}")
        return
    for index, seat in enumerate(seats):
        if not (
            isinstance(seat, Mapping)
            and isinstance(seat.get("bot"), str)
            and isinstance(seat.get("params"), Mapping)
        ):
            bad(f"seats[{index}]: expected {{'bot': name, 'params': {{...}}}}, got {seat!r}")


def _read_rules(raw: Any, players: int, bad: Report) -> Rules | None:
    if not isinstance(raw, Mapping):
        raise Fatal(f"rules: expected an object, got {raw!r}")
    if raw.get("players") != players:
        bad(f"rules.players is {raw.get('players')!r}, the record has {players} players")
    for key in sorted(set(raw) - {"players", *SETTINGS}):
        bad(f"rules: unknown setting {key!r}")
    values = {}
    for key in SETTINGS:
        value = raw.get(key)
        least = 1 if key in AT_LEAST_ONE else 0
        if not (is_int(value) and value >= least):
            bad(f"rules.{key} is {value!r}, expected an integer of at least {least}")
            continue
        values[key] = int(value)
    if len(values) < len(SETTINGS):
        return None
    return Rules(players=players, **values)


def _read_deal(setup: Any, rules: Rules, catalogue: Catalogue, bad: Report) -> State | None:
    players = rules.players
    tasks = get(setup, "tasks", "setup")
    if not (isinstance(tasks, list) and len(tasks) == players):
        raise Fatal(f"setup.tasks: expected {players} task names, got {tasks!r}")
    for name in tasks:
        if not (isinstance(name, str) and name in catalogue.tasks):
            raise Fatal(f"setup.tasks: {name!r} is not a task of components.tasks")
    if len(set(tasks)) != len(tasks):
        bad(f"setup.tasks: {tasks} are not all different")
    raw_hands = get(setup, "hands", "setup")
    if not (isinstance(raw_hands, list) and len(raw_hands) == players):
        raise Fatal(f"setup.hands: expected {players} hands, got {raw_hands!r}")
    hands = [int_list(hand, f"setup.hands[{seat}]") for seat, hand in enumerate(raw_hands)]
    for seat, hand in enumerate(hands):
        if len(hand) != rules.deal:
            bad(f"setup.hands[{seat}] holds {len(hand)} cards, rules.deal is {rules.deal}")
        if hand != sorted(hand):
            bad(f"setup.hands[{seat}] is not sorted: {hand}")
    market = int_list(get(setup, "market", "setup"), "setup.market")
    if len(market) != rules.market_size:
        bad(f"setup.market holds {len(market)} cards, rules.market_size is {rules.market_size}")
    deck = int_list(get(setup, "deck", "setup"), "setup.deck")
    specials = _read_specials(get(setup, "specials", "setup"), players, bad)
    if get(setup, "first", "setup") != 0:
        bad(f"setup.first is {setup['first']!r}, expected 0 (seat 0 starts)")
    dealt = [*(card for hand in hands for card in hand), *market, *deck]
    if not _every_card_once(dealt, catalogue, bad):
        return None
    crops = len(catalogue.crops)
    return State(
        rules=rules,
        catalogue=catalogue,
        tasks=[catalogue.tasks[name] for name in tasks],
        hands=hands,
        beds=[[[] for _ in range(crops)] for _ in range(players)],
        market=market,
        deck=deck,
        discard=[],
        specials=specials,
        sluggards=[None] * players,
    )


def _every_card_once(dealt: list[int], catalogue: Catalogue, bad: Report) -> bool:
    """Whether hands, market and deck together hold every card id exactly once."""
    counts = Counter(dealt)
    for card, copies in sorted(counts.items()):
        if not 0 <= card < catalogue.card_count:
            raise Fatal(f"setup: {card} is not a card id (0 to {catalogue.card_count - 1})")
        if copies > 1:
            bad(f"setup: {catalogue.describe(card)} is dealt {copies} times")
    missing = sorted(set(range(catalogue.card_count)) - set(counts))
    if missing:
        bad(f"setup: cards {missing} are neither in a hand, the market nor the deck")
    return not missing and len(counts) == len(dealt)


def _read_specials(raw: Any, players: int, bad: Report) -> dict[str, list[Holder]]:
    """Per type the holders at the start: 2 players one copy in the middle, else one each."""
    expected: list[Holder] = [MIDDLE] if players == 2 else list(range(players))
    for name in SPECIALS:
        found = get(raw, name, "setup.specials")
        if found != expected:
            bad(f"setup.specials.{name} is {found!r}, expected {expected!r}")
    if isinstance(raw, Mapping):
        for name in sorted(set(raw) - set(SPECIALS)):
            bad(f"setup.specials: unknown special card {name!r}")
    return {name: list(expected) for name in SPECIALS}
