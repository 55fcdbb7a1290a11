"""``wizsim warmup``: compile every command's kernels ahead, several kinds at once.

Each kind of command (bid advice, play advice, simulate, ...) runs a top-level kernel of its own, and
Numba compiles a top-level kernel with everything it calls in one go: the first run of each kind on a
machine compiles for seconds to a minute. ``warmup`` runs the smallest question of each kind in child
processes, as many at a time as the machine has cores, so that their compiles overlap and later
commands load every kernel from Numba's cache. The children are ordinary ``wizsim`` commands (``KINDS``):
whatever a command compiles, its warm-up compiles, and nothing else.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

_VECTOR = ("from wizsim.envs.vector import VectorEnv\n"
           "env = VectorEnv(8, players=4, r=3, seed=1)\n"
           "obs, masks = env.reset()\n"
           "import numpy as np\n"
           "for _ in range(40):\n"
           "    obs, masks, rewards, dones = env.step(masks.argmax(axis=1))\n")

_YOUR_TABLE = ("import wizsim\n"
               "bot = wizsim.player('search')\n"
               "obs = wizsim.observe('QS,9H,4D,2C', 'H', seat=3, players=4, bids=[1, 0, 1, 2], played='AS,3S,W,JS/', "
               "trump_card='7H')\n"
               "bot.card(obs)\n"
               "bot.bid(wizsim.observe('QS,9H,4D,2C', 'H', seat=2, players=4, bids=[1], trump_card='7H'))\n")

# kind -> the commands (wizsim's arguments, or ("python", code)) that compile its kernels; the longest first.
# "{out}" is a folder the warm-up makes and removes. The review compiles what bid and play advice do.
KINDS: dict[str, list[tuple[str, ...]]] = {
    "search": [("tournament", "--players", "4", "--policies", "search,heuristic", "--games", "4", "--seed", "1")],
    "bid advice": [("advise", "--hand", "W,AS,3H", "--trump", "S", "--seat", "2", "--seed", "1", "--samples", "64"),
                   ("advise", "--hand", "AS", "--trump", "S", "--seat", "1")],
    "play advice": [("advise", "--hand", "QS,7D", "--trump-card", "3S", "--seat", "3", "--players", "3", "--bids",
                     "1,0,1", "--played", "KH,AH"),
                    ("advise", "--hand", "QS,7D,2C,9H", "--trump", "S", "--seat", "2", "--bids", "1,0,1,1",
                     "--played", "KH", "--seed", "1", "--samples", "64")],
    "trump advice": [("advise", "--hand", "W,AS,3H", "--trump-card", "W", "--seat", "4", "--seed", "1",
                      "--samples", "64")],
    "tournament": [("tournament", "--players", "4", "--policies", "heuristic,random", "--games", "8", "--seed", "1")],
    "simulate --games": [("simulate", "--games", "4", "--policy", "heuristic", "--seed", "1")],
    "simulate": [("simulate", "--round", "3", "--rounds", "1000", "--policy", "heuristic", "--seed", "1")],
    "datasets": [("simulate", "--round", "3", "--rounds", "200", "--policy", "heuristic", "--seed", "1",
                  "--out", "{out}")],
    "vector env": [("python", _VECTOR)],
    "net": [("tournament", "--players", "4", "--policies", "net,heuristic", "--games", "4", "--seed", "1")],
    "your table": [("python", _YOUR_TABLE)],  # a search player object at the open table: its own kernels
}


@dataclass
class Warmed:
    kind: str
    seconds: float
    ok: bool
    error: str = ""


@dataclass
class WarmupReport:
    warmed: list[Warmed]
    seconds: float
    jobs: int

    def to_dict(self) -> dict:
        return {"seconds": round(self.seconds, 2), "jobs": self.jobs,
                "kinds": [{"kind": w.kind, "seconds": round(w.seconds, 2), "ok": w.ok, "error": w.error}
                          for w in self.warmed]}


def check_kinds(kinds) -> list[str]:
    if not kinds:
        return list(KINDS)
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown kind {unknown[0]!r}: choose from {', '.join(KINDS)}")
    return list(dict.fromkeys(kinds))


def _run_kind(kind: str) -> Warmed:
    started = time.perf_counter()
    env = {**os.environ, "WIZSIM_WARMUP": "1"}
    out = tempfile.mkdtemp(prefix="wizsim-warmup-")
    try:
        for command in KINDS[kind]:
            if command[0] == "python":
                argv = [sys.executable, "-c", command[1]]
            else:
                argv = [sys.executable, "-m", "wizsim", *(os.path.join(out, "data") if a == "{out}" else a
                                                          for a in command)]
            done = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                lines = done.stderr.strip().splitlines()
                return Warmed(kind, time.perf_counter() - started, False, lines[-1] if lines else
                              f"exit status {done.returncode}")
    finally:
        shutil.rmtree(out, ignore_errors=True)  # made above, by this process, for this warm-up alone
    return Warmed(kind, time.perf_counter() - started, True)


def warmup(kinds=None, jobs: int | None = None, progress=None) -> WarmupReport:
    """Compile the kernels of ``kinds`` (default: every kind in ``KINDS``), ``jobs`` at a time (default:
    the machine's cores). ``progress`` is called with each ``Warmed`` as it finishes."""
    kinds = check_kinds(kinds)
    jobs = jobs or os.cpu_count() or 1
    if not 1 <= jobs <= 64:
        raise ValueError(f"jobs must be 1..64, got {jobs}")
    started = time.perf_counter()
    warmed = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for done in as_completed([pool.submit(_run_kind, kind) for kind in kinds]):
            w = done.result()
            warmed[w.kind] = w
            if progress:
                progress(w)
    return WarmupReport([warmed[k] for k in kinds], time.perf_counter() - started, jobs)
