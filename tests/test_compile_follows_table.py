"""What a kernel compiles follows the table (issue 34): a table with no net seat holds none of net's code.

Net's three networks cost a first bid advice about 5 s of compiling though no seat plays net. A kernel
loaded from Numba's disk cache compiles nothing it calls, so the probe runs on an empty cache of its own
and reads which of net's deciders Numba compiled (each a dispatcher with signatures once compiled).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from wizsim.policies import make_slots
from wizsim.policies.dispatch import NET, choose_card_light
from wizsim.policies.observation import Obs
from wizsim.rules.kernels import LED_NONE

_PROBE = """
import json
import wizsim
from wizsim._numba import needs_compile
from wizsim.policies import net
from wizsim.sim.kernels import simulate_rounds_kernel
deciders = (net.net_bid, net.net_card, net.net_trump)
NET = (None, None, True)  # the kernels' ext with a net seat (dispatch.kernel_ext)
wizsim.simulate_rounds(4, 3, 10, "heuristic", seed=1)
without = [len(d.signatures) for d in deciders]
guess = [needs_compile(simulate_rounds_kernel, ext=e) for e in (None, NET)]
wizsim.simulate_rounds(4, 3, 10, ["net", "heuristic", "heuristic", "heuristic"], seed=1)
guess.append(needs_compile(simulate_rounds_kernel, ext=NET))
print(json.dumps({"without_net": without, "with_net": [len(d.signatures) for d in deciders], "guess": guess}))
"""


def test_a_heuristic_table_compiles_no_net_code_and_a_net_seat_does(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "WIZSIM_NUMBA_CACHE": "1"}
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["without_net"] == [0, 0, 0], got
    # the probe sees a compile where there is one: net seated, every decider is compiled in
    assert all(n >= 1 for n in got["with_net"]), got
    # the first-run notice's guess tells the two builds apart: net's is not in the cache until a net table ran
    assert got["guess"] == [False, True, False], got


def test_a_net_seat_in_kernels_built_without_net_is_refused_not_played_as_another_policy():
    slots, z8, hand = make_slots(["net"]), np.zeros(4, np.int8), np.uint64(0b1011)
    obs = Obs(0, 4, 3, False, hand, hand, -1, 2, 0, np.array([1, 1, 1, 1], np.int8), z8.copy(),
              np.zeros(4, np.uint64), np.uint64(0), np.full(4, -1, np.int8), 0, LED_NONE, -1, z8.copy())
    rng = np.ones(1, np.uint64)
    assert choose_card_light(NET, slots.params[0], slots.table, obs, rng, True) in (0, 1, 3)
    with pytest.raises(ValueError, match="without net's code"):
        choose_card_light(NET, slots.params[0], slots.table, obs, rng, None)
