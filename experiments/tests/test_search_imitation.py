"""The search-imitation experiment's parts (experiments/search_imitation.py, docs/results.md, "Why the search table
misses"): its conditional logit recovers known weights, its replay describes the card each seat chose, and
an imitation that weighs only "the heuristic's card" plays as the heuristic."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import experiment

from wizsim.policies.records import RoundInfo, RoundState
from wizsim.policies.rollout import heuristic_tricks
from wizsim.sim.driver import simulate_rounds


@pytest.fixture(scope="module")
def imitation():
    return experiment("search_imitation")


def test_the_logit_fit_recovers_the_weights_it_was_drawn_from(imitation):
    rng = np.random.default_rng(1)
    true = np.array([1.5, -1.0, 0.5])
    rows, dec, chosen = [], [], []
    for d in range(6000):
        k = rng.integers(2, 6)
        x = rng.normal(size=(k, 3))
        p = np.exp(x @ true)
        pick = rng.choice(k, p=p / p.sum())
        rows.append(x)
        dec += [d] * k
        chosen += [i == pick for i in range(k)]
    x, dec, chosen = np.concatenate(rows), np.array(dec), np.array(chosen)
    w = imitation.fit(x, dec, chosen, 6000)
    assert np.abs(w - true).max() < 0.1
    # the fitted weights beat the true ones on the data they were fitted to, and both beat every card alike
    loss = imitation.log_loss(w, x, dec, chosen, 6000)[0]
    assert loss <= imitation.log_loss(true, x, dec, chosen, 6000)[0] + 1e-12
    assert loss < imitation.log_loss(np.zeros(3), x, dec, chosen, 6000)[0] - 0.1


def test_the_replay_marks_the_heuristics_card_on_a_heuristic_table(imitation):
    tables = [(hero, simulate_rounds(4, 6, 10, ["heuristic"] * 4, seed=hero, trick_log=True)) for hero in range(4)]
    x, dec, chosen, n = imitation.choices(tables)
    assert n > 0 and len(np.unique(dec)) == n
    assert (x[chosen, 0] == 1.0).all() and chosen.sum() == n
    assert (x[~chosen, 0] == 0.0).all()
    # each decision offers two or more legal cards, one of them chosen
    assert (np.bincount(dec) >= 2).all() and (np.bincount(dec[chosen], minlength=n) == 1).all()


def test_imitators_that_weigh_only_the_heuristics_card_play_as_the_heuristic(imitation):
    """Their table against the engine's heuristic play-out of the same hands and bids: the same tricks."""
    heuristic = np.eye(imitation.N_FEATURES)[0]
    out = np.zeros((2, 4), np.int64)
    table = imitation.TABLES["heuristic_values"]()
    params = imitation.parse_policy("heuristic").params_row()
    for r in (3, 6, 15):
        dealt = imitation.deals_of(r, 30, 2)
        for hands, turn_up, trump in zip(dealt.hands, dealt.turn_up.tolist(), dealt.trump.tolist(), strict=True):
            imitation._table_round(hands, 4, r, turn_up, trump, 0, -1, params, params, table, heuristic, out)
            tricks = np.zeros(4, np.int8)
            heuristic_tricks(RoundInfo(4, r, False, turn_up, trump),
                             RoundState(hands.copy(), np.zeros(4, np.uint64), np.zeros(4, np.int8),
                                        np.full(4, -1, np.int8), out[0].astype(np.int8), tricks), 0, 0, np.uint64(0))
            assert out[1].sum() == r
            assert (out[1] == tricks).all()


def test_its_deals_are_the_engines_with_the_hand_and_trump_asked(imitation):
    hand = int(simulate_rounds(4, 6, 1, "random", seed=9).hands[0, 0])
    dealt = imitation.deals_of(6, 50, 5, hand, 13, 1)  # the two of hearts turned up, hearts trump
    assert (dealt.hands[:, 0] == hand).all() and (dealt.turn_up == 13).all() and (dealt.trump == 1).all()
    assert all((dealt.hands[i, a] & dealt.hands[i, b]) == 0 for i in range(50) for a in range(4) for b in range(a))
    last = imitation.deals_of(15, 20, 5)
    assert (last.turn_up == -1).all() and (last.trump == -1).all()  # the last round: no trump
