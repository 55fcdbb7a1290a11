"""Play advice's world sampler: batches of worlds for a ``sim.state.PlayState``, consistent with the hard
facts only (the counts, the cards seen, the voids shown and the turned-up card).

The sampling itself is ``policies.worlds.draw_world`` (uniform over the consistent deals); this module
runs it over a batch with one stream per world, ``(seed, first_index + i, WORLD_STREAM)``, so world i is
the same whatever the batch split. What the opponents' bids and cards tell is weighed afterwards by the
opponents' model (``sim.evidence``).
"""

from __future__ import annotations

import numpy as np

from wizsim._jit import kernel
from wizsim.deal.kernels import WORLD_STREAM, stream_key
from wizsim.policies.worlds import FAILED, HARD_TRIES, draw_world

__all__ = ["sample_worlds", "sample_worlds_kernel"]


@kernel
def sample_worlds_kernel(seed, first_index, players, me, hand, unseen, needs, voids, pool, max_tries, worlds, turn_ups):
    """Worlds ``first_index .. first_index + n - 1`` into ``worlds`` (n, players) uint64 and ``turn_ups``
    (n,) int8; returns whether every world was found."""
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
    from wizsim.advisor.question import AdviceError

    a = state.kernel_args()
    worlds = np.zeros((n, state.players), np.uint64)
    turn_ups = np.full(n, -1, np.int8)
    ok = sample_worlds_kernel(np.uint64(seed), np.int64(first_index), a["players"], a["me"], a["hand"], a["unseen"],
                              a["needs"], a["voids"], a["pool"], np.int64(HARD_TRIES), worlds, turn_ups)
    if not ok:
        raise AdviceError("no deal of the unseen cards fits what was played: the seats that showed a void "
                          "cannot hold the cards left")
    return worlds, turn_ups
