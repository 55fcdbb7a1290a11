"""Plain-Python twins of the advisor's kernels (``advisor.kernels``), each tested against its kernel.

The twin of ``candidate_rounds`` (``candidate_rounds_kernel``) follows its contract: each deal is played
once per candidate bid from the deal and play streams of its round index, through the round's twin
(``sim.reference.play_round``). The twin of ``evidence.deal_likelihoods_kernel`` (``deal_likelihoods``)
deals each round from its deal stream and asks the model's twins how likely the heard bids and named
suit are; ``table_types`` is ``evidence.table_types_kernel``'s; ``enumerate_worlds`` lists what
``world_batches.enumerate_worlds_kernel`` lists, without its caps.
"""

from __future__ import annotations

from wizsim.deal.reference import DEAL_STREAM, Stream, deal_round, stream_key
from wizsim.sim.reference import _cards, play_round, round_streams

CHECK_STREAM = 3


def candidate_rounds(seed: int, indices, players: int, r: int, hook: bool, fixed_hands, turn_up_pool: int,
                     fixed_trump: int, bid_mode, fixed_bids, seat: int, candidates):
    """Lists ``tricks`` (per deal, one entry per candidate), ``turn_up``, ``hands`` and ``won`` (per deal and
    candidate, the bit mask of the seat's cards that took a trick) of rounds ``indices``."""
    tricks, turn_up, hands, won = [], [], [], []
    for index in indices:
        row, won_row = [], []
        record = None
        for b in candidates:
            bids = list(fixed_bids)
            bids[seat] = int(b)
            deal, play = round_streams(seed, int(index))
            record = play_round(players, r, hook, deal, play, fixed_hands=fixed_hands, turn_up_pool=turn_up_pool,
                                fixed_trump=fixed_trump, bid_mode=bid_mode, fixed_bids=bids)
            row.append(record.tricks[seat])
            mask = 0
            for t in range(r):
                if record.log_winner[t] == seat:
                    mask |= 1 << record.log_cards[t * players + (seat - record.log_leader[t]) % players]
            won_row.append(mask)
        tricks.append(row)
        won.append(won_row)
        turn_up.append(record.turn_up)
        hands.append(list(record.hands))
    return tricks, turn_up, hands, won


def deal_likelihoods(seed: int, first_index: int, n: int, info, fixed_hands, turn_up_pool: int, me: int, opponents,
                     evidence):
    """Per deal: (likelihood of the heard bids and named suit, acceptance draw in [0, 1), each seat's
    probability of what it was heard doing under its model). ``info``, ``opponents``, ``evidence``: the
    kernel's records (``records.RoundInfo``, ``Opponents``, ``Evidence``)."""
    from wizsim.policies.reference import bids_likelihood, named_trump_likelihood, seat_factors

    players, r = info.players, info.r
    kinds, params, table, trump_trust = opponents.kinds, opponents.params, opponents.table, opponents.trump_trust
    bids, n_heard, named = list(evidence.bids), evidence.n_heard, evidence.named
    out = []
    dealer = players - 1
    for index in range(first_index, first_index + n):
        turn_up, hands = deal_round(Stream(stream_key(seed, index, DEAL_STREAM)), players, r, list(fixed_hands),
                                    turn_up_pool)
        dealt = info._replace(turn_up=turn_up)
        like, _ = bids_likelihood(opponents, dealt, me, hands, bids, n_heard)
        if named >= 0 and dealer != me:
            like *= named_trump_likelihood(kinds[dealer], params[dealer], table, trump_trust, players, r,
                                           int(hands[dealer]), named)
        u = (Stream(stream_key(seed, index, CHECK_STREAM)).next_u64() >> 11) * 2.0 ** -53
        per_seat = seat_factors(opponents, dealt, me, hands, bids, n_heard, named)
        out.append((like, u, per_seat))
    return out


TYPE_STREAM = 6


def table_types(seed: int, first_index: int, seat_model, seat_blind, doubt: float, seat_doubt: float, me: int):
    """Per deal: (mixture weight, the bit mask of the seats drawn blind from the posterior): the whole
    table first, then each other seat in turn, from the deal's type stream; ``seat_doubt`` per seat."""
    from wizsim.policies.reference import seat_mixture

    out = []
    for i, model_f in enumerate(seat_model):
        weight, whole, post = seat_mixture(list(model_f), list(seat_blind), doubt, seat_doubt, me)
        stream = Stream(stream_key(seed, first_index + i, TYPE_STREAM))
        others = [s for s in range(len(seat_blind)) if s != me]
        if (stream.next_u64() >> 11) * 2.0 ** -53 < whole:
            mask = sum(1 << s for s in others)
        else:
            mask = 0
            for s in others:
                if (stream.next_u64() >> 11) * 2.0 ** -53 < post[s]:
                    mask |= 1 << s
        out.append((weight, mask))
    return out


def enumerate_worlds(me: int, hand: int, unseen: int, needs, allowed, turn_up_choices) -> list[tuple[tuple, int]]:
    """Twin of ``advisor.kernels.world_batches.enumerate_worlds_kernel``, without its caps: every (hands, turned-up card) with
    the turned-up card ``t`` of ``turn_up_choices`` (-1: none) out of the unseen cards, then seat s given
    ``needs[s]`` of the cards left, each one it may hold (``allowed[s]``), seats in order, the rest undealt;
    ``hand`` for seat ``me``."""
    from itertools import combinations

    out = []

    def deal(s: int, left: set[int], hands: list[int], t: int):
        if s == len(needs):
            out.append((tuple(hands), t))
            return
        if s == me:
            deal(s + 1, left, hands[:s] + [hand] + hands[s + 1:], t)
            return
        for combo in combinations(sorted(c for c in left if allowed[s] >> c & 1), needs[s]):
            deal(s + 1, left - set(combo), hands[:s] + [sum(1 << c for c in combo)] + hands[s + 1:], t)

    for t in turn_up_choices:
        deal(0, {c for c in _cards(unseen) if c != t}, [0] * len(needs), t)
    return out
