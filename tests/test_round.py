"""The round kernel (through ``simulate_rounds``) == the plain-Python twin ``sim.reference``, round by
round and card by card, with and without things fixed in advance."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import fixed_round_inputs, round_indices, round_setups, seeds

from wizsim import simulate_rounds
from wizsim.sim.reference import play_round, round_streams, simulate_rounds_reference
from wizsim.sim.round import BID_CONDITION, BID_FORCED, BID_FREE, TRUMP_BY_RULES


def assert_same(batch, records):
    assert batch.n == len(records)
    for i, rec in enumerate(records):
        where = f"round {batch.first_index + i}"
        assert [int(h) for h in batch.hands[i]] == rec.hands, where
        assert int(batch.turn_up[i]) == rec.turn_up, where
        assert int(batch.trump[i]) == rec.trump, where
        assert bool(batch.accepted[i]) == rec.accepted, where
        assert batch.bids[i].tolist() == rec.bids, where
        assert batch.tricks[i].tolist() == rec.tricks, where
        assert batch.scores[i].tolist() == rec.scores, where
        if rec.accepted:
            assert batch.log_cards[i].tolist() == rec.log_cards, where
            assert batch.log_leader[i].tolist() == rec.log_leader, where
            assert batch.log_winner[i].tolist() == rec.log_winner, where


@settings(deadline=None, max_examples=60)
@given(seeds, round_indices, round_setups())
def test_round_kernel_equals_reference(seed, index, setup):
    players, r, hook = setup
    batch = simulate_rounds(players, r, 3, seed=seed, hook=hook, first_index=index, trick_log=True)
    assert_same(batch, simulate_rounds_reference(players, r, 3, seed, hook, index))


@settings(deadline=None, max_examples=60)
@given(seeds, round_indices, round_setups(), st.data())
def test_round_kernel_equals_reference_with_fixed_inputs(seed, index, setup, data):
    players, r, hook = setup
    fixed = data.draw(fixed_round_inputs(players, r))
    batch = simulate_rounds(players, r, 3, seed=seed, hook=hook, first_index=index, trick_log=True, **fixed)
    assert_same(batch, simulate_rounds_reference(players, r, 3, seed, hook, index, **fixed))


def test_reference_matches_on_every_player_count_and_round_size():
    """A sweep rather than a sample: 2 rounds of every (players, r), hook on and off."""
    for players in range(3, 7):
        for r in range(1, 60 // players + 1):
            hook = r % 2 == 0
            batch = simulate_rounds(players, r, 2, seed=players * 100 + r, hook=hook, trick_log=True)
            assert_same(batch, simulate_rounds_reference(players, r, 2, players * 100 + r, hook))


def test_forced_bids_are_kept_and_draw_nothing():
    players, r = 4, 5
    forced = [3, 0, 5, 1]
    batch = simulate_rounds(players, r, 200, seed=4, bid_mode=[BID_FORCED] * 4, fixed_bids=forced, trick_log=True)
    assert (batch.bids == forced).all() and batch.accepted.all()
    assert_same(batch, simulate_rounds_reference(players, r, 200, 4, bid_mode=[BID_FORCED] * 4, fixed_bids=forced))


def test_bid_condition_rejects_rounds_with_another_bid():
    players, r = 4, 3
    mode = [BID_FREE, BID_CONDITION, BID_FREE, BID_FREE]
    batch = simulate_rounds(players, r, 2000, seed=6, bid_mode=mode, fixed_bids=[0, 2, 0, 0])
    assert (batch.bids[batch.accepted, 1] == 2).all()
    # the random policy bids 2 with chance 1/4
    assert 0.2 < batch.accepted.mean() < 0.3
    rejected = ~batch.accepted
    assert (batch.tricks[rejected] == 0).all() and (batch.scores[rejected] == 0).all()
    assert (batch.bids[rejected, 1:] == -1).all()  # bidding stops at the rejecting seat


def test_fixed_hand_is_played_from():
    fixed = np.zeros(4, np.uint64)
    fixed[2] = np.uint64((1 << 52) | (1 << 56) | (1 << 0))  # W, J, 2S in seat 3
    batch = simulate_rounds(4, 3, 100, seed=2, fixed_hands=fixed, trick_log=True)
    assert (batch.hands[:, 2] == fixed[2]).all()
    for i in range(batch.n):
        leaders = batch.log_leader[i]
        seat3 = [batch.log_cards[i][t * 4 + (2 - leaders[t]) % 4] for t in range(3)]
        assert sorted(seat3) == [0, 52, 56]


def test_fixed_trump_overrides_the_turned_up_card_but_not_the_last_round():
    batch = simulate_rounds(4, 3, 50, seed=2, fixed_trump=1)
    assert (batch.trump == 1).all()
    batch = simulate_rounds(4, 3, 50, seed=2, fixed_trump=-1)
    assert (batch.trump == -1).all()
    batch = simulate_rounds(4, 15, 20, seed=2, fixed_trump=1)
    assert (batch.trump == -1).all() and (batch.turn_up == -1).all()


def test_play_round_reference_runs_from_streams():
    deal, play = round_streams(123, 4)
    rec = play_round(4, 2, False, deal, play, fixed_trump=TRUMP_BY_RULES)
    assert rec.accepted and rec.n_plays == 8 and sum(rec.tricks) == 2
