"""Play advice's world sampler: batches of worlds for a ``sim.state.PlayState``.

The sampling itself is ``policies.worlds`` (uniform over the deals consistent with the counts, voids
and turned-up card; the heard bids as evidence by rejection); this module runs it over a batch with
one stream per world, ``(seed, first_index + i, WORLD_STREAM)``, so world i is the same whatever the
batch split. All worlds of a call share one tolerance: when some world finds no deal matching the
heard bids within ``MAX_TRIES`` tries, the whole batch is drawn again matching them within one trick
more (``tolerance``; 0 means exactly).
"""

from __future__ import annotations

import numpy as np

from wizsim._jit import kernel
from wizsim.deal.kernels import WORLD_STREAM, stream_key
from wizsim.policies.worlds import FAILED, dealer_named_trump, evidence_ok, sample_world

__all__ = ["MAX_TRIES", "evidence_ok", "sample_worlds", "sample_worlds_kernel"]

MAX_TRIES = 2_000  # tries per world at one tolerance


@kernel
def sample_worlds_kernel(seed, first_index, players, r, me, hand, unseen, needs, voids, pool, seat_played, trump,
                         bids, hook, evidence, trump_evidence, params, table, tolerance, max_tries, worlds, turn_ups,
                         tries):
    """Worlds ``first_index .. first_index + n - 1`` into ``worlds`` (n, players) uint64, ``turn_ups``
    (n,) int8, ``tries`` (n,) int64 (draws each took); returns whether every world was found."""
    rng = np.empty(1, np.uint64)
    for i in range(worlds.shape[0]):
        rng[0] = stream_key(seed, first_index + i, WORLD_STREAM)
        tu, t = sample_world(rng, players, r, me, hand, unseen, needs, voids, pool, seat_played, trump, bids, hook,
                             evidence, trump_evidence, params, table, tolerance, max_tries, worlds[i])
        tries[i] = t
        if tu == FAILED:
            return False
        turn_ups[i] = tu
    return True


def evidence_setup(state, policy: str):
    """(evidence per seat, trump evidence, params row, table) for the heard bids of ``state``'s opponents
    under ``policy``: none for a hand-blind policy; else the heuristic's bid model (policies.worlds)."""
    from wizsim.bits import lowest_bit
    from wizsim.policies import make_slots, policy_entry

    slots = make_slots(["heuristic"])
    evidence = np.zeros(state.players, np.bool_)
    trump_evidence = False
    if not policy_entry(policy).hand_blind:
        evidence[:] = True
        evidence[state.me] = False
        pool = state.turn_up_pool
        if pool and pool & (pool - 1) == 0:
            trump_evidence = bool(dealer_named_trump(state.players, state.me, int(lowest_bit(np.uint64(pool)))))
    return evidence, trump_evidence, slots.params[0], slots.table


def sample_worlds(state, n: int, seed: int, first_index: int = 0, policy: str = "heuristic"):
    """``n`` worlds of ``state``: (worlds (n, players) uint64 with the seat's own hand in its column,
    turned-up cards (n,) int8 (-1 in the last round), tries (n,) int64, tolerance)."""
    from wizsim.advisor.question import AdviceError

    a = state.kernel_args()
    evidence, trump_evidence, params, table = evidence_setup(state, policy)
    worlds = np.zeros((n, state.players), np.uint64)
    turn_ups = np.full(n, -1, np.int8)
    tries = np.zeros(n, np.int64)
    spent = np.zeros(n, np.int64)
    for tolerance in range(state.r + 1):
        ok = sample_worlds_kernel(np.uint64(seed), np.int64(first_index), a["players"], a["r"], a["me"], a["hand"],
                                  a["unseen"], a["needs"], a["voids"], a["pool"], a["seat_played"], a["trump"],
                                  a["bids"], a["hook"], evidence, trump_evidence, params, table, np.int64(tolerance),
                                  np.int64(MAX_TRIES), worlds, turn_ups, tries)
        spent += tries
        if ok:
            return worlds, turn_ups, spent, tolerance
        tries[:] = 0
    raise AdviceError("no deal of the unseen cards fits what was played: the seats that showed a void cannot hold "
                      "the cards left")
