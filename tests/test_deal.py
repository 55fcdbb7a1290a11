"""The counter-based streams and the dealer: kernel == twin, every card dealt once, streams independent."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import ALL_CARDS, player_counts, round_indices, seeds

from wizsim import simulate_rounds
from wizsim.cards import N_CARDS
from wizsim.deal import kernels as K
from wizsim.deal import reference as R

FULL = (1 << N_CARDS) - 1


def popcount(mask):
    return bin(int(mask)).count("1")


@st.composite
def deal_cases(draw):
    """(seed, index, players, r, fixed hands, turn-up pool): any valid deal, fixed inputs optional."""
    players = draw(player_counts)
    r = draw(st.one_of(st.integers(1, N_CARDS // players), st.just(N_CARDS // players)))
    order = draw(st.permutations(ALL_CARDS))
    fixed = [0] * players
    pos = 0
    for s in draw(st.lists(st.integers(0, players - 1), max_size=players, unique=True)):
        for c in order[pos:pos + r]:
            fixed[s] |= 1 << c
        pos += r
    pool = FULL
    if players * r < N_CARDS and draw(st.booleans()):
        rest = order[pos:] if pos < N_CARDS else []
        # a small pool of which at least one card is not in a fixed hand
        pool_cards = rest[:draw(st.integers(1, max(1, min(5, len(rest)))))] + draw(
            st.lists(st.sampled_from(ALL_CARDS), max_size=3))
        pool = 0
        for c in pool_cards:
            pool |= 1 << c
    return draw(seeds), draw(round_indices), players, r, fixed, pool


def kernel_deal(seed, index, players, r, fixed, pool):
    state = np.array([K.stream_key(np.uint64(seed), np.int64(index), K.DEAL_STREAM)], dtype=np.uint64)
    hands = np.zeros(players, np.uint64)
    turn_up = K.deal_round(state, players, r, np.array(fixed, np.uint64), np.uint64(pool), hands)
    return int(turn_up), [int(h) for h in hands], int(state[0])


def reference_deal(seed, index, players, r, fixed, pool):
    stream = R.Stream(R.stream_key(seed, index, R.DEAL_STREAM))
    turn_up, hands = R.deal_round(stream, players, r, fixed, pool)
    return turn_up, hands, stream.state


@settings(deadline=None, max_examples=200)
@given(seeds, round_indices, st.integers(0, 2))
def test_stream_key_kernel_equals_reference(seed, index, stream):
    assert int(K.stream_key(np.uint64(seed), np.int64(index), stream)) == R.stream_key(seed, index, stream)


@settings(deadline=None, max_examples=100)
@given(st.integers(0, 2**64 - 1), st.lists(st.integers(1, 2**32), min_size=1, max_size=20))
def test_rand_below_kernel_equals_reference(state, bounds):
    ks = np.array([state], dtype=np.uint64)
    rs = R.Stream(state)
    for n in bounds:
        x = K.rand_below(ks, n)
        assert x == rs.rand_below(n) and 0 <= x < n
    assert int(ks[0]) == rs.state
    assert int(K.mix64(np.uint64(state))) == R.mix64(state)


@settings(deadline=None, max_examples=200)
@given(deal_cases())
def test_deal_kernel_equals_reference(case):
    assert kernel_deal(*case) == reference_deal(*case)


@settings(deadline=None, max_examples=200)
@given(deal_cases())
def test_every_card_dealt_once(case):
    seed, index, players, r, fixed, pool = case
    turn_up, hands, _ = kernel_deal(*case)
    union = 0
    for s, hand in enumerate(hands):
        assert popcount(hand) == r  # r cards each
        assert union & hand == 0  # hands disjoint
        union |= hand
        if fixed[s]:
            assert hand == fixed[s]  # a fixed hand is kept as given
    if players * r == N_CARDS:
        assert turn_up == -1 and union == FULL  # last round: everything dealt, nothing turned up
    else:
        assert 0 <= turn_up < N_CARDS
        assert not union >> turn_up & 1  # the turned-up card is in no hand
        assert pool >> turn_up & 1  # and comes from the pool


def test_turn_up_is_uniform_over_the_deck():
    """Unconditioned, the turned-up card is any of the 60 cards with chance 1/60. Chi-square over the
    60 ids, n = 120,000: the statistic has mean 59 and s.d. sqrt(118); we allow 6 s.d."""
    batch = simulate_rounds(4, 7, 120_000, seed=77)
    counts = np.bincount(batch.turn_up.astype(np.int64), minlength=N_CARDS)
    expected = batch.n / N_CARDS
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 59 + 6 * 118 ** 0.5, chi2


def test_seat_hands_are_uniform():
    """Each seat holds each card with chance r/60 (n = 40,000 rounds of 3 cards, 4 players); every
    (seat, card) frequency within 5 binomial standard errors."""
    n, players, r = 40_000, 4, 3
    batch = simulate_rounds(players, r, n, seed=78)
    bits = (batch.hands[:, :, None] >> np.arange(N_CARDS, dtype=np.uint64)) & np.uint64(1)
    freq = bits.mean(axis=0)
    p = r / N_CARDS
    assert np.abs(freq - p).max() < 5 * (p * (1 - p) / n) ** 0.5


def test_stream_keys_differ_across_seeds_indices_and_streams():
    keys = {R.stream_key(seed, index, stream) for seed in range(5) for index in range(200) for stream in range(3)}
    assert len(keys) == 5 * 200 * 3


def test_deal_does_not_depend_on_the_play_stream():
    """Hook, bid fixing and policy choices only touch the play stream: the same seed deals the same
    hands and turned-up cards whatever the bidding does."""
    a = simulate_rounds(5, 4, 300, seed=11)
    b = simulate_rounds(5, 4, 300, seed=11, hook=True)
    c = simulate_rounds(5, 4, 300, seed=11, bid_mode=np.ones(5, np.int8), fixed_bids=np.full(5, 2, np.int8))
    for other in (b, c):
        assert (a.hands == other.hands).all() and (a.turn_up == other.turn_up).all()
    assert not (a.bids == c.bids).all()


def test_round_depends_only_on_seed_and_index():
    whole = simulate_rounds(4, 5, 50, seed=9)
    one = simulate_rounds(4, 5, 1, seed=9, first_index=37)
    assert (one.hands[0] == whole.hands[37]).all() and one.turn_up[0] == whole.turn_up[37]
    assert (one.bids[0] == whole.bids[37]).all() and (one.scores[0] == whole.scores[37]).all()


def test_different_seeds_deal_differently():
    a = simulate_rounds(4, 5, 100, seed=1)
    b = simulate_rounds(4, 5, 100, seed=2)
    assert (a.hands != b.hands).any(axis=1).mean() > 0.99
