"""Training examples for the ``net`` policy: states from whole rounds, each candidate valued by the search
policy's own play-out on the round's true deal.

``label_rounds`` plays rounds (3..6 players and the round size drawn per round, a quarter of them on the
hook) with a behaviour policy in every seat (the heuristic, or ``net`` itself for a DAgger round), and at
each decision it records the deciding seat's features (``policies.net``) and a *value* for every legal
candidate: the seat's round score when it takes that candidate and the heuristic plays the rest of the
round on the true deal (or ``net`` plays it, where ``params[search.P_ROLLOUT]`` is ``search.ROLLOUT_NET``
and ``table`` holds the net's weights: the values of a step of policy improvement over the net). That is
exactly the search policy's score of a candidate on one world (``search._card_world``,
``search._round_world``), with the world drawn from the true posterior instead
of the search's belief model; a network that regresses these values over many deals learns the mean over
the deals consistent with what the seat sees, which is what the search estimates with its sampled worlds.

Each round depends only on (seed, round index). Values are NaN for candidates that are not legal. Each
example also records where it came from (``WHO``: the round index, players, round size, hook and the deciding
seat, 0-based from the dealer's left), so that a dataset of examples (``dataset.labels``) traces every row to
its round.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.bits import ZERO, bit, lowest_bit, popcount
from wizsim.cards import FULL_DECK_MASK
from wizsim.deal.kernels import DEAL_STREAM, PLAY_STREAM, deal_round, next_u64, rand_below, stream_key
from wizsim.policies.dispatch import HEURISTIC, choose_bid_light, choose_card_light, choose_trump_light
from wizsim.policies.net import (
    D_BID,
    D_CARD,
    D_TRUMP,
    MAX_BID,
    N_KINDS,
    bid_features,
    card_features,
    card_kind,
    trump_features,
)
from wizsim.policies.observation import observe
from wizsim.policies.records import RoundInfo, RoundState, no_log
from wizsim.policies.rollout import play_tricks, trick_status
from wizsim.policies.search import WITH_NET, _card_world, _round_world, _scratch
from wizsim.rules.kernels import DEALER_NAMES, LED_NONE, forbidden_bid, trump_of_turn_up

_UNIT = 1.0 / 9007199254740992.0
WHO = ("round_index", "players", "round", "hook", "seat")  # the columns of each example's ``who`` row


def empty_out(n_rounds: int):
    """Output arrays for ``n_rounds`` rounds: (bid x, bid values, card x, card values, trump x, trump values,
    bid who, card who, trump who), each ``who`` (n, 5) int64 with the columns ``WHO``; then the counts (3,)
    int64 of bid, card and trump examples written."""
    f = np.float32
    return ((np.zeros((n_rounds * 6, D_BID), f), np.full((n_rounds * 6, MAX_BID + 1), np.nan, f),
             np.zeros((n_rounds * 60, D_CARD), f), np.full((n_rounds * 60, N_KINDS), np.nan, f),
             np.zeros((n_rounds, 4, D_TRUMP), f), np.full((n_rounds, 4), np.nan, f),
             np.zeros((n_rounds * 6, len(WHO)), np.int64), np.zeros((n_rounds * 60, len(WHO)), np.int64),
             np.zeros((n_rounds, len(WHO)), np.int64)),
            np.zeros(3, np.int64))


@kernel
def _uniform(rng):
    return (next_u64(rng) >> np.uint64(11)) * _UNIT


@kernel
def _next_row(counts, which, whos, index, obs):
    """The row of ``out`` the next example of ``which`` (0 bid, 1 card, 2 trump) goes to, counted, its row of
    ``whos`` (``out[6 + which]``) written (round ``index``, the deciding seat of ``obs``); its inputs are written
    into that row directly (the features in float64, each stored as float32: the same values as through a
    float64 buffer)."""
    i = counts[which]
    counts[which] += 1
    who = whos[i]
    who[0] = index
    who[1] = obs.players
    who[2] = obs.r
    who[3] = 1 if obs.hook else 0
    who[4] = obs.seat
    return i


@kernel
def _card_choice(ctx, obs):
    """``play_tricks``'s chooser: record the decision (with probability ``p_card``), then the behaviour's card."""
    seat_policy, params, table, rng, eps, p_card, live, out, counts, index = ctx
    seat, players, trump, legal, n_in_trick = obs.seat, obs.players, obs.trump, obs.legal, obs.n_in_trick
    trick_cards = obs.trick_cards
    kinds = ZERO
    m = legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        kinds |= bit(card_kind(c, trump))
    if kinds & (kinds - np.uint64(1)) != ZERO and _uniform(rng) < p_card:
        i = _next_row(counts, 1, out[7], index, obs)
        card_features(obs, out[2][i])
        k = 0
        cands = np.empty(N_KINDS, np.int64)
        done = ZERO
        m = legal
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            kb = bit(card_kind(c, trump))
            if done & kb == ZERO:
                done |= kb
                cands[k] = c
                k += 1
        leader = seat - n_in_trick
        if leader < 0:
            leader += players
        row = np.empty(k)
        wctx = (obs, cands[:k], leader, trick_status(trick_cards, n_in_trick, trump), _scratch(players),
                (WITH_NET, params, table))  # play-outs by params[search.P_ROLLOUT] (search._play_out)
        world = live.copy()
        _card_world(wctx, world, row)
        for j in range(k):
            out[3][i, card_kind(cands[j], trump)] = row[j]
    if eps > 0.0 and legal & (legal - np.uint64(1)) != ZERO and _uniform(rng) < eps:
        n = 0
        m = legal
        pick = rand_below(rng, popcount(legal))
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if n == pick:
                return c
            n += 1
    return choose_card_light(seat_policy[seat], params, table, obs, rng, True)


@kernel
def label_round(seed, index, kind, params, table, shares, out, counts):
    """Play round ``index`` of run ``seed`` with the policy ``kind`` (``dispatch``; ``params`` its row,
    ``table`` the shared table) in every seat, or in each seat with probability ``mix`` the heuristic (drawn
    per seat and round: tables like those the behaviour is measured at, beside weaker players), a uniformly
    random legal card instead with probability ``eps``, and append its examples to ``out`` (``empty_out``):
    every trump and bid decision, each card decision with two or more legal kinds with probability
    ``p_card``; every seat's decisions are recorded, whoever makes them. ``shares``: (eps, p_card, mix)."""
    eps, p_card, mix = shares
    deal_rng = np.empty(1, np.uint64)
    rng = np.empty(1, np.uint64)
    deal_rng[0] = stream_key(seed, index, DEAL_STREAM)  # the engine's streams of round index (sim.round.key_streams)
    rng[0] = stream_key(seed, index, PLAY_STREAM)
    players = 3 + rand_below(rng, 4)
    r = 1 + rand_below(rng, 60 // players)
    hook = _uniform(rng) < 0.25
    seat_policy = np.full(players, kind, np.int64)
    if mix > 0.0:  # drawn only then: a run without heuristic seats keeps the play stream of earlier versions
        for s in range(players):
            if _uniform(rng) < mix:
                seat_policy[s] = HEURISTIC
    hands = np.zeros(players, np.uint64)
    turn_up = deal_round(deal_rng, players, r, np.zeros(players, np.uint64), FULL_DECK_MASK, hands)
    dealer = players - 1
    bids = np.full(players, -1, np.int8)
    tricks = np.zeros(players, np.int8)
    seat_played = np.zeros(players, np.uint64)
    voids = np.zeros(players, np.int8)
    trick_cards = np.zeros(players, np.int8)
    cands = np.arange(MAX_BID + 1)
    trump = trump_of_turn_up(turn_up)
    state = RoundState(hands.copy(), seat_played, voids, trick_cards, bids, tricks)
    if trump == DEALER_NAMES:
        obs = observe(RoundInfo(players, r, hook, turn_up, -1), state, dealer, hands[dealer], ZERO, -1, ZERO, 0,
                      LED_NONE, -1)
        i = _next_row(counts, 2, out[8], index, obs)
        for s in range(4):
            trump_features(hands[dealer], players, r, s, out[4][i, s])
        row = np.empty(4)
        ctx = (params, table, players, r, hook, turn_up, dealer, 0, bids, cands[:4], 0, True,
               _scratch(players), WITH_NET)
        _round_world(ctx, hands, row)
        out[5][i] = row
        trump = choose_trump_light(seat_policy[dealer], params, table, obs, rng, True)
    total = 0
    for s in range(players):
        forbidden = forbidden_bid(hook, s, players, r, total)
        obs = observe(RoundInfo(players, r, hook, turn_up, trump), state, s, hands[s], ZERO, forbidden, ZERO, 0,
                      LED_NONE, -1)
        if r > 1 or forbidden < 0:
            i = _next_row(counts, 0, out[6], index, obs)
            bid_features(obs, out[0][i])
            k = 0
            bc = np.empty(r + 1, np.int64)
            for b in range(r + 1):
                if b != forbidden:
                    bc[k] = b
                    k += 1
            row = np.empty(k)
            ctx = (params, table, players, r, hook, turn_up, s, s + 1, bids, bc[:k], trump, False,
                   _scratch(players), WITH_NET)
            _round_world(ctx, hands, row)
            for j in range(k):
                out[1][i, bc[j]] = row[j]
        b = choose_bid_light(seat_policy[s], params, table, obs, rng, True)
        bids[s] = b
        total += b
    ctx = (seat_policy, params, table, rng, eps, p_card, state.live, out, counts, index)
    play_tricks(_card_choice, ctx, RoundInfo(players, r, hook, turn_up, trump), state, 0, 0, ZERO, r * players,
                no_log(players))


@kernel
def label_rounds(seed, first, n, kind, params, table, shares, out, counts):
    """``label_round`` for rounds ``first .. first + n - 1``; ``shares``: (eps, p_card, mix) as floats."""
    for i in range(first, first + n):
        label_round(seed, i, kind, params, table, shares, out, counts)
