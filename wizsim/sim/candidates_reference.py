"""Plain-Python twins of ``sim.candidates`` (random policy in every seat), from their contract:
each deal is played once per candidate bid from the deal and play streams of its round index, a deal
is rejected when an earlier seat's bid differs from the heard one or (with a trump check) when the
dealer, asked on the check stream, would name another suit; the advisor's tricks per candidate.
"""

from __future__ import annotations

from wizsim.deal.reference import Stream, stream_key
from wizsim.policies.reference import random_bid, random_trump
from wizsim.sim.reference import play_round, round_streams

CHECK_STREAM = 3
NO_CHECK = -2


def candidate_rounds(seed: int, first_index: int, n: int, players: int, r: int, hook: bool, fixed_hands,
                     turn_up_pool: int, fixed_trump: int, bid_mode, fixed_bids, seat: int, candidates,
                     trump_check: int = NO_CHECK):
    """Lists ``accepted``, ``tricks`` (per deal, one entry per candidate), ``turn_up`` and ``hands``."""
    accepted, tricks, turn_up, hands = [], [], [], []
    for index in range(first_index, first_index + n):
        row = []
        ok = True
        record = None
        for b in candidates:
            bids = list(fixed_bids)
            bids[seat] = int(b)
            deal, play = round_streams(seed, index)
            record = play_round(players, r, hook, deal, play, fixed_hands=fixed_hands, turn_up_pool=turn_up_pool,
                                fixed_trump=fixed_trump, bid_mode=bid_mode, fixed_bids=bids)
            if record.accepted and trump_check != NO_CHECK and not row:
                ok = random_trump(Stream(stream_key(seed, index, CHECK_STREAM))) == trump_check
            ok = ok and record.accepted
            if not ok:
                break
            row.append(record.tricks[seat])
        accepted.append(ok)
        tricks.append(row if ok else [0] * len(candidates))
        turn_up.append(record.turn_up)
        hands.append(list(record.hands))
    return accepted, tricks, turn_up, hands


def choice_frequencies(seat: int, players: int, r: int, cards, heard: int, forbidden: int, trump_choice: bool,
                       n_reps: int) -> list[float]:
    """Share of ``n_reps`` check streams on which the random policy holding one card bids ``heard``
    (the stream of rep ``k`` for card ``c`` is keyed (seed k, index c)); for a trump choice, the chance
    that it names the suit ``heard``: 1/4 for a suit, whatever the card."""
    out = []
    for c in cards:
        if trump_choice:
            out.append(1 / 4 if 0 <= heard < 4 else 0.0)
            continue
        hits = 0
        for rep in range(n_reps):
            stream = Stream(stream_key(rep, int(c), CHECK_STREAM))
            got = random_bid(r, forbidden, stream)
            hits += got == heard
        out.append(hits / n_reps)
    return out
