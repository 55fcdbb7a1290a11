"""The random policy: the baseline every other policy is measured against.

It bids uniformly in 0..r (skipping the hook's forbidden bid), plays a uniformly random legal card,
and, as dealer on a turned-up Wizard, names a uniformly random suit. It ignores everything else it
is shown.
"""

from __future__ import annotations

from wizsim._numba import inline_kernel
from wizsim.bits import popcount, select_bit
from wizsim.deal.kernels import rand_below


@inline_kernel
def random_bid(r, forbidden, rng):
    if 0 <= forbidden <= r:
        bid = rand_below(rng, r)
        return bid + 1 if bid >= forbidden else bid
    return rand_below(rng, r + 1)


@inline_kernel
def random_card(legal, rng):
    return select_bit(legal, rand_below(rng, popcount(legal)))


@inline_kernel
def random_trump(rng):
    return rand_below(rng, 4)
