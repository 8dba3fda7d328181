"""Bot tuning: NTBEA finds a planted optimum, bad [tune_bot] tables name the bad field,
and a tiny tuning of a toy bot ends in a tuned.toml that replays its confirmation."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.errors import CgsimError
from cgsim.play.config import load_config, validate_config
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_run
from cgsim.studies.bottune import tune_bot
from cgsim.studies.bottune_report import TUNED_FILE, toml_value, write_bot_tune_report
from cgsim.studies.bottune_spec import ParamRange, bot_search
from cgsim.studies.ntbea import NtbeaSettings, Point, ntbea

toygame.register()
WANDERER = toygame.target(toygame.Wanderer)
GREEDY = toygame.target(toygame.Greedy)
TINY = {
    "bot": WANDERER,
    "opponent": GREEDY,
    "evaluations": 3,
    "batch": 3,
    "deals": 2,
    "finalists": 2,
    "final_deals": 3,
    "confirm_deals": 6,
    "free": {"bias": [0.0, 0.5, 1.0]},
}


def planted(round_index: int, points: Sequence[Point]) -> list[float]:
    """A noisy objective whose best point is (3, 1, 4); the noise is seeded by the
    round and the point, so a search replays exactly."""
    return [
        -((p[0] - 3) ** 2)
        - (p[1] - 1) ** 2
        - abs(p[2] - 4)
        + random.Random(f"{round_index}-{p}").gauss(0.0, 1.0)
        for p in points
    ]


def test_ntbea_finds_the_planted_optimum_the_same_way_every_time() -> None:
    settings = NtbeaSettings(rounds=6, batch=6, seed=3)
    found = ntbea((5, 5, 5), planted, settings, start=(0, 0, 0))
    assert found.ranked[0][0] == (3, 1, 4)
    assert found.evaluations[0].point == (0, 0, 0)
    assert len(found.evaluations) == 36
    again = ntbea((5, 5, 5), planted, settings, start=(0, 0, 0))
    assert again.evaluations == found.evaluations


def test_ranges_give_integers_floats_or_eleven_points() -> None:
    assert ParamRange(min=1, max=7, step=3).values() == [1, 4, 7]
    assert ParamRange(min=0.1, max=0.5, step=0.1).values() == [0.1, 0.2, 0.3, 0.4, 0.5]
    assert ParamRange(min=0.0, max=1.0).values()[:3] == [0.0, 0.1, 0.2]
    assert len(ParamRange(min=0.0, max=1.0).values()) == 11


def config_of(
    tmp_path: Path, players: int = 2, top: dict[str, Any] | None = None, **tune_bot: Any
) -> Any:
    data: dict[str, Any] = {
        **(top or {}),
        "name": "toytune",
        "game": "toy",
        "players": players,
        "seed": 5,
        "workers": 1,
        "out": str(tmp_path),
        "tune_bot": {**TINY, **tune_bot},
    }
    return validate_config(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"free": {"speed": [1, 2]}},
            f"tune_bot.free.speed: bot '{WANDERER}' has no parameter 'speed'; its parameters: "
            "bias (float, default 0.0), depth (int, default 1)",
        ),
        (
            {"free": {"depth": {"min": 1, "max": 2, "step": 0.5}}},
            f"tune_bot.free.depth: 1.5 is not accepted by '{WANDERER}' (Input should be a valid "
            "integer, got a number with a fractional part); depth is int, default 1",
        ),
        (
            {"bot": f"{WANDERER}:bias=0.5"},
            "tune_bot.free.bias: also fixed in tune_bot.bot",
        ),
        ({"free": {}}, "name at least one bot parameter"),
        ({"free": {"bias": {"min": 1, "max": 0}}}, "max (0) is below min (1)"),
        ({"start": {"depth": 2}}, "tune_bot.start.depth: not a free parameter"),
        ({"opponent": None}, "tune_bot.opponent: required with players = 2"),
        ({"opponent": "nosuch"}, "tune_bot.opponent: unknown bot 'nosuch'"),
        ({"batch": 0}, "batch = 0"),
    ],
)
def test_a_bad_table_names_the_bad_field(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    with pytest.raises(CgsimError) as error:
        bot_search(config_of(tmp_path, **change))
    assert message in str(error.value)


def test_a_range_outside_what_the_bot_accepts_names_the_value_and_the_bound() -> None:
    config = validate_config(
        {
            "name": "g",
            "tune_bot": {
                "bot": "greedy",
                "opponent": "greedy",
                "free": {"pots": {"min": 8, "max": 12}},
            },
        }
    )
    with pytest.raises(
        CgsimError,
        match=r"tune_bot\.free\.pots: 11 is not accepted by 'greedy' "
        r"\(Input should be less than or equal to 10\); pots is float",
    ):
        bot_search(config)


def test_the_solo_game_has_no_opponent_and_seats_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CgsimError, match="the solo game has none"):
        bot_search(config_of(tmp_path, players=1))
    with pytest.raises(CgsimError, match="seats and bots are not used by tune_bot"):
        bot_search(config_of(tmp_path, top={"seats": [GREEDY, GREEDY]}))
    solo = bot_search(config_of(tmp_path, players=1, opponent=None, start={"bias": 0.4}))
    assert solo.objective == "mean score" and solo.start == (1,)


def test_a_tiny_tuning_writes_a_config_that_replays_its_confirmation(tmp_path: Path) -> None:
    config = config_of(tmp_path)
    result = tune_bot(config, workers=1, progress=False)
    assert result.best == {"bias": 1.0}
    assert result.label == f"{WANDERER}:bias=1.0"
    assert result.path.height == 3 and result.finalists.height == 2
    assert result.strength.n == 6 and result.games == (3 * 2 + 2 * 3 + 6) * 2
    paths = write_bot_tune_report(result, tmp_path / "tune", "cgsim tune toytune.toml")
    assert paths["markdown"].is_file() and paths["finalists_csv"].is_file()
    replay = load_config(tmp_path / "tune" / TUNED_FILE, {"out": tmp_path / "replay"})
    assert replay.seats[0].params == {"bias": 1.0} and replay.games == 12
    assert plan_run(replay).schedule == plan_run(result.confirm_config).schedule
    run = run_games(replay, plan_run(replay), progress=False)
    assert run.status == "complete"
    from cgsim.play.runner import bot_table

    table = bot_table(run.results_dir)
    tuned = table.filter(table["bot"] == result.label).row(0, named=True)
    assert tuned["win_share"] == pytest.approx(result.strength.estimate)


def test_toml_values_read_back() -> None:
    data = {"a": 1, "b": 1.5, "c": 'say "hi"', "d": [1, 2.0, True], "e": {"a key": "v"}}
    text = "\n".join(f"{k} = {toml_value(v)}" for k, v in data.items())
    assert tomllib.loads(text) == data


def write_toml(tmp_path: Path, free: str, extra: str = "") -> Path:
    path = tmp_path / "toytune.toml"
    path.write_text(
        'name = "toytune"\ngame = "toy"\nplayers = 2\nseed = 5\nworkers = 1\n'
        f"{extra}[tune_bot]\nbot = '{WANDERER}'\nopponent = '{GREEDY}'\nevaluations = 2\n"
        "batch = 2\ndeals = 1\nfinalists = 1\nconfirm_deals = 2\n"
        f"[tune_bot.free]\n{free}\n"
    )
    return path


def test_the_command_prints_and_writes_the_tuned_bot(tmp_path: Path) -> None:
    config = write_toml(tmp_path, "bias = [0.0, 1.0]")
    done = run_cli(["tune", str(config), "--out", str(tmp_path)])
    assert done.code == 0, done.err
    assert "tuned: " in done.out and "confirmed: win rate" in done.out
    assert f'{{ bot = "{WANDERER}", params = {{ bias = ' in done.out
    assert (tmp_path / "toytune" / "tune" / TUNED_FILE).is_file()


def test_the_command_refuses_bad_tables_in_one_line(tmp_path: Path) -> None:
    unknown = write_toml(tmp_path, "speed = [1, 2]")
    assert_refused(
        run_cli(["tune", str(unknown)]), "tune_bot.free.speed", "its parameters: bias (float"
    )
    both = write_toml(tmp_path, "bias = [0.0, 1.0]", "[tune.free]\nrounds = [2]\n")
    assert_refused(run_cli(["tune", str(both)]), "not both")


def test_ctrl_c_stops_the_tuning_with_a_clean_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("cgsim.studies.bottune.tune_bot", interrupted)
    done = run_cli(["tune", str(write_toml(tmp_path, "bias = [0.0, 1.0]")), "--out", str(tmp_path)])
    assert done.code == 130
    assert "tune interrupted: nothing written" in done.err and "Traceback" not in done.err
    assert not (tmp_path / "toytune" / "tune").exists()


def test_a_solo_tuning_maximises_the_mean_score(tmp_path: Path) -> None:
    config = config_of(
        tmp_path, players=1, opponent=None, evaluations=2, batch=2, finalists=1, confirm_deals=4
    )
    result = tune_bot(config, workers=1, progress=False)
    assert result.search.objective == "mean score"
    assert result.strength == result.score and result.strength.n == 4
    assert result.strength.estimate > 1.0


def test_a_game_ending_in_error_stops_the_tuning_naming_the_bots(tmp_path: Path) -> None:
    crash = toygame.target(toygame.Crash)
    config = config_of(tmp_path, bot=crash, free={"at": [0, 1]}, evaluations=2, batch=2)
    with pytest.raises(
        CgsimError, match=r"tune_bot: a game of .*Crash:at=0.* ended in error: .*boom"
    ):
        tune_bot(config, workers=1, progress=False)
