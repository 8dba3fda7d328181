"""Knowledge of other hands: cards seen going in are tracked, and sampled worlds keep them."""

from __future__ import annotations

import random
from dataclasses import replace

from kitchen_helpers import all_cards, position, type_of

from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.knowledge import Knowledge, sample_world
from cgsim.games.kitchen.observation import observe, visible_cards
from cgsim.games.kitchen.rules import apply, legal_actions
from cgsim.games.kitchen.state import Phase


def crow_position() -> tuple[int, int]:
    """(the card id seat 0 takes with the Crow, the action)."""
    state = position(2, hands=[["1 beet"], ["2 beet"]], discard=["2 cabbage", "weed"])
    card = state.discard[0]
    return card, A.encode(A.CROW, type_of(state.rules.catalogue, "2 cabbage"))


def test_a_card_taken_by_crow_is_known_in_the_takers_hand() -> None:
    state = position(2, hands=[["1 beet"], ["2 beet"]], discard=["2 cabbage", "weed"])
    card, action = crow_position()
    after = apply(state, action)
    before_view, after_view = observe(state, 1), observe(after, 1)
    knowledge = Knowledge.empty(before_view).update(before_view, 0, action, after_view)
    assert knowledge.known == ((card,), ())
    assert card in after.hands[0] and card not in visible_cards(after_view)


def test_own_moves_and_hidden_draws_teach_nothing() -> None:
    state = position(2, hands=[["1 beet"], ["2 beet"]], discard=["2 cabbage"])
    harvest = A.encode(A.HARVEST)
    after = apply(state, harvest)
    view, after_view = observe(state, 1), observe(after, 1)
    assert Knowledge.empty(view).update(view, 0, harvest, after_view).known == ((), ())
    _, crow = crow_position()
    mine = Knowledge.empty(observe(state, 0)).update(
        observe(state, 0), 0, crow, observe(apply(state, crow), 0)
    )
    assert mine.known == ((), ())


def test_a_known_card_is_forgotten_once_it_is_in_the_open_again() -> None:
    state = position(2, hands=[["1 beet"], ["2 beet"]], discard=["2 beet"])
    catalogue = state.rules.catalogue
    crow = A.encode(A.CROW, type_of(catalogue, "2 beet"))
    taken = apply(state, crow)
    view = observe(state, 1)
    knowledge = Knowledge.empty(view).update(view, 0, crow, observe(taken, 1))
    assert knowledge.known[0] == (state.discard[0],)
    replayed = replace(taken, active=0, phase=Phase.ACTIONS, actions_left=1)
    plant = A.encode(A.PLANT, type_of(catalogue, "2 beet"))
    planted = apply(replayed, plant)
    forgotten = knowledge.update(observe(replayed, 1), 0, plant, observe(planted, 1))
    assert forgotten.known == ((), ())


def test_market_swap_reveals_the_taken_card() -> None:
    state = position(2, hands=[["weed"], []], market=["1 pumpkin", "2 pumpkin"])
    catalogue = state.rules.catalogue
    action = A.encode(A.MARKET, catalogue.weed, 1)
    after = apply(state, action)
    view = observe(state, 1)
    knowledge = Knowledge.empty(view).update(view, 0, action, observe(after, 1))
    assert knowledge.known[0] == (state.market[1],)


def test_sampled_worlds_agree_with_the_observation_and_keep_known_cards() -> None:
    state = position(2, hands=[["1 beet"], ["2 beet", "weed"]], discard=["2 cabbage", "weed"])
    card, action = crow_position()
    after = apply(state, action)
    view = observe(after, 1)
    knowledge = Knowledge.empty(observe(state, 1)).update(observe(state, 1), 0, action, view)
    for seed in range(20):
        world = sample_world(view, knowledge, random.Random(seed))
        assert card in world.hands[0]
        assert observe(world, 1) == view
        assert set(all_cards(world).values()) == {1}
        assert legal_actions(world) == legal_actions(after)


def test_knowledge_that_no_longer_fits_is_dropped() -> None:
    state = position(2, hands=[["1 beet"], ["2 beet"]], discard=["2 cabbage"])
    view = observe(state, 1)
    stale = Knowledge(1, ((state.hands[1][0], state.discard[0]), ()))
    assert stale.consistent(view).known == ((), ())
    too_many = Knowledge(1, (tuple(state.deck[:3]), ()))
    assert too_many.consistent(view).known == ((state.deck[0],), ())


def test_knowledge_in_whole_games_is_always_true() -> None:
    for seed in range(3):
        state = GAME.new_game(GAME.make_rules(2 + seed, {"turn_cap": 150}), seed)
        rng = random.Random(seed)
        views = [observe(state, s) for s in range(state.players)]
        knowledge = [Knowledge.empty(v) for v in views]
        while state.phase != Phase.OVER:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            actor = state.decider
            after = apply(state, action)
            for s in range(state.players):
                after_view = observe(after, s)
                knowledge[s] = knowledge[s].update(views[s], actor, action, after_view)
                views[s] = after_view
                for other, cards in enumerate(knowledge[s].known):
                    assert set(cards) <= set(after.hands[other])
            state = after
