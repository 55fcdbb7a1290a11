"""The opponents' model of a net seat (``policies.model.MODEL_NET``, issue 35): a heard bid weighed by the bid
network's softmax, a dealer's named suit by the trump network's, kernels against their twins on random deals,
and the compile gate (a table without a net model compiles none of net's code, and refuses a net seat)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_advisor_kernel import questions

from wizsim.advisor.exact import seat_weights
from wizsim.advisor.kernels import reference as advisor_ref
from wizsim.advisor.kernels.evidence import deal_likelihoods_kernel
from wizsim.advisor.opponents import OpponentModel
from wizsim.cards import N_CARDS
from wizsim.policies import make_slots, net_reference
from wizsim.policies import model as k
from wizsim.policies import reference as ref
from wizsim.policies.net import NET_OFFSET
from wizsim.policies.observation import observe
from wizsim.policies.records import Evidence, Opponents, RoundInfo, RoundState, state_arrays
from wizsim.rules.reference import forbidden_bid

SLOTS = make_slots(["heuristic", "net"])  # the net's weights in the table, the heuristic's params row
TABLE = SLOTS.table
trusts = st.one_of(st.sampled_from([0.0, 1.0, 0.7]), st.floats(0.0, 1.0))


def _deal(rnd: random.Random, players: int, r: int, hook: bool):
    """(hands as masks, turned-up card, trump, legal bids of every seat in order)."""
    deck = list(range(N_CARDS))
    rnd.shuffle(deck)
    hands = np.array([sum(1 << c for c in deck[s * r:(s + 1) * r]) for s in range(players)], np.uint64)
    rest = deck[players * r:]
    turn_up = rest[0] if rest else -1
    if turn_up < 0 or turn_up >= 56:  # none, or a Jester: no trump
        trump = -1
    elif turn_up >= 52:  # a Wizard: the dealer named one
        trump = rnd.randrange(4)
    else:
        trump = turn_up // 13
    bids = []
    for s in range(players):
        f = forbidden_bid(hook, s, players, r, sum(bids))
        bids.append(rnd.choice([b for b in range(r + 1) if b != f]))
    return hands, turn_up, trump, np.array(bids, np.int8)


def _opponents(kinds, trust, trump_trust=None):
    params = np.stack([SLOTS.params[0]] * len(kinds))
    net = True if (np.asarray(kinds) == k.MODEL_NET).any() else None
    return Opponents(np.array(kinds, np.int8), params, TABLE, trust, 0.0, trust if trump_trust is None else trump_trust,
                     net)


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), trust=trusts, hook=st.booleans(), me=st.integers(0, 5),
       kinds=st.lists(st.sampled_from([k.MODEL_BLIND, k.MODEL_HEURISTIC, k.MODEL_NET]), min_size=6, max_size=6))
def test_net_seats_bids_and_named_suit_are_the_twin(seed, players, trust, hook, me, kinds):
    rnd = random.Random(seed)
    r = rnd.randint(1, min(12, N_CARDS // players))
    hands, turn_up, trump, bids = _deal(rnd, players, r, hook)
    me %= players
    kinds = kinds[:players]
    kinds[rnd.randrange(players)] = k.MODEL_NET
    n_heard = rnd.randint(0, players)
    opponents, info = _opponents(kinds, trust), RoundInfo(players, r, hook, turn_up, trump)
    model_bids = np.zeros(players, np.int8)
    got = k.bids_likelihood(opponents, info, me, hands, bids, n_heard, model_bids)
    want, want_bids = ref.bids_likelihood(opponents, info, me, hands, list(bids), n_heard)
    assert got == pytest.approx(want, rel=1e-9)
    assert model_bids.tolist() == want_bids
    assert got <= k.bids_bound(opponents.kinds, trust, players, r, hook, me, bids, n_heard) * (1 + 1e-12)
    named = trump if (52 <= turn_up < 56 and me != players - 1) else -1
    factors = np.zeros(players)
    k.seat_factors(opponents, info, me, hands, bids, n_heard, named, model_bids, False, factors)
    assert factors.tolist() == pytest.approx(ref.seat_factors(opponents, info, me, hands, list(bids), n_heard, named),
                                             rel=1e-9)
    # under the model, the seats' product is the bids' likelihood times the named suit's and the constant part
    product = got * k.blind_bids_likelihood(opponents.kinds, trust, players, r, hook, me, bids, n_heard, False)
    if named >= 0:
        d = players - 1
        suit = k.named_trump_likelihood(opponents.kinds[d], opponents.params[d], TABLE, trust, players, r, hands[d],
                                        named, True)
        assert suit == pytest.approx(ref.named_trump_likelihood(kinds[d], opponents.params[d], TABLE, trust, players, r,
                                                                int(hands[d]), named), rel=1e-9)
        assert suit <= k.named_trump_bound(kinds[d], trust) * (1 + 1e-12)
        product *= suit
    assert np.prod(factors) == pytest.approx(product, rel=1e-9)


@settings(deadline=None, max_examples=15)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), hook=st.booleans())
def test_at_bid_trust_one_a_heard_bid_weighs_its_softmax(seed, players, hook):
    rnd = random.Random(seed)
    r = rnd.randint(1, N_CARDS // players)
    hands, turn_up, trump, bids = _deal(rnd, players, r, hook)
    seat = rnd.randrange(players)
    forbidden = forbidden_bid(hook, seat, players, r, int(bids[:seat].sum()))
    info = RoundInfo(players, r, hook, turn_up, trump)
    state = state_arrays(players)._replace(bids=bids)
    obs = observe(info, state, seat, int(hands[seat]), 0, forbidden, 0, 0, -1, -1)
    probs = net_reference.bid_softmax(TABLE[NET_OFFSET:], obs)
    assert probs.sum() == pytest.approx(1.0) and (forbidden < 0 or probs[forbidden] == 0.0)
    weight, own = k.seat_bid_weight(_opponents([k.MODEL_NET] * players, 1.0), seat, info, hands[seat], bids, forbidden)
    assert weight == pytest.approx(probs[bids[seat]], rel=1e-9)
    assert own == net_reference.net_bid(TABLE[NET_OFFSET:], obs)
    # the kernel's softmax itself, every bid
    out = np.empty(21)
    assert k.net_bid_softmax(TABLE, obs, out) == own
    np.testing.assert_allclose(out[:r + 1], probs, rtol=1e-9, atol=1e-15)
    # the named suit at trust 1: the trump network's softmax
    suits = net_reference.trump_softmax(TABLE[NET_OFFSET:], int(hands[seat]), players, r)
    got = [k.named_trump_likelihood(k.MODEL_NET, SLOTS.params[0], TABLE, 1.0, players, r, hands[seat], s, True)
           for s in range(4)]
    np.testing.assert_allclose(got, suits, rtol=1e-9)


def test_net_opponents_get_the_net_model_and_others_keep_theirs():
    model = OpponentModel.build(("net", "heuristic", "random"), 0, "heuristic", 0.7, 0.5)
    assert model.kinds.tolist() == [k.MODEL_HEURISTIC, k.MODEL_NET, k.MODEL_HEURISTIC, k.MODEL_BLIND]
    assert model.record().net is True
    assert OpponentModel.build(("heuristic",) * 3, 1, "heuristic", 0.7, 0.5).record().net is None


def test_a_net_seat_in_kernels_built_without_net_is_refused():
    hands = np.array([1, 2, 4], np.uint64)
    info = RoundInfo(3, 1, False, 10, 0)
    opponents = _opponents([k.MODEL_NET] * 3, 0.7)._replace(net=None)
    with pytest.raises(ValueError, match="without net's code"):
        k.bids_likelihood(opponents, info, 2, hands, np.array([0, 1, -1], np.int8), 2, np.zeros(3, np.int8))


@settings(deadline=None, max_examples=12)
@given(questions(), st.integers(0, 2**63 - 1), st.sampled_from([0.3, 0.7, 1.0]), st.sampled_from([-2, 0, 2]),
       st.lists(st.sampled_from([k.MODEL_BLIND, k.MODEL_HEURISTIC, k.MODEL_NET]), min_size=6, max_size=6))
def test_bid_advices_weighed_deals_are_the_twins_for_net_seats(q, seed, trust, named, kinds):
    """Bid advice's deals (``deal_likelihoods_kernel``) weighed with net seats: the likelihood, each seat's
    part of it (``seat_factors``, recomputed for a net seat) and net's own bids, as the twins compute them."""
    n, players, r = 4, q["players"], q["r"]
    kinds = np.array(kinds[:players], np.int8)
    kinds[players - 1] = k.MODEL_NET  # the dealer: its named suit by the trump network
    opponents = _opponents(kinds, trust)
    bids = np.array(q["fixed_bids"], np.int8)
    like, u = np.zeros(n), np.zeros(n)
    model_bids, named_ok = np.zeros((n, players), np.int8), np.zeros(n, np.bool_)
    seat_model = np.zeros((n, players))
    evidence = Evidence(bids, np.int64(q["seat"]), np.int64(named), np.zeros(players, np.uint64), np.zeros(0, np.int8),
                        np.int64(0))
    info = RoundInfo(players, r, q["hook"], np.int64(-1), np.int64(max(q["fixed_trump"], -1)))
    deal_likelihoods_kernel((np.uint64(seed), np.int64(0), np.int64(0), np.int64(n)),
                            (np.asarray(q["fixed_hands"], np.uint64), np.uint64(q["pool"])), info, q["seat"],
                            opponents, evidence, (like, u, model_bids, named_ok, seat_model),
                            (np.empty(1, np.uint64), np.empty(players, np.uint64)))
    want = advisor_ref.deal_likelihoods(seed, 0, n, info, q["fixed_hands"], q["pool"], q["seat"], opponents, evidence)
    assert like.tolist() == [pytest.approx(w[0], rel=1e-9) for w in want]
    assert seat_model.tolist() == [pytest.approx(w[2], rel=1e-9) for w in want]
    assert named_ok.all()  # a softmax gives every suit some weight
    bound = k.bids_bound(kinds, trust, players, r, q["hook"], q["seat"], bids, q["seat"])
    if named >= 0 and q["seat"] != players - 1:
        bound *= k.named_trump_bound(k.MODEL_NET, trust)
    assert (like <= bound * (1 + 1e-12)).all()


@settings(deadline=None, max_examples=10)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), hook=st.booleans(), trust=st.sampled_from([0.5, 1.0]))
def test_round_one_enumeration_weighs_net_seats_by_the_twin(players, seed, hook, trust):
    """Round 1's exact enumeration (``advisor.exact.seat_weights``) weighs each net seat's heard bid and a net
    dealer's named suit card by card as the twins do."""
    rnd = random.Random(seed)
    me = players - 2  # the dealer, seat players - 1, is an opponent: it named the trump on a Wizard
    earlier = [rnd.randint(0, 1) for _ in range(me)]
    trump, turn_up = rnd.randrange(4), 52
    model = OpponentModel.build(("net",) * (players - 1), me, "heuristic", trust, 0.5, trump_trust=trust)
    q = SimpleNamespace(players=players, earlier_bids=earlier, hook=hook, trump=trump, dealer_named_trump=True)
    cards = np.array(rnd.sample(range(52), 5))
    got = seat_weights(q, model, turn_up, cards)
    info = RoundInfo(players, 1, hook, turn_up, trump)
    bids = list(earlier) + [-1] * (players - me)
    for s in range(me):
        want = [ref.seat_bid_weight(model.record(), s, info, 1 << int(c), bids, -1)[0] for c in cards]
        np.testing.assert_allclose(got[s], want, rtol=1e-9)
    d = players - 1
    want = [ref.named_trump_likelihood(k.MODEL_NET, model.params[d], model.table, trust, players, 1, 1 << int(c), trump)
            for c in cards]
    np.testing.assert_allclose(got[d], want, rtol=1e-9)


def _played_round(rnd: random.Random, hands, players: int, trump: int, n_played: int):
    """(the first ``n_played`` cards of a round in order of play, each a random legal card: seat 0 leads
    the first trick, each trick's winner the next), with the rules twin."""
    from wizsim.rules.reference import Trick

    held = [{c for c in range(N_CARDS) if int(h) >> c & 1} for h in hands]
    order, trick, leader = [], Trick(trump=trump), 0
    for _ in range(n_played):
        if len(trick.cards) == players:
            leader = (leader + trick.winner()) % players
            trick = Trick(trump=trump)
        s = (leader + len(trick.cards)) % players
        card = rnd.choice(sorted(c for c in held[s] if trick.may_play(held[s], c)))
        held[s].discard(card)
        trick.cards.append(card)
        order.append(card)
    return order, leader


@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), trust=trusts, me=st.integers(0, 5),
       kinds=st.lists(st.sampled_from([k.MODEL_BLIND, k.MODEL_HEURISTIC, k.MODEL_NET]), min_size=6, max_size=6))
def test_net_seats_cards_are_weighed_as_the_twin(seed, players, trust, me, kinds):
    """The cards a net seat chose are weighed by the card network's softmax (``net_card_weight``), in the
    round's replay (``play_seat_likelihoods``) and in the current trick (``trick_likelihood``), as the twins
    weigh them; other seats keep the heuristic's weight."""
    rnd = random.Random(seed)
    r = rnd.randint(1, min(10, N_CARDS // players))
    hands, turn_up, trump, bids = _deal(rnd, players, r, False)
    me %= players
    kinds = kinds[:players]
    kinds[(me + 1) % players] = k.MODEL_NET
    n_played = rnd.randint(0, players * r)
    order, leader = _played_round(rnd, hands, players, trump, n_played)
    opponents = _opponents(kinds, 0.7)._replace(play_trust=trust)
    info = RoundInfo(players, r, False, turn_up, trump)
    like = np.zeros((2, players))
    k.play_seat_likelihoods(opponents, info, me, hands, bids, np.array(order + [-1], np.int8), n_played, like)
    want, blind = ref.play_seat_likelihoods(opponents, info, me, hands, list(bids), order, n_played)
    np.testing.assert_allclose(like[0], want, rtol=1e-9)
    np.testing.assert_allclose(like[1], blind, rtol=1e-12)
    # the current trick, weighed from the hands held now
    n_in_trick = n_played % players if n_played < players * r else 0
    if n_in_trick:
        trick = order[n_played - n_in_trick:]
        live = hands.copy()
        for c in order:
            for s in range(players):
                live[s] &= ~np.uint64(1 << c)
        tricks = np.zeros(players, np.int8)  # the tricks taken are read as the need: any count the twin sees too
        voids = np.zeros(players, np.int8)
        trick_cards = np.full(players, -1, np.int8)
        trick_cards[:n_in_trick] = trick
        played = sum(1 << c for c in order)
        state = RoundState(live, np.zeros(players, np.uint64), voids, trick_cards, bids, tricks)
        got = k.trick_likelihood(opponents, info, state, me, np.uint64(played), n_in_trick, leader)
        sets = [{c for c in range(N_CARDS) if int(h) >> c & 1} for h in live]
        want = ref.trick_likelihood(opponents, info, RoundState(sets, None, [set()] * players, trick, list(bids),
                                                                [0] * players), me, list(order), leader)
        assert got == pytest.approx(want, rel=1e-9)


@settings(deadline=None, max_examples=15)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_at_play_trust_one_a_net_seats_card_weighs_its_softmax(seed, players):
    """Trust 1: a net seat's card weighs the card network's probability of it, the probabilities of its legal
    cards sum to 1 (two cards of one kind share it), and the kernel's softmax is the twin's."""
    rnd = random.Random(seed)
    r = rnd.randint(2, N_CARDS // players)
    hands, turn_up, trump, bids = _deal(rnd, players, r, False)
    order, leader = _played_round(rnd, hands, players, trump, rnd.randrange(players * r))
    trick_n = len(order) % players
    seat = (leader + trick_n) % players
    held = int(hands[seat]) & ~sum(1 << c for c in order)
    from wizsim.rules.reference import Trick

    now = Trick(trump=trump)
    now.cards.extend(order[len(order) - trick_n:])
    hand = {c for c in range(N_CARDS) if held >> c & 1}
    legal = [c for c in sorted(hand) if now.may_play(hand, c)]
    seen = ref._seen(seat, players, r, hand, legal, turn_up, trump, bids, [0] * players, order, now,
                     [set()] * players)
    probs = [ref.net_card_weight(TABLE, seen, c, 1.0) for c in legal]
    assert sum(probs) == pytest.approx(1.0)
    trick_cards = np.full(players, -1, np.int8)
    trick_cards[:trick_n] = now.cards
    state = state_arrays(players)._replace(bids=bids, trick_cards=trick_cards)
    obs = observe(RoundInfo(players, r, False, turn_up, trump), state, seat, np.uint64(held),
                  np.uint64(seen.legal), -1, np.uint64(seen.played), trick_n, seen.led, seen.winning_pos)
    got = [k.net_card_weight(TABLE, obs, c, 1.0) for c in legal]
    np.testing.assert_allclose(got, probs, rtol=1e-9)
    soft = np.zeros(54)
    from wizsim.policies.net import net_card_softmax

    net_card_softmax(TABLE, obs, soft)
    np.testing.assert_allclose(soft, net_reference.card_softmax(TABLE[NET_OFFSET:], seen), rtol=1e-9, atol=1e-15)


def test_a_net_seats_card_in_kernels_built_without_net_is_refused():
    hands = np.array([1, 2, 4], np.uint64)
    info = RoundInfo(3, 1, False, 10, 0)
    opponents = _opponents([k.MODEL_NET] * 3, 0.7)._replace(net=None, play_trust=0.5)
    with pytest.raises(ValueError, match="without net's code"):
        k.play_seat_likelihoods(opponents, info, 2, hands, np.array([0, 1, 0], np.int8), np.array([0, 1, 2], np.int8),
                                3, np.zeros((2, 3)))
