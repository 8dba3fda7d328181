"""The learning environments: PettingZoo's and Gymnasium's own checks, action masks against
the engines' legal actions, seeding as ``cgsim play --seed``, hidden cards kept hidden,
the policy bot in a tournament, and docs/env.md's random agent loop as written."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from cli_helpers import run_cli
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cgsim.env import SOLO_ID, cottage_garden_v0, kitchen_garden_v0
from cgsim.env.aec import GameEnv
from cgsim.env.bot import PolicyBot, policy_bot
from cgsim.env.table import IllegalMove, Table
from cgsim.errors import ConfigError
from cgsim.games.encoding import Array, Encoding, Mask
from cgsim.games.kitchen.game import GAME as KITCHEN
from cgsim.games.recordio import read_record
from cgsim.games.registry import get_encoder, get_game
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.match import play_game

ROOT = Path(__file__).resolve().parents[1]
COTTAGE_ID, KITCHEN_ID = "cottage-garden", "kitchen-garden"
CHILDREN = {"children": [5, None, 7]}
SETUPS = [
    pytest.param(cottage_garden_v0, {}, id="cottage-2"),
    pytest.param(cottage_garden_v0, {"players": 3, "variant": CHILDREN}, id="cottage-children"),
    pytest.param(cottage_garden_v0, {"players": 4, "reward": "score"}, id="cottage-4"),
    pytest.param(kitchen_garden_v0, {}, id="kitchen-2"),
    pytest.param(kitchen_garden_v0, {"players": 3}, id="kitchen-3"),
]


def first_legal(observation: Array, mask: Mask) -> int:
    """A deterministic policy: the legal action of lowest index."""
    return int(mask.argmax())


FirstLegal = policy_bot(first_legal, "FirstLegal")


class RandomLegal(PolicyBot):
    """A stochastic policy drawing from the seat's generator."""

    def policy(self, observation: Array, mask: Mask) -> int:
        return int(self.rng.choice(np.flatnonzero(mask).tolist()))


# ---------------------------------------------------------------------------- the standard checks


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize(("module", "options"), SETUPS)
def test_the_environments_pass_pettingzoo_api_and_seed_tests(
    module: Any, options: dict[str, Any]
) -> None:
    api_test(module.env(**options), num_cycles=20)
    seed_test(lambda: module.env(**options), num_cycles=20)


def test_the_solo_game_passes_gymnasium_check_env() -> None:
    env = gymnasium.make(SOLO_ID)
    check_env(env.unwrapped)


# ---------------------------------------------------------------------------- masks and encodings


def _random_decisions(game_id: str, players: int, variant: dict[str, Any], seed: int) -> Any:
    """Every decision point of a random game: (state, seat, legal actions)."""
    game = get_game(game_id)
    rules = game.make_rules(players, {}, None, variant)
    state = game.new_game(rules, seed)
    rng = random.Random(seed)
    for _ in range(600):
        if game.is_terminal(state):
            return
        legal = list(game.legal_actions(state))
        yield state, game.current_player(state), legal
        state = game.apply(state, rng.choice(legal))


@pytest.mark.parametrize(
    ("game_id", "players", "variant"),
    [
        (COTTAGE_ID, 1, {"solo": True}),
        (COTTAGE_ID, 2, {}),
        (COTTAGE_ID, 3, CHILDREN),
        (COTTAGE_ID, 4, {}),
        (KITCHEN_ID, 2, {}),
        (KITCHEN_ID, 4, {}),
    ],
)
def test_the_mask_marks_exactly_the_engines_legal_actions(
    game_id: str, players: int, variant: dict[str, Any]
) -> None:
    game = get_game(game_id)
    encoder = get_encoder(game_id)
    for seed in range(3):
        for state, seat, legal in _random_decisions(game_id, players, variant, seed):
            encoding = encoder.encoding(state.rules)
            mask = encoding.mask(legal, seat)
            marked = {encoding.actions.action(int(i), seat) for i in np.flatnonzero(mask)}
            assert marked == set(legal)
            array = encoding.encode(game.observation(state, seat), seat)
            assert array.shape == (encoding.layout.size,) and array.dtype == np.float32
            assert (array >= 0).all() and (array <= encoding.layout.high).all()


@pytest.mark.parametrize("game_id", [COTTAGE_ID, KITCHEN_ID])
def test_every_index_names_one_action_and_back(game_id: str) -> None:
    game = get_game(game_id)
    encoding = get_encoder(game_id).encoding(game.make_rules(3, {}))
    for seat in range(3):
        actions = [encoding.actions.action(i, seat) for i in range(encoding.actions.size)]
        assert len(set(actions)) == len(actions)
        assert [encoding.actions.index(a, seat) for a in actions] == list(range(len(actions)))
    with pytest.raises(ValueError, match="outside"):
        encoding.actions.action(encoding.actions.size, 0)


def test_the_layouts_are_documented_as_generated() -> None:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", text, re.DOTALL)
    expected = []
    for game_id in (COTTAGE_ID, KITCHEN_ID):
        game = get_game(game_id)
        encoding: Encoding = get_encoder(game_id).encoding(game.make_rules(2, {}))
        expected.append(encoding.describe() + "\n")
    assert blocks == expected


# ---------------------------------------------------------------------------- what a seat sees


def test_a_kitchen_agent_sees_neither_other_hands_nor_the_deck() -> None:
    checked = 0
    for state, seat, _ in _random_decisions(KITCHEN_ID, 3, {}, seed=4):
        if state.turn % 7:
            continue
        encoding = get_encoder(KITCHEN_ID).encoding(state.rules)
        observation = KITCHEN.observation(state, seat)
        other = KITCHEN.determinize(observation, random.Random(state.turn))
        if other.hands == state.hands and other.deck == state.deck:
            continue  # nothing hidden to deal otherwise
        mine = encoding.encode(observation, seat)
        # Another deal of the cards this seat cannot see: the same array.
        assert np.array_equal(mine, encoding.encode(KITCHEN.observation(other, seat), seat))
        catalogue = state.rules.catalogue
        own = [catalogue.card_types[card] for card in state.hands[seat]]
        counts = np.bincount(own, minlength=len(catalogue.types))
        assert encoding.layout.view(mine, "hand").tolist() == counts.tolist()
        checked += 1
    assert checked >= 5


def test_an_encoding_refuses_another_seats_observation() -> None:
    rules = KITCHEN.make_rules(2, {})
    state = KITCHEN.new_game(rules, 1)
    encoding = get_encoder(KITCHEN_ID).encoding(rules)
    with pytest.raises(ValueError, match="seat 1"):
        encoding.encode(KITCHEN.observation(state, 1), 0)


# ---------------------------------------------------------------------------- seeding, rewards


@pytest.mark.parametrize(
    ("module", "game_id", "players", "bot"),
    [
        (cottage_garden_v0, COTTAGE_ID, 3, "random"),
        (kitchen_garden_v0, KITCHEN_ID, 2, "kitchen-greedy"),
    ],
)
def test_reset_with_a_seed_deals_the_game_of_cgsim_play(
    module: Any, game_id: str, players: int, bot: str, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    args = ["--game", game_id, "--players", str(players), "--bots", bot, "--seed", "11"]
    assert run_cli(["play", *args, "--record", str(path)]).code == 0
    game = get_game(game_id)
    _, dealt = next(iter(game.replay(read_record(path))))
    env = module.env(players=players)
    env.reset(seed=11)
    table: Table = env.unwrapped.table
    assert game.render(table.dealt) == game.render(dealt)
    for seat in range(players):
        seen = table.encoding.encode(game.observation(dealt, seat), seat)
        assert np.array_equal(
            table.encoding.encode(game.observation(table.dealt, seat), seat), seen
        )


def test_unseeded_resets_follow_the_last_seed() -> None:
    first, second = cottage_garden_v0.raw_env(), cottage_garden_v0.raw_env()
    for env in (first, second):
        env.reset(seed=5)
        env.reset()
    assert first.table.dealt.nursery == second.table.dealt.nursery
    assert first.table.dealt.path == second.table.dealt.path


def _play_out(env: GameEnv, policy: Any = first_legal) -> dict[str, float]:
    """Play the episode with ``policy`` for every agent; each agent's total reward."""
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        done = termination or truncation
        env.step(None if done else policy(observation["observation"], observation["action_mask"]))
    return totals


@pytest.mark.parametrize("reward", ["win", "score"])
def test_rewards_are_the_win_shares_or_the_final_scores(reward: Any) -> None:
    env = cottage_garden_v0.raw_env(players=3, reward=reward)
    env.reset(seed=2)
    totals = _play_out(env)
    result = env.table.result()
    if reward == "win":
        assert sum(totals.values()) == pytest.approx(1.0)
        assert {int(a.split("_")[1]) for a, v in totals.items() if v > 0} == set(result.winners)
    else:
        assert list(totals.values()) == list(result.scores)


def test_a_policy_plays_the_same_game_in_the_environment_and_as_a_bot() -> None:
    env = kitchen_garden_v0.raw_env(players=2, reward="score")
    env.reset(seed=3)
    totals = _play_out(env)
    rules = KITCHEN.make_rules(2, {})
    spec = resolve_bot(f"{__name__}:FirstLegal", KITCHEN_ID)
    outcome = play_game(KITCHEN, rules, 3, [spec, spec])
    assert outcome.error is None
    assert [row["score"] for row in outcome.seats] == list(totals.values())


# ---------------------------------------------------------------------------- illegal actions


def test_an_illegal_action_is_refused_or_ends_the_game() -> None:
    raw = cottage_garden_v0.raw_env()
    raw.reset(seed=1)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove, match="not legal"):
        raw.step(illegal)
    env = cottage_garden_v0.env()
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(illegal)
    assert env.terminations[agent] and env.rewards[agent] == -1.0
    solo = cottage_garden_v0.solo_env()
    solo.reset(seed=1)
    illegal = int(np.flatnonzero(solo.action_masks() == 0)[0])
    _, reward, terminated, truncated, _ = solo.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    with pytest.raises(RuntimeError, match="reset"):
        solo.step(0)


def test_bad_options_are_one_clear_error() -> None:
    with pytest.raises(ConfigError, match="reward 'points'"):
        cottage_garden_v0.raw_env(reward="points")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="render_mode"):
        kitchen_garden_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(ConfigError, match="players"):
        kitchen_garden_v0.raw_env(players=1)


def test_render_shows_the_text_board() -> None:
    env = kitchen_garden_v0.raw_env(render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == KITCHEN.render(env.table.state)


# ---------------------------------------------------------------------------- the policy bot


@pytest.mark.parametrize("bot", ["FirstLegal", "RandomLegal"])
def test_a_policy_bot_plays_a_tournament(bot: str, tmp_path: Path) -> None:
    config = tmp_path / "policy.toml"
    config.write_text(
        f'name = "policy"\nplayers = 2\nbots = ["{__name__}:{bot}", "random"]\n'
        "games = 4\nseed = 3\nworkers = 1\n",
        encoding="utf-8",
    )
    outcome = run_cli(["tournament", str(config), "--out", str(tmp_path), "--no-report"])
    assert outcome.code == 0, outcome.err
    assert "4/4 games" in outcome.out and "(0 ended in error)" in outcome.out, outcome.out
    assert f"{__name__}:{bot}".lower() in outcome.out.lower()


def test_a_policy_bot_refuses_a_game_without_an_encoding() -> None:
    import toygame

    toygame.register()
    with pytest.raises(ConfigError, match="does not play"):
        resolve_bot(f"{__name__}:FirstLegal", toygame.NAME)


# ------------------------------------------------------------------------------- the docs


def test_the_docs_random_agent_loop_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    match = re.search(r"## A random agent\n.*?```python\n(.*?)```", text, re.DOTALL)
    assert match, "docs/env.md's random agent loop is missing"
    source = match.group(1)
    assert len([line for line in source.splitlines() if line.strip()]) <= 10
    namespace: dict[str, Any] = {}
    exec(compile(source, "docs/env.md", "exec"), namespace)
    assert namespace["env"].agents == []
