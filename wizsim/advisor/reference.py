"""Plain-Python twins of the advisor's kernels (``advisor.evidence``), built on the twins of ``policies``."""

from __future__ import annotations

from wizsim.deal.reference import Stream
from wizsim.policies.reference import evidence_ok


def worlds_evidence_kernel(worlds, turn_ups, players, r, me, seat_played, trump, bids, hook, evidence, params, table,
                           tolerance, out):
    """Twin of ``advisor.evidence.worlds_evidence_kernel``: ``evidence_ok`` (the bids only) of each world."""
    for i in range(len(worlds)):
        out[i] = evidence_ok(Stream(0), players, r, me, [int(x) for x in worlds[i]], seat_played, int(turn_ups[i]), trump,
                             bids, hook, evidence, False, params, table, tolerance)
