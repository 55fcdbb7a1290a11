"""The policy interface inside the round kernel: one entry per decision, dispatching on a policy kind.

A *slot* is a policy configuration: a kind (``RANDOM`` ...) and a row of float parameters. Seats
point at slots, so two seats may run the same kind with different parameters. Numba cannot call
through function pointers cheaply, so the kind is an int and dispatch is an ``if`` chain that Numba
inlines.

What a policy is shown is exactly what its player may see (docs/rules.md: bids are public, played cards
and the turned-up card are seen by all); nothing else is passed in, which is what keeps a policy
honest. Seats are 0-based here (index 0 = seat 1, the last index is the dealer).

choose_bid(kind, params, table, obs, rng, search, user, net), choose_card(...), choose_trump(...)
    ``obs`` is the observation record (``policies.observation.Obs``, built by ``observe``): every fact
    of the decision (the seat, its hand, the legal cards, the forbidden bid, bids, tricks, who played
    what, the trick so far, voids) in one documented record. ``rng`` is the round's play stream
    ((1,) uint64, advanced by a policy that draws). The trump decision is the dealer's on the turned-up
    Wizard ``obs.turn_up``.
trump_choices(kind, params, table, players, r, hand)
    the suits (mask, bit s for suit s) among which ``choose_trump`` picks uniformly: what a named
    suit tells about the dealer's hand (the exact round-1 advisor weighs deals by it).

Each ``choose_*`` has a ``choose_*_light`` twin with the same arguments for every kind but the search
policy: a kernel that cannot meet a search seat calls those (the round kernel picks per round). The
compiler folds the search policy's large code into whatever calls it, and a loop that carries it runs
at two thirds of its speed even where it never takes that branch.

``choose_*`` end in ``search, user, net`` (the ``_light`` twins in ``net``): ``search`` None (the type, not a
value) drops the search branch at compile time, so a kernel compiled for a table without search holds
none of its code (it would double a first run's compile time); ``net`` None drops net's the same way (its
three networks cost a bid advice's first run about 5 s of its 26). The kernels take them as one argument
``ext`` (``kernel_ext``): None (heuristic and random seats only), or the tuple (search, user, net),
unpacked where a non-inlined kernel can test each against None.

``USER`` is a user's jitted player (``wizsim.jit``): ``user`` = its (trump, bid, card) functions, each
called as ``f(obs, rng)`` on the same record; Numba compiles a kernel for each such set of functions. What
it returns is checked (a legal card, a bid 0..r off the hook's number, a suit): a bad answer raises.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from wizsim._numba import inline_kernel
from wizsim.bits import ZERO
from wizsim.cards import N_CARDS
from wizsim.policies.heuristic import (
    heuristic_bid,
    heuristic_noisy,
    heuristic_obs_card,
    heuristic_trump,
    heuristic_trump_choices,
)
from wizsim.policies.net import P_TEMPERATURE, net_bid, net_bid_drawn, net_card, net_card_drawn, net_trump
from wizsim.policies.random_policy import random_bid, random_card, random_trump
from wizsim.policies.search import P_ROLLOUT, WITH_NET, search_bid, search_card, search_trump

RANDOM = 0
HEURISTIC = 1
SEARCH = 2
NET = 4  # the learned policy (policies.net)
KINDS = (RANDOM, HEURISTIC, SEARCH, NET)  # a kind without its branch below would play as random: the registry refuses it
USER = 3  # a user's jitted player (``wizsim.jit``), never a named policy's kind: its functions come in ``ext``


@inline_kernel
def choose_bid(kind, params, table, obs, rng, search, user, net):
    if search is not None:
        if kind == SEARCH:
            return search_bid(params, table, obs, rng, search)
    if user is not None:
        if kind == USER:
            b = np.int64(user[1](obs, rng))
            if b < 0 or b > obs.r or b == obs.forbidden:
                raise ValueError("a jitted player's bid(obs, rng) returned a bid outside 0..r or the hook's "
                                 "forbidden bid")
            return b
    return choose_bid_light(kind, params, table, obs, rng, net)


@inline_kernel
def choose_bid_light(kind, params, table, obs, rng, net):
    if kind == HEURISTIC:
        return heuristic_bid(params, table, obs.seat, obs.players, obs.r, obs.hand, obs.turn_up, obs.trump, obs.bids,
                             obs.forbidden)
    if kind == NET:
        if params[P_TEMPERATURE] > 0.0:
            return _net_bid_drawn(net, table, obs, params[P_TEMPERATURE], rng)
        return _net_bid(net, table, obs)
    return random_bid(obs.r, obs.forbidden, rng)


@inline_kernel
def choose_card(kind, params, table, obs, rng, search, user, net):
    if kind == SEARCH:
        return _search_card(search, params, table, obs, rng)
    if kind == USER:
        c = np.int64(_user_card(user, obs, rng))
        if c < 0 or c >= N_CARDS or (obs.legal >> np.uint64(c)) & np.uint64(1) == ZERO:
            raise ValueError("a jitted player's card(obs, rng) returned a card that is not in obs.legal")
        return c
    return choose_card_light(kind, params, table, obs, rng, net)


def _search_card(search, params, table, obs, rng):
    """The search policy's card where ``search`` is not None (kernels only: see ``_search_card_typed``)."""
    raise TypeError("kernels only")


@overload(_search_card)
def _search_card_typed(search, params, table, obs, rng):
    """``choose_card`` reads ``search`` out of the trick loop's context, where a None is a type Numba does
    not prune a branch on: so the branch is chosen here, by type. None: never asked (no seat plays the
    search policy), and its code is not compiled in."""
    if isinstance(search, types.NoneType):
        return lambda search, params, table, obs, rng: -1
    return lambda search, params, table, obs, rng: search_card(params, table, obs, rng, search)


def _user_card(user, obs, rng):
    """A user's jitted player's card where ``user`` is not None (kernels only, as ``_search_card``)."""
    raise TypeError("kernels only")


@overload(_user_card)
def _user_card_typed(user, obs, rng):
    if isinstance(user, types.NoneType):
        return lambda user, obs, rng: -1
    return lambda user, obs, rng: user[2](obs, rng)


def _net_gate(decide):
    """``decide(table, obs)`` (one of net's deciders) behind a gate on ``net`` (kernels only, as
    ``_search_card``: ``net`` too comes out of a context where Numba prunes no None branch). None: no seat
    plays net, and its networks are not compiled in; a net seat there is a caller's bug (``kernel_ext`` was
    not given the slots' kinds), refused rather than played as another policy (the refusal costs a first run
    0.2 s of compiling). One gate per decider, the decider a global of its code: a decider passed as an
    argument is a function *value*, which Numba lowers as the address of a Python object, and a kernel
    holding such an address cannot be cached (a table of net and search seats compiled again in every
    process, until the gate stopped taking it as an argument)."""

    def gate(net, table, obs):
        raise TypeError("kernels only")

    @overload(gate)
    def _typed(net, table, obs):
        if isinstance(net, types.NoneType):
            def refuse(net, table, obs):
                if obs.seat >= 0:  # always; a branch, so that the call types as a decision (an int), not None
                    raise ValueError("a net seat in kernels compiled without net's code: give dispatch.kernel_ext "
                                     "the slots' kinds")
                return -1
            return refuse
        return lambda net, table, obs: decide(table, obs)

    return gate


_net_bid = _net_gate(net_bid)
_net_card = _net_gate(net_card)
_net_trump = _net_gate(net_trump)


def _net_drawn_gate(decide):
    """``_net_gate`` for a decider drawn at a temperature: ``decide(table, obs, t, rng)``."""

    def gate(net, table, obs, t, rng):
        raise TypeError("kernels only")

    @overload(gate)
    def _typed(net, table, obs, t, rng):
        if isinstance(net, types.NoneType):
            def refuse(net, table, obs, t, rng):
                if obs.seat >= 0:
                    raise ValueError("a net seat in kernels compiled without net's code: give dispatch.kernel_ext "
                                     "the slots' kinds")
                return -1
            return refuse
        return lambda net, table, obs, t, rng: decide(table, obs, t, rng)

    return gate


_net_bid_drawn = _net_drawn_gate(net_bid_drawn)
_net_card_drawn = _net_drawn_gate(net_card_drawn)


@inline_kernel
def _net_decides_card(params, table, obs, rng, net):
    """net's card: ``play_noise``'s uniformly random card, else drawn at ``temperature``, else its best."""
    if heuristic_noisy(params, obs.legal, rng):  # ``net:play_noise``, drawn as the heuristic's
        return random_card(obs.legal, rng)
    if params[P_TEMPERATURE] > 0.0:
        return _net_card_drawn(net, table, obs, params[P_TEMPERATURE], rng)
    return _net_card(net, table, obs)


@inline_kernel
def choose_card_light(kind, params, table, obs, rng, net):
    if kind == HEURISTIC:
        if heuristic_noisy(params, obs.legal, rng):
            return random_card(obs.legal, rng)
        return heuristic_obs_card(obs)
    if kind == NET:
        return _net_decides_card(params, table, obs, rng, net)
    return random_card(obs.legal, rng)


@inline_kernel
def choose_trump(kind, params, table, obs, rng, search, user, net):
    if search is not None:
        if kind == SEARCH:
            return search_trump(params, table, obs, rng, search)
    if user is not None:
        if kind == USER:
            t = np.int64(user[0](obs, rng))
            if t < 0 or t > 3:
                raise ValueError("a jitted player's trump(obs, rng) returned a suit outside 0..3")
            return t
    return choose_trump_light(kind, params, table, obs, rng, net)


@inline_kernel
def choose_trump_light(kind, params, table, obs, rng, net):
    if kind == HEURISTIC:
        return heuristic_trump(params, table, obs.players, obs.r, obs.hand, rng)
    if kind == NET:
        return _net_trump(net, table, obs)
    return random_trump(rng)


@inline_kernel
def any_search(players, seats):
    """Whether a seat of the table (``records.Seats``) plays the search policy (else the ``_light``
    deciders serve it)."""
    found = False
    for s in range(players):
        found |= seats.slot_kind[seats.seat_slot[s]] == SEARCH
    return found


def kernel_ext(kinds, user=None, params=None):
    """The ``ext`` argument of the kernels for a table of these slot kinds: None when no seat plays the
    search policy, net or a user's jitted player, so that the kernels compile without their code; else
    ``(search, user, net)``: search None, True, or ``search.WITH_NET`` where a search slot's play-outs are net's
    (``params``: the slots' params rows; the search kernels then compile net's play-outs too), user None
    or the jitted player's ``(trump, bid, card)`` functions (Numba dispatchers, each called as ``f(obs, rng)``),
    net True where a seat plays net, else None."""
    kinds = [int(k) for k in kinds]
    search = True if SEARCH in kinds else None
    if search and params is not None and any(k == SEARCH and params[i][P_ROLLOUT] != 0
                                             for i, k in enumerate(kinds)):
        search = WITH_NET
    net = True if NET in kinds else None
    return None if search is None and user is None and net is None else (search, user, net)


@inline_kernel
def seat_card(ctx, obs):
    """The trick loop's chooser (``rollout.play_tricks``): the card of the policy in the deciding seat.
    ``ctx`` = (seats, rng, search, user, net): the table's ``records.Seats``, the play stream and the
    deciders' ``search, user, net`` (see ``choose_card``). One chooser for every table: where ``search`` (or
    ``user``, ``net``) is None, ``choose_card`` compiles no call of the search policy (or of a user's
    functions, of net), so a table that cannot reach the search policy carries none of its code
    (``sim.round`` picks per round)."""
    seats, rng, search, user, net = ctx
    slot = seats.seat_slot[obs.seat]
    return choose_card(seats.slot_kind[slot], seats.slot_params[slot], seats.table, obs, rng, search, user, net)


ALL_SUITS = 0b1111


@inline_kernel
def trump_choices(kind, params, table, players, r, hand):
    if kind == HEURISTIC or kind == SEARCH:  # search: the heuristic's choices stand in (see worlds)
        return heuristic_trump_choices(params, table, players, r, hand)
    return ALL_SUITS
