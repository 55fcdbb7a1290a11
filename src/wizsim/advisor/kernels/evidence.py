"""Deals weighed by the opponents' model: which of a run's deals the advisor plays, and with what weight.

Bid advice draws deal ``i`` of a run from the deal stream of ``(seed, i)`` exactly as the round kernel
deals it (the player's hand fixed), asks ``policies.model`` how likely the heard bids and a dealer's
named suit are on that deal, and keeps it by *rejection control*: with the run's threshold ``c``, deal
``i`` is kept when ``u_i * c < L_i`` (``u_i`` uniform from the check stream of ``(seed, i)``) and then
weighs ``max(1, L_i / c)``. Kept deals with their weights are a properly weighted sample of the deals
given the evidence whatever ``c`` is; ``c`` only trades draws for weight spread. At ``c`` equal to the
largest likelihood this is plain rejection sampling (every kept deal weighs 1): with ``bid_trust`` 1,
exactly the deals in which each earlier seat's policy bids what was heard.

With the table's type in doubt (``policies.model``: the model's table with prior ``1 - doubt``, a blind
table with prior ``doubt``, and on the model's table each heard seat blind on its own with prior
``seat_doubt``), ``table_types_kernel`` turns each seat's likelihood under the model into the deal's
mixture weight (which rejection control then uses in its place) and the posterior chances that the
table, or each seat alone, is blind, and draws the deal's blind seats from them with the type stream of
``(seed, i)``: a blind seat is played out by ``random``.

The kernels are serial over their rows; the callers hand spans of rows to threads (``sim.driver.run_batch``),
since each row depends only on (seed, its index).
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel, lean_kernel
from wizsim.deal.kernels import DEAL_STREAM, deal_round, next_u64, stream_key
from wizsim.policies.model import (
    bids_likelihood,
    named_trump_likelihood,
    play_likelihoods,
    play_seat_likelihoods,
    seat_factors,
    seat_mixture,
)
from wizsim.policies.records import RoundInfo

CHECK_STREAM = 3  # the acceptance draw of deal i: a stream the round itself never reads
TYPE_STREAM = 6  # the table type's draw of deal i (4 is play advice's worlds, 5 the vector env's actions)
NO_NAMED = -2
BLOCK = 64  # the fewest deals (worlds) a thread weighs (``sim.driver.run_batch``)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@kernel
def heard_likelihood(opponents, info, me, hands, bids, n_heard, named, model_bids):
    """(the likelihood of the first ``n_heard`` ``bids`` and, when ``named`` >= 0 and the dealer is not ``me``,
    of the dealer naming that suit on a turned-up Wizard, given the seats' whole ``hands``; whether the
    dealer's model may name it at all). ``opponents``: a ``records.Opponents``; ``info`` the round's
    ``records.RoundInfo``. ``model_bids`` (players,) int8 gets each seat's model bid."""
    value = bids_likelihood(opponents, info, me, hands, bids, n_heard, model_bids)
    players, r = info.players, info.r
    dealer = players - 1
    if named < 0 or dealer == me:
        return value, True
    kind, params, table = opponents.kinds[dealer], opponents.params[dealer], opponents.table
    net = opponents.net
    value *= named_trump_likelihood(kind, params, table, opponents.trump_trust, players, r, hands[dealer], named, net)
    possible = named_trump_likelihood(kind, params, table, 1.0, players, r, hands[dealer], named, net) > 0.0
    return value, possible


@lean_kernel
def deal_likelihoods_kernel(at, dealt, info, me, opponents, evidence, out, scratch):
    """Rows ``lo .. hi - 1`` of the deals of the run ``seed``, deal ``first_index + i`` in row ``i`` (``at`` =
    (seed, first_index, lo, hi); ``dealt`` = (fixed_hands, turn_up_pool): dealt as ``round.play_round``
    deals them; a thread's span, ``sim.driver.run_batch``; ``scratch`` = ((1,) uint64, (players,) uint64):
    the kernel is lean, it allocates nothing; ``info`` the round's ``records.RoundInfo``, its
    turn_up not read, each deal has its own), ``out`` = (like, u, model_bids, named_ok, seat_model):
    ``like`` (n,) float64, the likelihood of the first ``evidence.n_heard`` ``evidence.bids`` and, when
    ``evidence.named`` >= 0 (the suit an opponent dealer named on a turned-up Wizard), of that choice;
    ``u`` (n,) float64 the deal's acceptance draw in [0, 1); ``model_bids`` (n, players) int8 each seat's
    model bid (-1: not asked); ``named_ok`` (n,) bool whether the dealer's model may name ``named``;
    ``seat_model`` (n, players) float64, unless it has no rows, each seat's part of the likelihood as a
    probability (``policies.model.seat_factors``), for the table's type in doubt. ``opponents``,
    ``evidence``: ``records.Opponents``, ``records.Evidence`` (no card played yet: ``evidence``'s play is not read)."""
    seed, first_index, lo, hi = at
    fixed_hands, turn_up_pool = dealt
    like, u, model_bids, named_ok, seat_model = out
    players, r, hook, trump = info.players, info.r, info.hook, info.trump
    bids, n_heard, named = evidence.bids, evidence.n_heard, evidence.named
    rng, hands = scratch
    for i in range(lo, hi):
        index = first_index + i
        rng[0] = stream_key(seed, index, DEAL_STREAM)
        hands[:] = 0
        turn_up = deal_round(rng, players, r, fixed_hands, turn_up_pool, hands)
        deal = RoundInfo(players, r, hook, turn_up, trump)
        like[i], named_ok[i] = heard_likelihood(opponents, deal, me, hands, bids, n_heard, named, model_bids[i])
        if seat_model.shape[0] > 0:
            seat_factors(opponents, deal, me, hands, bids, n_heard, named, model_bids[i], False, seat_model[i])
        rng[0] = stream_key(seed, index, CHECK_STREAM)
        u[i] = (next_u64(rng) >> np.uint64(11)) * _UNIT


@lean_kernel
def world_likelihoods_kernel(at, dealt, info, me, opponents, evidence, doubt, out, scratch):
    """Rows ``lo .. hi - 1`` of play advice's worlds weighed by the model, world ``first_index + i`` in row
    ``i`` (``at`` = (seed, first_index, lo, hi); ``dealt`` = (worlds, turn_ups): the whole arrays, as ``out``'s;
    a thread's span: ``sim.driver.run_batch``): ``out`` = (like, u, model_bids, named_ok), ``like[i]`` the
    likelihood of every heard bid (``evidence.bids``, every seat's: ``evidence.n_heard`` is not read), of an
    opponent dealer naming ``evidence.named`` (>= 0) on a turned-up Wizard, and of the
    ``evidence.n_played`` cards of ``evidence.order`` chosen so far, given world ``i`` (``worlds`` (n,
    players) uint64, the cards each seat holds now; its whole hand adds ``evidence.seat_played``;
    ``turn_ups`` (n,) int8 its turned-up card; ``info`` the round's ``records.RoundInfo``, its turn_up not
    read). With the table's type in doubt (``doubt``, a ``records.TableDoubt``: its ``doubt`` > 0,
    or any seat's prior ``seat_doubt`` (players,) > 0) it is the mixture's weight
    (``policies.model.seat_mixture``) of each seat's probability of what it did under its model and if
    blind: ``seat_blind`` (players,) its heard bid and named suit (the same for every world) times its
    cards' ``play_seat_likelihoods`` there. ``model_bids`` (n, players) int8: each seat's model bid;
    ``named_ok`` (n,) bool whether the dealer's model may name ``named``; ``u`` (n,) the acceptance draw of
    world ``first_index + i`` of the run ``seed``."""
    seed, first_index, lo, hi = at
    worlds, turn_ups = dealt
    like, u, model_bids, named_ok = out
    players, r, hook, trump = info.players, info.r, info.hook, info.trump
    play_trust = opponents.play_trust
    bids, named, seat_played, order, n_played = (evidence.bids, evidence.named, evidence.seat_played, evidence.order,
                                                 evidence.n_played)
    table_doubt, seat_doubt, seat_blind = doubt
    typed = table_doubt > 0.0
    for s in range(players):
        typed = typed or seat_doubt[s] > 0.0
    reads_play = n_played > 0 and play_trust > 0.0
    whole, rng, model_f, blind_f, cards, post = scratch
    for i in range(lo, hi):
        for s in range(players):
            whole[s] = worlds[i, s] | seat_played[s]
        world = RoundInfo(players, r, hook, np.int64(turn_ups[i]), trump)  # int64 as the round's: its deciders serve
        # every seat's bid was heard
        value, named_ok[i] = heard_likelihood(opponents, world, me, whole, bids, players, named, model_bids[i])
        if typed:
            seat_factors(opponents, world, me, whole, bids, players, named, model_bids[i], False, model_f)
            for s in range(players):  # not ``blind_f[:] = seat_blind``: its shape check compiles 1.8 s of message formatting
                blind_f[s] = seat_blind[s]
            if reads_play:
                play_seat_likelihoods(opponents, world, me, whole, bids, order, n_played, cards)
                for s in range(players):
                    model_f[s] *= cards[0, s]
                    blind_f[s] *= cards[1, s]
            value = seat_mixture(model_f, blind_f, table_doubt, seat_doubt, me, post)[0]
        elif reads_play:
            value *= play_likelihoods(opponents, world, me, whole, bids, order, n_played)[0]
        like[i] = value
        rng[0] = stream_key(seed, first_index + i, CHECK_STREAM)
        u[i] = (next_u64(rng) >> np.uint64(11)) * _UNIT


@kernel
def table_types_kernel(seed, first_index, seat_model, seat_blind, doubt, seat_doubt, me, weight, blind):
    """Deals ``first_index .. first_index + n - 1`` of the run ``seed`` with the table's type in doubt:
    ``seat_model`` (n, players) each seat's probability of what was heard under its model given the deal
    (``deal_likelihoods_kernel``), ``seat_blind`` (players,) the same if that seat is blind (the same for
    every deal); ``doubt`` the prior that every other seat is blind, ``seat_doubt`` that one seat is on its
    own (``policies.model.seat_mixture``). Out: ``weight`` (n,) the mixture weight of each deal and
    ``blind`` (n,) int8, the seats drawn blind from the posterior with the type stream of
    ``(seed, index)``, one bit per 0-based seat: first the whole table, then, if not, each seat in turn."""
    n = weight.shape[0]
    players = seat_blind.shape[0]
    post = np.empty(players, np.float64)
    rng = np.empty(1, np.uint64)
    for i in range(n):
        w, every = seat_mixture(seat_model[i], seat_blind, doubt, seat_doubt, me, post)
        weight[i] = w
        rng[0] = stream_key(seed, first_index + i, TYPE_STREAM)
        mask = 0
        if (next_u64(rng) >> np.uint64(11)) * _UNIT < every:
            for s in range(players):
                if s != me:
                    mask |= 1 << s
        else:
            for s in range(players):
                if s != me and (next_u64(rng) >> np.uint64(11)) * _UNIT < post[s]:
                    mask |= 1 << s
        blind[i] = mask
