"""Candidate-bid rounds for the bid advisor: one deal, replayed once per candidate bid.

``candidate_rounds_kernel`` calls the one round kernel (``round.play_round``) with the advisor's
hand fixed and its bid forced, once for every candidate bid, from the same deal and play streams
(common random numbers: round ``i`` depends only on (seed, i), whatever the bid). Earlier seats may
be conditioned on their heard bids (``BID_CONDITION``); that rejection does not depend on the
candidate bid (those seats bid before the player), so a rejected deal is dropped after its first
replay. When the turned-up card is a Wizard and the dealer is an opponent, the dealer's named suit
is evidence about the dealer's hand too: ``trump_check`` >= 0 rejects deals in which the dealer's
policy, shown that hand, would not name that suit.

``choice_frequencies`` tells how often a policy's bid on one-card hands equals a heard value, or the
exact chance that it names a heard trump suit: the exact round-1 advisor weighs opponents' single
cards by it.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from wizsim._jit import kernel, parallel_kernel
from wizsim.bits import bit
from wizsim.deal.kernels import DEAL_STREAM, PLAY_STREAM, stream_key
from wizsim.policies.dispatch import choose_bid, choose_trump, trump_choices
from wizsim.sim.round import play_round

# A stream of its own for re-asking the dealer's trump choice, so that the check does not reuse
# draws that the round's own bidding and play consume.
CHECK_STREAM = 3
NO_CHECK = -2
BLOCK = 64


@parallel_kernel
def candidate_rounds_kernel(seed, first_index, players, r, hook, seat_slot, slot_kind, slot_params, table,
                            fixed_hands, turn_up_pool, fixed_trump, bid_mode, fixed_bids, seat, candidates,
                            trump_check, want_hands, accepted, tricks, turn_up, hands):
    """Rounds ``first_index .. first_index + n - 1`` of the run ``seed``, each once per candidate bid.

    seat : int, the advisor's 0-based seat (its ``bid_mode`` entry must be ``BID_FORCED``).
    candidates : (k,) int8, the bids to try; trump_check : int, ``NO_CHECK`` or the suit the dealer
        named on a turned-up Wizard (deals where the dealer's policy would not name it are rejected).
    want_hands : bool. Outputs: accepted (n,) bool; tricks (n, k) int8, the tricks the advisor took
    bidding ``candidates[j]`` (0 on rejected rows); turn_up (n,) int8; hands (n, players) uint64, the
    deal (only when want_hands, else any (1, players) array, untouched).
    The other arguments are those of ``round.play_round``, the same for every round.
    """
    n = accepted.shape[0]
    k = candidates.shape[0]
    dealer = players - 1
    n_blocks = (n + BLOCK - 1) // BLOCK
    for blk in prange(n_blocks):
        live = np.empty(players, dtype=np.uint64)
        trick_cards = np.empty(players, dtype=np.int8)
        voids = np.empty(players, dtype=np.int8)
        deal_rng = np.empty(1, dtype=np.uint64)
        play_rng = np.empty(1, dtype=np.uint64)
        hands_out = np.empty(players, dtype=np.uint64)
        bids_out = np.empty(players, dtype=np.int8)
        tricks_out = np.empty(players, dtype=np.int8)
        scores_out = np.empty(players, dtype=np.int16)
        log_cards = np.zeros(1, dtype=np.int8)
        log_leader = np.zeros(1, dtype=np.int8)
        log_winner = np.zeros(1, dtype=np.int8)
        my_bids = fixed_bids.copy()
        hi = min(blk * BLOCK + BLOCK, n)
        for i in range(blk * BLOCK, hi):
            index = first_index + i
            ok = True
            for j in range(k):
                deal_rng[0] = stream_key(seed, index, DEAL_STREAM)
                play_rng[0] = stream_key(seed, index, PLAY_STREAM)
                my_bids[seat] = candidates[j]
                tu, tr, ok = play_round(players, r, hook, seat_slot, slot_kind, slot_params, table,
                                        fixed_hands, turn_up_pool, fixed_trump, bid_mode, my_bids,
                                        deal_rng, play_rng, live, trick_cards, voids,
                                        hands_out, bids_out, tricks_out, scores_out,
                                        False, log_cards, log_leader, log_winner)
                if j == 0:
                    turn_up[i] = tu
                    if want_hands:
                        for s in range(players):
                            hands[i, s] = hands_out[s]
                if ok and j == 0 and trump_check != NO_CHECK:
                    play_rng[0] = stream_key(seed, index, CHECK_STREAM)
                    slot = seat_slot[dealer]
                    named = choose_trump(slot_kind[slot], slot_params[slot], table, players, r, hook,
                                         hands_out[dealer], tu, play_rng)
                    ok = named == trump_check
                if not ok:
                    break
                tricks[i, j] = tricks_out[seat]
            accepted[i] = ok
            if not ok:
                for j in range(k):
                    tricks[i, j] = 0


@kernel
def choice_frequencies(kind, params, table, seat, players, r, cards, turn_up, trump, bids, forbidden,
                       heard, trump_choice, n_reps, out):
    """For each one-card hand ``cards[m]``: the share of ``n_reps`` play streams on which the policy
    (``kind``, ``params``) in 0-based ``seat`` bids ``heard``. ``bids`` (players,) int8 are the bids
    made before it (-1 for later seats). Deterministic choices give exactly 0 or 1. With
    ``trump_choice``: the exact chance that the policy names the suit ``heard`` as dealer on a
    turned-up Wizard (it picks uniformly among its ``trump_choices``), no streams needed.

    cards : (m,) int8; out : (m,) float64, filled.
    """
    rng = np.empty(1, dtype=np.uint64)
    for m in range(cards.shape[0]):
        hand = bit(cards[m])
        if trump_choice:
            choices = trump_choices(kind, params, table, players, r, hand)
            n = 0
            for s in range(4):
                n += (choices >> s) & 1
            out[m] = ((choices >> heard) & 1) / n if 0 <= heard < 4 else 0.0
            continue
        hits = 0
        for rep in range(n_reps):
            rng[0] = stream_key(np.uint64(rep), np.int64(cards[m]), CHECK_STREAM)
            got = choose_bid(kind, params, table, seat, players, r, False, hand, turn_up, trump, bids, forbidden, rng)
            hits += got == heard
        out[m] = hits / n_reps
