"""Kernels that spread per-round results into per-row columns of the Parquet tables.

A chunk of a million rounds is four million rows; building those columns with numpy takes several
passes over memory, one pass here. Seats are 1-based in the output (docs/rules.md), 0-based in the input.
"""

from __future__ import annotations

from wizsim._numba import kernel
from wizsim.bits import ZERO, popcount
from wizsim.cards import JESTER_MASK, SUIT_MASKS, WIZARD_MASK


@kernel
def expand_round_rows(round_index, hands, trump, turn_up, out):
    """Row (i * players + s) describes seat s + 1 of round i.

    Parameters
    ----------
    round_index : (n,) int64; hands : (n, players) uint64, C-contiguous, seat order;
    trump, turn_up : (n,) int8 (-1 for none).
    out : (out_round_index, out_seat, out_n_wizards, out_n_jesters, out_n_trumps, out_turn_up, out_trump),
    the columns: (n * players,) int64 the first, int8 the others. Filled; n_trumps counts suited trumps only.
    """
    out_round_index, out_seat, out_n_wizards, out_n_jesters, out_n_trumps, out_turn_up, out_trump = out
    n = hands.shape[0]
    players = hands.shape[1]
    for i in range(n):
        t = trump[i]
        trump_mask = ZERO
        if t >= 0:
            trump_mask = SUIT_MASKS[t]
        for s in range(players):
            j = i * players + s
            h = hands[i, s]
            out_round_index[j] = round_index[i]
            out_seat[j] = s + 1
            out_n_wizards[j] = popcount(h & WIZARD_MASK)
            out_n_jesters[j] = popcount(h & JESTER_MASK)
            out_n_trumps[j] = popcount(h & trump_mask)
            out_turn_up[j] = turn_up[i]
            out_trump[j] = t


@kernel
def expand_trick_rows(round_index, log_leader, log_winner, out_round_index, out_trick, out_leader, out_winner):
    """Row (i * r + t) describes trick t + 1 of round i.

    Parameters
    ----------
    round_index : (n,) int64; log_leader, log_winner : (n, r) int8, 0-based seats, C-contiguous.
    out_round_index : (n * r,) int64; out_trick, out_leader, out_winner : (n * r,) int8 (1-based).
    """
    n = log_leader.shape[0]
    r = log_leader.shape[1]
    for i in range(n):
        for t in range(r):
            j = i * r + t
            out_round_index[j] = round_index[i]
            out_trick[j] = t + 1
            out_leader[j] = log_leader[i, t] + 1
            out_winner[j] = log_winner[i, t] + 1
