"""Play advice's world sampler: batches of worlds for a ``policies.records.PlayState``, consistent with the hard
facts only (the counts, the cards seen, the voids shown and the turned-up card).

The sampling itself is ``policies.worlds.draw_world`` (uniform over the consistent deals); this module
runs it over a batch with one stream per world, ``(seed, first_index + i, WORLD_STREAM)``, so world i is
the same whatever the batch split. What the opponents' bids and cards tell is weighed afterwards by the
opponents' model (``advisor.kernels.evidence``).

``enumerate_worlds_kernel`` lists every consistent deal instead (play advice's exact path), up to a cap
on the deals and on the work: a depth-first walk over the seats, the seat with the fewest cards it may
hold first, each seat's cards one combination of what it may hold of the cards left (Gosper's
next-combination step over the positions of that pool), a branch dropped as soon as a later seat can no
longer be filled. Its twin is ``sim.reference.enumerate_worlds``.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.bits import ONE, ZERO, lowest_bit, popcount, select_bit_mask
from wizsim.deal.kernels import WORLD_STREAM, stream_key
from wizsim.policies.worlds import FAILED, HARD_TRIES, draw_world

__all__ = ["enumerate_worlds", "enumerate_worlds_kernel", "sample_worlds", "sample_worlds_kernel"]

TOO_MANY = -1  # ``enumerate_worlds_kernel``: more consistent deals than the output holds
TOO_COSTLY = -2  # ... or more steps of the walk than allowed


@kernel
def sample_worlds_kernel(seed, first_index, view, max_tries, worlds, turn_ups):
    """Worlds ``first_index .. first_index + n - 1`` into ``worlds`` (n, players) uint64 and ``turn_ups``
    (n,) int8 for the seat's ``view`` = (players, me, hand, unseen, needs, voids, pool), ``draw_world``'s
    arguments (``PlayState.kernel_args``); returns whether every world was found."""
    players, me, hand, unseen, needs, voids, pool = view
    rng = np.empty(1, np.uint64)
    for i in range(worlds.shape[0]):
        rng[0] = stream_key(seed, first_index + i, WORLD_STREAM)
        tu = draw_world(rng, players, me, hand, unseen, needs, voids, pool, max_tries, worlds[i])
        if tu == FAILED:
            return False
        turn_ups[i] = tu
    return True


def sample_worlds(state, n: int, seed: int, first_index: int = 0):
    """``n`` worlds of ``state``: (worlds (n, players) uint64 with the seat's own hand in its column,
    turned-up cards (n,) int8, -1 in the last round)."""
    from wizsim.errors import AdviceError

    a = state.kernel_args()
    worlds = np.zeros((n, state.players), np.uint64)
    turn_ups = np.full(n, -1, np.int8)
    view = (a["players"], a["me"], a["hand"], a["unseen"], a["needs"], a["voids"], a["pool"])
    ok = sample_worlds_kernel(np.uint64(seed), np.int64(first_index), view, np.int64(HARD_TRIES), worlds, turn_ups)
    if not ok:
        raise AdviceError("no deal of the unseen cards fits what was played: the seats that showed a void "
                          "cannot hold the cards left")
    return worlds, turn_ups


@kernel
def _spread(x, pool):
    """The cards of ``pool`` at the positions of ``x``'s set bits (position k: the k-th lowest card)."""
    out = ZERO
    while x != ZERO:
        out |= select_bit_mask(pool, lowest_bit(x))
        x &= x - ONE
    return out


@kernel
def _next_combination(x):
    """Gosper's step: the next larger uint64 with as many set bits as ``x`` (> 0)."""
    low = x & (~x + ONE)
    ripple = x + low
    return (((ripple ^ x) >> np.uint64(2)) // low) | ripple


@kernel
def enumerate_worlds_kernel(me, hand, unseen, needs, allowed, order, turn_up_choices, max_steps, worlds, turn_ups):
    """Every deal of ``unseen`` giving seat s exactly ``needs[s]`` cards, all within ``allowed[s]``, the rest
    undealt, once per turned-up card of ``turn_up_choices`` (the card taken out of ``unseen`` first; -1:
    none). needs (players,) int64 (0 for ``me``), allowed (players,) uint64, order (n_seats,) int64 the
    seats dealt (the others than ``me``) in the order of the walk, turn_up_choices (t,) int64; worlds
    (cap, players) uint64 gets the deals (``hand`` in ``me``'s column), turn_ups (cap,) int8 their
    turned-up cards. Returns the number of deals, ``TOO_MANY`` when there are more than ``cap``, or
    ``TOO_COSTLY`` when the walk takes more than ``max_steps`` combinations."""
    n_seats = order.shape[0]
    players = needs.shape[0]
    cap = worlds.shape[0]
    pool = np.zeros(n_seats, np.uint64)
    top = np.zeros(n_seats, np.uint64)  # 1 << popcount(pool): the combinations of a level end there
    comb = np.zeros(n_seats, np.uint64)
    left = np.zeros(n_seats + 1, np.uint64)
    hands = np.zeros(players, np.uint64)
    n = 0
    steps = 0
    for ti in range(turn_up_choices.shape[0]):
        t = turn_up_choices[ti]
        left[0] = unseen & ~(ONE << np.uint64(t)) if t >= 0 else unseen
        level = 0
        entering = True
        while level >= 0:
            s = order[level]
            if entering:  # a first combination at this level, if the seat can be filled at all
                pool[level] = left[level] & allowed[s]
                size = popcount(pool[level])
                if size < needs[s]:
                    level -= 1
                    entering = False
                    continue
                top[level] = ONE << np.uint64(size)
                comb[level] = (ONE << np.uint64(needs[s])) - ONE
                entering = False
            else:  # the next combination, or back up a level
                if comb[level] == ZERO:
                    comb[level] = top[level]  # a seat that needs nothing has one combination
                else:
                    comb[level] = _next_combination(comb[level])
                if comb[level] >= top[level]:
                    level -= 1
                    continue
            steps += 1
            if steps > max_steps:
                return TOO_COSTLY
            m = _spread(comb[level], pool[level])
            hands[s] = m
            rest = left[level] & ~m
            left[level + 1] = rest
            ok = True
            for j in range(level + 1, n_seats):  # a later seat that cannot be filled: drop the branch
                if popcount(rest & allowed[order[j]]) < needs[order[j]]:
                    ok = False
                    break
            if not ok:
                continue
            if level + 1 < n_seats:
                level += 1
                entering = True
                continue
            if n == cap:
                return TOO_MANY
            for p in range(players):
                worlds[n, p] = hands[p]
            worlds[n, me] = hand
            turn_ups[n] = t
            n += 1
    return n


def enumerate_worlds(state, turn_up_choices, cap: int, max_steps: int):
    """Every deal consistent with ``state``'s counts and voids (``enumerate_worlds_kernel``), once per
    turned-up card of ``turn_up_choices`` (-1: none): (worlds (n, players) uint64, turned-up cards (n,)
    int8), or None when there are more than ``cap`` or the walk would take more than ``max_steps``."""
    from wizsim.cards import SUIT_MASKS

    a = state.kernel_args()
    players, me = state.players, state.me
    unseen = int(a["unseen"])
    allowed = np.zeros(players, np.uint64)
    for s in range(players):
        mask = (1 << 64) - 1
        for suit in range(4):
            if state.voids[s] >> suit & 1:
                mask &= ~int(SUIT_MASKS[suit])
        allowed[s] = np.uint64(mask)
    # the seat with the fewest cards it may hold first: dead branches end near the root
    order = sorted((s for s in range(players) if s != me), key=lambda s: (bin(unseen & int(allowed[s])).count("1"), s))
    worlds = np.zeros((cap, players), np.uint64)
    turn_ups = np.full(cap, -1, np.int8)
    n = enumerate_worlds_kernel(np.int64(me), a["hand"], a["unseen"], a["needs"], allowed, np.array(order, np.int64),
                                np.array(turn_up_choices, np.int64), np.int64(max_steps), worlds, turn_ups)
    if n < 0:
        return None
    return worlds[:n], turn_ups[:n]
