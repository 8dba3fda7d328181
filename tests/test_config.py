"""Configs: TOML in, a frozen RunConfig out, every problem named in one error line."""

from __future__ import annotations

import re
from pathlib import Path

import pydantic
import pytest
import toygame

from cgsim.errors import ConfigError, UnknownBotError
from cgsim.games.registry import game_names, register_game, registered_target
from cgsim.play.config import RunConfig, load_config, resolve_bots, resolve_rules, validate_config

toygame.register()
CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def write(tmp_path: Path, text: str, name: str = "trial.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_minimal_config_and_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'seats = ["random", "random"]\n'))
    assert config.name == "trial"
    assert config.game == "cottage-garden"
    assert config.players == 2 and config.games == 100 and config.workers == 0
    assert config.results_dir == Path("results") / "trial"
    assert config.seats[0].bot == "random"


def test_config_is_frozen(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, 'seats = ["random", "random"]\n'))
    with pytest.raises(pydantic.ValidationError):
        config.games = 5  # type: ignore[misc]


def test_bot_entries_as_strings_and_tables(tmp_path: Path) -> None:
    text = 'seats = ["random", {bot = "greedy", params = {pots = 1.5}}]\n'
    config = load_config(write(tmp_path, text))
    assert config.seats[1].as_spec() == {"bot": "greedy", "params": {"pots": 1.5}}
    assert config.seats[0].as_spec() == "random"


def test_unknown_key_lists_the_allowed_ones(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"gmaes: unknown key; allowed keys: name, game"):
        load_config(write(tmp_path, "gmaes = 10\n"))


def test_bad_value_names_field_value_and_rule(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"games = -5: allowed 1 to 10,000,000 \(games to play\)$"
    ):
        load_config(write(tmp_path, "games = -5\n"))


def test_every_problem_is_named_in_one_line(tmp_path: Path) -> None:
    text = 'games = 0\nworkers = "many"\ncolour = "red"\nseats = [5, {bot = "x", weight = 2}]\n'
    with pytest.raises(ConfigError) as error:
        load_config(write(tmp_path, text))
    message = str(error.value)
    assert "\n" not in message and "5 problems: (1) " in message
    lines = re.split(r"; \(\d\) ", message.split(" problems: (1) ", 1)[1])
    assert len(lines) == 5
    assert any(line.strip().startswith("games = 0:") for line in lines)
    assert any(line.strip().startswith("workers = 'many':") for line in lines)
    assert any(line.strip().startswith("colour: unknown key") for line in lines)
    assert any("seats[0] = 5: a bot is a spec string" in line for line in lines)
    assert any("seats[1].weight: unknown key; allowed keys: bot, params" in line for line in lines)


def test_seat_count_must_match_players(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"seats: 3 bots given for players = 2"):
        load_config(write(tmp_path, 'seats = ["random", "random", "random"]\n'))


def test_unknown_game(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"game = 'chess': unknown game; known games:"):
        load_config(write(tmp_path, 'game = "chess"\n'))


def test_bad_name(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"name = '../up'"):
        load_config(write(tmp_path, 'name = "../up"\n'))


def test_file_problems(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_config(write(tmp_path, "games = = 3\n"))


def test_an_unreadable_config_file_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(ConfigError, match=r"^config file '.*folder.toml' cannot be read: "):
        load_config(folder)


def test_seat_count_error_says_what_to_give() -> None:
    with pytest.raises(ConfigError, match="give exactly one bot per seat"):
        validate_config({"name": "x", "players": 3, "seats": ["random"]})


def test_game_targets_must_name_module_and_attribute() -> None:
    with pytest.raises(ConfigError, match=r"^game target 'nowhere' must be 'module:attribute'$"):
        register_game("nowhere", "nowhere")
    assert "nowhere" not in game_names()


def test_a_game_registered_at_run_time_names_its_target_and_a_shipped_one_none() -> None:
    assert registered_target("toy") == "toygame:GAME"
    assert registered_target("cottage-garden") is None
    assert registered_target("chess") is None


def test_components_path_is_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "parts.toml").write_text("")
    config = load_config(write(tmp_path / "sub", 'components = "parts.toml"\n'))
    assert config.components == (tmp_path / "sub" / "parts.toml").resolve()
    with pytest.raises(ConfigError, match=r"components = .*nothing.toml.*not found"):
        load_config(write(tmp_path, 'components = "nothing.toml"\n'))


def test_overrides_win_and_are_validated(tmp_path: Path) -> None:
    path = write(tmp_path, "games = 10\nseed = 3\n")
    config = load_config(path, {"games": 40, "seed": None, "out": tmp_path})
    assert (config.games, config.seed, config.out) == (40, 3, tmp_path)
    with pytest.raises(ConfigError, match="games = 0"):
        load_config(path, {"games": 0})


def test_bots_resolve_with_their_field_path() -> None:
    config = validate_config({"name": "x", "seats": ["random", "nosuch"]})
    with pytest.raises(UnknownBotError, match=r"^seats\[1\]: unknown bot 'nosuch'.*random"):
        resolve_bots(config, "seats")


def test_game_validates_rule_overrides() -> None:
    config = validate_config({"name": "x", "game": "toy", "rules": {"speed": 2}})
    with pytest.raises(ConfigError, match=r"rules.speed: unknown rule"):
        resolve_rules(config)
    good = validate_config({"name": "x", "game": "toy", "rules": {"rounds": 2}})
    assert resolve_rules(good).rounds == 2


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.name)
def test_shipped_configs_are_valid(path: Path) -> None:
    config = load_config(path)
    assert isinstance(config, RunConfig)
    assert config.name == path.stem
    for field in ("seats", "bots"):
        resolve_bots(config, field)
    assert config.seats or config.bots


def test_shipped_configs_exist() -> None:
    names = {path.stem for path in CONFIGS.glob("*.toml")}
    assert {"default", "solo", "four-players", "smoke"} <= names
    assert load_config(CONFIGS / "smoke.toml").games <= 50
