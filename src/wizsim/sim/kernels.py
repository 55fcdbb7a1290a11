"""Parallel batch kernels: many independent rounds, or many whole games, across all cores.

Each ``prange`` iteration owns a block of rounds (or one game), allocates its scratch once, reseeds
the streams of every round from (seed, round index), and writes only its own output rows, so the
result is the same for any thread count and any batch split.

The outputs travel as one record each: ``RoundsOut(hands, turn_up, trump, bids, tricks, scores,
accepted)`` for rounds (n rows) and ``GamesOut(first_dealer, hands, turn_up, trump, bids, tricks,
scores)`` for games (n rows of R rounds); the trick log is a ``records.Log`` whose arrays have a row per
round (or game), a (1, ...) row when not ``want``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from wizsim._jit import lean_kernel, parallel_kernel
from wizsim.cards import FULL_DECK_MASK
from wizsim.config import n_game_rounds
from wizsim.deal.kernels import GAME_STREAM, rand_below, stream_key
from wizsim.policies.records import Fixed, Log, Seats
from wizsim.sim.round import BID_FREE, TRUMP_BY_RULES, key_streams, play_round, round_scratch, round_state

BLOCK = 512
GAME_BLOCK = 16

RoundsOut = namedtuple("RoundsOut", ("hands", "turn_up", "trump", "bids", "tricks", "scores", "accepted"))
GamesOut = namedtuple("GamesOut", ("first_dealer", "hands", "turn_up", "trump", "bids", "tricks", "scores"))


@parallel_kernel
def simulate_rounds_kernel(seed, first_index, players, r, hook, seats, fixed, out, log, ext):
    """Rounds ``first_index .. first_index + n - 1`` of the run ``seed``; n = ``out.hands.shape[0]``.

    out : ``RoundsOut``: hands (n, players) uint64; turn_up, trump (n,) int8; bids, tricks (n, players)
    int8; scores (n, players) int16; accepted (n,) bool. log : ``records.Log`` of (n, r*players) cards and
    (n, r) leaders and winners when ``log.want``, else of any (1, ...) arrays (untouched).
    The other arguments (``seats``, ``fixed``, ``ext``) are those of ``round.play_round``, the same for
    every round.
    """
    n = out.hands.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        _rounds_block(seed, (first_index, blk * BLOCK, min(blk * BLOCK + BLOCK, n)), (players, r, hook), seats, fixed,
                      out, log, round_scratch(players), ext)


@lean_kernel
def _rounds_block(seed, rows, shape, seats, fixed, out, log, scratch, ext):
    """Rounds ``first_index + a .. first_index + b - 1`` into rows a..b-1 (``rows`` = (first_index, a, b),
    ``shape`` = (players, r, hook)): a call of its own, lean, so that the records of each round (views of
    its rows) cost no reference counting, and no write goes through a record inside the parallel loop
    (Numba loses those)."""
    first_index, a, b = rows
    players, r, hook = shape
    rngs = scratch[0]
    want = log.want
    for i in range(a, b):
        li = i if want else 0
        key_streams(seed, first_index + i, rngs[0], rngs[1])
        tu, tr, ok = play_round(players, r, hook, seats, fixed, rngs, round_state(scratch, out.bids[i], out.tricks[i]),
                                (out.hands[i], out.scores[i]), Log(want, log.cards[li], log.leader[li], log.winner[li]),
                                ext)
        out.turn_up[i] = tu
        out.trump[i] = tr
        out.accepted[i] = ok


@parallel_kernel
def simulate_games_kernel(seed, game_ids, players, hook, player_slot, slots, out, log, ext):
    """Whole games: every round 1..60/players, the deal passing left each round.

    game_ids : (n,) int64, the game's index in the run (its random streams); player_slot : (n, players)
    int8, the policy slot of each player (identity 0..players-1) in each game; slots : (slot_kind,
    slot_params, table), the slots as ``records.Seats`` holds them.
    out : ``GamesOut``: first_dealer (n,) int8, the player who deals round 1 (drawn from the game's
    stream); hands (n, R, players) uint64; turn_up, trump (n, R) int8; bids, tricks (n, R, players) int8;
    scores (n, R, players) int16, all in seat order: seat s (0-based) of round k is player
    (first_dealer + k + 1 + s) % players. Round k of game g uses round index g * R + k.
    log : ``records.Log`` of (n, players * T) cards and (n, T) leaders and winners with T = R(R+1)/2,
    rounds one after another, when ``log.want``. ext: as ``round.play_round``'s.
    """
    n = game_ids.shape[0]
    n_blocks = (n + GAME_BLOCK - 1) // GAME_BLOCK
    for blk in prange(n_blocks):
        # scratch once per block of games: a game is only ~10 us, allocations would show
        scratch = round_scratch(players)
        seats = Seats(np.empty(players, dtype=np.int8), slots[0], slots[1], slots[2])
        fixed = Fixed(np.zeros(players, dtype=np.uint64), FULL_DECK_MASK, TRUMP_BY_RULES,
                      np.full(players, BID_FREE, dtype=np.int8), np.zeros(players, dtype=np.int8))
        game_rng = np.empty(1, dtype=np.uint64)
        for g in range(blk * GAME_BLOCK, min(blk * GAME_BLOCK + GAME_BLOCK, n)):
            _play_game((seed, game_ids[g], g), hook, player_slot, seats, fixed, (game_rng, scratch), out, log, ext)


@lean_kernel
def _play_game(game, hook, player_slot, seats, fixed, scratch, out, log, ext):
    """The game ``game`` = (seed, gid, g): row g of the outputs, random streams of game id ``gid`` of the
    run ``seed``; ``scratch`` = (the game's stream, ``round.round_scratch``), ``seats.seat_slot`` scratch too."""
    seed, gid, g = game
    game_rng, rscratch = scratch
    deal_rng, play_rng = rngs = rscratch[0]
    seat_slot = seats.seat_slot
    players = seat_slot.shape[0]
    rounds_per_game = n_game_rounds(players)
    game_rng[0] = stream_key(seed, gid, GAME_STREAM)
    dealer = rand_below(game_rng, players)
    out.first_dealer[g] = dealer
    want = log.want
    li = np.int64(0)
    if want:
        li = np.int64(g)
    off = 0
    for k in range(rounds_per_game):
        r = k + 1
        d = (dealer + k) % players
        for s in range(players):
            seat_slot[s] = player_slot[g, (d + 1 + s) % players]
        lc = log.cards[li, off * players:(off + r) * players] if want else log.cards[0]
        ll = log.leader[li, off:off + r] if want else log.leader[0]
        lw = log.winner[li, off:off + r] if want else log.winner[0]
        key_streams(seed, gid * rounds_per_game + k, deal_rng, play_rng)
        tu, tr, ok = play_round(players, r, hook, seats, fixed, rngs, round_state(rscratch, out.bids[g, k],
                                                                                 out.tricks[g, k]),
                                (out.hands[g, k], out.scores[g, k]), Log(want, lc, ll, lw), ext)
        out.turn_up[g, k] = tu
        out.trump[g, k] = tr
        off += r
