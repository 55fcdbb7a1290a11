"""Rules kernels == their plain-Python twins on hypothesis-generated hands and tricks (often Wizard-
and Jester-heavy, see ``strategies``), and the public wrappers agree with both."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import hand_and_trick, tricks, trumps

from wizsim import legal_plays, score, trick_winner
from wizsim.cards import cards_to_mask, mask_to_cards
from wizsim.rules import kernels as K
from wizsim.rules import reference as R


def led_of(trick_cards, next_led):
    led = R.LED_NONE
    for c in trick_cards:
        led = next_led(led, int(c))
    return led


@settings(deadline=None, max_examples=200)
@given(tricks(min_size=0, max_size=6))
def test_next_led_kernel_equals_reference(cards):
    led_k, led_r = K.LED_NONE, R.LED_NONE
    for c in cards:
        led_k = K.next_led(led_k, np.int8(c))
        led_r = R.next_led(led_r, c)
        assert led_k == led_r
    # and the twin's running code is what its Trick class reads off the whole trick
    assert led_r == R.Trick(trump=-1, cards=list(cards)).led


@settings(deadline=None, max_examples=200)
@given(hand_and_trick())
def test_legal_mask_kernel_equals_reference(case):
    hand, trick = case
    mask = cards_to_mask(hand)
    led = led_of(trick, R.next_led)
    assert int(K.legal_mask(np.uint64(mask), led)) == R.legal_mask(mask, led)


@settings(deadline=None, max_examples=200)
@given(hand_and_trick())
def test_legal_mask_reference_equals_trick_may_play(case):
    """The twin's mask form agrees with its own Trick class on the actual trick."""
    hand, trick = case
    t = R.Trick(trump=-1, cards=list(trick))
    expected = cards_to_mask(c for c in hand if t.may_play(set(hand), c))
    assert R.legal_mask(cards_to_mask(hand), led_of(trick, R.next_led)) == expected


@settings(deadline=None, max_examples=200)
@given(hand_and_trick())
def test_legal_mask_is_never_empty_for_a_nonempty_hand(case):
    hand, trick = case
    assert K.legal_mask(np.uint64(cards_to_mask(hand)), led_of(trick, R.next_led)) != 0


@settings(deadline=None, max_examples=200)
@given(tricks(), trumps)
def test_trick_winner_kernel_equals_reference(cards, trump):
    arr = np.array(cards, dtype=np.int8)
    for n in range(1, len(cards) + 1):  # every prefix: partial tricks too
        assert K.trick_winner(arr, n, trump) == R.trick_winner(cards, n, trump)


@settings(deadline=None, max_examples=200)
@given(tricks(), trumps)
def test_strength_table_winner_equals_reference(cards, trump):
    """The round kernel finds the winner incrementally from the STRENGTH table (strictly stronger
    replaces, ties keep the earlier card); that must give the twin's winner after every card."""
    led, best, win = K.LED_NONE, -1, -1
    for i, c in enumerate(cards):
        led = K.next_led(led, np.int8(c))
        strength = K.STRENGTH[trump + 1, led + 2, c]
        if strength > best:
            best, win = strength, i
        assert win == R.trick_winner(cards, i + 1, trump)


@settings(deadline=None, max_examples=200)
@given(st.integers(0, 20), st.integers(0, 20))
def test_score_round_kernel_equals_reference(bid, took):
    assert K.score_round(bid, took) == R.score_round(bid, took) == score(bid, took)


@settings(deadline=None, max_examples=50)
@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), min_size=1, max_size=30))
def test_score_elementwise_equals_reference(pairs):
    bids, took = np.array(pairs).T
    assert score(bids, took).tolist() == [R.score_round(b, t) for b, t in pairs]


@settings(deadline=None, max_examples=200)
@given(tricks(), trumps)
def test_public_trick_winner_agrees(cards, trump):
    assert trick_winner(cards, trump) == R.trick_winner(cards, len(cards), trump)


@settings(deadline=None, max_examples=200)
@given(hand_and_trick())
def test_public_legal_plays_agrees(case):
    hand, trick = case
    expected = mask_to_cards(R.legal_mask(cards_to_mask(hand), led_of(trick, R.next_led))).tolist()
    assert legal_plays(hand, trick).tolist() == expected


@settings(deadline=None, max_examples=100)
@given(st.integers(-1, 59))
def test_trump_of_turn_up_kernel_equals_reference(turn_up):
    assert K.trump_of_turn_up(turn_up) == R.trump_of_turn_up(turn_up)


@settings(deadline=None, max_examples=200)
@given(st.booleans(), st.integers(3, 6), st.integers(1, 20), st.integers(0, 5), st.integers(0, 25))
def test_forbidden_bid_kernel_equals_reference(hook, players, r, seat, total):
    seat = seat % players
    assert K.forbidden_bid(hook, seat, players, r, total) == R.forbidden_bid(hook, seat, players, r, total)


@settings(deadline=None, max_examples=100)
@given(st.integers(3, 6), st.integers(1, 20))
def test_is_last_round_kernel_equals_reference(players, r):
    assert K.is_last_round(players, r) == R.is_last_round(players, r)


@settings(deadline=None, max_examples=50)
@given(st.lists(tricks(min_size=4, max_size=4), min_size=1, max_size=8), trumps)
def test_trick_winners_kernel_equals_reference(rows, trump):
    cards = np.array(rows, dtype=np.int64)
    assert K.trick_winners(cards, trump).tolist() == R.trick_winners(rows, trump)
