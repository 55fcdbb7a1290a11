"""Worlds: deals of the cards one seat has not seen, consistent with everything that seat knows.

A *world* gives each other seat exactly as many unseen cards as it still holds, none of a suit it showed
it lacks, and (when only the trump suit is known, in play advice) picks the turned-up card among the
unseen cards it may be. ``deal_world`` draws such a deal **uniformly** over all consistent deals
(``draw_world`` retries it until one is found); the heard bids (and a dealer's named trump) are then
evidence, weighed by the opponents' model (``policies.model``) and met by rejection in ``sample_world``.

How ``deal_world`` stays uniform with voids, without rejecting most deals. Every unseen card goes to a
*slot*: a seat, the undealt pile, or the turned-up card, each with a capacity. Cards fall in classes by
the slots they may go to (their suit, or Wizard/Jester, and whether the turned-up card may be one).
The cards are placed one at a time, the most constrained classes first, each into one of its allowed
slots with chance proportional to that slot's capacity left. That proposal reaches a deal with
probability ``prod(capacities!) / prod(D_i)``, ``D_i`` being the allowed capacity left when card i was
placed; accepting it with probability ``prod(D_i / B_i)``, where ``B_i`` bounds ``D_i`` from above
whatever came before, makes every consistent deal equally likely. With one constrained class (one
seat void in one suit, the common case) every ``D_i`` equals ``B_i`` and nothing is ever rejected; a
card that finds no allowed capacity left ends the try.

The model is soft (``trust`` below 1): a world in which a seat's model would have bid differently is
unlikelier, never impossible, so ``sample_world`` always ends with a world: after ``max_tries`` draws the
likeliest one drawn stands. Twins in ``policies.reference`` (same names).
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.bits import ZERO, bit, lowest_bit, popcount
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, N_RANKS, N_SUITED
from wizsim.deal.kernels import next_u64, rand_below
from wizsim.policies.model import (
    bids_bound,
    bids_likelihood,
    named_trump_bound,
    named_trump_likelihood,
    trick_likelihood,
)
from wizsim.policies.records import Opponents, RoundInfo, RoundState

NO_TURN_UP = -1
FAILED = -2  # ``deal_world`` / ``sample_world``: this try (or every try) found no world
N_CLASSES = 10  # (suit 0..3, or 4 for Wizards and Jesters) x (may be the turned-up card or not)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53
HARD_TRIES = 100_000  # draws of one consistent deal before a state is called inconsistent


@kernel
def card_class(card, pool):
    """The class of an unseen card: 2 * (suit, 4 for Wizards and Jesters) + (1 if it may be turned up)."""
    group = card // N_RANKS if card < N_SUITED else 4
    return 2 * group + ((pool >> np.uint64(card)) & np.uint64(1))


@kernel
def allowed_slots(cls, players, voids):
    """Bit mask of the slots a card of class ``cls`` may go to: seat s (bit s) unless void in its suit,
    the pile (bit players), the turned-up card (bit players + 1) when the class may be turned up."""
    group = cls // 2
    out = 1 << players
    if cls & 1:
        out |= 1 << (players + 1)
    for s in range(players):
        if group == 4 or not (voids[s] >> group) & 1:
            out |= 1 << s
    return out


@kernel
def deal_world(rng, players, unseen, needs, voids, pool, hands_out):
    """One uniformly drawn consistent deal of ``unseen`` (see the module docstring), or ``FAILED``.

    needs : (players,) int64, the cards each seat must get (0 for the seat that sees the world);
    voids : (players,) int8; pool : the cards that may be the turned-up card (0: none is dealt here);
    hands_out : (players,) uint64, set to the cards each seat gets (the other entries untouched but 0).
    Returns the turned-up card (``NO_TURN_UP`` when ``pool`` has no unseen card) or ``FAILED``.
    """
    n_slots = players + 2
    cap = np.zeros(n_slots, np.int64)
    total = popcount(unseen)
    dealt = 0
    for s in range(players):
        cap[s] = needs[s]
        dealt += needs[s]
        hands_out[s] = ZERO
    pool &= unseen
    if pool != ZERO:
        cap[players + 1] = 1
    cap[players] = total - dealt - cap[players + 1]
    if cap[players] < 0:
        return FAILED
    # allowed capacity of each class at the start, and the classes in order of it (most constrained first)
    allowed = np.zeros(N_CLASSES, np.int64)
    count = np.zeros(N_CLASSES, np.int64)
    m = unseen
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        count[card_class(c, pool)] += 1
    for k in range(N_CLASSES):
        slots = allowed_slots(k, players, voids)
        a = 0
        for j in range(n_slots):
            if (slots >> j) & 1:
                a += cap[j]
        allowed[k] = a
    # ties by class id: a fixed order. The keys are distinct, so an insertion sort gives np.argsort's
    # order; np.argsort compiled Numba's quicksort, 1.3 s of a first play advice.
    order = np.empty(N_CLASSES, np.int64)
    for k in range(N_CLASSES):
        key = allowed[k] * N_CLASSES + k
        j = k
        while j > 0 and allowed[order[j - 1]] * N_CLASSES + order[j - 1] > key:
            order[j] = order[j - 1]
            j -= 1
        order[j] = k
    weight = 1.0
    left = total
    turn_up = NO_TURN_UP
    for oi in range(N_CLASSES):
        k = order[oi]
        if count[k] == 0:
            continue
        slots = allowed_slots(k, players, voids)
        j_in_class = 0
        m = unseen
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - np.uint64(1)
            if card_class(c, pool) != k:
                continue
            d = 0
            for j in range(n_slots):
                if (slots >> j) & 1:
                    d += cap[j]
            if d == 0:
                return FAILED
            bound = min(left, allowed[k] - j_in_class)
            if d != bound:
                weight *= d / bound
            u = rand_below(rng, d)
            slot = 0
            for j in range(n_slots):
                if (slots >> j) & 1:
                    if u < cap[j]:
                        slot = j
                        break
                    u -= cap[j]
            cap[slot] -= 1
            if slot < players:
                hands_out[slot] |= bit(c)
            elif slot == players + 1:
                turn_up = c
            left -= 1
            j_in_class += 1
    if weight < 1.0 and (next_u64(rng) >> np.uint64(11)) * _UNIT >= weight:
        return FAILED
    return turn_up


@kernel
def draw_world(rng, players, me, hand, unseen, needs, voids, pool, max_tries, world):
    """A uniformly drawn consistent deal into ``world`` (``hand`` for ``me``): the turned-up card (a
    known one is the caller's, passed in ``pool`` and not unseen), or ``FAILED`` when ``max_tries``
    draws of ``deal_world`` found none."""
    known = NO_TURN_UP
    if pool != ZERO and pool & unseen == ZERO:
        known = lowest_bit(pool)
    for _ in range(max_tries):
        tu = deal_world(rng, players, unseen, needs, voids, pool, world)
        if tu != FAILED:
            world[me] = hand
            return known if known != NO_TURN_UP else tu
    return FAILED


@kernel
def sample_world(rng, who, view, evidence, table, max_tries, world):
    """A world weighed by the opponents' model (``policies.model``) for the seat ``who`` = (players, r, hook,
    me, hand): consistent deals of ``view`` = (unseen, pool, needs, kinds, mparams, trust, trump_evidence)
    (``deal_world``'s unseen cards, pool and needs; the seats' model kinds (players,) int8, parameters
    (players, k) and the bid trust; whether the dealer's named trump is evidence) are drawn until one is kept
    with chance ``likelihood / bound``. ``evidence`` = (voids, seat_played, trump, bids, n_heard, trick): the
    voids shown, the cards each seat has played (its whole hand is its world cards and these), the trump,
    the heard bids of seats ``< n_heard`` and, with ``trump_evidence``, the dealer's named suit ``trump``;
    and the current trick's cards, ``trick`` = (play trust, tricks taken, every card played, the trick's
    cards, how many, its leader): ``model.trick_likelihood``, weighing nothing at play trust 0. At most
    ``max_tries`` draws; then the likeliest world drawn stands. ``table``: the policies' shared data.
    ``world`` (players,) uint64 gets the hands. Returns (turned-up card, tries used); ``FAILED`` only when no
    consistent deal turns up in ``HARD_TRIES`` more draws either (an inconsistent state)."""
    players, r, hook, me, hand = who
    unseen, pool, needs, kinds, mparams, trust, trump_evidence = view
    voids, seat_played, trump, bids, n_heard, trick = evidence
    play_trust, tricks, played, trick_cards, n_in_trick, leader = trick
    opponents = Opponents(kinds, mparams, table, trust, play_trust, trust, None)  # the search: one trust; no net model
    dealer = players - 1
    bound = bids_bound(kinds, trust, players, r, hook, me, bids, n_heard)
    if trump_evidence:
        bound *= named_trump_bound(kinds[dealer], trust)
    whole = np.empty(players, np.uint64)
    best_world = np.zeros(players, np.uint64)
    model_bids = np.empty(players, np.int8)
    best_like = -1.0
    best_tu = FAILED
    for t in range(max_tries):
        tu = draw_world(rng, players, me, hand, unseen, needs, voids, pool, 1, world)
        if tu == FAILED:
            continue
        for s in range(players):
            whole[s] = world[s] | seat_played[s]
        info = RoundInfo(players, r, hook, tu, trump)
        like = bids_likelihood(opponents, info, me, whole, bids, n_heard, model_bids)
        if trump_evidence:
            like *= named_trump_likelihood(kinds[dealer], mparams[dealer], table, trust, players, r, whole[dealer],
                                           trump, None)
        if play_trust > 0.0 and n_in_trick > 0:  # a card weighs at most 1: the bound stands
            like *= trick_likelihood(opponents, info, RoundState(world, seat_played, voids, trick_cards, bids, tricks),
                                     me, played, n_in_trick, leader)
        if (next_u64(rng) >> np.uint64(11)) * _UNIT * bound < like:
            return tu, t + 1
        if like > best_like:
            best_like = like
            best_tu = tu
            for s in range(players):
                best_world[s] = world[s]
    if best_tu == FAILED:  # not one consistent deal drawn yet: keep drawing (a legal state has some)
        return draw_world(rng, players, me, hand, unseen, needs, voids, pool, HARD_TRIES, world), max_tries
    for s in range(players):
        world[s] = best_world[s]
    return best_tu, max_tries


@kernel
def dealer_named_trump(players, me, turn_up):
    """Whether the trump was named by an opponent dealer on a turned-up Wizard (evidence about its hand)."""
    return me != players - 1 and FIRST_WIZARD <= turn_up < FIRST_JESTER

