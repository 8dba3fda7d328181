"""One speed measurement, run as a script by whichever interpreter ``bench --baseline``
names, so the same measurement times two installations of cgsim (this one and another).

It reads one JSON task from its argument, imports ``cgsim`` from the interpreter's own
environment (its working directory is a scratch folder, so the checkout it came from is
never on its path) and prints one JSON line. Only calls every release since the game
contract offers are used, so an older installation can be timed the same way.
"""

import json
import sys
import time
from typing import Any


def _engine(task: dict[str, Any]) -> dict[str, Any]:
    from cgsim.studies.bench import random_games_per_second

    rate, decisions = random_games_per_second(
        task["players"], task["variant"], task["games"], task["seed"], task["game"]
    )
    return {"rate": rate, "decisions": decisions}


WARM_UP_GAMES = 3
"""Untimed games a fresh process plays before the match-loop comparison."""


def _match(task: dict[str, Any]) -> dict[str, Any]:
    from cgsim.games.registry import get_game
    from cgsim.play.bot_registry import resolve_bot
    from cgsim.play.match import play_game
    from cgsim.studies import bench

    # A fresh process pays its first games' one-time costs (imports, tables built on first
    # use): a few untimed games first, or whichever of the two is timed first looks dearer.
    bench.random_games_per_second(
        task["players"], task["variant"], WARM_UP_GAMES, task["seed"], task["game"]
    )
    # The bare engine on the same games just before, so drift hits both alike (older
    # installations have only the engine figure's loop: the same kind of games).
    if hasattr(bench, "bare_games_per_second"):
        bare = bench.bare_games_per_second(
            task["players"], task["variant"], task["games"], task["seed"], task["game"]
        )
    else:
        bare, _ = bench.random_games_per_second(
            task["players"], task["variant"], task["games"], task["seed"], task["game"]
        )
    game = get_game(task["game"])
    rules = game.make_rules(task["players"], {}, None, task["variant"])
    specs = [resolve_bot("random", task["game"])] * task["players"]
    first = task["seed"]
    start = time.perf_counter()
    for seed in range(first, first + task["games"]):
        play_game(game, rules, seed, specs, record=False)
    rate = task["games"] / (time.perf_counter() - start)
    return {"rate": rate, "over": bare / rate - 1}


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


main()
