"""Every rule and worked example of docs/rules.md sections 4-7 as a named test, through the public API
(``trick_winner``, ``legal_plays``, ``score``) and, where a rule lives only inside a round, the
round kernel with things fixed in advance."""

from math import comb

import numpy as np
import pytest

from wizsim import format_cards, legal_plays, parse_cards, score, simulate_rounds, trick_winner
from wizsim.cards import NO_TRUMP, SUIT_MASKS, cards_to_mask


def same_cards(got, text):
    """``got`` (ascending ids) are the cards written in ``text`` (hands are parsed before tricks, so a
    hand's Wizards and Jesters take the first ids)."""
    return format_cards(got) == format_cards(sorted(parse_cards(text).tolist()))


# --- docs/rules.md 7: the trick table, one test per row ---

def test_only_trump_wins_5H_AH_2S_trump_S():
    assert trick_winner("5H,AH,2S", "S") == 2


def test_highest_led_card_wins_without_trump_5H_AH_2S():
    assert trick_winner("5H,AH,2S", "none") == 1


def test_jesters_lead_then_9D_sets_diamonds():
    assert trick_winner("J,J,9D,KD", "H") == 3


def test_wizard_after_jesters_frees_everyone_and_wins():
    assert trick_winner("J,W,2C,AC", "C") == 1


def test_first_of_two_wizards_wins():
    assert trick_winner("W,W,AS", "S") == 0


def test_all_jesters_first_jester_wins():
    assert trick_winner("J,J,J,J", "S") == 0


def test_first_wizard_wins_second_card():
    assert trick_winner("7C,W,AC,W", "H") == 1


def test_highest_trump_wins_3D_4S_AD_2S():
    assert trick_winner("3D,4S,AD,2S", "S") == 1


# --- docs/rules.md 5: the trick winner rules ---

def test_wizard_beats_trump_ace():
    assert trick_winner("AS,W", "S") == 1


def test_trump_beats_led_ace():
    assert trick_winner("AH,2S", "S") == 1


def test_off_suit_card_cannot_win():
    assert trick_winner("2H,AD,AC", "none") == 0
    assert trick_winner("2H,AD,AC", "S") == 0


def test_jester_never_wins_against_a_suited_card():
    assert trick_winner("J,2C", "none") == 1
    assert trick_winner("2C,J", "H") == 0


def test_jester_then_offsuit_card_sets_led_suit():
    # the first non-Jester card sets the led suit, so the 3H (hearts led) beats the later AD
    assert trick_winner("J,3H,AD", "none") == 1


def test_wizard_lead_has_no_led_suit_so_trump_decides_the_rest():
    assert trick_winner("W,2S,AH", "S") == 0  # still the Wizard


def test_partial_trick_winner():
    assert trick_winner("5H", "S") == 0
    assert trick_winner("J", "none") == 0


def test_trick_winner_accepts_ids_and_trump_codes():
    assert trick_winner([17, 30, 0], 0) == 2  # 6H, 6D, 2S with spades trump


def test_trick_winner_rejects_empty_and_oversized_tricks():
    with pytest.raises(ValueError):
        trick_winner("", "S")
    with pytest.raises(ValueError):
        trick_winner("2S,3S,4S,5S,6S,7S,8S", "S")


# --- docs/rules.md 7 / 5: legal plays ---

def test_must_follow_suit_but_wizard_and_jester_always_allowed():
    got = legal_plays("AS,3H,W,J", "5S").tolist()
    assert same_cards(got, "AS,W,J")
    assert 14 not in got  # the 3H is not legal


def test_wizard_led_every_card_legal():
    assert same_cards(legal_plays("AS,3H,W,J", "W").tolist(), "AS,3H,W,J")


def test_jester_then_9D_without_diamond_every_card_legal():
    assert same_cards(legal_plays("AS,3H,W,J", "J,9D").tolist(), "AS,3H,W,J")


def test_jester_lead_then_wizard_frees_suit():
    # J, W: the Wizard is the first non-Jester card, so the trick has no led suit
    assert same_cards(legal_plays("AS,3H,KD", "J,W").tolist(), "AS,3H,KD")


def test_only_jesters_played_no_led_suit_yet():
    assert same_cards(legal_plays("AS,3H,KD", "J,J").tolist(), "AS,3H,KD")


def test_jester_lead_then_suited_card_sets_suit_to_follow():
    assert same_cards(legal_plays("AS,3H,KD,J", "J,9D").tolist(), "KD,J")


def test_empty_trick_any_card_may_lead():
    assert same_cards(legal_plays("AS,3H,W,J", "").tolist(), "AS,3H,W,J")


def test_no_card_of_led_suit_any_card():
    assert same_cards(legal_plays("AS,3H,QC", "5D").tolist(), "AS,3H,QC")


def test_trump_not_forced_when_holding_led_suit():
    # following suit is the only duty: a trump may not be played while holding the led suit
    assert same_cards(legal_plays("2S,3H", "5H").tolist(), "3H")


def test_later_cards_do_not_change_led_suit():
    assert same_cards(legal_plays("2S,3H,4D", "5H,AS,W").tolist(), "3H")


def test_legal_plays_ascending_int8():
    out = legal_plays("J,W,AS,2S", "")
    assert out.dtype == np.int8 and out.tolist() == sorted(out.tolist())


def test_legal_plays_rejects_card_in_hand_and_trick():
    with pytest.raises(ValueError):
        legal_plays("AS,3H", "AS")


# --- docs/rules.md 6: scoring ---

def test_score_bid_zero_took_zero_is_20():
    assert score(0, 0) == 20


def test_score_bid_4_took_4_is_60():
    assert score(4, 4) == 60


def test_score_bid_5_took_3_is_minus_20():
    assert score(5, 3) == -20


def test_score_over_the_bid_is_minus_10_per_trick():
    assert score(1, 4) == -30


def test_score_in_units_of_ten_is_the_same_scoring():
    # one source scores 2 + tricks, or minus the difference: ours divided by 10
    for bid in range(0, 21):
        for took in range(0, 21):
            tens = 2 + took if bid == took else -abs(bid - took)
            assert score(bid, took) == 10 * tens


def test_score_elementwise_on_arrays():
    out = score(np.array([0, 4, 5]), np.array([0, 4, 3]))
    assert out.tolist() == [20, 60, -20]
    assert score(np.array([[1, 2]]), 1).tolist() == [[30, -10]]


# --- docs/rules.md 4: the hook ---

def _dealer_bids(hook, r, earlier):
    players = len(earlier) + 1
    mode = np.array([1] * (players - 1) + [0], np.int8)  # earlier seats forced, the dealer free
    bids = np.array(list(earlier) + [0], np.int8)
    batch = simulate_rounds(players, r, 2000, seed=5, hook=hook, bid_mode=mode, fixed_bids=bids)
    assert (batch.bids[:, :-1] == np.array(earlier)).all()
    return set(batch.bids[:, -1].tolist())


def test_hook_dealer_may_not_make_bids_total_r():
    assert _dealer_bids(True, 5, [1, 2, 0]) == {0, 1, 3, 4, 5}  # 2 would make the total 5


def test_hook_off_dealer_may_bid_anything():
    assert _dealer_bids(False, 5, [1, 2, 0]) == {0, 1, 2, 3, 4, 5}


def test_hook_forbidden_zero_when_earlier_bids_total_r():
    assert _dealer_bids(True, 3, [2, 1, 0]) == {1, 2, 3}


def test_hook_dealer_unrestricted_when_forbidden_number_out_of_range():
    assert _dealer_bids(True, 3, [3, 2, 1]) == {0, 1, 2, 3}  # would need -3


def test_hook_restricts_only_the_dealer():
    mode = np.zeros(4, np.int8)
    batch = simulate_rounds(4, 2, 3000, seed=8, hook=True, bid_mode=mode)
    assert (batch.bids.sum(axis=1) != 2).all()
    # earlier seats still bid every number 0..r
    for seat in range(3):
        assert set(batch.bids[:, seat].tolist()) == {0, 1, 2}


# --- docs/rules.md 3 and 7: trump and the round-1 check, through the round kernel ---

SPADES = int(SUIT_MASKS[0])


def test_turned_up_suited_card_sets_trump():
    pool = cards_to_mask(parse_cards("7D"))
    batch = simulate_rounds(4, 3, 5, seed=1, turn_up_pool=pool)
    assert batch.turn_up.tolist() == [parse_cards("7D")[0]] * 5
    assert (batch.trump == 2).all()


def test_turned_up_jester_means_no_trump():
    batch = simulate_rounds(4, 3, 5, seed=1, turn_up_pool=cards_to_mask(parse_cards("J")))
    assert (batch.turn_up == 56).all() and (batch.trump == NO_TRUMP).all()


def test_turned_up_wizard_dealer_names_a_suit():
    batch = simulate_rounds(4, 3, 400, seed=1, turn_up_pool=cards_to_mask(parse_cards("W")))
    assert (batch.turn_up == 52).all()
    # never "no trump", and the random dealer uses all four suits
    assert sorted(set(batch.trump.tolist())) == [0, 1, 2, 3]


def test_last_round_nothing_turned_up_no_trump():
    for players in range(3, 7):
        batch = simulate_rounds(players, 60 // players, 50, seed=3)
        assert (batch.turn_up == -1).all() and (batch.trump == NO_TRUMP).all()


def test_round_one_check_AS_loses_only_to_a_wizard():
    """Four players, trump S, seat 1 holds AS (leads it): it wins unless one of the three others holds
    a Wizard, which happens with chance 1 - C(54,3)/C(58,3). Tolerance: 4 binomial standard errors."""
    n = 200_000
    fixed = np.zeros(4, np.uint64)
    fixed[0] = cards_to_mask(parse_cards("AS"))
    pool = SPADES & ~int(fixed[0])  # a spade other than the AS is turned up
    batch = simulate_rounds(4, 1, n, seed=2026, fixed_hands=fixed, turn_up_pool=pool)
    assert (batch.trump == 0).all()
    won = (batch.tricks[:, 0] == 1).mean()
    p = comb(54, 3) / comb(58, 3)
    se = (p * (1 - p) / n) ** 0.5
    assert abs(won - p) < 4 * se, (won, p, se)


# --- The rules kernels by name (rules.kernels): the same rules, called directly ---

def test_trump_of_turn_up_suited_card_is_its_suit():
    from wizsim.rules.kernels import trump_of_turn_up

    assert [trump_of_turn_up(int(parse_cards(c)[0])) for c in ("7S", "7H", "7D", "AC")] == [0, 1, 2, 3]


def test_trump_of_turn_up_jester_or_nothing_is_no_trump():
    from wizsim.rules.kernels import trump_of_turn_up

    assert trump_of_turn_up(int(parse_cards("J")[0])) == NO_TRUMP
    assert trump_of_turn_up(-1) == NO_TRUMP


def test_trump_of_turn_up_wizard_the_dealer_names():
    from wizsim.rules.kernels import DEALER_NAMES, trump_of_turn_up

    assert trump_of_turn_up(int(parse_cards("W")[0])) == DEALER_NAMES
    assert DEALER_NAMES not in (NO_TRUMP, 0, 1, 2, 3)


def test_forbidden_bid_only_the_dealer_with_the_hook():
    from wizsim.rules.kernels import forbidden_bid

    assert forbidden_bid(True, 3, 4, 5, 3) == 2  # dealer of 4, bids so far 3 of 5: 2 is forbidden
    assert forbidden_bid(False, 3, 4, 5, 3) == -1
    assert forbidden_bid(True, 2, 4, 5, 3) == -1  # not the dealer
    assert forbidden_bid(True, 3, 4, 5, 5) == 0
    assert forbidden_bid(True, 3, 4, 5, 6) == -1  # r - total < 0: nothing to forbid


def test_is_last_round_deals_all_60_cards():
    from wizsim.rules.kernels import is_last_round

    assert [r for p in range(3, 7) for r in range(1, 21) if is_last_round(p, r)] == [20, 15, 12, 10]
