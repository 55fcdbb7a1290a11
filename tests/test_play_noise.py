"""The heuristic's play noise (``heuristic:play_noise=ε``): the soft model of the opponents' play in the
advisor's simulations (issue 17: a model's decision is a distribution, not a certainty).

With ε, a card with a choice is a uniformly random legal card with probability ε, else the heuristic's:
the heuristic's card then has probability 1 - ε + ε/n and each other legal card ε/n. At ε = 0 (the
policy's default) nothing is drawn, so the heuristic's runs are unchanged (the golden tests pin them).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from wizsim import advise, advise_play, simulate_rounds
from wizsim.advisor.opponents import DEFAULT_PLAY_NOISE, OpponentModel, opponent_names
from wizsim.cards import parse_cards
from wizsim.config import ConfigError
from wizsim.policies import check_policy, make_slots, parse_policy
from wizsim.policies.dispatch import choose_card
from wizsim.policies.heuristic import P_PLAY_NOISE, heuristic_card
from wizsim.policies.net import net_card
from wizsim.policies.observation import Obs
from wizsim.policies.registry import deterministic_play
from wizsim.rules.kernels import LED_NONE, legal_mask
from wizsim.table.batch import python_rounds


def test_the_name_carries_the_noise_and_at_zero_is_the_plain_heuristic():
    assert check_policy("heuristic:play_noise=0.2") == "heuristic:play_noise=0.2"
    assert check_policy("heuristic:play_noise=0") == "heuristic"
    assert check_policy("heuristic:0.5:0.1") == "heuristic:bid_shift=0.5:play_noise=0.1"
    assert parse_policy("heuristic:play_noise=0.25").params_row()[P_PLAY_NOISE] == 0.25
    assert deterministic_play("heuristic") and not deterministic_play("heuristic:play_noise=0.1")
    with pytest.raises(ConfigError, match="play_noise must be 0..1"):
        parse_policy("heuristic:play_noise=1.5")
    with pytest.raises(ConfigError, match="play_noise must be a number"):
        parse_policy("heuristic:play_noise=x")


def _lead_view():
    hand = 0
    for c in parse_cards("AS,7S,KH,3D,9C"):
        hand |= 1 << int(c)
    hand = np.uint64(hand)
    legal = np.uint64(legal_mask(hand, LED_NONE))
    return hand, legal


def _card(params, hand, legal, rng):
    slots = make_slots(["heuristic"])
    z8 = np.zeros(4, np.int8)
    obs = Obs(0, 4, 5, False, hand, legal, -1, 2, 0, np.array([2, 1, 1, 1], np.int8), z8.copy(),
              np.zeros(4, np.uint64), np.uint64(0), np.full(4, -1, np.int8), 0, LED_NONE, -1, z8.copy())
    return int(choose_card(slots.kinds[0], params, slots.table, obs, rng, None, None, None))


def test_without_noise_the_heuristic_draws_nothing_from_the_stream():
    hand, legal = _lead_view()
    params = make_slots(["heuristic"]).params[0]
    rng = np.array([12345], np.uint64)
    card = _card(params, hand, legal, rng)
    assert rng[0] == 12345
    assert card == heuristic_card(0, 4, hand, legal, 2, 0, 2, np.uint64(0), -1, 0, LED_NONE, np.zeros(4, np.int8))


def test_with_noise_each_other_legal_card_has_probability_noise_over_n():
    hand, legal = _lead_view()
    eps, n, trials = 0.3, 5, 20_000
    params = make_slots(["heuristic:play_noise=0.3"]).params[0]
    own = heuristic_card(0, 4, hand, legal, 2, 0, 2, np.uint64(0), -1, 0, LED_NONE, np.zeros(4, np.int8))
    rng = np.array([7], np.uint64)
    _assert_noise_frequencies(lambda: _card(params, hand, legal, rng), own, eps, n, trials)


def _assert_noise_frequencies(draw, own, eps, n, trials):
    """``draw()`` ``trials`` times: the model's card ``own`` at 1 - eps + eps/n, each other of the n legal at eps/n."""
    counts = {}
    for _ in range(trials):
        c = draw()
        counts[c] = counts.get(c, 0) + 1
    assert len(counts) == n
    for c, got in counts.items():
        p = 1 - eps + eps / n if c == own else eps / n
        assert abs(got / trials - p) < 4 * np.sqrt(p * (1 - p) / trials), (c, got, p)


def test_noisy_rounds_are_a_function_of_seed_and_index_and_differ_from_the_heuristic():
    a = simulate_rounds(4, 8, 200, "heuristic:play_noise=0.2", seed=5)
    b = simulate_rounds(4, 8, 200, "heuristic:play_noise=0.2", seed=5)
    plain = simulate_rounds(4, 8, 200, "heuristic", seed=5)
    assert (a.tricks == b.tricks).all() and (a.scores == b.scores).all()
    assert (a.bids == plain.bids).all()  # the noise is in the play only
    assert (a.tricks != plain.tricks).any()


def test_the_advisor_models_the_other_seats_as_a_noisy_heuristic_and_labels_them_as_named():
    m = OpponentModel.build(opponent_names(None, 4, 2), 1, "heuristic", 0.7, 0.5)
    noisy = check_policy(f"heuristic:play_noise={DEFAULT_PLAY_NOISE!r}")
    assert m.names == (noisy, "heuristic", noisy, noisy) and m.play_noise == DEFAULT_PLAY_NOISE
    assert m.opponents_label() == "heuristic"
    mixed = OpponentModel.build(("random", "heuristic:play_noise=0.1", "search:worlds=8"), 0, "heuristic", 0.7, 0.5,
                                0.3)
    assert mixed.names == ("heuristic", "random", "heuristic:play_noise=0.1", "search:worlds=8")
    plain = OpponentModel.build(opponent_names(None, 4, 2), 1, "heuristic", 0.7, 0.5, 0.0)
    assert plain.names == ("heuristic",) * 4


def test_advice_reports_its_play_noise_and_is_reproducible():
    q = dict(hand="AS,KD,3H,JH", trump="S", seat=3, bids=[1, 2], seed=4, samples=400)
    a, b = advise(**q), advise(**q)
    assert a.to_dict() == b.to_dict() and a.to_dict()["play_noise"] == DEFAULT_PLAY_NOISE
    assert advise(**q, play_noise=0).to_dict()["play_noise"] == 0
    pq = dict(hand="AS,KD,3H", trump="S", seat=1, bids="1,0,1,1", seed=1, samples=200)
    p = advise_play(**pq)  # play advice: noiseless by default (its endgames stay exact)
    assert p.to_dict()["play_noise"] == 0 and p.to_dict() == advise_play(**pq, play_noise=0).to_dict()
    assert advise_play(**pq, play_noise=0.2).to_dict()["play_noise"] == 0.2


# net's play noise (``net:play_noise=ε``): the same draw as the heuristic's, so that the advisor's model of
# a table told ``--policy net`` is soft as its default model is (its card with probability 1 - ε + ε/n).

def _net_card(params, hand, legal, rng):
    slots = make_slots(["net"])
    z8 = np.zeros(4, np.int8)
    obs = Obs(0, 4, 5, False, hand, legal, -1, 2, 0, np.array([2, 1, 1, 1], np.int8), z8.copy(),
              np.zeros(4, np.uint64), np.uint64(0), np.full(4, -1, np.int8), 0, LED_NONE, -1, z8.copy())
    return int(choose_card(slots.kinds[0], params, slots.table, obs, rng, None, None, True)), obs, slots


def test_net_takes_a_play_noise_and_without_it_draws_nothing():
    assert check_policy("net:play_noise=0.2") == "net:play_noise=0.2"
    assert check_policy("net:play_noise=0") == "net"
    assert deterministic_play("net") and not deterministic_play("net:play_noise=0.1")
    hand, legal = _lead_view()
    rng = np.array([12345], np.uint64)
    card, obs, slots = _net_card(make_slots(["net"]).params[0], hand, legal, rng)
    assert rng[0] == 12345
    assert card == net_card(slots.table, obs)


def test_noisy_net_plays_each_other_legal_card_with_probability_noise_over_n():
    hand, legal = _lead_view()
    eps, n, trials = 0.3, 5, 20_000
    params = make_slots(["net:play_noise=0.3"]).params[0]
    rng = np.array([7], np.uint64)
    own = _net_card(make_slots(["net"]).params[0], hand, legal, np.array([1], np.uint64))[0]
    _assert_noise_frequencies(lambda: _net_card(params, hand, legal, rng)[0], own, eps, n, trials)


def test_noisy_net_rounds_are_reproducible_and_the_open_table_plays_them_alike():
    a = simulate_rounds(4, 8, 100, ["net:play_noise=0.2", "heuristic"], seed=5)
    b = simulate_rounds(4, 8, 100, ["net:play_noise=0.2", "heuristic"], seed=5)
    plain = simulate_rounds(4, 8, 100, ["net", "heuristic"], seed=5)
    assert (a.tricks == b.tricks).all() and (a.scores == b.scores).all()
    assert (a.bids == plain.bids).all()  # the noise is in the play only
    assert (a.tricks != plain.tricks).any()
    table = copy.deepcopy(a)
    for f in ("bids", "tricks", "scores"):
        getattr(table, f)[...] = 0
    python_rounds(table, False, False)  # the same rounds seat by seat at the open table
    for f in ("bids", "tricks", "scores"):
        assert np.array_equal(getattr(a, f), getattr(table, f)), f


def test_the_advisor_told_net_models_it_with_its_play_noise():
    m = OpponentModel.build(("net", "net", "net"), 0, "heuristic", 0.7, 0.5)
    noisy = check_policy(f"net:play_noise={DEFAULT_PLAY_NOISE!r}")
    assert m.names == ("heuristic", noisy, noisy, noisy) and m.opponents_label() == "net"
    assert OpponentModel.build(("net",) * 3, 0, "heuristic", 0.7, 0.5, 0.0).names == ("heuristic",) + ("net",) * 3
