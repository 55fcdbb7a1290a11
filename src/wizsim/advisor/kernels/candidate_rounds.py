"""Candidate-bid rounds for the bid advisor: one deal, replayed once per candidate bid.

``candidate_rounds_kernel`` calls the one round kernel (``round.play_round``) with the advisor's
hand fixed and its bid forced, once for every candidate bid, from the same deal and play streams
(common random numbers: round ``i`` depends only on (seed, i), whatever the bid). The earlier seats
bid what was heard (``BID_FORCED``); which deals are played, and with what weight, is decided before
by the opponents' model (``advisor.kernels.evidence``).

The kernel is serial: ``advisor.sampling.run_deals`` hands spans of the deals to threads
(``sim.driver.run_batch``), as the simulation does, rather than a ``prange`` loop, which Numba compiles in
two more layers (a quarter of bid advice's first-run compile).
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.policies.records import Fixed, Log
from wizsim.sim.round import key_streams, play_round, round_scratch, round_state

BLOCK = 64  # the fewest deals a thread plays


@kernel
def candidate_rounds_kernel(seed, indices, players, r, hook, seats, fixed, candidates, out, ext):
    """Rounds ``indices`` (n,) int64 of the run ``seed``, each once per candidate bid.

    candidates : (k,) int8, the bids to try by the advisor's 0-based seat ``fixed.bids`` has no say in
    (its ``fixed.bid_mode`` entry must be ``BID_FORCED``): ``out`` = (seat, want_hands, tricks, turn_up,
    hands, earlier, won) with seat that seat (int) and want_hands bool; outputs tricks (n, k) int8, the tricks
    the advisor took bidding ``candidates[j]``; turn_up (n,) int8; hands (n, players) uint64, the deal (only
    when want_hands, else any (1, players) array, untouched); earlier (n,) int16, the total of the bids
    made before the advisor's (what the hook reads); won (n, k) uint64, the advisor's cards that took a
    trick on deal i bidding ``candidates[j]`` (its bit mask, read off the round's trick log: what advice's
    reasons show), or a (0, 0) array: not wanted, no log.
    The other arguments (``seats``, ``fixed``, ``ext``) are those of ``round.play_round``, the same for every
    round; no seat may be ``BID_CONDITION``.
    """
    seat, want_hands, tricks, turn_up, hands, earlier, won = out
    n = indices.shape[0]
    k = candidates.shape[0]
    scratch = round_scratch(players)
    rngs = scratch[0]
    state = round_state(scratch, np.empty(players, dtype=np.int8), np.empty(players, dtype=np.int8))
    round_out = (np.empty(players, dtype=np.uint64), np.empty(players, dtype=np.int16))
    hands_out = round_out[0]
    want_won = won.shape[0] > 0
    log = Log(want_won, np.zeros(r * players if want_won else 1, dtype=np.int8),
              np.zeros(r if want_won else 1, dtype=np.int8), np.zeros(r if want_won else 1, dtype=np.int8))
    my_bids = fixed.bids.copy()
    my_fixed = Fixed(fixed.hands, fixed.turn_up_pool, fixed.trump, fixed.bid_mode, my_bids)
    for i in range(n):
        index = indices[i]
        for j in range(k):
            my_bids[seat] = candidates[j]
            key_streams(seed, index, rngs[0], rngs[1])
            tu, _, _ = play_round(players, r, hook, seats, my_fixed, rngs, state, round_out, log, ext)
            if j == 0:
                turn_up[i] = tu
                total = 0
                for s in range(seat):
                    total += state.bids[s]
                earlier[i] = total
                if want_hands:
                    for s in range(players):
                        hands[i, s] = hands_out[s]
            tricks[i, j] = state.tricks[seat]
            if want_won:
                mask = np.uint64(0)
                for t in range(r):
                    if log.winner[t] == seat:
                        at = seat - log.leader[t]
                        mask |= np.uint64(1) << np.uint64(log.cards[t * players + (at + players if at < 0 else at)])
                won[i, j] = mask
