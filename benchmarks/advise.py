"""Advisor speed from the shell, as a player sees it: wall time of whole ``wizsim advise`` processes
(interpreter start, imports, Numba cache loads and the answer), hyperfine-style.

    python benchmarks/advise.py              # 5 timed runs per case after one warm-up run
    python benchmarks/advise.py --runs 9 --json
    python benchmarks/advise.py --policy net  # told net (results/advise-net.json)

For each case it prints the median and min wall time and the median CPU time (user + sys, which
other processes on a shared machine inflate less than wall time), plus the samples the advisor used
and the time it reports for itself. The first (warm-up) run also fills Numba's on-disk cache, so its
time is shown separately as "cold". A breakdown of one process (imports, first kernel call) follows.
Targets (issue 4): the 3-card case within 1.5 s wall, the 15-card case within 5 s; (issue 11) the
10-card mid-round play advice within 1.5 s wall.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

CASES = {
    "3 cards": ["--hand", "W,AS,3H", "--trump", "S", "--seat", "2"],
    "1 card (exact)": ["--hand", "AS", "--trump", "S", "--seat", "1"],
    "5 cards, bids heard": ["--hand", "W,KS,QH,7D,2C", "--trump", "H", "--seat", "3", "--bids", "1,2"],
    "15 cards, 4p last round": ["--hand", "W,W,AS,KS,7S,2S,AH,QH,9H,4H,KD,8D,3D,JC,5C", "--trump", "none",
                                "--seat", "2"],
    "15 cards, 3 players": ["--hand", "W,W,AS,KS,7S,2S,AH,QH,9H,4H,KD,8D,3D,JC,5C", "--trump", "S", "--seat", "2",
                            "--players", "3"],
    # play advice (issue 11): round 10 of 4 players, trick 5, six cards left and all six legal
    "play, 10 cards mid-round": ["--hand", "4S,5S,9S,KS,7D,QC", "--trump", "C", "--seat", "2", "--bids", "2,1,2,6",
                                 "--played", "W,2H,3S,7S/2D,QD,W,9D/5D,KC,4D,3D/AH,6H,9H,7H/KH,TH"],
}
BREAKDOWN = """
import time
t0 = time.perf_counter()
import wizsim.cli
t1 = time.perf_counter()
from wizsim._startup import skip_blas_probe
skip_blas_probe()
t2 = time.perf_counter()
from wizsim.advisor import advise
a = advise("W,AS,3H", "S", 2, seed=1)
t3 = time.perf_counter()
advise("W,AS,3H", "S", 2, seed=2)
t4 = time.perf_counter()
print({"import wizsim.cli": t1 - t0, "numba registries (BLAS probe skipped)": t2 - t1,
       "first advise (cache loads + answer)": t3 - t2, "second advise (answer only)": t4 - t3})
"""


def _cpu_children() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_once(args: list[str], policy: str | None = None) -> dict:
    told = [] if policy is None else ["--policy", policy]
    cmd = [sys.executable, "-m", "wizsim.cli", "advise", *args, *told, "--json"]
    cpu0 = _cpu_children()
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    obj = json.loads(out.stdout)
    return {"wall": wall, "cpu": _cpu_children() - cpu0, "samples": obj["samples"], "method": obj["method"]}


def bench(runs: int, policy: str | None = None) -> dict:
    results = {}
    for name, args in CASES.items():
        cold = run_once(args, policy)
        timed = [run_once(args, policy) for _ in range(runs)]
        walls = [t["wall"] for t in timed]
        results[name] = {
            "cold_wall_s": round(cold["wall"], 3),
            "median_wall_s": round(statistics.median(walls), 3),
            "min_wall_s": round(min(walls), 3),
            "median_cpu_s": round(statistics.median(t["cpu"] for t in timed), 3),
            "samples": [t["samples"] for t in timed],
            "method": timed[0]["method"],
        }
    return results


def breakdown() -> dict:
    out = subprocess.run([sys.executable, "-c", BREAKDOWN], capture_output=True, text=True, check=True)
    return {k: round(v, 3) for k, v in eval(out.stdout.strip().splitlines()[-1]).items()}  # noqa: S307 - our own dict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--policy", default=None, help="the opponents' model told to the advisor (e.g. net)")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args()
    report = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load": os.getloadavg()},
        "policy": ns.policy,
        "cases": bench(ns.runs, ns.policy),
        "breakdown": breakdown(),
    }
    results_dir = Path(__file__).parent / "results"
    results_dir.mkdir(exist_ok=True)
    (results_dir / ("advise.json" if ns.policy is None else f"advise-{ns.policy}.json")).write_text(json.dumps(report, indent=2))
    if ns.json:
        print(json.dumps(report, indent=2))
        return
    print(f"load average {report['machine']['load']}, {report['machine']['cpus']} cpus")
    print(f"{'case':<24} {'cold':>7} {'median':>7} {'min':>7} {'cpu':>7}  samples")
    for name, r in report["cases"].items():
        print(f"{name:<24} {r['cold_wall_s']:>6.2f}s {r['median_wall_s']:>6.2f}s {r['min_wall_s']:>6.2f}s "
              f"{r['median_cpu_s']:>6.2f}s  {r['method']} {r['samples']}")
    print("one process:", ", ".join(f"{k} {v:.2f}s" for k, v in report["breakdown"].items()))


if __name__ == "__main__":
    main()
