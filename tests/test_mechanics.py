"""Restricted play: a mechanic worth a lot is found, a restriction that never binds is
flagged as such, the restricted bot without restrictions plays the bot's own games, and
bad input is one line."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.errors import CgsimError, ConfigError
from cgsim.games.registry import get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.config import RunConfig, validate_config
from cgsim.play.restricted import restricted_spec
from cgsim.play.results import load_tables
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.studies.mechanics import mechanics_settings, run_mechanics, write_mechanics_report

toygame.register()
GREEDY = toygame.target(toygame.Greedy)
WANDERER = toygame.target(toygame.Wanderer)


def make_config(out: Path, **fields: Any) -> RunConfig:
    base: dict[str, Any] = {
        "name": "mech",
        "game": "toy",
        "players": 2,
        "seats": [GREEDY, f"{WANDERER}:bias=0.5"],
        "games": 40,
        "seed": 3,
        "workers": 1,
        "out": out,
    }
    return validate_config(base | fields)


def test_a_restricted_bot_keeps_to_the_allowed_actions_and_falls_back() -> None:
    game = get_game("toy")
    spec = resolve_bot(restricted_spec(GREEDY, ["big-steps"]), "toy")
    bot = spec.create()
    state = game.new_game(game.make_rules(2, {}), 1)
    bot.new_game(game, 0, state)
    assert bot.choose(state, [1, 2, 3], random.Random(0)) == 1
    assert bot.choose(state, [2, 3], random.Random(0)) == 3  # nothing allowed: all are
    free = resolve_bot(restricted_spec(GREEDY, []), "toy").create()
    free.new_game(game, 0, state)
    assert free.choose(state, [1, 2, 3], random.Random(0)) == 3


def test_a_mechanic_worth_a_lot_is_found_and_one_never_used_is_flagged(tmp_path: Path) -> None:
    config = make_config(tmp_path)
    study = run_mechanics(config, progress=False)
    rows = {(r["restriction"], r["measure"]): r for r in study.table.iter_rows(named=True)}
    big = rows["big-steps", "score"]
    assert big["verdict"] == "established" and big["high"] < -1.0
    assert rows["big-steps", "win_share"]["change"] < -0.2
    never = rows["passing", "win_share"]
    assert never["change"] == 0.0 and never["deals_changed"] == 0.0
    assert never["verdict"] == "not established" and never["flag"].startswith("never binding")
    paths = write_mechanics_report(config, study, tmp_path / "mech")
    assert "big-steps" in paths["markdown"].read_text()
    assert (tmp_path / "mech" / "plots" / "worth-score.png").is_file()
    unrestricted = load_tables(tmp_path / "mech" / "unrestricted")["seats"]
    assert float(unrestricted["score"].sum()) == plain_scores(tmp_path)


def plain_scores(tmp_path: Path) -> float:
    """The bot's own games on the same deals: the unrestricted baseline must equal them."""
    config = make_config(tmp_path / "plain")
    result = run_games(config, plan_for(config, "run"), progress=False)
    return float(load_tables(result.results_dir)["seats"]["score"].sum())


def test_bad_mechanics_input_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not one of toy's"):
        mechanics_settings(make_config(tmp_path, mechanics={"restrictions": ["flying"]}))
    with pytest.raises(CgsimError, match="opponents"):
        mechanics_settings(make_config(tmp_path, players=1, seats=[GREEDY]))
    with pytest.raises(ConfigError, match=r"mechanics\.negligible"):
        mechanics_settings(make_config(tmp_path, mechanics={"negligible": 2}))
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "bad"\nseats = ["greedy", "greedy"]\n[mechanics]\nrestrictions = ["x"]\n'
    )
    assert_refused(run_cli(["mechanics", str(bad)]), "'x'")
