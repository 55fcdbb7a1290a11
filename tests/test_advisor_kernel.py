"""The advisor's candidate-bid kernel against its plain-Python twin and against the plain driver."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.cards import FULL_DECK_MASK, SUIT_MASKS, cards_to_mask
from wizsim.policies import make_slots
from wizsim.sim import reference as ref
from wizsim.sim.candidates import NO_CHECK, candidate_rounds_kernel, choice_frequencies
from wizsim.sim.driver import simulate_rounds
from wizsim.sim.round import BID_CONDITION, BID_FORCED, BID_FREE, TRUMP_BY_RULES


def _run_kernel(seed, first, n, players, r, hook, fixed_hands, pool, fixed_trump, bid_mode, fixed_bids, seat,
                candidates, trump_check, policy="random"):
    slots = make_slots([policy])
    seat_slot = np.zeros(players, np.int8)
    accepted = np.zeros(n, np.bool_)
    tricks = np.zeros((n, len(candidates)), np.int8)
    turn_up = np.zeros(n, np.int8)
    hands = np.zeros((n, players), np.uint64)
    candidate_rounds_kernel(np.uint64(seed), np.int64(first), players, r, hook, seat_slot, slots.kinds, slots.params,
                            slots.table, np.asarray(fixed_hands, np.uint64), np.uint64(pool), np.int64(fixed_trump),
                            np.asarray(bid_mode, np.int8), np.asarray(fixed_bids, np.int8), seat,
                            np.asarray(candidates, np.int8), np.int64(trump_check), True, accepted, tricks, turn_up,
                            hands)
    return accepted, tricks, turn_up, hands


@st.composite
def questions(draw):
    players = draw(st.integers(3, 6))
    r = draw(st.integers(1, min(5, 60 // players)))
    seat = draw(st.integers(0, players - 1))
    hand = draw(st.lists(st.integers(0, 59), min_size=r, max_size=r, unique=True))
    fixed_hands = [0] * players
    fixed_hands[seat] = cards_to_mask(hand)
    pool_kind = draw(st.sampled_from(["full", "suit", "card"]))
    free = [c for c in range(60) if c not in hand]
    if pool_kind == "full":
        pool, fixed_trump = int(FULL_DECK_MASK), TRUMP_BY_RULES
    elif pool_kind == "suit":
        suit = draw(st.integers(0, 3))
        pool = int(SUIT_MASKS[suit]) & ~cards_to_mask(hand) or int(FULL_DECK_MASK)
        fixed_trump = suit
    else:
        pool = 1 << draw(st.sampled_from(free))
        fixed_trump = draw(st.sampled_from([TRUMP_BY_RULES, -1, 0, 1, 2, 3]))
    bid_mode = [BID_FREE] * players
    fixed_bids = [0] * players
    for s in range(seat):
        bid_mode[s] = draw(st.sampled_from([BID_FREE, BID_FORCED, BID_CONDITION]))
        fixed_bids[s] = draw(st.integers(0, r))
    bid_mode[seat] = BID_FORCED
    check = draw(st.sampled_from([NO_CHECK, 0, 1, 2, 3]))
    return dict(players=players, r=r, hook=draw(st.booleans()), fixed_hands=fixed_hands, pool=pool,
                fixed_trump=fixed_trump, bid_mode=bid_mode, fixed_bids=fixed_bids, seat=seat,
                candidates=list(range(r + 1)), trump_check=check)


@settings(deadline=None, max_examples=40)
@given(questions(), st.integers(0, 2**63 - 1), st.integers(0, 10**6))
def test_candidate_kernel_matches_twin(q, seed, first):
    n = 6
    got = _run_kernel(seed, first, n, q["players"], q["r"], q["hook"], q["fixed_hands"], q["pool"], q["fixed_trump"],
                      q["bid_mode"], q["fixed_bids"], q["seat"], q["candidates"], q["trump_check"])
    want = ref.candidate_rounds(seed, first, n, q["players"], q["r"], q["hook"], q["fixed_hands"], q["pool"],
                                q["fixed_trump"], q["bid_mode"], q["fixed_bids"], q["seat"], q["candidates"],
                                q["trump_check"])
    assert got[0].tolist() == want[0]
    assert got[1].tolist() == want[1]
    assert got[2].tolist() == want[2]
    assert got[3].astype(object).tolist() == want[3]


@settings(deadline=None, max_examples=30)
@given(st.integers(3, 6), st.integers(1, 4), st.integers(0, 4), st.booleans(), st.integers(-1, 4))
def test_choice_frequencies_match_twin(players, r, heard, trump_choice, forbidden):
    cards = np.arange(0, 60, 7, dtype=np.int8)
    slots = make_slots(["random"])
    out = np.empty(len(cards))
    seat = players - 1
    choice_frequencies(slots.kinds[0], slots.params[0], slots.table, seat, players, r, cards, np.int64(5), 0,
                       np.full(players, -1, np.int8), forbidden, heard, trump_choice, 16, out)
    assert out.tolist() == ref.choice_frequencies(seat, players, r, cards, heard, forbidden, trump_choice, 16)


def test_each_candidate_column_is_the_plain_drivers_round():
    """Column b of the kernel is the round ``simulate_rounds`` plays with the seat's bid forced to b:
    the candidate bids share their deals (common random numbers) and nothing else changes."""
    players, r, seat = 4, 3, 1
    hand = cards_to_mask([52, 12, 14])
    fixed_hands = np.array([0, hand, 0, 0], np.uint64)
    pool = int(SUIT_MASKS[0]) & ~hand
    bid_mode = np.array([BID_CONDITION, BID_FORCED, BID_FREE, BID_FREE], np.int8)
    acc, tricks, turn_up, hands = _run_kernel(5, 100, 300, players, r, False, fixed_hands, pool, 0, bid_mode,
                                              [1, 0, 0, 0], seat, range(r + 1), NO_CHECK)
    assert 0 < acc.sum() < 300
    for b in range(r + 1):
        batch = simulate_rounds(players, r, 300, "random", seed=5, first_index=100, fixed_hands=fixed_hands,
                                turn_up_pool=pool, fixed_trump=0, bid_mode=bid_mode, fixed_bids=[1, b, 0, 0])
        assert (batch.accepted == acc).all()
        assert (batch.tricks[acc, seat] == tricks[acc, b]).all()
        assert (batch.turn_up == turn_up).all()
        assert (batch.hands == hands).all()
