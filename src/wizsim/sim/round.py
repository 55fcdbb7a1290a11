"""The one round kernel: deal, trump, bids, r tricks and scores of a single Wizard round.

Plain simulation, whole games, tournaments and the bid advisor all call ``play_round``; they differ
only in what they fix in advance and which policy sits in each seat:

- ``fixed_hands[s]`` != 0 gives seat s its hand instead of dealing one;
- ``turn_up_pool`` restricts what the turned-up card may be, ``fixed_trump`` (-1..3) sets trump
  outright (``TRUMP_BY_RULES`` = -2 lets docs/rules.md section 3 decide);
- ``bid_mode[s]`` is ``BID_FREE`` (the seat's policy bids), ``BID_FORCED`` (the seat bids
  ``fixed_bids[s]``) or ``BID_CONDITION`` (the policy bids, and the round is rejected unless that
  equals ``fixed_bids[s]``: rejection sampling of hands consistent with a bid already heard).

Seats are 0-based here: index 0 is seat 1 (bids first, leads trick one), index players-1 the dealer.

Speed: ``play_round`` is a ``lean_kernel`` (no reference counting): every decision hands its policy
the observation record, a tuple of the round's arrays, and counting those references cost a third of
a heuristic table's time and a fifth of a random one's. A table of random policies (the common case, and the benchmark) plays its tricks in a lean
loop of its own (``_random_tricks``) that draws exactly what the general loop draws, so results do
not depend on which loop ran (tests/test_round_paths.py pins this). Every other table plays through
``rollout.play_tricks``. The round is compiled twice (``_play_round``): with the search policy's
deciders for a table with a search seat, and without them (``search`` None in ``dispatch.seat_card``'s
context) for every other table, whose loops then carry none of the search policy's code (with it, the
heuristic's rounds ran at two thirds of their speed). Net's deciders likewise are compiled in only for a
table with a net seat (``dispatch.kernel_ext``'s ``net``).
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import inline_kernel, kernel, lean_kernel
from wizsim.bits import ZERO, lowest_bit
from wizsim.cards import N_CARDS
from wizsim.deal.kernels import DEAL_STREAM, PLAY_STREAM, deal_round, draw_below_mask, stream_key
from wizsim.policies.dispatch import RANDOM, any_search, choose_bid, choose_trump, seat_card
from wizsim.policies.observation import observe
from wizsim.policies.records import RoundInfo, RoundState
from wizsim.policies.rollout import play_tricks
from wizsim.rules.kernels import (
    DEALER_NAMES,
    LED_NONE,
    STRENGTH,
    forbidden_bid,
    legal_mask,
    next_led,
    score_round,
    trump_of_turn_up,
)

# The led code a trick takes when its first non-Jester card is this card (next_led from LED_NONE).
_FIRST_LED = np.array([next_led.py_func(LED_NONE, c) for c in range(N_CARDS)], dtype=np.int8)

BID_FREE = 0
BID_FORCED = 1
BID_CONDITION = 2
TRUMP_BY_RULES = -2


@lean_kernel
def play_round(players, r, hook, seats, fixed, rngs, state, out, log, ext):
    """Play one round; return ``(turn_up, trump, accepted)``.

    Parameters
    ----------
    players, r : int; hook : bool (docs/rules.md 4's variant).
    seats : ``records.Seats``, the policy of each seat; fixed : ``records.Fixed``, what is fixed in
        advance (see the module docstring).
    rngs : (deal_rng, play_rng), (1,) uint64 each, the round's deal and play streams (advanced).
    state : ``records.RoundState``: its bids and tricks (players,) int8 are outputs, filled in seat
        order; the rest is scratch (``round_scratch``).
    out : (hands, scores): (players,) uint64 hands as dealt and (players,) int16 scores, in seat order.
    log : ``records.Log``: the cards in order of play (r * players,), each trick's leader and winner
        (r,), 0-based seats; written only when ``log.want``.
    ext : None (no seat can play the search policy, net or a user's player: compiled without their code)
        or the tuple ``dispatch.kernel_ext`` gives.

    A rejected round (``accepted`` False) stops after the bidding; its tricks and scores are 0.
    """
    a = (players, r, hook, seats, fixed, rngs, state, out, log)
    if ext is None:
        return _play_round(None, None, None, a)
    return _play_round_ext(ext[0], ext[1], ext[2], a)


@inline_kernel
def play_round_any(players, r, hook, seats, fixed, rngs, state, out, log, ext):
    """``play_round`` for the batch kernels (``sim.kernels``): inlined into them, so that with ``ext`` given
    (a search seat, a user's player) they call ``_play_round_ext`` themselves. Numba links the machine code
    of every kernel a kernel calls into it and optimizes it all again, so each kernel between a batch
    kernel and the search policy's code costs the compile of that code once more (seconds)."""
    if ext is None:
        return play_round(players, r, hook, seats, fixed, rngs, state, out, log, None)
    return _play_round_ext(ext[0], ext[1], ext[2], (players, r, hook, seats, fixed, rngs, state, out, log))


@lean_kernel
def _play_round_ext(search, user, net, a):
    """``play_round`` with ``ext`` = (search, user, net) unpacked: arguments here, so that Numba drops the
    branches a None one guards (``a``: ``play_round``'s other arguments). Numba drops a branch only where
    the argument's type is None, so the tests are nested such that whatever stays compiles for the types
    at hand (a table with a user's player also compiles the light round it never takes). ``net`` is passed
    through: a table with a net seat compiles net into both rounds. Lean like ``play_round``: what it calls
    that allocates (the search policy, a user's functions) states its own counting (``_numba``, ``wizsim.jit``)."""
    if user is None:
        if search is not None:
            if any_search(a[0], a[3]):
                return _play_round(search, None, net, a)
        return _play_round(None, None, net, a)
    if search is None:
        return _play_round(None, user, net, a)
    return _play_round(search, user, net, a)


@inline_kernel
def _play_round(search, user, net, a):
    """``play_round`` with the deciders' ``search, user, net`` (see ``dispatch``): compiled once for each
    combination, the trick loop's chooser ``dispatch.seat_card`` with them."""
    players, r, hook, seats, fixed, rngs, state, out, log = a
    deal_rng, play_rng = rngs
    hands_out, scores_out = out
    bids_out, tricks_out, live = state.bids, state.tricks, state.live
    seat_slot, slot_kind, slot_params, table = seats
    turn_up = deal_round(deal_rng, players, r, fixed.hands, fixed.turn_up_pool, hands_out)
    dealer = players - 1
    for s in range(players):
        bids_out[s] = -1
        tricks_out[s] = 0
        scores_out[s] = 0
        state.voids[s] = 0
        state.seat_played[s] = ZERO
        live[s] = hands_out[s]
    trump = trump_of_turn_up(turn_up)
    if turn_up >= 0 and fixed.trump != TRUMP_BY_RULES:
        trump = fixed.trump  # the advisor's given trump; never the last round's "none"
    elif trump == DEALER_NAMES:
        slot = seat_slot[dealer]
        obs = observe(RoundInfo(players, r, hook, turn_up, -1), state, dealer, hands_out[dealer], ZERO, -1, ZERO, 0,
                      LED_NONE, -1)
        trump = choose_trump(slot_kind[slot], slot_params[slot], table, obs, play_rng, search, user, net)

    info = RoundInfo(players, r, hook, turn_up, trump)
    total = 0
    for s in range(players):
        forbidden = forbidden_bid(hook, s, players, r, total)
        mode = fixed.bid_mode[s]
        if mode == BID_FORCED:
            b = fixed.bids[s]
        else:
            slot = seat_slot[s]
            obs = observe(info, state, s, hands_out[s], ZERO, forbidden, ZERO, 0, LED_NONE, -1)
            b = choose_bid(slot_kind[slot], slot_params[slot], table, obs, play_rng, search, user, net)
            if mode == BID_CONDITION and b != fixed.bids[s]:
                return turn_up, trump, False
        bids_out[s] = b
        total += b

    all_random = True
    for s in range(players):
        all_random &= slot_kind[seat_slot[s]] == RANDOM
    if all_random:
        _random_tricks(players, r, trump, live, play_rng, tricks_out, log)
    else:
        play_tricks(seat_card, (seats, play_rng, search, user, net), info, state, 0, 0, ZERO, r * players, log)
    for s in range(players):
        scores_out[s] = score_round(bids_out[s], tricks_out[s])
    return turn_up, trump, True


@kernel
def round_scratch(players):
    """``play_round``'s scratch, allocated once for a block of rounds: (the deal and play streams, and
    the live hands, the cards each seat played, voids and the trick of a ``records.RoundState``)."""
    return ((np.empty(1, np.uint64), np.empty(1, np.uint64)),
            (np.empty(players, np.uint64), np.empty(players, np.uint64), np.empty(players, np.int8),
             np.empty(players, np.int8)))


@inline_kernel
def round_state(scratch, bids, tricks):
    """The ``records.RoundState`` of ``round_scratch``'s arrays (``scratch[1]``) with these bids and tricks."""
    live, seat_played, voids, trick_cards = scratch[1]
    return RoundState(live, seat_played, voids, trick_cards, bids, tricks)


@inline_kernel
def key_streams(seed, index, deal_rng, play_rng):
    """Start the deal and play streams of round ``index`` of the run ``seed``: a round depends on these
    two numbers only."""
    deal_rng[0] = stream_key(seed, index, DEAL_STREAM)
    play_rng[0] = stream_key(seed, index, PLAY_STREAM)


@kernel
def _random_tricks(players, r, trump, live, play_rng, tricks_out, log):
    """The r tricks with the random policy in every seat: the same draws and results as the general
    loop (``rollout.play_tricks``) gives that table, without the bookkeeping only other policies read
    (played cards, voids, the trick so far). The play stream's state stays in a register, and the
    winner so far is a select on a strength table, not a branch on random data."""
    state = play_rng[0]
    strength = STRENGTH[trump + 1]
    leader = 0
    k = 0
    for t in range(r):
        led = LED_NONE
        best = -1
        win_pos = 0
        s = leader
        for i in range(players):
            hand = live[s]
            legal = legal_mask(hand, led)
            card_bit, state = draw_below_mask(legal, state)
            live[s] = hand ^ card_bit
            card = lowest_bit(card_bit)
            if led == LED_NONE:
                led = _FIRST_LED[card]
            st = strength[led + 2, card]
            win_pos = i if st > best else win_pos
            best = max(best, st)
            if log.want:
                log.cards[k] = card
                k += 1
            s = 0 if s + 1 == players else s + 1
        winner = leader + win_pos
        if winner >= players:
            winner -= players
        tricks_out[winner] += 1
        if log.want:
            log.leader[t] = leader
            log.winner[t] = winner
        leader = winner
    play_rng[0] = state
