"""The search policy: every decision by sampled worlds and heuristic play-outs.

For each decision the policy samples worlds from its own information (``policies.worlds``: the unseen
cards dealt to the other seats, consistent with the cards seen and the voids shown, weighed by how likely
the heard bids are under the opponents' model),
plays every candidate out on the same worlds with the heuristic in every seat for the rest of the round
(``policies.rollout.heuristic_tricks``), and takes the candidate with the highest mean round score;
ties are broken uniformly at random. This is determinized Monte-Carlo search ("perfect information
Monte Carlo"): it does not model that the others cannot see the worlds either, but on the same worlds
a candidate's mean score is a sharp estimate of how it fares against the heuristic.

- **bids**: each allowed bid is tried on each world; the seats after the player bid by the heuristic
  (seeing that bid), then the round is played out. That is the bid advisor's computation.
- **cards**: each legal card is played now, then the round is played out.
- **trump** (dealer on a turned-up Wizard): each suit is tried, everyone bids by the heuristic, and the
  round is played out.

Close decisions get more worlds: after a batch of ``worlds``, when the best candidate does not beat the
runner-up by a paired 95% interval, the worlds are doubled, up to ``doublings`` times.

Parameters (``params`` row): ``P_BID_SHIFT`` (column 0, the play-outs' heuristic, kept at the heuristic's
default so that the row serves as the heuristic's own), ``P_WORLDS``, ``P_DOUBLINGS``, ``P_BID_TRUST`` (how
far the others' heard bids and a dealer's named suit are trusted: the opponents' model of
``policies.model``, the heuristic with this ``bid_shift``). Every draw comes
from the round's play stream, so a search seat's choices depend only on (seed, round index).
"""

from __future__ import annotations

import numpy as np

from wizsim._jit import kernel
from wizsim.bits import ZERO, bit, lowest_bit, popcount
from wizsim.cards import FULL_DECK_MASK
from wizsim.deal.kernels import rand_below
from wizsim.policies.heuristic import heuristic_bid
from wizsim.policies.model import MODEL_HEURISTIC
from wizsim.policies.rollout import heuristic_tricks, play_card, trick_status
from wizsim.policies.worlds import dealer_named_trump, sample_world
from wizsim.rules.kernels import forbidden_bid, score_round

P_WORLDS = 1
P_DOUBLINGS = 2
P_BID_TRUST = 3
DEFAULT_WORLDS = 32
DEFAULT_DOUBLINGS = 2
DEFAULT_BID_TRUST = 0.9
MAX_WORLDS = 4096
# Draws per world before the likeliest one drawn stands (policies.worlds.sample_world).
MAX_TRIES = 200
_Z95 = 1.959963984540054  # stats.Z95 (stats is above the kernels)


@kernel
def _pick(scores, n, k, doublings_left, rng):
    """(index of the best mean column of ``scores[:n, :k]``, whether to sample more first). More when
    worlds may still be added and the best is not separated from the runner-up by a paired 95%
    interval (unless the two scored the same on every world: nothing more would tell them apart).
    Ties between the best are broken uniformly at random."""
    sums = np.zeros(k, np.float64)
    for w in range(n):
        for j in range(k):
            sums[j] += scores[w, j]
    top = np.argmax(sums)
    second = -1
    for j in range(k):
        if j != top and (second < 0 or sums[j] > sums[second]):
            second = j
    if doublings_left > 0 and n > 1:
        mean = (sums[top] - sums[second]) / n
        ss = 0.0
        for w in range(n):
            d = scores[w, top] - scores[w, second] - mean
            ss += d * d
        if not (mean == 0.0 and ss == 0.0) and mean <= _Z95 * np.sqrt(ss / (n - 1) / n):
            return top, True
    best = sums[top]
    n_best = 0
    for j in range(k):
        n_best += sums[j] == best
    if n_best == 1:
        return top, False
    pick = rand_below(rng, n_best)
    for j in range(k):
        if sums[j] == best:
            if pick == 0:
                return j, False
            pick -= 1
    return top, False


@kernel
def _model(params, players, me):
    """Every other seat modelled as the heuristic with this policy's ``bid_shift`` (policies.model)."""
    kinds = np.full(players, MODEL_HEURISTIC, np.int8)
    kinds[me] = 0
    mparams = np.empty((players, params.shape[0]), np.float64)
    for s in range(players):
        mparams[s] = params
    return kinds, mparams


@kernel
def search_card(params, table, seat, players, r, hook, hand, legal, turn_up, trump, bids, tricks, seat_played,
                played, trick_cards, n_in_trick, voids, rng):
    """The search policy's card (see the module docstring); the view of ``dispatch.choose_card``."""
    k = popcount(legal)
    if k == 1:
        return lowest_bit(legal)
    cands = np.empty(k, np.int64)
    m = legal
    for j in range(k):
        cands[j] = lowest_bit(m)
        m &= m - np.uint64(1)
    known = hand | played
    pool = ZERO
    if turn_up >= 0:
        known |= bit(turn_up)
        pool = bit(turn_up)
    unseen = FULL_DECK_MASK & ~known
    needs = np.zeros(players, np.int64)
    for s in range(players):
        if s != seat:
            needs[s] = r - popcount(seat_played[s])
    kinds, mparams = _model(params, players, seat)
    trust = params[P_BID_TRUST]
    trump_evidence = dealer_named_trump(players, seat, turn_up)
    leader = seat - n_in_trick
    if leader < 0:
        leader += players
    base_worlds = np.int64(params[P_WORLDS])
    doublings = np.int64(params[P_DOUBLINGS])
    cap = base_worlds << doublings
    scores = np.zeros((cap, k), np.float64)
    world = np.zeros(players, np.uint64)
    live, sp, tr, vd, tc = _scratch(players)
    led0, best0, win0 = trick_status(trick_cards, n_in_trick, trump)
    n = 0
    target = base_worlds
    while True:
        while n < target:
            sample_world(rng, players, r, seat, hand, unseen, needs, voids, pool, seat_played, trump, bids, hook,
                         players, kinds, mparams, table, trust, trump_evidence, MAX_TRIES, world)
            for j in range(k):
                for s in range(players):
                    live[s] = world[s]
                    sp[s] = seat_played[s]
                    tr[s] = tricks[s]
                    vd[s] = voids[s]
                    tc[s] = trick_cards[s]
                c = cands[j]
                play_card(seat, c, n_in_trick, led0, best0, win0, trump, live, sp, vd, tc)
                heuristic_tricks(players, turn_up, trump, live, bids, tr, sp, vd, tc, n_in_trick + 1, leader,
                                 played | bit(c))
                scores[n, j] = score_round(bids[seat], tr[seat])
            n += 1
        j, more = _pick(scores, n, k, doublings, rng)
        if not more:
            return cands[j]
        doublings -= 1
        target = 2 * n


@kernel
def _scratch(players):
    """The state arrays of one play-out (policies.rollout): hands, played per seat, tricks, voids, trick."""
    return (np.empty(players, np.uint64), np.empty(players, np.uint64), np.empty(players, np.int8),
            np.empty(players, np.int8), np.empty(players, np.int8))


@kernel
def _bid_out(params, table, players, r, hook, world, turn_up, trump, bids, first):
    """Bids of seats ``first..`` by the heuristic (seeing the bids before them), into ``bids``."""
    total = 0
    for s in range(first):
        total += bids[s]
    for s in range(first, players):
        b = heuristic_bid(params, table, s, players, r, world[s], turn_up, trump, bids,
                          forbidden_bid(hook, s, players, r, total))
        bids[s] = b
        total += b


@kernel
def _round_out(params, table, players, r, hook, world, turn_up, trump, bids, first, live, sp, tr, vd, tc):
    """Seats ``first..`` bid by the heuristic, then the whole round is played out on ``world``: ``tr``
    holds each seat's tricks."""
    _bid_out(params, table, players, r, hook, world, turn_up, trump, bids, first)
    for s in range(players):
        live[s] = world[s]
        sp[s] = ZERO
        tr[s] = 0
        vd[s] = 0
    heuristic_tricks(players, turn_up, trump, live, bids, tr, sp, vd, tc, 0, 0, ZERO)


@kernel
def search_bid(params, table, seat, players, r, hook, hand, turn_up, trump, bids, forbidden, rng):
    """The search policy's bid (see the module docstring); the view of ``dispatch.choose_bid``."""
    k = r + 1 - (forbidden >= 0)
    cands = np.empty(k, np.int64)
    j = 0
    for b in range(r + 1):
        if b != forbidden:
            cands[j] = b
            j += 1
    if k == 1:  # round 1 on the hook: one bid is allowed
        return cands[0]
    pool = ZERO
    known = hand
    if turn_up >= 0:
        known |= bit(turn_up)
        pool = bit(turn_up)
    unseen = FULL_DECK_MASK & ~known
    needs = np.zeros(players, np.int64)
    for s in range(players):
        if s != seat:
            needs[s] = r
    kinds, mparams = _model(params, players, seat)
    trust = params[P_BID_TRUST]
    trump_evidence = dealer_named_trump(players, seat, turn_up)
    no_plays = np.zeros(players, np.uint64)
    no_voids = np.zeros(players, np.int8)
    base_worlds = np.int64(params[P_WORLDS])
    doublings = np.int64(params[P_DOUBLINGS])
    cap = base_worlds << doublings
    scores = np.zeros((cap, k), np.float64)
    world = np.zeros(players, np.uint64)
    bb = np.empty(players, np.int8)
    live, sp, tr, vd, tc = _scratch(players)
    n = 0
    target = base_worlds
    while True:
        while n < target:
            sample_world(rng, players, r, seat, hand, unseen, needs, no_voids, pool, no_plays, trump, bids, hook, seat,
                         kinds, mparams, table, trust, trump_evidence, MAX_TRIES, world)
            for j in range(k):
                for s in range(players):
                    bb[s] = bids[s]
                bb[seat] = cands[j]
                _round_out(params, table, players, r, hook, world, turn_up, trump, bb, seat + 1, live, sp, tr, vd, tc)
                scores[n, j] = score_round(bb[seat], tr[seat])
            n += 1
        j, more = _pick(scores, n, k, doublings, rng)
        if not more:
            return cands[j]
        doublings -= 1
        target = 2 * n


@kernel
def search_trump(params, table, players, r, hook, hand, turn_up, rng):
    """The search policy's suit as dealer on a turned-up Wizard (``turn_up``); ``dispatch.choose_trump``."""
    dealer = players - 1
    unseen = FULL_DECK_MASK & ~(hand | bit(turn_up))
    needs = np.zeros(players, np.int64)
    for s in range(dealer):
        needs[s] = r
    no_plays = np.zeros(players, np.uint64)
    no_voids = np.zeros(players, np.int8)
    kinds, mparams = _model(params, players, dealer)
    bids = np.full(players, -1, np.int8)
    base_worlds = np.int64(params[P_WORLDS])
    doublings = np.int64(params[P_DOUBLINGS])
    cap = base_worlds << doublings
    scores = np.zeros((cap, 4), np.float64)
    world = np.zeros(players, np.uint64)
    bb = np.empty(players, np.int8)
    live, sp, tr, vd, tc = _scratch(players)
    n = 0
    target = base_worlds
    while True:
        while n < target:
            sample_world(rng, players, r, dealer, hand, unseen, needs, no_voids, bit(turn_up), no_plays, 0, bids, hook,
                         0, kinds, mparams, table, 0.0, False, MAX_TRIES, world)
            for t in range(4):
                _round_out(params, table, players, r, hook, world, turn_up, t, bb, 0, live, sp, tr, vd, tc)
                scores[n, t] = score_round(bb[dealer], tr[dealer])
            n += 1
        t, more = _pick(scores, n, 4, doublings, rng)
        if not more:
            return t
        doublings -= 1
        target = 2 * n
