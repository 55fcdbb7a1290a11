"""The advisor answers for exactly what the player knows: the deals it simulates, its conditioning,
the hook, the choice of the best bid, the stopping rule and reproducibility."""

import numba
import numpy as np
import pytest

from wizsim import advise
from wizsim.advisor import sampling
from wizsim.advisor.opponents import OpponentModel, check_trust, opponent_names
from wizsim.advisor.question import make_question
from wizsim.bits import popcount
from wizsim.cards import JESTER_MASK, SUIT_MASKS, WIZARD_MASK, cards_to_mask, parse_cards
from wizsim.policies import policy_names

needs_heuristic = pytest.mark.skipif("heuristic" not in policy_names(), reason="heuristic policy not registered")
POLICY = "heuristic" if "heuristic" in policy_names() else "random"


def _model(q, bid_trust=1.0):
    return OpponentModel.build(opponent_names(q.policy, q.players, q.seat), q.seat - 1, q.player_policy,
                               check_trust(bid_trust, "bid_trust"), 0.0)


def _deals(q, n=3000, seed=3, bid_trust=1.0):
    model = _model(q, bid_trust)
    acc, _, _, turn_up, hands = sampling.draw_deals(q, model, seed, n)
    return model, acc, turn_up, hands


def _count(masks, mask):
    return np.array([popcount(np.uint64(int(h) & int(mask))) for h in masks])


@pytest.mark.parametrize("trump,trump_card", [("D", "7D"), ("S", None), ("none", None), ("H", "W"), (None, "J")])
def test_turned_up_card_is_never_in_a_simulated_hand(trump, trump_card):
    q = make_question("W,AS,3H,JS", trump, 2, 4, trump_card=trump_card, policy=POLICY, player_policy=POLICY)
    setup, acc, turn_up, hands = _deals(q)
    hand = cards_to_mask(q.hand)
    assert (hands[:, 1] == np.uint64(hand)).all()
    bits = np.left_shift(np.uint64(1), turn_up.astype(np.uint64))
    assert not (hands & bits[:, None]).any(), "the turned-up card was dealt to someone"
    assert not (bits & np.uint64(hand)).any()
    if trump_card is not None:
        assert (turn_up == q.trump_card).all()
    elif trump == "none":
        assert (bits & np.uint64(JESTER_MASK)).all()  # a Jester is out of play
    else:
        assert (turn_up // 13 == "SHDC".index(trump)).all() and (turn_up < 52).all()
    everyone = np.bitwise_or.reduce(hands, axis=1) | bits
    assert (_count(everyone, (1 << 60) - 1) == 4 * 4 + 1).all()


def test_no_trump_leaves_one_jester_fewer_for_the_opponents():
    q = make_question("AS,3H", "none", 1, 4, policy="random")
    _, _, _, hands = _deals(q, n=20_000)
    jesters = _count(hands[:, 1:].ravel(), JESTER_MASK).reshape(-1, 3).sum(axis=1).mean()
    # 3 of the 57 cards left after the hand and the turned-up Jester, against 4 of 58 unconditioned.
    assert jesters == pytest.approx(6 * 3 / 57, abs=0.02)
    assert abs(jesters - 6 * 4 / 58) > 0.05


def test_last_round_turns_nothing_up_and_has_no_trump():
    hand = ",".join(["W", "W", "W", "W"] + [f"{r}S" for r in "23456789TJQKA"] + ["AH", "KH", "QH"])
    q = make_question(hand, "none", 3, 3, policy="random")
    assert q.last_round and q.turn_up_pool == 0
    _, _, turn_up, hands = _deals(q, n=50)
    assert (turn_up == -1).all()
    assert (np.bitwise_or.reduce(hands, axis=1) == np.uint64((1 << 60) - 1)).all()


@needs_heuristic
def test_an_earlier_bid_of_zero_means_fewer_wizards():
    plain = make_question("AS,3H,9C,4D,TD", "H", 2, 4, policy="heuristic", player_policy="heuristic")
    zero = make_question("AS,3H,9C,4D,TD", "H", 2, 4, bids="0", policy="heuristic", player_policy="heuristic")
    _, acc0, _, hands0 = _deals(plain, n=20_000)
    model, acc, _, hands = _deals(zero, n=20_000)
    assert acc0.all() and model.reads_bids([0])
    assert 500 < acc.sum() < 20_000
    w_plain = _count(hands0[:, 0], WIZARD_MASK).mean()
    w_zero = _count(hands[acc, 0], WIZARD_MASK).mean()
    assert w_zero < w_plain - 0.15, (w_zero, w_plain)
    assert w_plain == pytest.approx(5 * 4 / 54, abs=0.03)  # a spade turned up: 54 unknown, 4 Wizards


@needs_heuristic
def test_a_dealer_who_named_hearts_holds_more_hearts():
    named = make_question("AS,3C,9C", "H", 1, 4, trump_card="W", policy="heuristic", player_policy="heuristic")
    _, acc, _, hands = _deals(named, n=20_000)
    assert named.dealer_named_trump and 0 < acc.sum() < 20_000
    hearts = _count(hands[acc, 3], SUIT_MASKS[1]).mean()
    assert hearts > 3 * 13 / 56 + 0.3


def test_a_policy_that_bids_blind_is_not_conditioned_on():
    a = advise("W,AS,3H", "S", 3, bids="3,0", policy="random", samples=500, seed=1)
    assert not a.conditioned and a.tried == a.samples == 500


@needs_heuristic
def test_conditioned_advice_reports_its_effective_sample_size():
    a = advise("W,AS,3H", "S", 3, bids="0,2", policy="heuristic", samples=2000, seed=1)
    assert a.conditioned and a.samples == a.ess == 2000 and a.tried > 2000


def test_the_hook_forbids_the_dealers_one_bid():
    a = advise("W,AS,3H", "S", 4, bids="1,1,0", hook=True, samples=3000, seed=2)
    assert a.table["allowed"].tolist() == [True, False, True, True]
    assert a.best_bid != 1
    assert a.best_bid == int(np.argmax(np.where(a.table["allowed"], a.table["ev"], -np.inf)))
    # an out-of-range forbidden number leaves the dealer free
    free = advise("W,AS,3H", "S", 4, bids="2,2,0", hook=True, samples=200, seed=2)
    assert free.table["allowed"].all()


@pytest.mark.parametrize("hand,trump,seat", [("W,AS,3H", "S", 2), ("J,2C,5D,8H", "none", 1), ("KS,QS", "H", 4)])
def test_best_bid_is_the_argmax_of_expected_score_among_allowed_bids(hand, trump, seat):
    a = advise(hand, trump, seat, seed=4)
    t = a.table
    assert list(t.columns) == ["bid", "allowed", "p_exact", "ev", "ev_low", "ev_high", "expected_tricks"]
    assert t["bid"].tolist() == list(range(len(parse_cards(hand)) + 1))
    assert a.best_bid == int(t.loc[t["allowed"], "ev"].idxmax())
    assert a.p_tricks.shape == (len(t), len(t))
    assert np.allclose(a.p_tricks.sum(axis=1), 1)
    assert np.allclose(t["p_exact"], np.diag(a.p_tricks))
    assert np.allclose(t["expected_tricks"], a.p_tricks @ np.arange(len(t)))
    assert (t["ev_low"] <= t["ev"]).all() and (t["ev"] <= t["ev_high"]).all()


def test_default_precision_stops_when_the_best_bid_is_clear_or_at_the_cap():
    q = make_question("W,AS,3H", "S", 2, 4, policy=POLICY, player_policy=POLICY)
    a = advise("W,AS,3H", "S", 2, seed=9)
    got = sampling.sample(q, _model(q, None), 9)
    assert got.tricks.shape[0] == a.samples
    scores = sampling.scores_of(got.tricks)
    look = int(np.log2(a.samples // sampling.FIRST_BATCH))
    assert sampling.separated(scores, np.ones(4, bool), look) or a.samples == sampling.default_cap(q)
    if a.samples > sampling.FIRST_BATCH:  # it did not stop at the previous look
        half = scores[: a.samples // 2]
        assert not sampling.separated(half, np.ones(4, bool), look - 1)
    # a coin-flip question runs to its cap
    capped = advise("5C,5D", "S", 1, policy="random", seed=9, max_samples=4000)
    assert capped.samples in (1000, 2000, 4000)


def test_same_seed_same_answer_on_any_thread_count():
    a = advise("W,AS,3H,7D", "D", 3, samples=3000, seed=123)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = advise("W,AS,3H,7D", "D", 3, samples=3000, seed=123)
    finally:
        numba.set_num_threads(before)
    assert a.table.equals(b.table) and np.array_equal(a.p_tricks, b.p_tricks)
    c = advise("W,AS,3H,7D", "D", 3, samples=3000, seed=124)
    assert not a.table.equals(c.table)


def test_candidate_bids_share_their_deals():
    """Common random numbers: every bid is played on the same deals, so the tricks taken under two bids
    move together (on independent deals they would be uncorrelated). The scores do not: making one bid
    means missing its neighbour, so scores of different bids are negatively correlated on a shared
    deal, and the stopping rule must use the paired interval (it does: ``sampling.separated``)."""
    q = make_question("W,AS,3H,7D,QC", "D", 2, 4, policy=POLICY, player_policy=POLICY)
    tricks = sampling.sample(q, _model(q), 1, samples=4000).tricks
    assert np.corrcoef(tricks[:, 2], tricks[:, 3])[0, 1] > 0.5
    scores = sampling.scores_of(tricks)
    assert np.corrcoef(scores[:, 2], scores[:, 3])[0, 1] < 0
