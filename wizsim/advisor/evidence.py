"""The heard bids as evidence about enumerated worlds: play advice's exact path lists its worlds (every
consistent deal) instead of sampling them, and keeps those that agree with the bids heard.

``worlds_evidence_kernel`` runs the world sampler's own acceptance test (``policies.worlds.evidence_ok``,
the bids only: a dealer's named trump sends play advice to Monte Carlo) on each row; its twin is
``advisor.reference.worlds_evidence_kernel``.
"""

from __future__ import annotations

import numpy as np

from wizsim._jit import kernel
from wizsim.policies.worlds import evidence_ok


@kernel
def worlds_evidence_kernel(worlds, turn_ups, players, r, me, seat_played, trump, bids, hook, evidence, params, table,
                           tolerance, out):
    """``evidence_ok`` (the bids only, no trump evidence) of each row of ``worlds`` (n, players) uint64
    with its turned-up card ``turn_ups`` (n,) int8, into ``out`` (n,) bool: play advice's exact path
    enumerates its worlds instead of sampling them, and weighs each by this."""
    rng = np.zeros(1, np.uint64)  # drawn from only for trump evidence, which is off here
    for i in range(worlds.shape[0]):
        out[i] = evidence_ok(rng, players, r, me, worlds[i], seat_played, turn_ups[i], trump, bids, hook, evidence,
                             False, params, table, tolerance)


def worlds_evidence(state, worlds, turn_ups, policy: str = "heuristic", tolerance: int = 0) -> np.ndarray:
    """(n,) bool: whether each given world of a ``sim.state.PlayState`` agrees with the heard bids within
    ``tolerance`` (all do when ``policy`` is hand-blind). The dealer's named trump is not checked."""
    from wizsim.policies import make_slots, policy_entry

    n = len(worlds)
    if policy_entry(policy).hand_blind:
        return np.ones(n, np.bool_)
    a = state.kernel_args()
    slots = make_slots(["heuristic"])
    evidence = np.ones(state.players, np.bool_)
    evidence[state.me] = False
    out = np.zeros(n, np.bool_)
    worlds_evidence_kernel(np.ascontiguousarray(worlds, np.uint64), np.ascontiguousarray(turn_ups, np.int8),
                           a["players"], a["r"], a["me"], a["seat_played"], a["trump"], a["bids"], a["hook"],
                           evidence, slots.params[0], slots.table, np.int64(tolerance), out)
    return out
