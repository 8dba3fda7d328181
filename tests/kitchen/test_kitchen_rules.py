"""Per-rule tests of the Kitchen Garden engine from hand-made states (seat 0: spade, seat 1: rake)."""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from typing import Any

import pytest
from kitchen_helpers import Cards, act, act_logged, all_cards, names, position, type_of

from cgsim.errors import IllegalActionError
from cgsim.games.kitchen import actions as A
from cgsim.games.kitchen.cards import BAZAAR, CROW, HOLIDAY
from cgsim.games.kitchen.rules import apply, can_plant, legal_actions, new_game
from cgsim.games.kitchen.settings import make_rules
from cgsim.games.kitchen.state import MIDDLE, NONE, USED, Phase, State


def t(state: State, name: str) -> int:
    return type_of(state.rules.catalogue, name)


def plant(state: State, name: str) -> State:
    return act(state, A.PLANT, t(state, name))


# -- setup ---------------------------------------------------------------------------


def test_setup_deals_four_each_six_market_and_distinct_tasks() -> None:
    state = new_game(make_rules(4, {}), 5)
    assert [len(hand) for hand in state.hands] == [4, 4, 4, 4]
    assert len(state.market) == 6
    assert len(set(state.tasks)) == 4
    assert len(state.deck) == 72 - 16 - 6
    assert state.specials == ((0, 1, 2, 3),) * 3
    assert new_game(make_rules(2, {}), 5).specials == ((MIDDLE,),) * 3
    assert state.active == 0 and state.turn == 1


def test_same_seed_same_deal_other_seed_other_deal() -> None:
    rules = make_rules(3, {})
    assert new_game(rules, 9) == new_game(rules, 9)
    assert new_game(rules, 9).deck != new_game(rules, 10).deck


# -- planting and beds [R] ------------------------------------------------------------


def test_planting_rule_keeps_the_bed_completable() -> None:
    # spade pumpkin bed: 7 plants in 3 slots.
    state = position(hands=[["1 pumpkin", "3 pumpkin"], []], beds={(0, "pumpkin"): ["1 pumpkin"]})
    legal = legal_actions(state)
    # 1+1 leaves 5 for one slot: impossible; 1+3 leaves 3 for one slot: fine.
    assert A.encode(A.PLANT, t(state, "1 pumpkin")) not in legal
    assert A.encode(A.PLANT, t(state, "3 pumpkin")) in legal
    with pytest.raises(IllegalActionError, match="plant 1 pumpkin is not legal"):
        plant(state, "1 pumpkin")


def test_plant_never_exceeds_target_nor_slots() -> None:
    # spade beet: 3 plants in 2 slots; a 3 would leave 0 for one slot.
    state = position(hands=[["3 beet", "2 beet"], []])
    legal = legal_actions(state)
    assert A.encode(A.PLANT, t(state, "3 beet")) not in legal
    assert A.encode(A.PLANT, t(state, "2 beet")) in legal


def test_plant_only_in_its_own_crop_bed_and_weed_fills_a_slot() -> None:
    state = position(
        hands=[["2 strawberry"], []], beds={(0, "strawberry"): ["3 strawberry", "weed"]}
    )
    assert A.encode(A.PLANT, t(state, "2 strawberry")) not in legal_actions(state)


def test_a_weeds_slot_is_a_slot_still_to_plant() -> None:
    # The specification's example: a 2-slot bed of target 3 holding a Weed (spade beet)
    # takes a 1 or a 2 (S = 1 afterwards, 2 or 1 still needed), never a 3.
    state = position(hands=[["1 beet", "2 beet", "3 beet"], []], beds={(0, "beet"): ["weed"]})
    legal = legal_actions(state)
    assert A.encode(A.PLANT, t(state, "1 beet")) in legal
    assert A.encode(A.PLANT, t(state, "2 beet")) in legal
    assert A.encode(A.PLANT, t(state, "3 beet")) not in legal
    with pytest.raises(IllegalActionError, match="plant 3 beet is not legal"):
        plant(state, "3 beet")
    # after a 2, weeding the Weed out leaves a slot the 1 completes
    state = position(
        hands=[["1 beet", "worker"], []], beds={(0, "beet"): ["weed", "2 beet"]}, actions_left=2
    )
    beet = state.rules.catalogue.crops.index("beet")
    after, log = act_logged(act(state, A.WEEDING, beet, 0), A.PLANT, t(state, "1 beet"))
    assert names(after, after.beds[0][beet]) == ["1 beet", "2 beet"]
    assert [e["e"] for e in log][:2] == ["plant", "prize"]


def test_planting_rule_is_a_completion_search() -> None:
    """``can_plant`` against a brute force over every small bed: a free slot, and after
    the card some values of plant cards for the slots holding no plant card (a Weed's
    slot included) make the plants add up to the target exactly."""
    catalogue = position().rules.catalogue
    cards = Cards(catalogue)
    by_value = {0: cards.take("weed")[0]} | {v: cards.take(f"{v} beet")[0] for v in (1, 2, 3)}
    values = range(catalogue.min_plants, catalogue.max_plants + 1)
    for slots in (1, 2, 3):
        for length in range(slots + 1):
            for bed_values in product(by_value, repeat=length):
                bed = tuple(by_value[v] for v in bed_values)
                unplanted = slots - sum(v > 0 for v in bed_values) - 1
                for target in range(1, 3 * slots + 2):
                    for card in values:
                        planted = sum(bed_values) + card
                        completable = any(
                            planted + sum(rest) == target
                            for rest in product(values, repeat=max(unplanted, 0))
                        )
                        expected = length < slots and completable
                        assert can_plant(catalogue, bed, target, slots, card) == expected, (
                            bed_values,
                            target,
                            slots,
                            card,
                        )


def test_completing_a_bed_draws_a_prize_card() -> None:
    state = position(
        hands=[["2 strawberry"], []],
        beds={(0, "strawberry"): ["3 strawberry"]},
        deck_top=["worker"],
    )
    after, log = act_logged(state, A.PLANT, t(state, "2 strawberry"))
    assert [e["e"] for e in log][:2] == ["plant", "prize"]
    assert names(after, after.hands[0]) == ["Worker"]


def test_immediate_win_when_all_four_beds_are_fully_planted() -> None:
    state = position(
        hands=[["2 strawberry", "worker"], []],
        beds={
            (0, "strawberry"): ["3 strawberry"],
            (0, "cabbage"): ["2 cabbage", "2 cabbage"],
            (0, "beet"): ["1 beet", "2 beet"],
            (0, "pumpkin"): ["3 pumpkin", "3 pumpkin", "1 pumpkin"],
        },
        actions_left=2,
    )
    after, log = act_logged(state, A.PLANT, t(state, "2 strawberry"))
    assert after.phase == Phase.OVER and after.winner == 0 and not after.aborted
    assert log[-1] == {"e": "win", "seat": 0}
    # [R] the last bed's prize card is not drawn
    assert all(e["e"] != "prize" for e in log)
    assert after.deck == state.deck and names(after, after.hands[0]) == ["Worker"]
    assert legal_actions(after) == []


# -- weeds and weeding --------------------------------------------------------------------


def test_weed_goes_on_an_opponent_bed_with_a_free_slot_only() -> None:
    state = position(
        hands=[["weed"], []],
        beds={(1, "beet"): ["2 beet", "2 beet"], (0, "beet"): ["1 beet"]},
    )
    legal = legal_actions(state)
    crops = state.rules.catalogue.crops
    weeds = [a for a in legal if A.kind_of(a) == A.WEED]
    assert {A.decode(a)[1:3] for a in weeds} == {
        (1, crops.index(c)) for c in ("strawberry", "cabbage", "pumpkin")
    }
    after = act(state, A.WEED, 1, crops.index("pumpkin"))
    assert names(after, after.beds[1][crops.index("pumpkin")]) == ["Weed"]


def test_weeding_discards_the_worker_and_the_removed_card() -> None:
    state = position(hands=[["worker"], []], beds={(0, "beet"): ["2 beet", "weed"]})
    beet = state.rules.catalogue.crops.index("beet")
    after = act(state, A.WEEDING, beet, 1)
    assert names(after, after.beds[0][beet]) == ["2 beet"]
    assert names(after, after.discard) == ["Weed", "Worker"]
    # a plant card may be removed too
    assert A.encode(A.WEEDING, beet, 0) in legal_actions(state)


# -- market, bazaar, holiday, crow, stealing ---------------------------------------------


def test_market_swaps_one_hand_card_with_one_market_card() -> None:
    state = position(hands=[["weed"], []], market=["2 beet", "weed", "1 beet"])
    after = act(state, A.MARKET, t(state, "weed"), 0)
    assert names(after, after.hands[0]) == ["2 beet"]
    assert names(after, after.market) == ["1 beet", "Weed", "Weed"]
    # swapping identical cards is not offered
    assert A.encode(A.MARKET, t(state, "weed"), 1) not in legal_actions(state)
    # identical cards: the first market slot holding a type, the lowest id from a hand
    twins = position(hands=[["weed", "weed"], []], market=["1 beet", "2 beet", "1 beet"])
    assert A.encode(A.MARKET, t(state, "weed"), 2) not in legal_actions(twins)
    swapped = act(twins, A.MARKET, t(state, "weed"), 0)
    assert swapped.market[0] == twins.hands[0][0] and swapped.hands[0][1] == twins.hands[0][1]


def test_bazaar_replaces_the_market_then_allows_two_swaps() -> None:
    market = ["1 beet"] * 5 + ["2 beet"]
    top = ["3 pumpkin", "2 pumpkin", "1 pumpkin", "3 cabbage", "2 cabbage", "1 cabbage"]
    state = position(hands=[["weed", "worker", "sluggard"], []], market=market, deck_top=top)
    after, log = act_logged(state, A.BAZAAR)
    assert log[0] == {"e": "bazaar", "discarded": list(state.market)}
    assert names(after, after.market) == sorted(
        ["3 pumpkin", "2 pumpkin", "1 pumpkin", "3 cabbage", "2 cabbage", "1 cabbage"]
    )
    assert sorted(after.discard) == sorted(state.discard + state.market)
    assert after.phase == Phase.BAZAAR_SWAPS and after.specials[BAZAAR] == (1,)
    after = act(after, A.BAZAAR_SWAP, t(state, "weed"), 0)
    after = act(after, A.BAZAAR_SWAP, t(state, "worker"), 1)
    assert after.phase == Phase.CLEANING or after.active == 1
    assert names(after, after.hands[0]) == ["2 pumpkin", "3 pumpkin", "Sluggard"]


def test_bazaar_swaps_may_stop_early() -> None:
    state = position(hands=[["weed"], []], market=["1 beet"] * 5 + ["1 cabbage"])
    after = act(state, A.BAZAAR)
    assert A.encode(A.BAZAAR_DONE) in legal_actions(after)
    done = act(after, A.BAZAAR_DONE)
    assert done.active == 1 and names(done, done.hands[0]) == ["Weed"]


def test_holiday_discards_in_order_from_the_player_then_draws_in_order() -> None:
    state = position(
        players=3,
        hands=[["1 beet", "2 beet", "3 beet", "weed"], ["worker", "1 pumpkin"], ["1 cabbage"] * 4],
        deck_top=["1 strawberry"] * 5 + ["2 strawberry"] * 4,
    )
    after, log = act_logged(state, A.HOLIDAY)
    assert log == [{"e": "holiday"}]
    assert after.phase == Phase.HOLIDAY_DISCARDS and after.sub_seat == 0 and after.sub == 3
    for name in ("1 beet", "2 beet", "weed"):
        after = act(after, A.HOLIDAY_DISCARD, t(state, name))
    # seat 1 has 2 cards: both go without a choice; seat 2 chooses next
    assert after.sub_seat == 2 and after.hands[1] == ()
    after = act(after, A.HOLIDAY_DISCARD, t(state, "1 cabbage"))
    after = act(after, A.HOLIDAY_DISCARD, t(state, "1 cabbage"))
    after, log3 = act_logged(after, A.HOLIDAY_DISCARD, t(state, "1 cabbage"))
    draws = [e for e in log3 if e["e"] == "draw"]
    assert [e["seat"] for e in draws] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert names(after, after.hands[0]) == ["1 strawberry"] * 3 + ["3 beet"]
    assert names(after, after.hands[2]) == ["1 cabbage"] + ["2 strawberry"] * 3


def test_crow_takes_any_card_of_the_discard_pile() -> None:
    state = position(hands=[[], []], discard=["2 beet", "weed"])
    legal = legal_actions(state)
    assert A.encode(A.CROW, t(state, "2 beet")) in legal
    after = act(state, A.CROW, t(state, "2 beet"))
    assert names(after, after.hands[0]) == ["2 beet"] and names(after, after.discard) == ["Weed"]
    assert after.specials[CROW] == (1,)
    # of identical cards, the most recently discarded one is taken
    twins = position(hands=[[], []], discard=["2 beet", "weed", "2 beet"])
    taken = act(twins, A.CROW, t(state, "2 beet"))
    assert taken.hands[0] == (twins.discard[2],) and taken.discard == twins.discard[:2]


def test_stealing_needs_crow_and_sluggard_and_takes_from_an_opponent_bed() -> None:
    state = position(hands=[["sluggard"], []], beds={(1, "cabbage"): ["3 cabbage", "2 cabbage"]})
    cabbage = state.rules.catalogue.crops.index("cabbage")
    after = act(state, A.STEAL, 1, cabbage, 0)
    assert names(after, after.hands[0]) == ["3 cabbage"]
    assert names(after, after.beds[1][cabbage]) == ["2 cabbage"]
    assert names(after, after.discard) == ["Sluggard"]
    no_sluggard = position(hands=[["weed"], []], beds={(1, "cabbage"): ["3 cabbage"]})
    assert not any(A.kind_of(a) == A.STEAL for a in legal_actions(no_sluggard))


# -- conditions phase ------------------------------------------------------------------------


def conditions(**kwargs: Any) -> State:
    return position(phase=Phase.CONDITIONS, **kwargs)


def test_worker_and_special_discards_give_extra_actions_once_each() -> None:
    state = conditions(hands=[["worker", "worker"], []])
    after = act(state, A.COND_WORKER)
    assert after.actions_left == 2
    assert A.encode(A.COND_WORKER) not in legal_actions(after)
    assert A.encode(A.END_CONDITIONS) in legal_actions(after)
    after = act(after, A.COND_SPECIAL, HOLIDAY)
    # nothing is left to choose: the conditions phase ends without a decision
    assert after.phase == Phase.ACTIONS and after.actions_left == 3
    assert after.specials[HOLIDAY] == (1,)


def test_extra_action_settings_are_used() -> None:
    state = position(
        phase=Phase.CONDITIONS,
        hands=[["worker"], []],
        overrides={"worker_actions": 2, "base_actions": 2},
    )
    assert act(state, A.COND_WORKER).actions_left == 3


def test_sluggard_target_may_cancel_with_a_worker() -> None:
    state = conditions(hands=[["sluggard"], ["worker", "1 beet"]])
    after = act(state, A.COND_SLUGGARD, 1)
    assert after.phase == Phase.SLUGGARD_RESPONSE and after.decider == 1
    cancelled, log = act_logged(after, A.CANCEL_SLUGGARD)
    assert log[0]["e"] == "sluggard_cancel"
    assert cancelled.sluggards == (NONE, NONE)
    assert names(cancelled, cancelled.discard) == ["Sluggard", "Worker"]
    assert cancelled.decider == 0


def test_accepted_sluggard_skips_the_next_turn_and_is_then_discarded() -> None:
    state = conditions(hands=[["sluggard"], ["1 beet"]])
    after = act(state, A.COND_SLUGGARD, 1)  # no Worker: accepted at once
    assert after.sluggards[1] != NONE
    after = act(after, A.END_CONDITIONS)
    after, log = act_logged(after, A.HARVEST)
    kinds = [e["e"] for e in log]
    assert kinds[1:4] == ["turn", "skip", "turn"]
    assert log[2]["seat"] == 1
    assert after.active == 0 and after.turn == 3
    assert after.sluggards == (NONE, NONE)
    assert "Sluggard" in names(after, after.discard)


def test_no_second_sluggard_on_a_seat_that_has_one() -> None:
    state = conditions(players=3, hands=[["sluggard"], [], []])
    state = replace(state, sluggards=(NONE, 5, NONE))
    targets = [A.decode(a)[1] for a in legal_actions(state) if A.kind_of(a) == A.COND_SLUGGARD]
    assert targets == [2]


def test_conditions_phase_without_options_is_skipped() -> None:
    state = conditions(hands=[["1 beet"], []])
    state = replace(state, specials=((1,), (1,), (1,)))
    after = act(replace(state, phase=Phase.ACTIONS), A.HARVEST)
    assert after.active == 1 and after.phase == Phase.CONDITIONS  # seat 1 holds the specials
    skipped = act(after, A.END_CONDITIONS)
    assert skipped.phase == Phase.ACTIONS


# -- cleaning the shack -----------------------------------------------------------------------


def test_cleaning_discards_down_to_the_hand_limit_one_card_at_a_time() -> None:
    state = position(hands=[["1 beet", "2 beet", "3 beet", "weed"], []], deck_top=["worker"])
    after = act(state, A.HARVEST)
    assert after.phase == Phase.CLEANING and len(after.hands[0]) == 5
    assert legal_actions(after) == sorted(
        A.encode(A.CLEAN_DISCARD, t(state, n))
        for n in ("1 beet", "2 beet", "3 beet", "weed", "worker")
    )
    after = act(after, A.CLEAN_DISCARD, t(state, "weed"))
    assert after.active == 1 and len(after.hands[0]) == 4


# -- special cards coming back ----------------------------------------------------------------


def test_specials_return_to_owners_when_every_copy_is_used() -> None:
    state = position(players=3, hands=[[], [], []], discard=["weed"])
    state = replace(state, specials=((USED, 1, USED), (0, 1, 2), (0, 1, 2)))
    after = act(replace(state, active=1), A.CROW, t(state, "weed"))
    assert after.specials[CROW] == (0, 1, 2)


def test_specials_in_three_players_are_own_copies_only() -> None:
    state = position(players=3, hands=[[], [], []])
    state = replace(state, specials=((USED, 1, 2), (0, 1, 2), (0, 1, 2)))
    assert not any(A.kind_of(a) == A.CROW for a in legal_actions(replace(state, discard=(0,))))
    after = act(state, A.BAZAAR)
    assert after.specials[BAZAAR] == (USED, 1, 2)


def test_two_player_specials_pass_to_the_other_player() -> None:
    state = position(hands=[["weed"], []])
    after = act(state, A.HOLIDAY)
    assert after.specials[HOLIDAY] == (1,)
    later = replace(after, active=0, phase=Phase.ACTIONS, actions_left=1, sub_seat=NONE)
    assert A.encode(A.HOLIDAY) not in legal_actions(later)
    assert A.encode(A.HOLIDAY) in legal_actions(replace(later, active=1))


# -- deck, must act, turn cap -----------------------------------------------------------------


def test_empty_deck_reshuffles_the_discard_pile_seeded() -> None:
    state = position(hands=[[], []], discard=["weed", "worker", "1 beet"])
    rest = [c for c in state.deck]
    state = replace(state, deck=(), market=state.market + tuple(rest))
    after, log = act_logged(state, A.HARVEST)
    assert log[0]["e"] == "reshuffle" and after.reshuffles == 1
    assert len(after.deck) == 2 and len(after.hands[0]) == 1
    again, log2 = act_logged(state, A.HARVEST)
    assert again == after and log2 == log
    other = act(replace(state, seed=state.seed + 1), A.HARVEST)
    assert other.reshuffles == 1


def test_the_reshuffle_waits_for_the_next_draw_and_the_crow_may_take_meanwhile() -> None:
    """[R] Emptying the deck does not reshuffle: the discard pile stays as it is (a Crow
    takes from it) until a card must be drawn."""
    state = position(
        hands=[[], []], discard=["2 beet", "weed", "worker"], deck_top=["1 beet"], actions_left=3
    )
    state = replace(state, deck=state.deck[-1:], market=state.market + state.deck[:-1])
    emptied, log = act_logged(state, A.HARVEST)
    assert [e["e"] for e in log] == ["harvest"]
    assert emptied.deck == () and emptied.discard == state.discard and emptied.reshuffles == 0
    crowed = act(emptied, A.CROW, t(state, "2 beet"))
    assert names(crowed, crowed.hands[0]) == ["1 beet", "2 beet"]
    assert crowed.deck == () and names(crowed, crowed.discard) == ["Weed", "Worker"]
    drawn, log = act_logged(crowed, A.HARVEST)
    assert [e["e"] for e in log][:2] == ["reshuffle", "harvest"]
    assert sorted(log[0]["deck"]) == sorted(crowed.discard) and drawn.reshuffles == 1
    assert drawn.discard == () and len(drawn.deck) == 1


def test_harvest_is_illegal_when_deck_and_discard_are_empty_and_the_action_is_lost() -> None:
    state = position(hands=[["1 beet"], []])
    everything = state.deck
    state = replace(state, deck=(), market=state.market + everything, specials=((1,), (1,), (1,)))
    assert A.encode(A.HARVEST) not in legal_actions(state)
    assert A.MARKET in {A.kind_of(a) for a in legal_actions(state)}
    stuck = replace(state, hands=((), state.hands[1]), market=state.market + state.hands[0])
    log: list[dict[str, Any]] = []
    from cgsim.games.kitchen.settle import settle  # the automatic step itself
    from cgsim.games.kitchen.work import Work

    work = Work(stuck, log)
    settle(work)
    assert log[0] == {"e": "action_lost"} and work.active == 1


def test_turn_cap_aborts_without_winner() -> None:
    state = position(hands=[[], []], overrides={"turn_cap": 3})
    state = replace(state, turn=3)
    after, log = act_logged(state, A.HARVEST)
    assert after.phase == Phase.OVER and after.aborted and after.winner == NONE
    assert log[-1] == {"e": "aborted"}
    # a skipped turn counts toward the cap: the game ends on it
    catalogue = state.rules.catalogue
    sluggard = next(c for c in state.deck if catalogue.card_types[c] == catalogue.sluggard)
    deck = tuple(c for c in state.deck if c != sluggard)
    slept = replace(state, turn=2, deck=deck, sluggards=(NONE, sluggard))
    after, log = act_logged(slept, A.HARVEST)
    assert after.phase == Phase.OVER and after.aborted and after.turn == 3
    assert [e["e"] for e in log][-3:] == ["turn", "skip", "aborted"]


def test_illegal_actions_raise_with_a_reason() -> None:
    state = position(hands=[["1 beet"], []])
    with pytest.raises(IllegalActionError, match="actions phase"):
        act(state, A.END_CONDITIONS)
    with pytest.raises(IllegalActionError, match="not a kitchen-garden action"):
        apply(state, 63 << 18)
    over = replace(state, phase=Phase.OVER)
    with pytest.raises(IllegalActionError, match="game is over"):
        act(over, A.HARVEST)


def test_hand_made_positions_conserve_cards() -> None:
    state = position(
        hands=[["1 beet"], ["weed"]], beds={(1, "beet"): ["2 beet"]}, discard=["worker"]
    )
    assert set(all_cards(state).values()) == {1}
    assert len(all_cards(state)) == state.rules.catalogue.card_count
