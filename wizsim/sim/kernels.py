"""Parallel batch kernels: many independent rounds, or many whole games, across all cores.

Each ``prange`` iteration owns a block of rounds (or one game), allocates its scratch once, reseeds
the streams of every round from (seed, round index), and writes only its own output rows, so the
result is the same for any thread count and any batch split.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from wizsim._jit import lean_kernel, parallel_kernel
from wizsim.cards import FULL_DECK_MASK
from wizsim.config import n_game_rounds
from wizsim.deal.kernels import GAME_STREAM, rand_below, stream_key
from wizsim.sim.round import BID_FREE, TRUMP_BY_RULES, key_streams, play_round, round_scratch

BLOCK = 512
GAME_BLOCK = 16


@parallel_kernel
def simulate_rounds_kernel(seed, first_index, players, r, hook, seat_slot, slot_kind, slot_params, table,
                           fixed_hands, turn_up_pool, fixed_trump, bid_mode, fixed_bids, want_log,
                           hands, turn_up, trump, bids, tricks, scores, accepted,
                           log_cards, log_leader, log_winner, ext):
    """Rounds ``first_index .. first_index + n - 1`` of the run ``seed``; n = ``hands.shape[0]``.

    Outputs (n = batch): hands (n, players) uint64; turn_up, trump (n,) int8; bids, tricks
    (n, players) int8; scores (n, players) int16; accepted (n,) bool; log_cards (n, r*players) int8,
    log_leader, log_winner (n, r) int8 when want_log, else any (1, ...) arrays (untouched).
    The other arguments (``ext`` too) are those of ``round.play_round``, the same for every round.
    """
    n = hands.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        deal_rng, play_rng, live, trick_cards, voids, seat_played = round_scratch(players)
        for i in range(blk * BLOCK, min(blk * BLOCK + BLOCK, n)):
            li = i if want_log else 0
            key_streams(seed, first_index + i, deal_rng, play_rng)
            tu, tr, ok = play_round(players, r, hook, seat_slot, slot_kind, slot_params, table, fixed_hands,
                                    turn_up_pool, fixed_trump, bid_mode, fixed_bids, deal_rng, play_rng, live,
                                    trick_cards, voids, seat_played, hands[i], bids[i], tricks[i], scores[i], want_log,
                                    log_cards[li], log_leader[li], log_winner[li], ext)
            turn_up[i] = tu
            trump[i] = tr
            accepted[i] = ok


@parallel_kernel
def simulate_games_kernel(seed, game_ids, players, hook, player_slot, slot_kind, slot_params, table,
                          want_log, first_dealer, hands, turn_up, trump, bids, tricks, scores,
                          log_cards, log_leader, log_winner, ext):
    """Whole games: every round 1..60/players, the deal passing left each round.

    game_ids : (n,) int64, the game's index in the run (its random streams); player_slot : (n, players)
    int8, the policy slot of each player (identity 0..players-1) in each game.
    first_dealer : (n,) int8, the player who deals round 1 (drawn from the game's stream).
    hands (n, R, players) uint64; turn_up, trump (n, R) int8; bids, tricks (n, R, players) int8;
    scores (n, R, players) int16, all in seat order: seat s (0-based) of round k is player
    (first_dealer + k + 1 + s) % players. Round k of game g uses round index g * R + k.
    log_cards (n, players * T) int8 and log_leader, log_winner (n, T) int8 with T = R(R+1)/2, rounds
    one after another, when want_log. ext: as ``round.play_round``'s.
    """
    n = game_ids.shape[0]
    rounds_per_game = n_game_rounds(players)
    n_blocks = (n + GAME_BLOCK - 1) // GAME_BLOCK
    for blk in prange(n_blocks):
        # scratch once per block of games: a game is only ~10 us, allocations would show
        deal_rng, play_rng, live, trick_cards, voids, seat_played = round_scratch(players)
        seat_slot = np.empty(players, dtype=np.int8)
        fixed_hands = np.zeros(players, dtype=np.uint64)
        bid_mode = np.full(players, BID_FREE, dtype=np.int8)
        fixed_bids = np.zeros(players, dtype=np.int8)
        turn_up_pool = FULL_DECK_MASK
        game_rng = np.empty(1, dtype=np.uint64)
        for g in range(blk * GAME_BLOCK, min(blk * GAME_BLOCK + GAME_BLOCK, n)):
            _play_game(seed, game_ids[g], g, players, rounds_per_game, hook, player_slot, slot_kind, slot_params, table,
                       want_log, first_dealer, hands, turn_up, trump, bids, tricks, scores, log_cards, log_leader,
                       log_winner, deal_rng, play_rng, live, trick_cards, voids, seat_played, seat_slot, fixed_hands,
                       bid_mode, fixed_bids, turn_up_pool, game_rng, ext)


@lean_kernel
def _play_game(seed, gid, g, players, rounds_per_game, hook, player_slot, slot_kind, slot_params, table, want_log,
               first_dealer, hands, turn_up, trump, bids, tricks, scores, log_cards, log_leader, log_winner,
               deal_rng, play_rng, live, trick_cards, voids, seat_played, seat_slot, fixed_hands, bid_mode, fixed_bids,
               turn_up_pool, game_rng, ext):
    """Game ``g`` (row g of the outputs, random streams of game id ``gid``); the rest is scratch."""
    game_rng[0] = stream_key(seed, gid, GAME_STREAM)
    dealer = rand_below(game_rng, players)
    first_dealer[g] = dealer
    li = np.int64(0)
    if want_log:
        li = np.int64(g)
    off = 0
    for k in range(rounds_per_game):
        r = k + 1
        d = (dealer + k) % players
        for s in range(players):
            seat_slot[s] = player_slot[g, (d + 1 + s) % players]
        lc = log_cards[li, off * players:(off + r) * players] if want_log else log_cards[0]
        ll = log_leader[li, off:off + r] if want_log else log_leader[0]
        lw = log_winner[li, off:off + r] if want_log else log_winner[0]
        key_streams(seed, gid * rounds_per_game + k, deal_rng, play_rng)
        tu, tr, ok = play_round(players, r, hook, seat_slot, slot_kind, slot_params, table, fixed_hands, turn_up_pool,
                                TRUMP_BY_RULES, bid_mode, fixed_bids, deal_rng, play_rng, live, trick_cards, voids,
                                seat_played, hands[g, k], bids[g, k], tricks[g, k], scores[g, k], want_log, lc, ll,
                                lw, ext)
        turn_up[g, k] = tu
        trump[g, k] = tr
        off += r
