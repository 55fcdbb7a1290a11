"""The opponents' model (policies.model): kernels against their twins, and what the weights must be.

A weight is a probability of an observation given the cards: over every possible observation it sums
to 1; trust 1 is hard evidence (only the model's own choice), trust 0 says nothing (the same weight
whatever the cards). The likelihood of a round's bids and cards equals the twin's replay with the rules
twin and the heuristic twin, on random deals and random legal plays.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.cards import N_CARDS
from wizsim.policies import make_slots
from wizsim.policies import model as k
from wizsim.policies import reference as ref
from wizsim.policies.records import Opponents, RoundInfo
from wizsim.rules.reference import Trick, forbidden_bid

trusts = st.one_of(st.sampled_from([0.0, 1.0, 0.5]), st.floats(0.0, 1.0))


@settings(deadline=None, max_examples=300)
@given(r=st.integers(1, 20), model=st.integers(0, 20), heard=st.integers(0, 20), forbidden=st.integers(-1, 20),
       trust=trusts)
def test_bid_weight_is_the_twin_and_a_distribution(r, model, heard, forbidden, trust):
    model, heard = min(model, r), min(heard, r)
    forbidden = forbidden if forbidden <= r else -1
    if model == forbidden:
        model = (model + 1) % (r + 1)
    if heard == forbidden:
        heard = (heard + 1) % (r + 1)
    assert k.bid_weight(model, heard, r, forbidden, trust) == pytest.approx(
        ref.bid_weight(model, heard, r, forbidden, trust), abs=1e-12)
    total = sum(k.bid_weight(model, b, r, forbidden, trust) for b in range(r + 1) if b != forbidden)
    assert total == pytest.approx(1.0)
    assert k.max_bid_weight(heard, r, forbidden, trust) == pytest.approx(ref.max_bid_weight(heard, r, forbidden, trust))


def test_bid_trust_one_is_hard_evidence_and_zero_says_nothing():
    assert k.bid_weight(3, 3, 5, -1, 1.0) == 1.0
    assert k.bid_weight(3, 2, 5, -1, 1.0) == 0.0
    # trust 0: every legal bid equally likely, whatever the model would bid
    assert [k.bid_weight(m, 2, 5, 4, 0.0) for m in range(6) if m != 4] == pytest.approx([1 / 5] * 5)
    # in between: nearer bids likelier, never impossible
    w = [k.bid_weight(3, b, 6, -1, 0.6) for b in range(7)]
    assert w[3] > w[2] > w[1] > w[0] > 0 and w[3] > w[4] > w[5] > w[6] > 0


@settings(deadline=None, max_examples=200)
@given(choices=st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True), trust=trusts)
def test_trump_weight_is_the_twin_and_a_distribution(choices, trust):
    mask = sum(1 << s for s in choices)
    got = [k.trump_weight(mask, s, trust) for s in range(4)]
    assert got == pytest.approx([ref.trump_weight(choices, s, trust) for s in range(4)])
    assert sum(got) == pytest.approx(1.0)
    if trust == 0.0:
        assert got == pytest.approx([0.25] * 4)


@settings(deadline=None, max_examples=200)
@given(n=st.integers(1, 20), trust=trusts)
def test_card_weight_is_the_twin_and_a_distribution(n, trust):
    assert k.card_weight(True, n, trust) == pytest.approx(ref.card_weight(True, n, trust))
    assert k.card_weight(False, n, trust) == pytest.approx(ref.card_weight(False, n, trust))
    if n > 1:
        assert k.card_weight(True, n, trust) + (n - 1) * k.card_weight(False, n, trust) == pytest.approx(1.0)


def _random_round(rnd: random.Random, players: int, r: int):
    """A deal, its turned-up card and trump, and a random legal order of play of ``n`` cards."""
    deck = list(range(N_CARDS))
    rnd.shuffle(deck)
    hands = [sorted(deck[s * r:(s + 1) * r]) for s in range(players)]
    rest = deck[players * r:]
    turn_up = rest[0] if rest else -1
    trump = rnd.randrange(-1, 4)
    held = [set(h) for h in hands]
    order, trick, leader = [], Trick(trump=trump), 0
    n = rnd.randrange(players * r + 1)
    for _ in range(n):
        if len(trick.cards) == players:
            leader = (leader + trick.winner()) % players
            trick = Trick(trump=trump)
        s = (leader + len(trick.cards)) % players
        legal = [c for c in sorted(held[s]) if trick.may_play(held[s], c)]
        c = rnd.choice(legal)
        held[s].discard(c)
        trick.cards.append(c)
        order.append(c)
    return hands, turn_up, trump, order


def _playing(kinds, play_trust):
    """The opponents' model of the play kernels: ``kinds``, trusting the cards chosen ``play_trust``."""
    return Opponents(kinds, np.zeros((len(kinds), 1)), np.zeros(1), 0.0, play_trust, 0.0)


def _masks(hands):
    return np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)


@settings(deadline=None, max_examples=120)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), trust=trusts, blind=st.integers(0, 63),
       hook=st.booleans(), me=st.integers(0, 5))
def test_bids_likelihood_is_the_twin(seed, players, trust, blind, hook, me):
    rnd = random.Random(seed)
    r = rnd.randint(1, N_CARDS // players)
    hands, turn_up, trump, _ = _random_round(rnd, players, r)
    me %= players
    bids = [rnd.randint(0, r) for _ in range(players)]
    for s in range(players):  # the dealer's bid must be legal
        f = forbidden_bid(hook, s, players, r, sum(bids[:s]))
        if bids[s] == f:
            bids[s] = (f + 1) % (r + 1)
    n_heard = rnd.randint(0, players)
    slots = make_slots(["heuristic", "heuristic:bid_shift=0.3"])
    params = np.stack([slots.params[s % 2] for s in range(players)])
    kinds = np.array([0 if blind >> s & 1 else 1 for s in range(players)], np.int8)
    model_bids = np.zeros(players, np.int8)
    opponents, info = Opponents(kinds, params, slots.table, trust, 0.0, trust), RoundInfo(players, r, hook, turn_up, trump)
    got = k.bids_likelihood(opponents, info, me, _masks(hands), np.array(bids, np.int8), n_heard, model_bids)
    want, want_bids = ref.bids_likelihood(opponents, info, me, _masks(hands), bids, n_heard)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-300)
    assert model_bids.tolist() == want_bids
    bound = k.bids_bound(kinds, trust, players, r, hook, me, np.array(bids, np.int8), n_heard)
    assert got <= bound * (1 + 1e-12)


@settings(deadline=None, max_examples=120)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6), trust=trusts, blind=st.integers(0, 63),
       me=st.integers(0, 5))
def test_play_likelihood_is_the_twin(seed, players, trust, blind, me):
    rnd = random.Random(seed)
    r = rnd.randint(1, N_CARDS // players)
    hands, turn_up, trump, order = _random_round(rnd, players, r)
    me %= players
    bids = [rnd.randint(0, r) for _ in range(players)]
    kinds = np.array([0 if blind >> s & 1 else 1 for s in range(players)], np.int8)
    got, got_blind = k.play_likelihoods(_playing(kinds, trust), RoundInfo(players, r, False, turn_up, trump), me,
                                        _masks(hands), np.array(bids, np.int8), np.array(order or [0], np.int8),
                                        len(order))
    want, want_blind = ref.play_likelihoods(_playing(kinds, trust), RoundInfo(players, r, False, turn_up, trump), me,
                                            _masks(hands), bids, order, len(order))
    assert got == pytest.approx(want, rel=1e-12, abs=1e-300)
    assert got_blind == pytest.approx(want_blind, rel=1e-12, abs=1e-300)
    assert got == k.play_likelihood(_playing(kinds, trust), RoundInfo(players, r, False, turn_up, trump), me,
                                    _masks(hands), np.array(bids, np.int8), np.array(order or [0], np.int8),
                                    len(order))
    if trust == 0.0:
        assert got == got_blind == 1.0


@settings(deadline=None, max_examples=120)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_play_choices_is_the_twin(seed, players):
    rnd = random.Random(seed)
    r = rnd.randint(1, N_CARDS // players)
    hands, turn_up, trump, order = _random_round(rnd, players, r)
    bids = [rnd.randint(0, r) for _ in range(players)]
    info = RoundInfo(players, r, False, turn_up, trump)
    for model in ("heuristic", "net", "net:weights=search"):
        table = make_slots([model]).table
        net = None if model == "heuristic" else True
        out = np.zeros((max(len(order), 1), 3), np.int64)
        k.play_choices(info, _masks(hands), np.array(bids, np.int8), np.array(order or [0], np.int8), len(order), out,
                       net, table)
        want = ref.play_choices(info, _masks(hands), bids, order, len(order), None if net is None else table)
        assert [tuple(row) for row in out[:len(order)].tolist()] == want, model


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("model", ["heuristic", "net", "net:weights=search"])
def test_play_choices_of_the_model_are_all_its_own_and_of_other_play_not(players, model):
    """Read against a model, the model's own cards are all its choices; the others' only by chance (random
    play), or where the two players agree (the heuristic against net, and net against the heuristic)."""
    from wizsim.sim.driver import simulate_rounds

    r = 5
    table = make_slots([model]).table
    net = None if model == "heuristic" else True
    other = "net" if model == "heuristic" else "heuristic"
    for policy, share in ((model, 1.0), ("random", None), (other, None)):
        b = simulate_rounds(players, r, 20, policy, seed=3, trick_log=True)
        chose, choices = 0, 0
        for i in range(20):
            out = np.zeros((players * r, 3), np.int64)
            k.play_choices(RoundInfo(players, r, False, int(b.turn_up[i]), int(b.trump[i])), b.hands[i].copy(), b.bids[i],
                           b.log_cards[i], players * r, out, net, table)
            real = out[:, 2] > 1
            chose += int(out[real, 1].sum())
            choices += int(real.sum())
        if share is not None:
            assert chose == choices
        else:
            assert 0.2 < chose / choices < 0.9  # another player's cards are the model's only where they agree


def test_play_likelihood_weighs_only_real_choices():
    """Following a led ace of spades with a single spade is forced: no evidence. With two spades the
    seat chose, and the world in which the heuristic would have chosen that card is the likelier one."""
    from wizsim.cards import parse_cards

    players, r, trump = 3, 3, 1  # hearts trump

    def masks(*hands):
        return np.array([sum(1 << int(c) for c in parse_cards(h)) for h in hands], np.uint64)

    order = np.array(parse_cards("AS,3S"), np.int8)
    bids = np.array([1, 0, 0], np.int8)
    kinds = np.ones(players, np.int8)
    forced = k.play_likelihood(_playing(kinds, 0.8), RoundInfo(players, r, False, -1, trump), 0,
                               masks("AS,2C,3C", "3S,AH,2H", "4C,5C,6C"), bids, order, 2)
    assert forced == 1.0
    # bid 0 under an ace: the heuristic ducks with its most dangerous losing spade, the king, not the three
    chose = k.play_likelihood(_playing(kinds, 0.8), RoundInfo(players, r, False, -1, trump), 0,
                              masks("AS,2C,3C", "3S,KS,AH", "4C,5C,6C"), bids, order, 2)
    assert chose == pytest.approx(k.card_weight(False, 2, 0.8))
    assert 0 < chose < forced
    assert k.play_likelihood(_playing(kinds, 1.0), RoundInfo(players, r, False, -1, trump), 0,
                             masks("AS,2C,3C", "3S,KS,AH", "4C,5C,6C"), bids, order, 2) == 0.0
    # on the blind table each card is one of the seat's legal cards drawn uniformly: a single spade is
    # certain, one of two spades is a half (the led ace is seat 1's own, not weighed)
    assert k.play_likelihoods(_playing(kinds, 0.8), RoundInfo(players, r, False, -1, trump), 0,
                              masks("AS,2C,3C", "3S,AH,2H", "4C,5C,6C"), bids, order, 2)[1] == 1.0
    assert k.play_likelihoods(_playing(kinds, 0.8), RoundInfo(players, r, False, -1, trump), 0,
                              masks("AS,2C,3C", "3S,KS,AH", "4C,5C,6C"), bids, order, 2)[1] == 0.5
