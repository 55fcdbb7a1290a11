"""Batch kernels: many independent rounds, or many whole games, a span of rows per call.

``sim.driver.run_batch`` splits a batch into contiguous spans of rows, one per thread, and calls the
kernel for each span from a Python thread (the kernels release the GIL). Each call reseeds the streams
of every round from (seed, round index) and writes only its own rows, so the result is the same for
any thread count and any split. The kernels are lean (``_numba.lean_kernel``): the caller hands them their
scratch (``round.round_scratch``, one per thread), and the records of each round cost no reference
counting.

Why not a ``prange`` loop: Numba compiles a parallel kernel in two more layers (the loop's body as a
function of its own, then the kernel around it), and each layer optimizes and generates the machine code
of everything it calls again, the whole round with every policy: a quarter of a first run's compile time
(three quarters of it with a search seat). A serial kernel called from threads runs the same rows in the
same time.

The outputs travel as one record each: ``RoundsOut(hands, turn_up, trump, bids, tricks, scores,
accepted)`` for rounds (n rows) and ``GamesOut(first_dealer, hands, turn_up, trump, bids, tricks,
scores)`` for games (n rows of R rounds); the trick log is a ``records.Log`` whose arrays have a row per
round (or game), a (1, ...) row when not ``want``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from wizsim._numba import lean_kernel
from wizsim.config import n_game_rounds
from wizsim.deal.kernels import GAME_STREAM, rand_below, stream_key
from wizsim.policies.records import Log
from wizsim.sim.round import key_streams, play_round_any, round_state

BLOCK = 512
GAME_BLOCK = 16

RoundsOut = namedtuple("RoundsOut", ("hands", "turn_up", "trump", "bids", "tricks", "scores", "accepted"))
GamesOut = namedtuple("GamesOut", ("first_dealer", "hands", "turn_up", "trump", "bids", "tricks", "scores"))


@lean_kernel
def simulate_rounds_kernel(seed, first_index, shape, seats, fixed, out, log, scratch, ext):
    """Rounds ``first_index .. first_index + n - 1`` of the run ``seed`` into rows 0..n-1 of ``out``;
    n = ``out.hands.shape[0]``, ``shape`` = (players, r, hook).

    out : ``RoundsOut``: hands (n, players) uint64; turn_up, trump (n,) int8; bids, tricks (n, players)
    int8; scores (n, players) int16; accepted (n,) bool. log : ``records.Log`` of (n, r*players) cards and
    (n, r) leaders and winners when ``log.want``, else of any (1, ...) arrays (untouched).
    scratch : ``round.round_scratch(players)``, this call's own. The other arguments (``seats``, ``fixed``,
    ``ext``) are those of ``round.play_round``, the same for every round.
    """
    players, r, hook = shape
    rngs = scratch[0]
    want = log.want
    for i in range(out.hands.shape[0]):
        li = i if want else 0
        key_streams(seed, first_index + i, rngs[0], rngs[1])
        tu, tr, ok = play_round_any(players, r, hook, seats, fixed, rngs, round_state(scratch, out.bids[i],
                                                                                      out.tricks[i]),
                                    (out.hands[i], out.scores[i]),
                                    Log(want, log.cards[li], log.leader[li], log.winner[li]), ext)
        out.turn_up[i] = tu
        out.trump[i] = tr
        out.accepted[i] = ok


@lean_kernel
def simulate_games_kernel(seed, game_ids, hook, player_slot, seats, fixed, scratch, out, log, ext):
    """Whole games: every round 1..60/players, the deal passing left each round.

    game_ids : (n,) int64, the game's index in the run (its random streams); player_slot : (n, players)
    int8, the policy slot of each player (identity 0..players-1) in each game; seats : ``records.Seats``
    whose ``seat_slot`` (players,) int8 is scratch; fixed : ``records.Fixed`` fixing nothing;
    scratch : (a (1,) uint64 array for the game's stream, ``round.round_scratch(players)``), this call's own.
    out : ``GamesOut``: first_dealer (n,) int8, the player who deals round 1 (drawn from the game's
    stream); hands (n, R, players) uint64; turn_up, trump (n, R) int8; bids, tricks (n, R, players) int8;
    scores (n, R, players) int16, all in seat order: seat s (0-based) of round k is player
    (first_dealer + k + 1 + s) % players. Round k of game g uses round index g * R + k.
    log : ``records.Log`` of (n, players * T) cards and (n, T) leaders and winners with T = R(R+1)/2,
    rounds one after another, when ``log.want``. ext: as ``round.play_round``'s.
    """
    game_rng, rscratch = scratch
    deal_rng, play_rng = rngs = rscratch[0]
    seat_slot = seats.seat_slot
    players = seat_slot.shape[0]
    rounds_per_game = n_game_rounds(players)
    want = log.want
    for g in range(game_ids.shape[0]):
        gid = game_ids[g]
        game_rng[0] = stream_key(seed, gid, GAME_STREAM)
        dealer = rand_below(game_rng, players)
        out.first_dealer[g] = dealer
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
            tu, tr, ok = play_round_any(players, r, hook, seats, fixed, rngs,
                                        round_state(rscratch, out.bids[g, k], out.tricks[g, k]),
                                        (out.hands[g, k], out.scores[g, k]), Log(want, lc, ll, lw), ext)
            out.turn_up[g, k] = tu
            out.trump[g, k] = tr
            off += r
