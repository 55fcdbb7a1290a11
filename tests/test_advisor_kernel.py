"""The advisor's candidate-bid kernel and its weighed deals against their plain-Python twins and the plain driver."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.advisor.kernels import reference as ref
from wizsim.advisor.kernels.candidate_rounds import candidate_rounds_kernel
from wizsim.advisor.kernels.evidence import deal_likelihoods_kernel
from wizsim.cards import FULL_DECK_MASK, SUIT_MASKS, cards_to_mask
from wizsim.policies import make_slots
from wizsim.policies.dispatch import kernel_ext
from wizsim.policies.model import blind_bids_likelihood
from wizsim.policies.records import Evidence, Fixed, Opponents, RoundInfo, Seats
from wizsim.sim.driver import simulate_rounds
from wizsim.sim.round import BID_FORCED, BID_FREE, TRUMP_BY_RULES


def _run_kernel(seed, indices, players, r, hook, fixed_hands, pool, fixed_trump, bid_mode, fixed_bids, seat,
                candidates, policy="random"):
    slots = make_slots([policy])
    seat_slot = np.zeros(players, np.int8)
    n = len(indices)
    tricks = np.zeros((n, len(candidates)), np.int8)
    turn_up = np.zeros(n, np.int8)
    hands = np.zeros((n, players), np.uint64)
    candidate_rounds_kernel(np.uint64(seed), np.asarray(indices, np.int64), players, r, hook,
                            Seats(seat_slot, slots.kinds, slots.params, slots.table),
                            Fixed(np.asarray(fixed_hands, np.uint64), np.uint64(pool), np.int64(fixed_trump),
                                  np.asarray(bid_mode, np.int8), np.asarray(fixed_bids, np.int8)),
                            np.asarray(candidates, np.int8), (seat, True, tricks, turn_up, hands, np.zeros(n, np.int16),
                             np.zeros((0, 0), np.uint64)),
                            kernel_ext(slots.kinds))
    return tricks, turn_up, hands


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
        bid_mode[s] = draw(st.sampled_from([BID_FREE, BID_FORCED]))
        fixed_bids[s] = draw(st.integers(0, r))
    bid_mode[seat] = BID_FORCED
    return dict(players=players, r=r, hook=draw(st.booleans()), fixed_hands=fixed_hands, pool=pool,
                fixed_trump=fixed_trump, bid_mode=bid_mode, fixed_bids=fixed_bids, seat=seat,
                candidates=list(range(r + 1)))


@settings(deadline=None, max_examples=40)
@given(questions(), st.integers(0, 2**63 - 1), st.lists(st.integers(0, 10**6), min_size=1, max_size=6))
def test_candidate_kernel_matches_twin(q, seed, indices):
    got = _run_kernel(seed, indices, q["players"], q["r"], q["hook"], q["fixed_hands"], q["pool"], q["fixed_trump"],
                      q["bid_mode"], q["fixed_bids"], q["seat"], q["candidates"])
    want = ref.candidate_rounds(seed, indices, q["players"], q["r"], q["hook"], q["fixed_hands"], q["pool"],
                                q["fixed_trump"], q["bid_mode"], q["fixed_bids"], q["seat"], q["candidates"])
    assert got[0].tolist() == want[0]
    assert got[1].tolist() == want[1]
    assert got[2].astype(object).tolist() == want[2]


@settings(deadline=None, max_examples=40)
@given(questions(), st.integers(0, 2**63 - 1), st.integers(0, 10**6), st.sampled_from([0.0, 0.3, 0.7, 1.0]),
       st.sampled_from([-2, 0, 2]), st.integers(0, 15))
def test_deal_likelihoods_match_twin(q, seed, first, trust, named, blind):
    """The weighed deals: each deal as the round kernel deals it, the model's likelihood of the heard
    bids (and of a named suit) on it, each seat's part of it, and its acceptance draw, as the twins
    compute them."""
    n, players, r = 5, q["players"], q["r"]
    slots = make_slots(["heuristic"])
    kinds = np.array([0 if blind >> s & 1 else 1 for s in range(players)], np.int8)
    params = np.repeat(slots.params[:1], players, axis=0)
    bids = np.array(q["fixed_bids"], np.int8)
    like, u = np.zeros(n), np.zeros(n)
    model_bids, named_ok = np.zeros((n, players), np.int8), np.zeros(n, np.bool_)
    seat_model = np.zeros((n, players))
    trump = max(q["fixed_trump"], -1)
    evidence = Evidence(bids, np.int64(q["seat"]), np.int64(named), np.zeros(players, np.uint64), np.zeros(0, np.int8),
                        np.int64(0))
    info = RoundInfo(players, r, q["hook"], np.int64(-1), np.int64(trump))
    opponents = Opponents(kinds, params, slots.table, trust, 0.0, trust)
    for lo, hi in ((0, n // 2), (n // 2, n)):  # two threads' spans (``sim.driver.run_batch``), in turn
        deal_likelihoods_kernel((np.uint64(seed), np.int64(first), np.int64(lo), np.int64(hi)),
                                (np.asarray(q["fixed_hands"], np.uint64), np.uint64(q["pool"])), info, q["seat"],
                                opponents, evidence, (like, u, model_bids, named_ok, seat_model),
                                (np.empty(1, np.uint64), np.empty(players, np.uint64)))
    want = ref.deal_likelihoods(seed, first, n, info, q["fixed_hands"], q["pool"], q["seat"], opponents, evidence)
    assert like.tolist() == [pytest.approx(w[0], rel=1e-12, abs=1e-300) for w in want]
    assert u.tolist() == [w[1] for w in want]
    assert seat_model.tolist() == [pytest.approx(w[2], rel=1e-12, abs=1e-300) for w in want]
    # each seat's parts times the factor the likelihood leaves out (uniform bids) are the likelihood
    scale = blind_bids_likelihood(kinds, trust, players, r, q["hook"], q["seat"], bids, q["seat"], False)
    assert seat_model.prod(axis=1).tolist() == pytest.approx((like * scale).tolist(), rel=1e-9, abs=1e-300)


def test_each_candidate_column_is_the_plain_drivers_round():
    """Column b of the kernel is the round ``simulate_rounds`` plays with the seat's bid forced to b:
    the candidate bids share their deals (common random numbers) and nothing else changes."""
    players, r, seat = 4, 3, 1
    hand = cards_to_mask([52, 12, 14])
    fixed_hands = np.array([0, hand, 0, 0], np.uint64)
    pool = int(SUIT_MASKS[0]) & ~hand
    bid_mode = np.array([BID_FORCED, BID_FORCED, BID_FREE, BID_FREE], np.int8)
    tricks, turn_up, hands = _run_kernel(5, np.arange(100, 400), players, r, False, fixed_hands, pool, 0, bid_mode,
                                         [1, 0, 0, 0], seat, range(r + 1))
    for b in range(r + 1):
        batch = simulate_rounds(players, r, 300, "random", seed=5, first_index=100, fixed_hands=fixed_hands,
                                turn_up_pool=pool, fixed_trump=0, bid_mode=bid_mode, fixed_bids=[1, b, 0, 0])
        assert (batch.tricks[:, seat] == tricks[:, b]).all()
        assert (batch.turn_up == turn_up).all()
        assert (batch.hands == hands).all()
