"""A chunk's simulated batch as the columns of ``io.schema``'s tables, one round size at a time.

Inputs are in seat order, 0-based (index 0 = seat 1); outputs are 1-based seats and players, as the
schema describes. A rounds-mode batch has no game columns at all (``schema.GAME_ONLY``).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, N_SUITED, format_card
from wizsim.dataset.kernels import expand_round_rows, expand_trick_rows
from wizsim.sim.driver import GameBatch, RoundBatch

# The text columns' dictionaries: fixed, so that a file's bytes depend only on its rows.
TRUMP_TEXTS = pa.array(["S", "H", "D", "C", "none"])  # trump code 0..3, -1 -> 4
# the suited cards by id, then one entry for any Wizard, one for any Jester, and none
TURN_UP_TEXTS = pa.array([format_card(c) for c in range(N_SUITED)] + ["W", "J", "none"])
_WIZARD_TEXT, _JESTER_TEXT, _NONE_TEXT = N_SUITED, N_SUITED + 1, N_SUITED + 2


def _turn_up_index(turn_up: np.ndarray) -> np.ndarray:
    """Each turned-up card id's entry in ``TURN_UP_TEXTS`` (-1, nothing turned up: none)."""
    t = turn_up.astype(np.int16)
    return np.where(t < 0, _NONE_TEXT, np.where(t >= FIRST_JESTER, _JESTER_TEXT,
                                                np.where(t >= FIRST_WIZARD, _WIZARD_TEXT, t))).astype(np.int8)


def _constant_string(value: str, n: int) -> pa.DictionaryArray:
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([value]))


def policy_dictionary(policies) -> list[str]:
    """The dictionary of the policy column: the run's distinct names, sorted (deterministic)."""
    return sorted(set(policies))


def rounds_columns(run_id: str, round_index, hands, trump, turn_up, bids, tricks, scores, policy_names,
                   policy_idx, *, game_id=None, game_round=None, player=None, total=None) -> tuple[int, dict]:
    """Rows of the rounds table for n rounds of one size.

    round_index (n,) int64; hands (n, p) uint64; trump, turn_up (n,) int8; bids, tricks (n, p) int8;
    scores (n, p) int16; policy_idx (p,) or (n, p) int8 into ``policy_names``; game mode adds
    game_id (n,) int64, game_round (int), player (n, p) 0-based identities and total (n, p).
    """
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    n, p = hands.shape
    m = n * p
    out_index = np.empty(m, np.int64)
    small = {name: np.empty(m, np.int8) for name in ("seat", "n_wizards", "n_jesters", "n_trumps", "turn_up", "trump")}
    expand_round_rows(np.ascontiguousarray(round_index, dtype=np.int64), hands,
                      np.ascontiguousarray(trump, dtype=np.int8), np.ascontiguousarray(turn_up, dtype=np.int8),
                      (out_index, small["seat"], small["n_wizards"], small["n_jesters"], small["n_trumps"],
                       small["turn_up"], small["trump"]))
    policy_idx = np.asarray(policy_idx, dtype=np.int8)
    policy_rows = np.tile(policy_idx, n) if policy_idx.ndim == 1 else policy_idx.reshape(-1)
    bid_rows = np.ascontiguousarray(bids).reshape(-1)
    trick_rows = np.ascontiguousarray(tricks).reshape(-1)
    trump_rows = np.where(small["trump"] < 0, 4, small["trump"]).astype(np.int8)
    cols = {
        "run_id": _constant_string(run_id, m),
        "round_index": out_index,
        "policy": pa.DictionaryArray.from_arrays(pa.array(policy_rows), pa.array(list(policy_names))),
        "hand": hands.reshape(-1),
        "bid": bid_rows,
        "tricks": trick_rows,
        "made": bid_rows == trick_rows,
        "score": np.ascontiguousarray(scores).reshape(-1),
        "trump_suit": pa.DictionaryArray.from_arrays(pa.array(trump_rows), TRUMP_TEXTS),
        "turn_up_card": pa.DictionaryArray.from_arrays(pa.array(_turn_up_index(small["turn_up"])), TURN_UP_TEXTS),
        **small,
    }
    if game_id is not None:
        cols.update(game_id=np.repeat(np.asarray(game_id, np.int64), p), game_round=np.full(m, game_round, np.int8),
                    player=(np.asarray(player, np.int8) + 1).reshape(-1),
                    total=np.ascontiguousarray(total).reshape(-1))
    return m, cols


def tricks_columns(run_id: str, round_index, log_cards, log_leader, log_winner, *, game_id=None,
                   game_round=None) -> tuple[int, dict]:
    """Rows of the tricks table for n rounds of r cards: log_cards (n, r * p), log_leader/winner (n, r)."""
    log_leader = np.ascontiguousarray(log_leader, dtype=np.int8)
    n, r = log_leader.shape
    m = n * r
    p = log_cards.shape[1] // r
    out_index = np.empty(m, np.int64)
    trick, leader, winner = (np.empty(m, np.int8) for _ in range(3))
    expand_trick_rows(np.ascontiguousarray(round_index, dtype=np.int64), log_leader,
                      np.ascontiguousarray(log_winner, dtype=np.int8), out_index, trick, leader, winner)
    offsets = pa.array(np.arange(0, m * p + 1, p, dtype=np.int32))
    cards = pa.ListArray.from_arrays(offsets, pa.array(np.ascontiguousarray(log_cards, dtype=np.int8).reshape(-1)))
    cols = {
        "run_id": _constant_string(run_id, m),
        "round_index": out_index,
        "trick": trick,
        "leader": leader,
        "cards": cards,
        "winner": winner,
    }
    if game_id is not None:
        cols.update(game_id=np.repeat(np.asarray(game_id, np.int64), r), game_round=np.full(m, game_round, np.int8))
    return m, cols


def round_batch_tables(run_id: str, batch: RoundBatch, policies) -> dict[tuple[str, int], tuple[int, dict]]:
    """{(table, round size): (rows, columns)} for a rounds-mode batch; ``policies`` one per seat."""
    names = policy_dictionary(policies)
    idx = np.array([names.index(x) for x in policies], np.int8)
    index = batch.round_index
    out = {("rounds", batch.r): rounds_columns(run_id, index, batch.hands, batch.trump, batch.turn_up, batch.bids,
                                               batch.tricks, batch.scores, names, idx)}
    if batch.log_cards is not None:
        out[("tricks", batch.r)] = tricks_columns(run_id, index, batch.log_cards, batch.log_leader, batch.log_winner)
    return out


def game_batch_tables(run_id: str, batch: GameBatch, policies) -> dict[tuple[str, int], tuple[int, dict]]:
    """{(table, round size): (rows, columns)} for a game batch; ``policies`` one per player."""
    names = policy_dictionary(policies)
    player_idx = np.array([names.index(x) for x in policies], np.int8)
    R = batch.rounds_per_game
    seat_player = batch.seat_player.astype(np.int64)  # (n, R, p)
    totals_by_seat = np.take_along_axis(batch.totals, seat_player, axis=2).astype(np.int16)
    out = {}
    for k in range(R):
        r = k + 1
        index = batch.game_ids * R + k
        sp = seat_player[:, k, :]
        out[("rounds", r)] = rounds_columns(
            run_id, index, batch.hands[:, k, :], batch.trump[:, k], batch.turn_up[:, k], batch.bids[:, k, :],
            batch.tricks[:, k, :], batch.scores[:, k, :], names, player_idx[sp],
            game_id=batch.game_ids, game_round=r, player=sp, total=totals_by_seat[:, k, :])
        if batch.log_cards is not None:
            off = k * (k + 1) // 2
            p = batch.players
            out[("tricks", r)] = tricks_columns(
                run_id, index, batch.log_cards[:, off * p:(off + r) * p], batch.log_leader[:, off:off + r],
                batch.log_winner[:, off:off + r], game_id=batch.game_ids, game_round=r)
    return out
