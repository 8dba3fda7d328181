"""One speed measurement, run as a script by whichever interpreter is timed, so the same
measurement times two installations of cgsim (this checkout's and a baseline's).

It reads one JSON task from its argument, imports ``cgsim`` from the interpreter's own
environment (its working directory is a scratch folder, so the checkout it came from is
never on its path) and prints one JSON line. It never imports ``benchmarks``, which the
baseline does not have, and uses only calls every release since the game contract
offers, so an older installation is timed by the very same code. Each measurement
imports what it needs in its function, so a baseline lacking a module still runs the
others.
"""

import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar


def _engine(task: dict[str, Any]) -> dict[str, Any]:
    """Random-vs-random games per second on the bare engine, and decisions per game."""
    from cgsim.games.registry import get_game

    game = get_game(task["game"])
    rules = game.make_rules(task["players"], {}, None, task["variant"])
    new_game, legal_actions = game.new_game, game.legal_actions
    apply, is_terminal = game.apply, game.is_terminal
    seeds = range(task["seed"], task["seed"] + task["games"])
    decisions = 0
    start = time.perf_counter()
    for game_seed in seeds:
        state = new_game(rules, game_seed)
        rng = random.Random(game_seed)
        while not is_terminal(state):
            legal = legal_actions(state)
            state = apply(state, legal[rng.randrange(len(legal))])
            decisions += 1
    elapsed = time.perf_counter() - start
    return {"rate": len(seeds) / elapsed, "decisions": decisions / len(seeds)}


LOOP_ROUNDS = 4
"""Timed rounds of the match-loop comparison (:func:`take_turns`)."""

T = TypeVar("T")


def take_turns(
    first: Callable[[], T], second: Callable[[], T], rounds: int
) -> tuple[list[T], list[T]]:
    """``rounds`` answers of each, the two alternating, each called first in every other
    round: whichever runs second in a round runs about a percent slower, so neither may
    always be second. The before-and-after comparison's builds take turns this way too."""
    firsts: list[T] = []
    seconds: list[T] = []
    for round_ in range(rounds):
        if round_ % 2 == 0:
            firsts.append(first())
            seconds.append(second())
        else:
            seconds.append(second())
            firsts.append(first())
    return firsts, seconds


def bare_games(game: Any, rules: Any, players: int, seeds: range) -> Iterator[Any]:
    """The final states of the bare engine playing exactly the games the match loop plays
    with random bots: each seat draws from its own generator, seeded as a run seeds it,
    and a forced action is applied without a draw, as the loop does."""
    from cgsim.play.seeds import seat_seed

    new_game, legal_actions, apply = game.new_game, game.legal_actions, game.apply
    is_terminal, current_player = game.is_terminal, game.current_player
    for game_seed in seeds:
        state = new_game(rules, game_seed)
        rngs = [random.Random(seat_seed(game_seed, seat)) for seat in range(players)]
        while not is_terminal(state):
            legal = legal_actions(state)
            if len(legal) > 1:
                action = legal[rngs[current_player(state)].randrange(len(legal))]
            else:
                action = legal[0]
            state = apply(state, action)
        yield state


def loop_overhead(
    name: str, players: int, variant: dict[str, Any], games: int, seed: int
) -> dict[str, Any]:
    """The match loop's cost per game over the bare engine's, random bots, records off.

    Both play the same ``games`` games with one rules object, as a run's worker plays all
    its games with one (its placement cache long full). The games are first played once
    through each, untimed, so neither pays the process's one-time costs (imports, tables
    built on first use) or fills the cache while timed; then :data:`LOOP_ROUNDS` rounds,
    each timing both (:func:`take_turns`), so drift hits both alike. Returns the loop's
    games per second and its cost over the bare engine (``over``: 0.1 is 10%), each the
    median of the rounds.
    """
    from cgsim.games.registry import get_game
    from cgsim.play.bot_registry import resolve_bot
    from cgsim.play.match import play_game

    game = get_game(name)
    rules = game.make_rules(players, {}, None, variant)
    specs = [resolve_bot("random", name)] * players
    seeds = range(seed, seed + games)

    def bare() -> float:
        start = time.perf_counter()
        for _ in bare_games(game, rules, players, seeds):
            pass
        return time.perf_counter() - start

    def looped() -> float:
        start = time.perf_counter()
        for game_seed in seeds:
            play_game(game, rules, game_seed, specs, record=False)
        return time.perf_counter() - start

    bare()
    looped()
    engine, loop = take_turns(bare, looped, LOOP_ROUNDS)
    ratios = [spent / alone for spent, alone in zip(loop, engine, strict=True)]
    rate = statistics.median([games / spent for spent in loop])
    return {"rate": rate, "over": statistics.median(ratios) - 1}


def _match(task: dict[str, Any]) -> dict[str, Any]:
    return loop_overhead(
        task["game"], task["players"], task["variant"], task["games"], task["seed"]
    )


def _bot(task: dict[str, Any]) -> dict[str, Any]:
    from cgsim.games.registry import get_game
    from cgsim.play.bot_registry import list_bots, resolve_bot
    from cgsim.studies.strength import play

    if task["bot"] not in {info.name for info in list_bots(task["game"])}:
        return {"ms": None, "decisions": 0}
    game = get_game(task["game"])
    spec = resolve_bot(task["bot"], task["game"])
    spent, decisions = 0.0, 0
    for seed in range(task["seed"], task["seed"] + task["games"]):
        bots = [spec.create() for _ in range(task["players"])]
        for outcome in play(game, bots, seed, seed):
            spent += outcome.seconds
            decisions += outcome.decisions
    return {"ms": 1000 * spent / decisions if decisions else None, "decisions": decisions}


def main() -> None:
    import cgsim.games.registry

    task = json.loads(sys.argv[1])
    measure = {"engine": _engine, "match": _match, "bot": _bot}[task["measure"]]
    answer = measure(task)
    answer["where"] = cgsim.games.registry.__file__
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
