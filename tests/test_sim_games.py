"""Whole games (docs/rules.md 2 and 6): 60/players rounds, the deal passing left, running totals, winners
with ties shared; the games kernel == the plain-Python twin ``simulate_games_reference``."""

import numpy as np
import pytest

from wizsim import GameBatch, simulate_games, simulate_rounds
from wizsim.sim.reference import simulate_games_reference


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_games_kernel_equals_reference(players):
    hook = players % 2 == 0
    batch = simulate_games(players, 3, seed=40 + players, hook=hook, first_game=5, trick_log=True)
    ref = simulate_games_reference(players, 3, 40 + players, hook=hook, first_game=5)
    R = 60 // players
    assert batch.rounds_per_game == R and batch.hands.shape == (3, R, players)
    for g, game in enumerate(ref):
        assert batch.first_dealer[g] == game.first_dealer
        off = 0
        for k, rnd in enumerate(game.rounds):
            assert rnd.r == k + 1
            assert [int(h) for h in batch.hands[g, k]] == rnd.hands
            assert (batch.turn_up[g, k], batch.trump[g, k]) == (rnd.turn_up, rnd.trump)
            assert batch.bids[g, k].tolist() == rnd.bids
            assert batch.tricks[g, k].tolist() == rnd.tricks
            assert batch.scores[g, k].tolist() == rnd.scores
            assert batch.log_cards[g, off * players:(off + rnd.r) * players].tolist() == rnd.log_cards
            assert batch.log_leader[g, off:off + rnd.r].tolist() == rnd.log_leader
            assert batch.log_winner[g, off:off + rnd.r].tolist() == rnd.log_winner
            assert batch.seat_player[g, k].tolist() == game.seat_player(k)
            off += rnd.r
        assert batch.totals[g].tolist() == game.totals()
        assert np.flatnonzero(batch.winners[g]).tolist() == game.winners()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_game_has_60_over_players_rounds_of_growing_size(players):
    batch = simulate_games(players, 20, seed=1)
    R = 60 // players
    assert batch.rounds_per_game == R and batch.scores.shape == (20, R, players)
    for k in range(R):
        counts = [[bin(int(h)).count("1") for h in row] for row in batch.hands[:, k]]
        assert (np.array(counts) == k + 1).all()
        assert (batch.tricks[:, k].sum(axis=1) == k + 1).all()
    # the last round deals every card and turns nothing up
    assert (batch.turn_up[:, -1] == -1).all() and (batch.trump[:, -1] == -1).all()


def test_deal_passes_left():
    """Seat 1 sits left of the dealer; the next round that player deals, and every player deals in turn."""
    batch = simulate_games(4, 30, seed=2)
    sp = batch.seat_player.astype(np.int64)
    dealer = sp[:, :, -1]
    assert (dealer[:, 1:] == sp[:, :-1, 0]).all()  # next dealer = this round's seat 1
    assert ((dealer[:, 1:] - dealer[:, :-1]) % 4 == 1).all()
    assert (dealer[:, 0] == batch.first_dealer).all()
    for k in range(batch.rounds_per_game):  # every round seats every player once
        assert (np.sort(sp[:, k], axis=1) == np.arange(4)).all()
    assert set(batch.first_dealer.tolist()) == {0, 1, 2, 3}  # the first dealer is drawn at random


def test_totals_are_cumulative_scores_by_player():
    batch = simulate_games(5, 10, seed=3)
    by_player = batch.by_player(batch.scores).astype(np.int64)
    sp = batch.seat_player.astype(np.int64)
    for g in range(batch.n):
        for k in range(batch.rounds_per_game):
            for s in range(5):
                assert by_player[g, k, sp[g, k, s]] == batch.scores[g, k, s]
    assert (batch.totals == np.cumsum(by_player, axis=1)).all()
    assert (batch.final == by_player.sum(axis=1)).all()


def test_winners_share_ties():
    R = 20
    scores = np.zeros((2, R, 3), np.int16)
    scores[0, 0] = [30, 30, -10]  # a two-way tie
    scores[1, 0] = [-10, -20, -30]  # negative totals: the highest still wins
    batch = GameBatch(3, 0, np.arange(2), [["random"] * 3] * 2, np.zeros(2, np.int8), np.zeros((2, R, 3), np.uint64),
                      np.zeros((2, R), np.int8), np.zeros((2, R), np.int8), np.zeros((2, R, 3), np.int8),
                      np.zeros((2, R, 3), np.int8), scores)
    # round 1 dealt by player 0: seats 1, 2, 3 are players 1, 2, 0
    assert batch.final.tolist() == [[-10, 30, 30], [-30, -10, -20]]
    assert batch.winners.tolist() == [[False, True, True], [False, True, False]]


def test_game_round_k_is_round_index_g_times_R_plus_k():
    """A game's rounds are ordinary rounds of the run: round k of game g is round index g*R + k."""
    players, g = 4, 3
    R = 60 // players
    batch = simulate_games(players, 1, seed=8, first_game=g)
    for k in (0, 6, R - 1):
        rnd = simulate_rounds(players, k + 1, 1, seed=8, first_index=g * R + k)
        assert (rnd.hands[0] == batch.hands[0, k]).all()
        assert (rnd.bids[0] == batch.bids[0, k]).all() and (rnd.scores[0] == batch.scores[0, k]).all()
