"""Bit selection and the register-held draws of the hot loops == their plain-Python definitions."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from wizsim import bits
from wizsim.deal import kernels as K
from wizsim.deal import reference as R

masks = st.integers(1, 2**64 - 1)


@njit
def mul_wide(a, b):
    return bits.mul_wide(a, b)


def kth_lowest(mask, k):
    return [c for c in range(64) if mask >> c & 1][k]


@settings(deadline=None, max_examples=200)
@given(masks, st.data())
def test_select_bit_both_ways_equals_kth_lowest_set_bit(mask, data):
    k = data.draw(st.integers(0, bin(mask).count("1") - 1))
    want = kth_lowest(mask, k)
    m = np.uint64(mask)
    assert bits._select_bit_search(m, k) == want
    assert int(bits._select_bit_mask_search(m, k)) == 1 << want
    if bits.HAS_BMI2:
        assert bits._select_bit_pdep(m, k) == want
        assert int(bits._select_bit_mask_pdep(m, k)) == 1 << want


@settings(deadline=None, max_examples=200)
@given(masks, st.integers(0, 2**64 - 1))
def test_draw_below_mask_equals_reference(legal, state):
    got_bit, got_state = K.draw_below_mask(np.uint64(legal), np.uint64(state))
    assert (int(got_bit), int(got_state)) == R.draw_below_mask(legal, state)


@settings(deadline=None, max_examples=200)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_mul_wide_is_the_128_bit_product(a, b):
    hi, lo = mul_wide(np.uint64(a), np.uint64(b))
    assert (int(hi) << 64) | int(lo) == a * b


def test_deal_dice_take_several_draws_from_one_word():
    dice = R.Dice(R.Stream(12345))
    draws = [dice.below(60 - i) for i in range(R.DEAL_DRAWS_PER_WORD)]
    assert dice.stream.state == (12345 + R._GAMMA) % 2**64  # one word for all of them
    assert all(0 <= d < 60 - i for i, d in enumerate(draws))
    dice.below(10)
    assert dice.stream.state == (12345 + 2 * R._GAMMA) % 2**64


@settings(deadline=None, max_examples=200)
@given(masks)
def test_highest_bit_is_the_top_set_bit(mask):
    assert bits.highest_bit(np.uint64(mask)) == mask.bit_length() - 1
