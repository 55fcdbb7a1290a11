"""Plain-Python twins of the advisor's kernels (``advisor.evidence``), built on the twins of ``policies``."""

from __future__ import annotations

from wizsim.cards import N_CARDS
from wizsim.deal.reference import Stream
from wizsim.policies.reference import evidence_ok


def _cards(mask) -> set[int]:
    return {c for c in range(N_CARDS) if int(mask) >> c & 1}


def worlds_evidence_kernel(worlds, turn_ups, players, r, me, seat_played, trump, bids, hook, evidence, params, table,
                           tolerance, out):
    """Twin of ``advisor.evidence.worlds_evidence_kernel``: ``evidence_ok`` (the bids only) of each world."""
    played_by = [_cards(m) for m in seat_played]
    for i in range(len(worlds)):
        out[i] = evidence_ok(Stream(0), players, r, me, [_cards(x) for x in worlds[i]], played_by, int(turn_ups[i]),
                             trump, bids, hook, evidence, False, params, table, tolerance)
