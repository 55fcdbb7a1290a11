"""A named suit is evidence, not proof (issue 10 item 10): the heuristic dealer on a turned-up Wizard
breaks ties uniformly at random from the round's own play stream, and round 1's exact advisor weighs
each card the dealer may hold by the chance that the dealer's policy names the heard suit holding it."""

from math import comb

import numpy as np
import pytest

from wizsim import advise, simulate_rounds
from wizsim.cards import FIRST_WIZARD, JESTER_MASK, SUIT_MASKS, WIZARD_MASK


def test_heuristic_dealer_with_only_wizards_or_jesters_names_every_suit():
    batch = simulate_rounds(4, 1, 40_000, policies="heuristic", seed=11)
    dealer = batch.hands[:, 3]
    tied = (batch.turn_up >= FIRST_WIZARD) & (batch.turn_up < FIRST_WIZARD + 4) & \
        ((dealer & (WIZARD_MASK | JESTER_MASK)) != 0)
    assert tied.sum() > 150
    counts = np.bincount(batch.trump[tied], minlength=4)
    assert counts.min() > 0.15 * tied.sum(), counts  # 0.1.0: every one of them named spades
    # a dealer holding a suited card still names its suit: round 1 has no tie then
    suited = (batch.turn_up >= FIRST_WIZARD) & (batch.turn_up < FIRST_WIZARD + 4) & ~tied
    for s in range(4):
        holds = suited & ((dealer & SUIT_MASKS[s]) != 0)
        assert (batch.trump[holds] == s).all()


def test_the_same_seed_gives_the_same_tie_breaks():
    a = simulate_rounds(4, 1, 5_000, policies="heuristic", seed=3)
    b = simulate_rounds(4, 1, 5_000, policies="heuristic", seed=3, threads=1)
    assert (a.trump == b.trump).all()


def test_round_one_exact_weighs_the_dealers_card_by_the_chance_it_names_the_heard_suit():
    # Round 1, 4 players, seat 2 holds 5H, a Wizard turned up, the dealer (seat 4) named hearts.
    # 58 unknown cards: 3 Wizards, 4 Jesters, 9 hearts above the 5H, 3 below, 39 others. The heuristic
    # dealer holding a heart names hearts, holding a Wizard or Jester any suit (1/4), any other suited
    # card its own suit. Trusted fully (trump_trust=1) the last names hearts never; trusted t, the model
    # spreads 1 - t over the suits it would not name: weight rho / (1 + 3 rho), rho = 1 - t, against
    # 1 / (1 + 3 rho) for the suit it would. Seat 2 wins when no opponent holds a Wizard or a higher heart.
    bad, pairs = 3 + 9, 57 * 56
    good_pairs = (57 - bad) * (57 - bad - 1)
    for trust in (1.0, 0.7, 0.3):
        rho = 1 - trust
        own, any_suit, other = 1 / (1 + 3 * rho), 0.25, rho / (1 + 3 * rho)
        num = (3 * own + 4 * any_suit + 39 * other) * good_pairs  # a low heart, a Jester, another suit
        den = (12 * own + 7 * any_suit + 39 * other) * pairs
        a = advise("5H", "H", 2, players=4, trump_card="W", bid_trust=trust, trump_trust=trust, doubt=0, seat_doubt=0)
        assert a.method == "exact"
        assert a.p_tricks[1, 1] == pytest.approx(num / den, abs=1e-12), trust
        if trust == 1.0:
            assert round(a.p_tricks[1, 1], 4) == 0.1805  # 0.1.0 answered 0.155: a W or J always named spades
        # the table's type in doubt (issue 17): a blind dealer names each suit with chance 1/4, whatever it holds
        d = 0.2
        num_blind, den_blind = 0.25 * 46 * good_pairs, 0.25 * 58 * pairs
        a = advise("5H", "H", 2, players=4, trump_card="W", bid_trust=trust, trump_trust=trust, doubt=d, seat_doubt=0)
        want = ((1 - d) * num + d * num_blind) / ((1 - d) * den + d * den_blind)
        assert a.p_tricks[1, 1] == pytest.approx(want, abs=1e-12), trust
        # and the dealer in doubt on its own (issue 17's seat doubt): each of its weights x becomes
        # (1 - e) x + e / 4, on the model's table
        e = 0.15
        mixed = [(1 - e) * x + e / 4 for x in (own, any_suit, other)]
        num_e = (3 * mixed[0] + 4 * mixed[1] + 39 * mixed[2]) * good_pairs
        den_e = (12 * mixed[0] + 7 * mixed[1] + 39 * mixed[2]) * pairs
        a = advise("5H", "H", 2, players=4, trump_card="W", bid_trust=trust, trump_trust=trust, doubt=d, seat_doubt=e)
        want = ((1 - d) * num_e + d * num_blind) / ((1 - d) * den_e + d * den_blind)
        assert a.p_tricks[1, 1] == pytest.approx(want, abs=1e-12), trust


def test_random_dealer_names_every_suit_so_the_named_suit_tells_nothing():
    a = advise("5H", "H", 2, players=4, trump_card="W", policy="random")
    # 58 unknown cards, 12 of them (3 Wizards, 9 higher hearts) beat the 5H
    assert a.p_tricks[1, 1] == pytest.approx(comb(46, 3) / comb(58, 3), abs=1e-12)
