"""The search policy: every decision by sampled worlds and play-outs (by the heuristic, or by net).

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

**Play-outs** (``rollout``): by the heuristic (``search:rollout=heuristic``, the default), by the
learned policy ``net`` (``search:rollout=net``): then every play-out, the searcher's own later cards and
every other seat's, and the bids of the seats after the candidate, is played by ``net``
(``rollout.net_tricks``) over the net's weights in the shared table; or by ``net`` in the searcher's own
seat alone (``search:rollout=self``: its later cards by net, every other seat's cards and bids by the
heuristic, ``rollout.self_tricks``), which is how net's training labels its improvement rounds
(``net_data``). The worlds are drawn as before: the opponents' model stays the heuristic's. A net card
play costs tens of heuristic ones, so at equal time it sees fewer worlds (docs/net.md). What is compiled
follows the table: ``dispatch.kernel_ext`` passes ``search`` as True where every search seat plays out by
the heuristic (no net code compiled in), as the int ``WITH_NET`` where one plays out by net in any seat
(``_play_out``).

Close decisions get more worlds: after a batch of ``worlds``, when the best candidate does not beat the
runner-up by a paired 95% interval, the worlds are doubled, up to ``doublings`` times.

Parameters (``params`` row): ``P_BID_SHIFT`` (column 0, the play-outs' heuristic, kept at the heuristic's
default so that the row serves as the heuristic's own), ``P_WORLDS``, ``P_DOUBLINGS``, ``P_BID_TRUST`` (how
far the others' heard bids and a dealer's named suit are trusted: the opponents' model of
``policies.model``, the heuristic with this ``bid_shift``), ``P_PLAY_TRUST`` (how far the cards the others
chose in the current trick are trusted, ``policies.model.trick_likelihood``: inference from play; 0, off,
by default, as measured), ``P_ROLLOUT`` (who plays the play-outs: an index into ``ROLLOUTS``). Every draw comes
from the round's play stream, so a search seat's choices depend only on (seed, round index).
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from wizsim._numba import inline_kernel, kernel
from wizsim.bits import ZERO, bit, lowest_bit, popcount
from wizsim.cards import FULL_DECK_MASK
from wizsim.deal.kernels import rand_below
from wizsim.policies.heuristic import heuristic_bid
from wizsim.policies.model import MODEL_HEURISTIC
from wizsim.policies.net import net_bid
from wizsim.policies.observation import observe
from wizsim.policies.records import RoundInfo, RoundState
from wizsim.policies.rollout import heuristic_tricks, net_tricks, play_card, self_tricks, trick_status
from wizsim.policies.worlds import dealer_named_trump, sample_world
from wizsim.rules.kernels import LED_NONE, forbidden_bid, score_round

P_WORLDS = 1
P_DOUBLINGS = 2
P_BID_TRUST = 3
P_PLAY_TRUST = 5  # column 4 is the heuristic's play noise, which the play-outs would read
P_ROLLOUT = 6
# Who plays the play-outs (``search:rollout=``), by its index in column ``P_ROLLOUT``, and what a decision
# costs with each at the same worlds, relative to the heuristic's (``registry.PolicySpec.cost_at``):
# measured 5.0-6.5 times at worlds 1, 2 and 8 without doublings (4-player games, one thread, 2026-12-05);
# self 3.1 times and net 5.9 in one run at worlds 8 without doublings (2026-12-06, quiet, 0.6.0's kernels);
# with the default doublings 2.8 and 8.7 times: close calls double the worlds more often under net's
# play-outs. The costs are the larger of each pair, so that a budget built on them is never overrun.
ROLLOUTS = ("heuristic", "net", "self")
ROLLOUT_NET = 1
ROLLOUT_SELF = 2
ROLLOUT_COSTS = (1.0, 8.7, 3.1)
# ``dispatch.kernel_ext``'s ``search`` where a seat's play-outs are net's: an int, a type apart from the
# True of a table whose search seats all play out by the heuristic, so that such a table compiles no net code
# (``_play_out``).
WITH_NET = 1
DEFAULT_WORLDS = 32
DEFAULT_DOUBLINGS = 2
DEFAULT_BID_TRUST = 0.9
# How far the cards of the current trick are trusted as evidence (``policies.model.trick_likelihood``):
# off by default, as measured (docs/results.md, strength): it did not make the policy stronger.
DEFAULT_PLAY_TRUST = 0.0
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
def _view(params, players, r, seat, hand, played, seat_played, turn_up):
    """What the seat does not see and how it reads the others: (the unseen cards, the pool the turned-up
    card is in, each other seat's number of hidden cards, and the opponents' model: kinds, params, trust,
    whether the dealer named the trump). Every other seat is modelled as the heuristic with this policy's
    ``bid_shift`` (policies.model)."""
    known = hand | played
    pool = ZERO
    if turn_up >= 0:
        known |= bit(turn_up)
        pool = bit(turn_up)
    needs = np.zeros(players, np.int64)
    for s in range(players):
        if s != seat:
            needs[s] = r - popcount(seat_played[s])
    kinds = np.full(players, MODEL_HEURISTIC, np.int8)
    kinds[seat] = 0
    mparams = np.empty((players, params.shape[0]), np.float64)
    for s in range(players):
        mparams[s] = params
    return (FULL_DECK_MASK & ~known, pool, needs, kinds, mparams, params[P_BID_TRUST],
            dealer_named_trump(players, seat, turn_up))


@inline_kernel
def _search(score_world, ctx, k, params, table, me, view, evidence, rng):
    """The index of the best of ``k`` candidates: worlds drawn for the deciding seat ``me`` = (players, r,
    hook, seat, hand) from its ``view`` (``_view``) by ``sample_world`` (``evidence``: the hard facts, the
    heard bids, a named trump and the current trick's cards, as ``sample_world`` takes them), each
    scored by ``score_world(ctx, world, row)`` (every candidate's round score on ``world`` into ``row``
    (k,) float64); after each batch of ``P_WORLDS`` worlds ``_pick`` decides, or doubles the worlds (at
    most ``P_DOUBLINGS`` times)."""
    base_worlds = np.int64(params[P_WORLDS])
    doublings = np.int64(params[P_DOUBLINGS])
    scores = np.zeros((base_worlds << doublings, k), np.float64)
    world = np.zeros(me[0], np.uint64)
    n = 0
    target = base_worlds
    while True:
        while n < target:
            sample_world(rng, me, view, evidence, table, MAX_TRIES, world)
            score_world(ctx, world, scores[n])
            n += 1
        j, more = _pick(scores, n, k, doublings, rng)
        if not more:
            return j
        doublings -= 1
        target = 2 * n


@kernel
def _no_trick(players):
    """``sample_world``'s ``trick`` before any card is played (bids, the trump): nothing to weigh."""
    return (0.0, np.zeros(players, np.int8), ZERO, np.zeros(players, np.int8), 0, 0)


@kernel
def _scratch(players):
    """The state of one play-out (``records.RoundState``: hands, played per seat, voids, trick, and its
    bids and tricks)."""
    return RoundState(np.empty(players, np.uint64), np.empty(players, np.uint64), np.empty(players, np.int8),
                      np.empty(players, np.int8), np.empty(players, np.int8), np.empty(players, np.int8))


@kernel
def search_card(params, table, obs, rng, rollouts):
    """The search policy's card (see the module docstring) on the observation record ``obs``
    (``policies.observation``); ``rollouts``: the play-outs compiled in (``_play_out``)."""
    seat, players, r, hook, hand, legal = obs.seat, obs.players, obs.r, obs.hook, obs.hand, obs.legal
    turn_up, trump, bids, tricks, seat_played = obs.turn_up, obs.trump, obs.bids, obs.tricks, obs.seat_played
    played, trick_cards, n_in_trick, voids = obs.played, obs.trick_cards, obs.n_in_trick, obs.voids
    k = popcount(legal)
    if k == 1:
        return lowest_bit(legal)
    cands = np.empty(k, np.int64)
    m = legal
    for j in range(k):
        cands[j] = lowest_bit(m)
        m &= m - np.uint64(1)
    leader = seat - n_in_trick
    if leader < 0:
        leader += players
    ctx = (obs, cands, leader, trick_status(trick_cards, n_in_trick, trump), _scratch(players),
           (rollouts, params, table))
    view = _view(params, players, r, seat, hand, played, seat_played, turn_up)
    trick = (params[P_PLAY_TRUST], tricks, played, trick_cards, n_in_trick, leader)
    return cands[_search(_card_world, ctx, k, params, table, (players, r, hook, seat, hand), view,
                         (voids, seat_played, trump, bids, players, trick), rng)]


@inline_kernel
def _card_world(ctx, world, row):
    """``search_card``'s scores on ``world``: each candidate played now, then the play-out."""
    obs, cands, leader, status, state, how = ctx
    players, seat, trump, n_in_trick = obs.players, obs.seat, obs.trump, obs.n_in_trick
    led0, best0, win0 = status
    info = RoundInfo(players, obs.r, obs.hook, obs.turn_up, trump)
    for s in range(players):
        state.bids[s] = obs.bids[s]
    for j in range(cands.shape[0]):
        for s in range(players):
            state.live[s] = world[s]
            state.seat_played[s] = obs.seat_played[s]
            state.tricks[s] = obs.tricks[s]
            state.voids[s] = obs.voids[s]
            state.trick_cards[s] = obs.trick_cards[s]
        c = cands[j]
        play_card(state, trump, seat, c, n_in_trick, led0, best0, win0)
        _play_out(how[0], how[1], (how[2], info, state, world, -1, n_in_trick + 1, leader, obs.played | bit(c)), seat)
        row[j] = score_round(obs.bids[seat], state.tricks[seat])


def _play_out(rollouts, params, a, seat):
    """The play-out from a state: by net (in every seat, or in the searcher's ``seat`` alone) where
    ``params[P_ROLLOUT]`` says so, else by the heuristic; ``a`` = (table, info, state, world, first, n, leader,
    played) as ``_heuristic_out`` takes it. ``rollouts`` (``dispatch.kernel_ext``'s ``search``) chooses by
    its type what is compiled: an int (``WITH_NET``) every play-out, anything else (True) the heuristic's
    only, so that a table without net compiles none of net's code (kernels only: see ``_play_out_typed``)."""
    raise TypeError("kernels only")


@overload(_play_out)
def _play_out_typed(rollouts, params, a, seat):
    if isinstance(rollouts, types.Integer) and not isinstance(rollouts, types.Boolean):
        def both(rollouts, params, a, seat):
            if params[P_ROLLOUT] == ROLLOUT_NET:
                _net_out(params, a)
            elif params[P_ROLLOUT] == ROLLOUT_SELF:
                _self_out(params, a, seat)
            else:
                _heuristic_out(params, a)
        return both

    def heuristic_only(rollouts, params, a, seat):
        if params[P_ROLLOUT] != 0:
            raise ValueError("search:rollout=net or self in kernels compiled without net's play-outs: give "
                             "dispatch.kernel_ext the slots' params")
        _heuristic_out(params, a)
    return heuristic_only


@inline_kernel
def _bids_from(bid, params, a):
    """When ``a``'s ``first`` >= 0, the seats from ``first`` bid by ``bid(params, table, info, state, s,
    hand, forbidden)``, each seeing the bids before it, into ``state.bids`` (see ``_heuristic_out``)."""
    table, info, state, world, first, _, _, _ = a
    if first >= 0:
        total = 0
        for s in range(first):
            total += state.bids[s]
        for s in range(first, info.players):
            b = bid(params, table, info, state, s, world[s], forbidden_bid(info.hook, s, info.players, info.r, total))
            state.bids[s] = b
            total += b


@inline_kernel
def _heuristic_seat_bid(params, table, info, state, s, hand, forbidden):
    return heuristic_bid(params, table, s, info.players, info.r, hand, info.turn_up, info.trump, state.bids, forbidden)


@inline_kernel
def _net_seat_bid(params, table, info, state, s, hand, forbidden):
    return net_bid(table, observe(info, state, s, hand, ZERO, forbidden, ZERO, 0, LED_NONE, -1))


@kernel
def _heuristic_out(params, a):
    """The heuristic's play-out: ``a`` = (table, info, state, world, first, n, leader, played): when ``first``
    >= 0 the seats from ``first`` bid first (``_bids_from``; ``state`` holds the dealt ``world``, nothing
    played, no trick taken), then the round is played to its end from the state (``n`` cards of the
    current trick down, led by ``leader``; ``played`` every card played)."""
    _bids_from(_heuristic_seat_bid, params, a)
    heuristic_tricks(a[1], a[2], a[5], a[6], a[7])


@kernel
def _net_out(params, a):
    """``_heuristic_out`` with net in every seat, its bids included (``a[0]``: the table with its weights)."""
    _bids_from(_net_seat_bid, params, a)
    net_tricks(a[0], a[1], a[2], a[5], a[6], a[7])


@kernel
def _self_out(params, a, seat):
    """``_heuristic_out`` with net playing ``seat``'s cards (the other seats' bids by the heuristic)."""
    _bids_from(_heuristic_seat_bid, params, a)
    self_tricks(a[0], seat, a[1], a[2], a[5], a[6], a[7])


@inline_kernel
def _round_world(ctx, world, row):
    """``search_bid``'s and ``search_trump``'s scores on ``world``: for each candidate (a bid of the seat,
    or the trump suit), the seats after ``first`` bid, then the whole round is played out (``_play_out``).
    ``ctx`` = (params, table, players, r, hook, turn_up, seat, first, the bids heard, the candidate bids,
    the trump, whether the candidates are the suits instead, the play-out's state, the play-outs compiled
    in)."""
    params, table, players, r, hook, turn_up, seat, first, heard, cands, trump, suits, state, rollouts = ctx
    bb = state.bids
    for j in range(row.shape[0]):
        for s in range(players):
            bb[s] = heard[s]
            state.live[s] = world[s]
            state.seat_played[s] = ZERO
            state.tricks[s] = 0
            state.voids[s] = 0
        t = trump
        if suits:
            t = j
        else:
            bb[seat] = cands[j]
        _play_out(rollouts, params, (table, RoundInfo(players, r, hook, turn_up, t), state, world, first, 0, 0, ZERO), seat)
        row[j] = score_round(bb[seat], state.tricks[seat])


@kernel
def search_bid(params, table, obs, rng, rollouts):
    """The search policy's bid (see the module docstring) on the observation record ``obs``; ``rollouts``:
    the play-outs compiled in (``_play_out``)."""
    seat, players, r, hook, hand, turn_up = obs.seat, obs.players, obs.r, obs.hook, obs.hand, obs.turn_up
    trump, bids, forbidden = obs.trump, obs.bids, obs.forbidden
    k = r + 1 - (forbidden >= 0)
    cands = np.empty(k, np.int64)
    j = 0
    for b in range(r + 1):
        if b != forbidden:
            cands[j] = b
            j += 1
    if k == 1:  # round 1 on the hook: one bid is allowed
        return cands[0]
    no_plays = np.zeros(players, np.uint64)
    no_voids = np.zeros(players, np.int8)
    view = _view(params, players, r, seat, hand, ZERO, no_plays, turn_up)
    ctx = (params, table, players, r, hook, turn_up, seat, seat + 1, bids, cands, trump, False, _scratch(players),
           rollouts)
    return cands[_search(_round_world, ctx, k, params, table, (players, r, hook, seat, hand), view,
                         (no_voids, no_plays, trump, bids, seat, _no_trick(players)), rng)]


@kernel
def search_trump(params, table, obs, rng, rollouts):
    """The search policy's suit as dealer on the turned-up Wizard ``obs.turn_up``."""
    players, r, hook, hand, turn_up = obs.players, obs.r, obs.hook, obs.hand, obs.turn_up
    dealer = players - 1
    no_plays = np.zeros(players, np.uint64)
    no_voids = np.zeros(players, np.int8)
    unseen, pool, needs, kinds, mparams, _, _ = _view(params, players, r, dealer, hand, ZERO, no_plays, turn_up)
    bids = np.full(players, -1, np.int8)
    ctx = (params, table, players, r, hook, turn_up, dealer, 0, bids, np.zeros(4, np.int64), 0, True,
           _scratch(players), rollouts)
    return _search(_round_world, ctx, 4, params, table, (players, r, hook, dealer, hand),
                   (unseen, pool, needs, kinds, mparams, 0.0, False), (no_voids, no_plays, 0, bids, 0, _no_trick(players)),
                   rng)
