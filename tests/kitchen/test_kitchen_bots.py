"""The Kitchen Garden bots play whole games legally, deterministically, with checked params."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from kitchen_helpers import position, type_of
from pydantic import ValidationError

from bots.kitchen_greedy import GreedyParams, KitchenGreedyBot, Scorer, greedy_choice
from bots.kitchen_odds import FLOOR, count_hidden_cards, format_odds, hand_odds
from bots.kitchen_policy import QuickRandom, rollout
from bots.kitchen_search import KitchenSearchBot, SearchParams
from bots.kitchen_worlds import (
    CARD_CLASSES,
    HAND_ODDS,
    MODELLED_MOVES,
    Dealer,
    card_class,
    clears,
    hopeful,
    lead_stats,
    preferred,
    weighted_index,
)
from cgsim.errors import ConfigError
from cgsim.games.bot import Bot
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.game import GAME
from cgsim.games.kitchen.knowledge import Knowledge
from cgsim.games.kitchen.rules import can_plant
from cgsim.games.kitchen.state import Phase, State
from cgsim.play.bot_registry import resolve_bot
from cgsim.reporting.stats import wilson_interval
from cgsim.studies.strength import play


def play_game(bots: list[Bot], seed: int, cap: int = 400) -> tuple[State, list[int]]:
    rules = GAME.make_rules(len(bots), {"turn_cap": cap})
    state = GAME.new_game(rules, seed)
    rngs = [random.Random(seed * 7 + s) for s in range(len(bots))]
    chosen = []
    while not GAME.is_terminal(state):
        seat = GAME.current_player(state)
        legal = GAME.legal_actions(state)
        action = bots[seat].choose(GAME.observation(state, seat), legal, rngs[seat])
        assert action in legal
        chosen.append(action)
        state = GAME.apply(state, action)
    return state, chosen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_search_play_full_games(players: int) -> None:
    bots: list[Bot] = [KitchenGreedyBot() for _ in range(players)]
    bots[-1] = KitchenSearchBot(SearchParams(worlds=2, depth=1, candidates=2))
    state, _ = play_game(bots, players, cap=120)
    assert GAME.is_terminal(state)


def test_greedy_weights_are_its_params() -> None:
    params = GreedyParams(plant=90.0, steal=1.5)
    weights = params.weights()
    assert {name: getattr(weights, name) for name in GreedyParams.model_fields} == dict(params)
    assert pickle.loads(pickle.dumps(weights)) == weights


def test_greedy_is_deterministic_and_wins_against_itself_sometimes() -> None:
    first = play_game([KitchenGreedyBot(), KitchenGreedyBot()], 3)
    second = play_game([KitchenGreedyBot(), KitchenGreedyBot()], 3)
    assert first[1] == second[1]
    assert first[0].winner in (0, 1)


def test_params_are_validated() -> None:
    with pytest.raises(ValidationError):
        GreedyParams(unknown=1)  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        SearchParams(worlds=0)
    for spec in ("kitchen-search:accept=-1", "kitchen-search:slack=-0.5"):
        with pytest.raises(ConfigError, match=spec.split(":")[1].split("=")[0]):
            resolve_bot(spec, "kitchen-garden")
    assert KitchenSearchBot.games == ("kitchen-garden",)


def test_strength_helpers() -> None:
    interval = wilson_interval(60, 100)
    assert 0.49 < interval.low < 0.6 < interval.high < 0.7
    outcome = play(GAME, [KitchenGreedyBot(), KitchenGreedyBot()], 4, 4)
    assert tuple(seat.win for seat in outcome) in ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0))


def test_search_is_deterministic_given_the_rng() -> None:
    params = SearchParams(worlds=3, depth=2, candidates=3)
    first = play_game([KitchenGreedyBot(), KitchenSearchBot(params)], 5, cap=60)
    second = play_game([KitchenGreedyBot(), KitchenSearchBot(params)], 5, cap=60)
    assert first[1] == second[1]


def test_preferred_keeps_greedys_pick_unless_an_alternative_is_clearly_better() -> None:
    greedy = [0.5, 0.6, 0.4, 0.5]
    assert preferred([greedy, [0.5, 0.6, 0.4, 0.5]], 0.0, 0.0) == 0
    assert preferred([greedy, [0.51, 0.61, 0.41, 0.51]], 0.02, 0.0) == 0
    assert preferred([greedy, [0.6, 0.7, 0.5, 0.6]], 0.02, 1.0) == 1
    noisy = [0.9, 0.3, 0.8, 0.2]
    assert preferred([greedy, noisy], 0.02, 1.0) == 0
    assert preferred([greedy, [0.6, 0.7, 0.5, 0.6], [0.7, 0.8, 0.6, 0.7]], 0.02, 1.0) == 2
    assert preferred([[0.5], [0.9]], 0.02, 1.0) == 1


def test_search_plays_like_greedy_when_no_alternative_can_clear_the_margin() -> None:
    timid = KitchenSearchBot(SearchParams(worlds=2, depth=1, margin=1.0))
    greedy = KitchenGreedyBot()
    rules = GAME.make_rules(2, {"turn_cap": 40})
    state = GAME.new_game(rules, 8)
    decisions = 0
    while not GAME.is_terminal(state):
        view = GAME.observation(state, GAME.current_player(state))
        legal = GAME.legal_actions(state)
        action = greedy.choose(view, legal, random.Random(decisions))
        assert timid.choose(view, legal, random.Random(decisions)) == action
        state = GAME.apply(state, action)
        decisions += 1
    assert decisions > 20


def test_strength_play_feeds_observations_to_watching_bots() -> None:
    seen: list[int] = []

    class Watcher(KitchenGreedyBot):
        def observe(self, state: object, seat: int, action: int) -> None:
            seen.append(action)

    play(GAME, [Watcher(), KitchenGreedyBot()], 2, 2)
    assert seen


def test_hopeful_drops_alternatives_that_cannot_reach_the_margin() -> None:
    base = [0.5, 0.6, 0.4, 0.5]
    assert lead_stats([0.6, 0.7, 0.5, 0.6], base) == pytest.approx((0.1, 0.0))
    assert not hopeful([0.4, 0.5, 0.3, 0.4], base, 0.02, 2.0)
    assert hopeful([0.9, 0.3, 0.8, 0.2], base, 0.02, 2.0)
    assert not hopeful([0.9, 0.3, 0.8, 0.2], base, 0.5, 0.0)


def test_clears_once_the_lead_less_its_errors_exceeds_the_margin() -> None:
    base = [0.5, 0.6, 0.4, 0.5]
    assert clears([0.6, 0.7, 0.5, 0.6], base, 0.02, 2.0)
    assert not clears([0.6, 0.7, 0.5, 0.6], base, 0.2, 2.0)
    assert clears([0.9, 0.3, 0.8, 0.6], base, 0.02, 0.0)
    assert not clears([0.9, 0.3, 0.8, 0.6], base, 0.02, 2.0)


def test_stopping_rules_only_ever_save_rollouts() -> None:
    """``slack`` drops alternatives sooner and ``accept`` stops sampling sooner: on the
    same decisions and generators, never more rollouts than without them, and fewer on
    some; the worlds drawn do not depend on which alternatives are left."""
    full = KitchenSearchBot(SearchParams(worlds=48, batch=8, slack=0.0, accept=0.0))
    quick = KitchenSearchBot(SearchParams(worlds=48, batch=8, slack=0.02, accept=2.0))
    rules = GAME.make_rules(2, {"turn_cap": 30})
    state = GAME.new_game(rules, 5)
    spent: list[tuple[int, int]] = []
    while not GAME.is_terminal(state) and len(spent) < 12:
        view = GAME.observation(state, GAME.current_player(state))
        legal = GAME.legal_actions(state)
        action = full.choose(view, legal, random.Random(len(spent)))
        if full.rollouts:
            quick.choose(view, legal, random.Random(len(spent)))
            spent.append((quick.rollouts, full.rollouts))
            full.rollouts = quick.rollouts = 0
        state = GAME.apply(state, action)
    assert len(spent) >= 8
    assert all(fewer <= more for fewer, more in spent)
    assert sum(fewer for fewer, _ in spent) < sum(more for _, more in spent)


def test_search_with_pruning_spends_fewer_rollouts_on_clear_decisions() -> None:
    state = GAME.new_game(GAME.make_rules(2, {}), 12)
    legal = GAME.legal_actions(state)
    params = SearchParams(worlds=16, batch=4, candidates=3, prune=0.0, margin=0.5)
    bot = KitchenSearchBot(params)
    bot.choose(GAME.observation(state, 0), legal, random.Random(1))
    assert len(legal) >= 3
    assert bot.rollouts == 4 * 3


def test_dealt_worlds_keep_the_observation_and_known_cards() -> None:
    state = GAME.new_game(GAME.make_rules(3, {}), 21)
    for _ in range(30):
        state = GAME.apply(state, GAME.legal_actions(state)[0])
    view = GAME.observation(state, 0)
    hidden = sorted(c for s in (1, 2) for c in state.hands[s])
    known = Knowledge(0, ((), (hidden[0],), ()))
    if hidden[0] not in state.hands[1]:
        known = Knowledge(0, ((), (), (hidden[0],)))
    holder = 1 if known.known[1] else 2
    weights = KitchenSearchBot.weights
    for moves in ([-1, A.HARVEST, A.MARKET], [-1, -1, -1]):
        dealer = Dealer(view, known.known, moves, 1.0, weights)
        rng = random.Random(4)
        for _ in range(20):
            world = dealer.deal(rng)
            assert GAME.observation(world, 0) == view
            assert sorted([*world.deck, *(c for h in world.hands for c in h)]) == sorted(
                [*state.deck, *(c for h in state.hands for c in h)]
            )
            assert hidden[0] in world.hands[holder]
    assert Dealer(view, known.known, [-1, A.HARVEST, A.MARKET], 1.0, weights).odds[1]
    assert not any(Dealer(view, known.known, [-1, A.HARVEST, A.MARKET], 0.0, weights).odds)
    assert not any(Dealer(view, known.known, [-1, -1, -1], 1.0, weights).odds)


def test_a_playout_on_a_working_copy_plays_the_game_of_frozen_states() -> None:
    """``rollout`` performs and settles one working copy instead of applying to a frozen
    state each action: the same actions, the same final state."""
    weights = KitchenSearchBot.weights
    for players in (2, 3, 4):
        for seed in range(4):
            state = GAME.new_game(GAME.make_rules(players, {"turn_cap": 60}), seed)
            for step in range(seed * 9):
                if GAME.is_terminal(state):
                    break
                legal = GAME.legal_actions(state)
                state = GAME.apply(state, legal[step % len(legal)])
            for epsilon in (0.0, 0.3):
                ties, again = QuickRandom(seed + 11), QuickRandom(seed + 11)
                played = rollout(state, state.turn + 12, epsilon, weights, ties)
                frozen = state
                while frozen.turn < state.turn + 12 and not GAME.is_terminal(frozen):
                    legal = GAME.legal_actions(frozen)
                    if epsilon and again.random() < epsilon:
                        action = legal[again.randrange(len(legal))]
                    else:
                        action = greedy_choice(frozen, frozen.decider, legal, weights, again)
                    frozen = GAME.apply(frozen, action)
                assert played == frozen


def test_card_class_sorts_cards_by_their_use_to_the_holder() -> None:
    state = GAME.new_game(GAME.make_rules(2, {}), 3)
    scorer = Scorer(state, 1, GreedyParams().weights())
    catalogue = state.rules.catalogue
    task = catalogue.tasks[state.tasks[1]]
    assert card_class(scorer, catalogue.worker) == CARD_CLASSES.index("worker")
    assert card_class(scorer, catalogue.weed) == CARD_CLASSES.index("weed")
    assert card_class(scorer, catalogue.sluggard) == CARD_CLASSES.index("sluggard")
    seen = set()
    for type_id, crop in enumerate(catalogue.type_crop):
        if crop < 0:
            continue
        plants = catalogue.type_plants[type_id]
        now = can_plant(catalogue, (), task.targets[crop], task.slots[crop], plants)
        expected = "plant-now" if now else "plant-dead"
        assert CARD_CLASSES[card_class(scorer, type_id)] == expected
        seen.add(expected)
    assert seen == {"plant-now", "plant-dead"}


@pytest.mark.parametrize(
    ("crop", "bed"),
    [
        ("beet", ["weed"]),
        ("beet", ["weed", "weed"]),
        ("beet", ["2 beet", "weed"]),
        ("pumpkin", ["weed"]),
        ("pumpkin", ["weed", "3 pumpkin"]),
        ("pumpkin", ["1 pumpkin", "weed", "weed"]),
    ],
)
def test_card_class_follows_the_planting_rule_beside_weeds(crop: str, bed: list[str]) -> None:
    """A card is plant-now exactly when the rules let it be planted, plant-later when a
    Weed weeded out would let it, else dead: a Weed's slot is a slot still to plant."""
    state = position(beds={(0, crop): bed})
    scorer = Scorer(state, 0, GreedyParams().weights())
    catalogue = state.rules.catalogue
    task = catalogue.tasks[state.tasks[0]]
    index = catalogue.crops.index(crop)
    cards = state.beds[0][index]
    pulled = cards[1:] if catalogue.card_types[cards[0]] == catalogue.weed else cards[:-1]
    for plants in (1, 2, 3):
        type_id = type_of(catalogue, f"{plants} {crop}")
        target, slots = task.targets[index], task.slots[index]
        expected = (
            "plant-now"
            if can_plant(catalogue, cards, target, slots, plants)
            else "plant-later"
            if can_plant(catalogue, pulled, target, slots, plants)
            else "plant-dead"
        )
        assert CARD_CLASSES[card_class(scorer, type_id)] == expected, plants


def test_the_specifications_example_classes() -> None:
    """Spade's beet bed, 3 plants in 2 slots, holding a Weed: a 1 or a 2 can be planted,
    a 3 never (it was the only card the earlier reading let in)."""
    state = position(beds={(0, "beet"): ["weed"]})
    scorer = Scorer(state, 0, GreedyParams().weights())
    catalogue = state.rules.catalogue
    classes = [CARD_CLASSES[card_class(scorer, type_of(catalogue, f"{p} beet"))] for p in (1, 2, 3)]
    assert classes == ["plant-now", "plant-now", "plant-dead"]


def test_search_remembers_each_opponents_last_action_phase_move() -> None:
    bot = KitchenSearchBot(SearchParams(worlds=1, depth=0))
    greedy = KitchenGreedyBot()
    state = GAME.new_game(GAME.make_rules(2, {"turn_cap": 30}), 6)
    bot.new_game(GAME, 1, GAME.observation(state, 1))
    assert bot.last_moves == (-1, -1)
    checked = 0
    while not GAME.is_terminal(state):
        seat = GAME.current_player(state)
        legal = GAME.legal_actions(state)
        action = greedy.choose(GAME.observation(state, seat), legal, random.Random(checked))
        phase = state.phase
        state = GAME.apply(state, action)
        bot.observe(GAME.observation(state, 1), seat, action)
        if seat == 0 and phase == Phase.ACTIONS:
            assert bot.last_moves[0] == A.kind_of(action)
            checked += 1
    assert bot.last_moves[1] == -1
    assert checked > 5


def _class_share(moves: list[int], trials: int, wanted: str) -> float:
    """Share of seat 1's dealt hand cards of class ``wanted`` for it, after ``moves``."""
    state = GAME.new_game(GAME.make_rules(2, {}), 14)
    view = GAME.observation(state, 0)
    known = Knowledge.empty(view)
    weights = GreedyParams().weights()
    scorer = Scorer(state, 1, weights)
    card_types = state.rules.catalogue.card_types
    dealer = Dealer(view, known.known, moves, 1.0, weights)
    rng = random.Random(5)
    hits = total = 0
    for _ in range(trials):
        world = dealer.deal(rng)
        for card in world.hands[1]:
            hits += CARD_CLASSES[card_class(scorer, card_types[card])] == wanted
            total += 1
    return hits / total


def test_hand_model_deals_opponents_what_their_last_move_suggests() -> None:
    plantable = [_class_share(moves, 300, "plant-now") for moves in ([-1, -1], [-1, A.HARVEST])]
    assert plantable[1] < 0.7 * plantable[0]
    workers = [_class_share(moves, 300, "worker") for moves in ([-1, -1], [-1, A.MARKET])]
    assert workers[1] > 1.5 * workers[0]


def test_hand_odds_are_measured_from_self_play() -> None:
    odds = hand_odds(count_hidden_cards(12, 50))
    assert set(odds) <= set(MODELLED_MOVES)
    assert A.HARVEST in odds and A.MARKET in odds
    assert all(len(row) == len(CARD_CLASSES) and min(row) >= FLOOR for row in odds.values())
    plant_now = CARD_CLASSES.index("plant-now")
    assert odds[A.HARVEST][plant_now] < 1.0 < odds[A.MARKET][plant_now]
    table = format_odds(odds)
    namespace: dict[str, Any] = {"A": A}
    exec(table.replace("HAND_ODDS: dict[int, tuple[float, ...]]", "HAND_ODDS"), namespace)
    assert set(namespace["HAND_ODDS"]) == set(odds)
    assert set(HAND_ODDS) == set(MODELLED_MOVES)


def test_hand_odds_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from bots.kitchen_odds import main

    main(["--games", "3", "--seed", "7"])
    printed = capsys.readouterr().out
    assert printed.startswith("HAND_ODDS: dict[int, tuple[float, ...]] = {")
    assert "    A.HARVEST: (" in printed


def test_the_searchs_quick_generator_is_seeded_uniform_and_shuffles() -> None:
    first, again, other = QuickRandom(2**40 + 7), QuickRandom(2**40 + 7), QuickRandom(8)
    draws = [first.randrange(6) for _ in range(6000)]
    assert draws == [again.randrange(6) for _ in range(6000)]
    assert draws != [other.randrange(6) for _ in range(6000)]
    assert all(900 < draws.count(face) < 1100 for face in range(6))
    assert all(0.0 <= first.random() < 1.0 for _ in range(1000))
    zero = QuickRandom(0)
    assert len({zero.randrange(1000) for _ in range(100)}) > 90
    cards = list(range(40))
    first.shuffle(cards)
    assert sorted(cards) == list(range(40)) and cards != list(range(40))


def test_worlds_draw_cards_in_proportion_to_their_weights() -> None:
    quick = QuickRandom(5)
    draws = [weighted_index(quick, [1.0, 0.0, 3.0]) for _ in range(4000)]
    assert draws.count(1) == 0
    assert 900 < draws.count(0) < 1100 and 2900 < draws.count(2) < 3100
    # No weight at all (a point at the total, never below it): the last index.
    assert weighted_index(quick, [0.0, 0.0]) == 1
