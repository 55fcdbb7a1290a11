"""Round 1 by exact enumeration: closed forms, brute force over every deal, and the sampler agreeing."""

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim import advise
from wizsim.advisor.exact import exact_round_one, role, trick_winners
from wizsim.advisor.opponents import OpponentModel, opponent_names
from wizsim.advisor.question import make_question
from wizsim.cards import SUIT_MASKS, cards_to_mask, mask_to_cards, parse_cards
from wizsim.policies import policy_names
from wizsim.rules.reference import Trick

needs_heuristic = pytest.mark.skipif("heuristic" not in policy_names(), reason="heuristic policy not registered")


def _model(q, bid_trust=1.0):
    return OpponentModel.build(opponent_names(q.policy, q.players, q.seat), q.seat - 1, q.player_policy, bid_trust,
                               0.0)


def _ev(p_win):
    return np.array([20 * (1 - p_win) - 10 * p_win, 30 * p_win - 10 * (1 - p_win)])


def test_ace_of_trumps_leading_loses_only_to_a_wizard():
    # docs/rules.md's round-1 check: the turned-up spade and the AS leave 58 unknown cards with 4 Wizards.
    a = advise("AS", "S", 1, players=4)
    p = comb(54, 3) / comb(58, 3)
    assert a.method == "exact"
    assert a.p_tricks[1, 1] == pytest.approx(p, abs=1e-12)
    assert a.p_tricks[0, 0] == pytest.approx(1 - p, abs=1e-12)
    assert np.allclose(a.ev, _ev(p), atol=1e-9)
    assert (a.ev_low == a.ev).all() and (a.ev_high == a.ev).all()
    assert a.best_bid == 1
    assert a.to_dict()["method"] == "exact"


def test_known_trump_card_gives_the_same_answer_as_a_known_suit():
    a = advise("AS", "S", 1, players=4, trump_card="2S")
    assert a.p_tricks[1, 1] == pytest.approx(comb(54, 3) / comb(58, 3), abs=1e-12)


@pytest.mark.parametrize("hand,trump,seat,players,trump_card,p", [
    ("W", "S", 1, 4, None, 1.0),  # the first Wizard wins
    ("W", "S", 2, 4, None, 55 / 58),  # seat 1 must not hold one of the 3 other Wizards
    ("J", "none", 1, 3, None, 2 / 58 * 1 / 57),  # the turned-up Jester is out: 2 Jesters left among 58
    ("J", "S", 2, 3, None, 0.0),  # a Jester wins only when played first
    ("2S", "S", 4, 4, None, comb(43, 3) / comb(58, 3)),  # the turn-up is a higher spade: 11 left + 4 W
    ("2S", None, 4, 4, "3S", comb(43, 3) / comb(58, 3)),  # 3S turned up: 11 higher spades + 4 W
    ("2S", "S", 4, 4, "W", comb(43, 3) / comb(58, 3)),  # a Wizard turned up, the player named S: 12 + 3 W
    ("KH", "none", 1, 4, "J", comb(53, 3) / comb(58, 3)),  # no trump: loses only to the 4 W and AH
])
def test_round_one_closed_forms(hand, trump, seat, players, trump_card, p):
    a = advise(hand, trump, seat, players, trump_card=trump_card)
    assert a.p_tricks[1, 1] == pytest.approx(p, abs=1e-12)


def _brute(q, weight_of=None):
    """Every deal of the opponents' single cards (and of the turned-up card when only its suit is known),
    the winner found by the plain-Python rule book."""
    card = q.hand[0]
    seat0 = q.seat - 1
    others = [s for s in range(q.players) if s != seat0]
    turn_ups = [q.trump_card] if q.trump_card is not None else list(mask_to_cards(q.turn_up_pool))
    num = den = 0.0
    for t in turn_ups:
        unknown = [int(c) for c in mask_to_cards(q.unknown_mask & ~(1 << int(t)))]
        for deal in itertools.permutations(unknown, len(others)):
            w = 1.0
            if weight_of is not None:
                w = weight_of(dict(zip(others, deal, strict=True)), int(t))
            if w == 0:
                continue
            cards = [0] * q.players
            cards[seat0] = card
            for s, c in zip(others, deal, strict=True):
                cards[s] = c
            trick = Trick(trump=q.trump, cards=cards)
            num += w * (trick.winner() == seat0)
            den += w
    return num / den


@settings(deadline=None, max_examples=25)
@given(st.integers(0, 59), st.sampled_from(["S", "H", "D", "C", "none"]), st.integers(1, 3), st.booleans())
def test_class_enumeration_equals_brute_force_three_players(card, trump, seat, known_turn_up):
    hand = [card]
    trump_card = None
    if known_turn_up:
        trump_card = next(c for c in range(60) if c != card and (
            (trump == "none" and c >= 56) or (trump != "none" and c < 52 and c // 13 == "SHDC".index(trump))))
    q = make_question(hand, trump, seat, 3, trump_card=trump_card, policy="random")
    assert exact_round_one(q, _model(q)).p_win == pytest.approx(_brute(q), abs=1e-12)


@needs_heuristic
@pytest.mark.parametrize("hand,trump,bids,trump_card", [
    ("9H", "S", "0,1", None),
    ("AS", "S", "1,0", None),
    ("KD", "none", "0,0", None),
    ("QC", "H", "1,1", "W"),  # seat 3 of 3 deals here: the player named hearts itself
])
@pytest.mark.parametrize("trust", [1.0, 0.6, 0.0])
def test_conditioned_enumeration_equals_brute_force(hand, trump, bids, trump_card, trust):
    """The enumeration's weights are the model's likelihoods: the brute force over every deal weighs each
    by the plain-Python twins (the heuristic's bid twin, the model's bid weight twin)."""
    from wizsim.policies import make_slots
    from wizsim.policies import reference as ref

    q = make_question(hand, trump, 3, 3, bids=bids, trump_card=trump_card, policy="heuristic")
    slots = make_slots(["heuristic"])

    def weight_of(deal, t):
        w = 1.0
        for s, b in enumerate(q.earlier_bids):
            got = ref.heuristic_bid(slots.params[0], slots.table, s, 3, 1, [deal[s]], q.trump, list(q.earlier_bids), -1)
            w *= ref.bid_weight(got, b, 1, -1, trust)
        return w

    got = exact_round_one(q, _model(q, trust))
    assert got.p_win == pytest.approx(_brute(q, weight_of), abs=1e-12)
    assert got.conditioned == (trust > 0)
    if trust == 0:
        assert got.p_win == pytest.approx(_brute(q), abs=1e-12)  # bid_trust 0: conditioning on nothing


def test_class_enumeration_equals_vectorised_brute_force_four_players():
    for hand, trump, seat in [("TH", "S", 2), ("4S", "S", 3), ("QD", "none", 4), ("J", "C", 1)]:
        q = make_question(hand, trump, seat, 4, policy="random")
        seat0 = seat - 1
        others = [s for s in range(4) if s != seat0]
        num = den = 0
        for t in mask_to_cards(q.turn_up_pool):
            unknown = mask_to_cards(q.unknown_mask & ~(1 << int(t))).astype(np.int64)
            deals = np.array(list(itertools.permutations(unknown, 3)))
            cards = np.empty((len(deals), 4), np.int64)
            cards[:, seat0] = q.hand[0]
            cards[:, others] = deals
            num += (trick_winners(cards, q.trump) == seat0).sum()
            den += len(deals)
        assert exact_round_one(q, _model(q)).p_win == pytest.approx(num / den, abs=1e-12)


@settings(deadline=None, max_examples=60)
@given(st.lists(st.integers(0, 59), min_size=3, max_size=6, unique=True), st.integers(-1, 3))
def test_vectorised_trick_winner_is_the_rule_books(cards, trump):
    got = trick_winners(np.array([cards]), trump)[0]
    assert got == Trick(trump=trump, cards=list(cards)).winner()


def test_roles_put_a_trumps_rivals_apart():
    # AS trump: Wizards, higher trumps (none) and the rest; 9S trump: TS..AS are rivals, 2S..8S are not.
    nine = parse_cards("9S")[0]
    assert {role(nine, c, 0) for c in range(52, 56)} == {0}
    assert {role(nine, c, 0) for c in parse_cards("TS,JS,QS,KS,AS")} == {1}
    assert {role(nine, c, 0) for c in parse_cards("8S,2S,AH,J")} == {2}


def test_monte_carlo_round_one_lies_within_its_intervals_of_the_exact_answer():
    for hand, trump, seat, kw in [("AS", "S", 1, {}), ("9H", "S", 3, {}), ("QD", "none", 2, {"players": 5})]:
        exact = advise(hand, trump, seat, **kw)
        mc = advise(hand, trump, seat, method="monte-carlo", samples=20_000, seed=11, **kw)
        assert mc.method == "monte-carlo" and mc.samples == 20_000
        assert ((mc.ev_low <= exact.ev) & (exact.ev <= mc.ev_high)).all(), (hand, mc.table, exact.table)


@needs_heuristic
def test_monte_carlo_conditioned_round_one_agrees_with_exact():
    """The sampler's rejection on heard bids and the enumeration's per-card weights are the same
    conditioning: the exact answer lies in the sampler's interval."""
    for hand, trump, seat, kw in [("9H", "S", 3, {"bids": "0,1"}), ("KC", "D", 2, {"bids": "1"}),
                                  ("TS", "H", 1, {"trump_card": "W"})]:
        exact = advise(hand, trump, seat, policy="heuristic", **kw)
        assert exact.conditioned
        mc = advise(hand, trump, seat, policy="heuristic", method="monte-carlo", samples=20_000, seed=5, **kw)
        assert mc.conditioned and mc.tried > mc.samples
        assert ((mc.ev_low <= exact.ev) & (exact.ev <= mc.ev_high)).all(), (hand, mc.table, exact.table)
        plain = advise(hand, trump, seat, policy="heuristic", **{k: v for k, v in kw.items() if k != "bids"})
        if "bids" in kw:
            assert plain.p_tricks[1, 1] != pytest.approx(exact.p_tricks[1, 1], abs=1e-6)


def test_pooled_turn_up_excludes_the_players_own_card_from_the_pool():
    q = make_question("AS", "S", 1, 4, policy="random")
    assert q.turn_up_pool == int(SUIT_MASKS[0]) & ~cards_to_mask([12])


@needs_heuristic
@pytest.mark.parametrize("bid_trust,trump_trust", [(0.6, 1.0), (0.6, 0.9), (1.0, 0.5), (0.6, 0.0)])
def test_named_suit_is_weighed_by_its_own_trust(bid_trust, trump_trust):
    """A dealer's named suit on a turned-up Wizard is evidence with a trust of its own (trump_trust), apart
    from the heard bids' (bid_trust): the brute force weighs each deal by the bid's weight at bid_trust
    times the named suit's weight (the heuristic's trump choices twin) at trump_trust."""
    from wizsim.advisor.opponents import OpponentModel
    from wizsim.policies import make_slots
    from wizsim.policies import reference as ref

    q = make_question("5H", "H", 2, 3, bids="0", trump_card="W", policy="heuristic")
    slots = make_slots(["heuristic"])

    def weight_of(deal, t):
        got = ref.heuristic_bid(slots.params[0], slots.table, 0, 3, 1, [deal[0]], q.trump, [0], -1)
        w = ref.bid_weight(got, 0, 1, -1, bid_trust)
        return w * ref.named_trump_likelihood(1, slots.params[0], slots.table, trump_trust, 3, 1, 1 << deal[2],
                                              q.trump)

    model = OpponentModel.build(opponent_names(q.policy, 3, 2), 1, q.player_policy, bid_trust, 0.0,
                                trump_trust=trump_trust)
    got = exact_round_one(q, model)
    assert got.p_win == pytest.approx(_brute(q, weight_of), abs=1e-12)
    if trump_trust == 0.0:  # the named suit tells nothing: only the bid weighs
        assert got.p_win == pytest.approx(
            _brute(q, lambda d, t: ref.bid_weight(ref.heuristic_bid(slots.params[0], slots.table, 0, 3, 1, [d[0]],
                                                                    q.trump, [0], -1), 0, 1, -1, bid_trust)),
            abs=1e-12)


@needs_heuristic
def test_trump_trust_reaches_the_answer_and_its_record():
    """advise(trump_trust=...) changes the answer only where an opponent dealer named the suit, and the
    answer says what it used; at trust 1, no doubt, the named suit is exactly the heuristic's choice."""
    exact = advise("5H", "H", 2, trump_card="W", bid_trust=1.0, doubt=0.0, seat_doubt=0.0, trump_trust=1.0)
    loose = advise("5H", "H", 2, trump_card="W", bid_trust=1.0, doubt=0.0, seat_doubt=0.0, trump_trust=0.0)
    assert exact.p_tricks[1, 1] < loose.p_tricks[1, 1] - 0.1  # the dealer holds hearts: 5H takes less often
    assert exact.to_dict()["trump_trust"] == 1.0 and loose.to_dict()["trump_trust"] == 0.0
    known = advise("5H", "H", 2, trump_card="7H", trump_trust=1.0)
    assert known.p_tricks[1, 1] == advise("5H", "H", 2, trump_card="7H", trump_trust=0.0).p_tricks[1, 1]
    with pytest.raises(ValueError, match="trump_trust must be 0..1"):
        advise("5H", "H", 2, trump_card="W", trump_trust=1.5)
