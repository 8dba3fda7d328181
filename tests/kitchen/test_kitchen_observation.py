"""Hidden information: observations hide what they must; bots decide on them alone."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from kitchen_helpers import all_cards

from bots.kitchen_greedy import KitchenGreedyBot
from bots.kitchen_search import KitchenSearchBot, SearchParams
from cgsim.games.bot import Bot
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.observation import Observation, unseen_cards
from cgsim.games.kitchen.state import Phase, State


def midgame(players: int, seed: int, steps: int) -> State:
    rules = GAME.make_rules(players, {})
    state = GAME.new_game(rules, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase == Phase.OVER:
            break
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])
    return state


def shuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same state with the deck and the other hands dealt differently."""
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand] + list(state.deck)
    rng.shuffle(hidden)
    hands: list[tuple[int, ...]] = []
    position = 0
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(hidden[position : position + len(hand)])))
            position += len(hand)
    return replace(state, hands=tuple(hands), deck=tuple(hidden[position:]), seed=state.seed + 1)


def test_observation_holds_only_counts_of_hidden_cards() -> None:
    state = midgame(3, 4, 40)
    seen = GAME.observation(state, 1)
    assert isinstance(seen, Observation)
    assert seen.hand == state.hands[1]
    assert seen.hand_counts == tuple(len(h) for h in state.hands)
    assert seen.deck_count == len(state.deck)
    assert not hasattr(seen, "deck") and not hasattr(seen, "hands") and not hasattr(seen, "seed")
    assert sorted(unseen_cards(seen)) == sorted(
        [c for s, h in enumerate(state.hands) if s != 1 for c in h] + list(state.deck)
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_agrees_with_the_observation(players: int) -> None:
    state = midgame(players, players, 60)
    seat = GAME.current_player(state)
    seen = GAME.observation(state, seat)
    world = GAME.determinize(seen, random.Random(1))
    assert GAME.observation(world, seat) == seen
    assert set(all_cards(world).values()) == {1}
    assert GAME.legal_actions(world) == GAME.legal_actions(state)
    GAME.apply(world, GAME.legal_actions(world)[-1])


@pytest.mark.parametrize(
    "bot", [KitchenGreedyBot(), KitchenSearchBot(SearchParams(worlds=3, depth=2))]
)
def test_decisions_do_not_change_when_hidden_cards_are_shuffled(bot: Bot) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = midgame(2 + seed % 3, seed, 25 + 7 * seed)
        if state.phase == Phase.OVER:
            continue
        seat = GAME.current_player(state)
        other = shuffle_hidden(state, seat, rng)
        assert other != state
        seen, seen_other = GAME.observation(state, seat), GAME.observation(other, seat)
        assert seen == seen_other
        legal = GAME.legal_actions(state)
        assert GAME.legal_actions(other) == legal
        first = bot.choose(seen, legal, random.Random(seed))
        second = bot.choose(seen_other, legal, random.Random(seed))
        assert first == second
        # handed the whole state, a bot reduces it to the deciding seat's observation
        assert bot.choose(other, legal, random.Random(seed)) == first
        checked += 1
    assert checked >= 4


def test_search_decisions_with_knowledge_do_not_change_when_hidden_cards_are_shuffled() -> None:
    import copy

    checked = 0
    for seed in range(4):
        rules = GAME.make_rules(2, {})
        state = GAME.new_game(rules, seed)
        bot = KitchenSearchBot(SearchParams(worlds=3, depth=2))
        bot.new_game(GAME, 1, GAME.observation(state, 1))
        rng = random.Random(seed)
        for _ in range(60 + 11 * seed):
            legal = GAME.legal_actions(state)
            actor = GAME.current_player(state)
            action = legal[rng.randrange(len(legal))]
            state = GAME.apply(state, action)
            bot.observe(GAME.observation(state, 1), actor, action)
            if state.phase == Phase.OVER:
                break
        if state.phase == Phase.OVER or GAME.current_player(state) != 1:
            continue
        known = bot.knowledge_for(GAME.observation(state, 1)).known
        other = shuffle_hidden(state, 1, rng)
        if not set(known[0]) <= set(other.hands[0]):
            hands = (state.hands[0], other.hands[1])
            other = replace(other, hands=hands, deck=state.deck)
        legal = GAME.legal_actions(state)
        first = copy.deepcopy(bot).choose(state, legal, random.Random(seed))
        second = copy.deepcopy(bot).choose(other, legal, random.Random(seed))
        assert first == second
        checked += 1
    assert checked >= 1
