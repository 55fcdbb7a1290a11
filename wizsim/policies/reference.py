"""Plain-Python twin of ``policies.random_policy``, written from issue 2's description of the policy.

The random policy bids uniformly among the allowed bids 0..r (the hook's forbidden bid left out),
plays a uniformly random legal card, and as dealer on a turned-up Wizard names a uniformly random
suit. Each choice draws once from the round's play stream (``deal.reference.Stream``) and picks the
k-th item of an ascending list, which is what makes the twin consume the stream exactly as the kernel
does: for the same stream state both choose the same bid, card and suit.
"""

from __future__ import annotations

from collections.abc import Iterable

from wizsim.deal.reference import Stream

N_SUITS = 4


def random_bid(r: int, forbidden: int, stream: Stream) -> int:
    """A uniform bid among 0..r, leaving out ``forbidden`` (the hook's bid, or -1 for none)."""
    allowed = [b for b in range(r + 1) if b != forbidden]
    return allowed[stream.rand_below(len(allowed))]


def random_card(legal: Iterable[int], stream: Stream) -> int:
    """A uniform card among ``legal`` (ids, any order; never empty)."""
    ordered = sorted(int(c) for c in legal)
    return ordered[stream.rand_below(len(ordered))]


def random_trump(stream: Stream) -> int:
    """A uniform suit 0..3: the dealer's choice on a turned-up Wizard."""
    return stream.rand_below(N_SUITS)
