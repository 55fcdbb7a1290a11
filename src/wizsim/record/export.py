"""A simulated game as a game record: ``from_games(batch, game=0, names=None, me=0)``.

``batch`` is a ``simulate_games`` result; the record has its players (named after their policies
unless ``names`` are given) and what each is (``identities``: ``wizsim.identity``, as
the player is seated in this process), first dealer, hook, and per round the turned-up card, the trump, the bids
and tricks, the hand of ``me`` and, when the batch was played with ``trick_log=True``, every card in
order of play, so that a bot's game can be reviewed like a person's.
"""

from __future__ import annotations

import numpy as np

from wizsim.cards import format_card, format_cards, format_trump, mask_to_cards
from wizsim.record.game import GameRecord, RecordError, RoundRecord


def from_games(batch, game: int = 0, names=None, me: int | None = 0, *, hook: bool | None = None) -> GameRecord:
    """Game ``game`` (0-based index into ``batch``) of a ``GameBatch`` as a ``GameRecord``; ``me``: the
    player (index) whose hands are recorded and whose decisions a review rates (None: nobody's).
    ``hook``: whether the batch was played with the hook (the batch does not say; default False)."""
    n = batch.players
    if not isinstance(game, (int, np.integer)) or isinstance(game, bool) or not 0 <= game < batch.n:
        raise RecordError(f"game: an index 0..{batch.n - 1} into the batch, got {game!r}")
    if names is None:
        names = [f"P{p + 1} {batch.player_policies[game][p]}" for p in range(n)]
    names = list(names)
    if len(names) != n:
        raise RecordError(f"names: one name per player ({n}), got {len(names)}")
    R = batch.rounds_per_game
    seat_player = batch.seat_player[game].astype(np.int64)  # (R, players)
    rounds = []
    logged = batch.log_cards is not None
    for k in range(R):
        r = k + 1
        order = seat_player[k]
        bids, tricks = [0] * n, [0] * n
        for s in range(n):
            bids[order[s]] = int(batch.bids[game, k, s])
            tricks[order[s]] = int(batch.tricks[game, k, s])
        t = int(batch.turn_up[game, k])
        hand = None
        if me is not None:
            seat = int(np.flatnonzero(order == me)[0])
            hand = format_cards(mask_to_cards(int(batch.hands[game, k, seat])))
        played = None
        if logged:
            start = n * k * (k + 1) // 2
            cards = batch.log_cards[game, start:start + n * r]
            played = "/".join(format_cards(cards[i:i + n]) for i in range(0, n * r, n))
        rounds.append(RoundRecord(r=r, trump=format_trump(int(batch.trump[game, k])), bids=bids, tricks=tricks,
                                  turn_up=format_card(t) if t >= 0 else None, hand=hand, played=played))
    from wizsim.policies.registry import seat_identity

    identities = [seat_identity(name) for name in batch.player_policies[game]]
    return GameRecord(players=names, first_dealer=int(batch.first_dealer[game]), hook=bool(hook), me=me,
                      rounds=rounds, identities=identities)
