"""The table's type in doubt (``policies.model``): a mixture of the model's table (prior 1 - doubt) and a
blind table (prior doubt: uniform bids, random cards) shared by every other seat; on the model's table
each seat heard is blind on its own with prior ``seat_doubt``.

A deal's weight is ``(1 - doubt) P(heard | deal, model) + doubt P(heard | blind)``, checked here against
brute force (every legal bid enumerated with the reference twins of the heuristic and of the weights,
every set of blind seats enumerated); the seats each deal is played out blind are drawn from the
posterior exactly as the twin draws them; at doubt 1 the advice is the advice against random
opponents, at doubt 0 and seat doubt 0 the plain model's.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim import advise
from wizsim.advisor.kernels import reference as advice_ref
from wizsim.advisor.opponents import OpponentModel, opponent_names
from wizsim.advisor.question import make_question
from wizsim.advisor.sampling import deal_types, draw_deals, kernel_setup, seat_priors, weigh_deals
from wizsim.cards import mask_to_cards
from wizsim.policies import model as k
from wizsim.policies import reference as ref
from wizsim.rules.reference import forbidden_bid

trusts = st.one_of(st.sampled_from([0.0, 0.7, 1.0]), st.floats(0.0, 1.0))


@settings(deadline=None, max_examples=200)
@given(players=st.integers(3, 6), r=st.integers(1, 10), hook=st.booleans(), me=st.integers(0, 5),
       bids=st.lists(st.integers(0, 10), min_size=6, max_size=6), n_heard=st.integers(0, 6), blind=st.integers(0, 63),
       trust=trusts, every=st.booleans())
def test_blind_bids_likelihood_is_the_twin(players, r, hook, me, bids, n_heard, blind, trust, every):
    me, n_heard = me % players, min(n_heard, players)
    bids = [min(b, r) for b in bids[:players]]
    kinds = np.array([0 if blind >> s & 1 else 1 for s in range(players)], np.int8)
    got = k.blind_bids_likelihood(kinds, trust, players, r, hook, me, np.array(bids, np.int8), n_heard, every)
    assert got == pytest.approx(ref.blind_bids_likelihood(kinds, trust, players, r, hook, me, bids, n_heard, every))


@settings(deadline=None, max_examples=200)
@given(a=st.floats(0, 1), b=st.floats(1e-6, 1), doubt=st.floats(0, 1))
def test_table_mixture_is_the_twin(a, b, doubt):
    got = k.table_mixture(a, b, doubt)
    want = ref.table_mixture(a, b, doubt)
    assert got[0] == pytest.approx(want[0]) and got[1] == pytest.approx(want[1])
    assert 0.0 <= got[1] <= 1.0


def _brute(q, model, hands, bids, doubt, seat_doubt=0.0):
    """(weight, P(the whole table is blind | deal)) of one deal: each heard seat's bid probability under
    the model (the heuristic twin's bid, the twin's weight) and if blind (1 over the legal bids, counted),
    summed over every set of heard seats that are blind on their own (prior ``seat_doubt`` each)."""
    me, players, r = q.seat - 1, q.players, q.r
    p_model, p_blind = {}, {}
    for s in range(len(bids)):
        if s == me:
            continue
        f = forbidden_bid(q.hook, s, players, r, sum(bids[:s]))
        legal = [b for b in range(r + 1) if b != f]
        cards = [int(c) for c in mask_to_cards(int(hands[s]))]
        star = ref.heuristic_bid(model.params[s], model.table, s, players, r, cards, q.trump, bids, f)
        dist = {b: ref.bid_weight(star, b, r, f, model.bid_trust) for b in legal}
        assert sum(dist.values()) == pytest.approx(1.0)
        p_model[s] = dist[bids[s]]
        p_blind[s] = 1.0 / len(legal)
    whole = doubt * float(np.prod(list(p_blind.values())))
    seats = 0.0
    for types in itertools.product((False, True), repeat=len(p_model)):
        p = 1.0 - doubt
        for s, blind in zip(p_model, types, strict=True):
            p *= seat_doubt * p_blind[s] if blind else (1 - seat_doubt) * p_model[s]
        seats += p
    weight = whole + seats
    return weight, whole / weight


QUESTIONS = [dict(hand="AS,KD,3H", trump_card="7S", seat=3, players=3, bids=[2, 0]),
             dict(hand="W,9C,3H", trump_card="2D", seat=3, players=4, bids=[0, 3], hook=True),
             dict(hand="JS,JD", trump_card="QC", seat=4, players=4, bids=[1, 1, 0])]


@pytest.mark.parametrize("trust", [0.0, 0.7, 1.0])
@pytest.mark.parametrize("doubt,seat_doubt", [(0.2, 0.0), (1.0, 0.0), (0.0, 0.3), (0.2, 0.15), (0.0, 1.0)])
@pytest.mark.parametrize("qa", QUESTIONS)
def test_deal_weights_equal_brute_force_likelihoods(qa, doubt, seat_doubt, trust):
    q = make_question(qa["hand"], None, qa["seat"], qa["players"], bids=qa["bids"], hook=qa.get("hook", False),
                      trump_card=qa["trump_card"], policy="heuristic", player_policy="heuristic")
    model = OpponentModel.build(opponent_names(None, q.players, q.seat), q.seat - 1, "heuristic", trust, 0.0, 0.1,
                                doubt, seat_doubt)
    setup = kernel_setup(q, model)
    n, seed = 300, 11
    _, _, _, _, hands = draw_deals(q, model, seed, n)
    _, _, _, _, seat_model = weigh_deals(setup, seed, 0, n, per_seat=True)
    weight, blind = deal_types(setup, seed, 0, seat_model)
    want = [_brute(q, model, hands[i], list(qa["bids"]), doubt, seat_doubt) for i in range(n)]
    assert weight.tolist() == pytest.approx([w for w, _ in want], rel=1e-9, abs=1e-300)
    twin = advice_ref.table_types(seed, 0, seat_model.tolist(), setup["seat_blind"].tolist(), doubt,
                               seat_priors(setup).tolist(), q.seat - 1)
    assert blind.tolist() == [b for _, b in twin]
    assert weight.tolist() == pytest.approx([w for w, _ in twin], rel=1e-12)
    assert setup["seat_blind"].tolist() == pytest.approx(ref.seat_blind_factors(
        q.players, q.r, q.hook, q.seat - 1, list(qa["bids"]), len(qa["bids"]), setup["named"]), rel=1e-12)
    heard = sum(1 << s for s in range(len(qa["bids"])))
    assert not (blind & ~heard).any() or doubt > 0  # a seat not heard is blind only with the whole table
    others = sum(1 << s for s in range(q.players) if s != q.seat - 1)
    if doubt == 1.0:
        assert (blind == others).all()
    elif seat_doubt == 1.0:
        assert (blind == heard).all()
    if trust < 1.0:
        assert (weight > 0).all()  # soft: no deal impossible


@pytest.mark.parametrize("doubt,seat_doubt", [(0.3, 0.0), (0.3, 0.4), (0.0, 0.15)])
def test_over_every_heard_bid_the_weights_are_a_distribution(doubt, seat_doubt):
    """For a fixed deal, the mixture weight summed over every legal sequence of heard bids is 1."""
    hand, players, seat = "AS,KD,3H", 3, 3
    seed, n = 4, 5
    totals = np.zeros(n)
    for bids in itertools.product(range(4), repeat=2):
        q = make_question(hand, None, seat, players, bids=list(bids), trump_card="7S", policy="heuristic",
                          player_policy="heuristic")
        model = OpponentModel.build(opponent_names(None, players, seat), seat - 1, "heuristic", 0.7, 0.0, 0.1, doubt,
                                    seat_doubt)
        setup = kernel_setup(q, model)
        seat_model = weigh_deals(setup, seed, 0, n, per_seat=True)[4]
        weight, _ = deal_types(setup, seed, 0, seat_model)
        totals += weight
    assert totals == pytest.approx(np.ones(n))


@settings(deadline=None, max_examples=200)
@given(model_f=st.lists(st.floats(0, 1), min_size=3, max_size=6), blind_f=st.lists(st.floats(1e-3, 1), min_size=6,
       max_size=6), doubt=st.floats(0, 1), priors=st.lists(st.floats(0, 1), min_size=6, max_size=6),
       me=st.integers(0, 5))
def test_seat_mixture_is_the_twin(model_f, blind_f, doubt, priors, me):
    """The kernel's closed form against the twin's sum over every set of blind seats."""
    players = len(model_f)
    me, blind_f, priors = me % players, blind_f[:players], priors[:players]
    post = np.zeros(players)
    got = k.seat_mixture(np.array(model_f), np.array(blind_f), doubt, np.array(priors), me, post)
    weight, whole, want_post = ref.seat_mixture(model_f, blind_f, doubt, priors, me)
    assert got[0] == pytest.approx(weight, rel=1e-9, abs=1e-300) and got[1] == pytest.approx(whole, rel=1e-9)
    if weight - whole > 1e-12:
        assert post.tolist() == pytest.approx(want_post, rel=1e-9, abs=1e-12)
    assert post[me] == 0.0


def test_one_wild_bid_makes_that_seat_blind_not_the_others():
    """With a doubt per seat only (prior 0.15), a bid the heuristic would not make raises that seat's
    chance of being played out blind; the seats whose bids fit stay near the prior, and no seat is blind
    at seat doubt 0."""
    q = make_question("W,AS,KS,3H,7D,9C,JC,2H,5S,QD", "S", 4, 4, bids=[9, 2, 3], policy="heuristic",
                      player_policy="heuristic")

    def types(doubt, seat_doubt):
        model = OpponentModel.build(opponent_names(None, 4, 4), 3, "heuristic", 0.7, 0.0, 0.1, doubt, seat_doubt)
        setup = kernel_setup(q, model)
        seat_model = weigh_deals(setup, 5, 0, 4000, per_seat=True)[4]
        return deal_types(setup, 5, 0, seat_model)

    weight, blind = types(0.0, 0.15)
    wild, *usual = [float(np.average(blind >> s & 1, weights=weight)) for s in range(3)]
    assert wild > 0.9 > 0.3 > max(usual)
    _, blind = types(0.2, 0.0)  # the whole table's doubt alone: every other seat blind, or none
    assert set(blind.tolist()) == {0, 0b111}


def test_posterior_follows_the_bids():
    """Bids the heuristic would not make raise the blind table's share of the deals played out."""
    from wizsim.advisor.sampling import sample

    def share(bids):
        q = make_question("W,AS,KS,3H,7D,9C,JC,2H,5S,QD", "S", 3, 4, bids=bids, policy="heuristic",
                          player_policy="heuristic")
        model = OpponentModel.build(opponent_names(None, 4, 3), 2, "heuristic", 0.7, 0.0, 0.1, 0.2)
        return sample(q, model, seed=3, samples=400).blind_share

    odd, usual = share([9, 0]), share([2, 3])
    assert odd > 0.5 > 0.2 > usual


def test_doubt_one_is_advice_against_random_players_and_zero_the_plain_model():
    q = dict(hand="AS,KD,3H,JH,5C", trump="S", seat=3, bids=[1, 2], seed=4, samples=400)
    blind = advise(**q, doubt=1.0)
    rnd = advise(**q, policy="random", doubt=0.0)
    assert np.array_equal(blind.p_tricks, rnd.p_tricks)
    a, b = advise(**q, doubt=0.0), advise(**q, doubt=0.0)
    assert np.array_equal(a.p_tricks, b.p_tricks) and a.doubt == 0.0
    d = advise(**q)
    assert d.to_dict()["doubt"] == d.doubt > 0
    with pytest.raises(ValueError, match="doubt"):
        advise(**q, doubt=1.5)


def test_round_one_exact_with_doubt_is_the_mixture_of_the_two_tables():
    """Round 1 is exact: with play forced, the answer at doubt d mixes the model's and the blind table's
    sums by their priors times the likelihood of the heard bids; the sampler agrees with it, with a doubt
    per seat too."""
    q = dict(hand="KC", trump="S", seat=3, players=4, bids=[1, 0], seat_doubt=0.0)
    exact = advise(**q, doubt=0.3)
    mc = advise(**q, doubt=0.3, method="monte-carlo", samples=20_000, seed=2)
    assert exact.method == "exact" and exact.doubt == 0.3
    assert ((mc.ev_low <= exact.ev) & (exact.ev <= mc.ev_high)).all()
    sure, blind = advise(**q, doubt=0.0), advise(**q, doubt=1.0)
    lo, hi = sorted([sure.p_exact[1], blind.p_exact[1]])
    assert lo <= exact.p_exact[1] <= hi
    assert blind.p_exact[1] == pytest.approx(advise(**{**q, "seat_doubt": None}, policy="random").p_exact[1])
    # each heard seat blind on its own too, and a dealer that named a suit on a turned-up Wizard
    for ask in (q, dict(hand="W", trump="H", seat=2, players=3, bids=[1], trump_card="W")):
        ask = {**ask, "seat_doubt": 0.6}
        one = advise(**ask, doubt=0.3)
        mc = advise(**ask, doubt=0.3, method="monte-carlo", samples=40_000, seed=2)
        assert one.method == "exact" and one.seat_doubt == 0.6
        assert ((mc.ev_low <= one.ev) & (one.ev <= mc.ev_high)).all()
        assert one.p_exact[1] != pytest.approx(advise(**{**ask, "seat_doubt": 0.0}, doubt=0.3).p_exact[1], abs=1e-3)


def test_trump_advice_doubts_the_table_too_and_play_advice_takes_the_doubt():
    from click.testing import CliRunner

    import wizsim
    from wizsim.cli import main

    a = wizsim.advise_trump("W,AS,3H,KH,QH", 4, seed=1, samples=2000, doubt=0.5)
    bid = wizsim.advise("W,AS,3H,KH,QH", "H", 4, trump_card="W", seed=1, samples=2000, doubt=0.5)
    assert a.ev[1] == pytest.approx(bid.ev[bid.best_bid], abs=1e-9)
    out = CliRunner().invoke(main, ["advise", "--hand", "AS,KD,3H", "--trump", "S", "--seat", "1", "--bids",
                                    "1,0,1,1", "--doubt", "0.2", "--seed", "4", "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert got["doubt"] == 0.2 and got["phase"] == "play"
    assert got == wizsim.advise_play("AS,KD,3H", "S", 1, bids=[1, 0, 1, 1], doubt=0.2, seed=4).to_dict()
