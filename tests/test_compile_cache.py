"""Numba compiles once: a second process loads the kernels from the on-disk cache (issue 2)."""

import json
import os
import subprocess
import sys

_PROBE = """
import json
import wizsim
from wizsim._numba import needs_compile
from wizsim.sim.kernels import simulate_games_kernel, simulate_rounds_kernel
from wizsim.sim.round import play_round
before = needs_compile(simulate_rounds_kernel, simulate_games_kernel)
wizsim.simulate_rounds(4, 3, 10, seed=1)
wizsim.simulate_games(3, 2, seed=1)
stats = [k.stats for k in (simulate_rounds_kernel, simulate_games_kernel)]
print(json.dumps({"needed_compile": before, "hits": sum(sum(s.cache_hits.values()) for s in stats),
                  "misses": sum(sum(s.cache_misses.values()) for s in stats),
                  "round_kernels": len(play_round.signatures)}))
"""


def _run(cache_dir):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "WIZSIM_NUMBA_CACHE": "1"}
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_second_process_starts_without_recompiling(tmp_path):
    first = _run(tmp_path)
    second = _run(tmp_path)
    assert first["misses"] >= 2 and first["hits"] == 0
    assert second["hits"] >= 2 and second["misses"] == 0
    # what the CLI reads to announce a first-run compile on a terminal
    assert first["needed_compile"] is True and second["needed_compile"] is False
    # rounds and games call one round kernel, compiled (or loaded) once for both (issue 34)
    assert first["round_kernels"] == 1, first


def test_compile_seconds_count_a_compile_and_not_a_call():
    """The advisors' wall-clock limit leaves out compiling: the clock must see a compile, and only that."""
    import time

    import numba

    from wizsim._numba import compile_seconds

    @numba.njit
    def spin(n):
        total = 0
        for i in range(n):
            total += i * i % 7
        return total

    before = compile_seconds()
    spin(10)  # compiles
    compiled = compile_seconds() - before
    assert compiled > 0
    before = compile_seconds()
    t = time.perf_counter()
    spin(50_000_000)  # runs, compiled already
    assert time.perf_counter() - t > 0.005
    assert compile_seconds() == before


_STALE = """
import os, pickle, sys
import numpy as np
from wizsim.bits import popcount
index = popcount._cache._cache_file
os.makedirs(os.path.dirname(index._index_path), exist_ok=True)
with open(index._index_path, "wb") as f:  # an index naming a record class this wizsim does not have
    pickle.dump(index._version, f, protocol=-1)
    f.write(b"cwizsim.policies.records\\nRecordOfAnOlderRelease\\n.")
print(int(popcount(np.uint64(0b1011))))
"""


def test_an_index_naming_a_moved_class_recompiles(tmp_path):
    """An upgrade (or another checkout sharing NUMBA_CACHE_DIR) leaves cache indexes that pickle record
    classes which have since moved; Numba unpickles an index before it checks the source stamp, so such
    an index must read as a miss and the kernel compile, not the first call fail."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "WIZSIM_NUMBA_CACHE": "1"}
    for _ in range(2):  # the second run reads the index the first one wrote over the stale one
        out = subprocess.run([sys.executable, "-c", _STALE], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip().splitlines()[-1] == "3"
