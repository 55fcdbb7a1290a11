"""Rounds and games with users' Python players at the table: the open table's loop in place of the
kernels, filling the same ``RoundBatch`` and ``GameBatch`` arrays, so summaries, tournaments and
datasets take them as they are. Built-in seats draw from each round's play stream as the kernels do
(``table.players``); what the user's player does is its own affair.
"""

from __future__ import annotations

import numpy as np

from wizsim.table.game import Game
from wizsim.table.players import seated
from wizsim.table.round import Round


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def fill_round(rd: Round, i: int, hands, turn_up, trump, bids, tricks, scores) -> None:
    """Row ``i`` of the round arrays (seat order) from the finished round ``rd``."""
    hands[i] = [_mask(h) for h in rd.hands]
    turn_up[i] = rd.turn_up
    trump[i] = rd.trump
    bids[i] = rd.bids
    tricks[i] = rd.tricks
    scores[i] = rd.scores()


def round_log(rd: Round) -> tuple[list[int], list[int], list[int]]:
    """The trick log of a finished round: cards in order of play, each trick's leader and winner (0-based)."""
    p = rd.players
    return ([c for _, c in rd.played], [rd.played[t * p][0] - 1 for t in range(rd.r)],
            [w - 1 for w in rd.trick_winners])


def python_rounds(batch, hook: bool, trick_log: bool, decision_timeout: float | None = None) -> None:
    """Play ``batch``'s rounds (a ``RoundBatch`` with its arrays allocated) through the open table; a
    user's player that fails is a ``PlayerError`` (``Round.play``)."""
    seats = [seated(n) for n in batch.policies]
    for i in range(batch.n):
        rd = Round(batch.players, batch.r, seed=batch.seed, index=batch.first_index + i, hook=hook)
        rd.play(seats, decision_timeout=decision_timeout)
        fill_round(rd, i, batch.hands, batch.turn_up, batch.trump, batch.bids, batch.tricks, batch.scores)
        if trick_log:
            batch.log_cards[i], batch.log_leader[i], batch.log_winner[i] = round_log(rd)
    batch.accepted[:] = True


def python_games(batch, hook: bool, trick_log: bool, decision_timeout: float | None = None) -> None:
    """Play ``batch``'s games (a ``GameBatch`` with its arrays allocated) through the open table."""
    cache: dict[str, object] = {}
    p = batch.players
    for g, gid in enumerate(batch.game_ids):
        seats = [cache.setdefault(n, seated(n)) for n in batch.player_policies[g]]
        game = Game(p, seed=batch.seed, index=int(gid), hook=hook)
        game.play(seats, decision_timeout=decision_timeout)
        batch.first_dealer[g] = game.first_dealer - 1
        off = 0
        for k, rd in enumerate(game.history):
            fill_round(rd, k, batch.hands[g], batch.turn_up[g], batch.trump[g], batch.bids[g], batch.tricks[g],
                       batch.scores[g])
            if trick_log:
                cards, leaders, winners = round_log(rd)
                batch.log_cards[g, off * p:(off + rd.r) * p] = cards
                batch.log_leader[g, off:off + rd.r] = leaders
                batch.log_winner[g, off:off + rd.r] = winners
            off += rd.r
