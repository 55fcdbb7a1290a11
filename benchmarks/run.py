"""Engine speed: random rounds and whole games per second, serial and parallel, against the twin.

    python benchmarks/run.py            # the full pass (a few minutes), saved to results/run.json
    python benchmarks/run.py --quick    # a short pass, saved to results/run-quick.json
    python benchmarks/run.py --json     # the same figures as one JSON object on stdout

Figures (issue 2, deliverable 9):
- rounds/s and card plays/s (a card play = one card put on a trick) of the random policy for 3..6
  players at r = 1, the middle round and the last round, on 1 thread and on all Numba threads;
- every policy of ``wizsim.policies.policy_names()`` at 4 players, r = 15, and in whole games;
- whole games/s for every player count;
- a sweep of batch sizes (rounds per call) at 4 players, r = 15;
- 1 thread and all threads in alternation on one batch (the fairest scaling figure on a shared machine);
- the speed-up over the plain-Python round twin (``wizsim.sim.reference``) on the same rounds;
- (full pass) the cold compile time of a fresh process and the start of a second one (cache load).

Every figure is the median over repeated calls of the public API (``wizsim.simulate_rounds`` /
``simulate_games``, outputs allocated per call, as a user sees it), after a warm-up call that also
sizes the batch to a target time; the best repeat is kept too. The machine may be shared: the load
average at the start is recorded with the results. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

import wizsim
from wizsim.config import n_game_rounds
from wizsim.policies import policy_names

RESULTS = Path(__file__).resolve().parent / "results"
PLAYERS = (3, 4, 5, 6)
MAX_ROUNDS_PER_CALL = 2_000_000  # outputs of a call stay within a few hundred MB


class Pass:
    """How long to time: target seconds per call, repeats, and the twin's time budget."""

    def __init__(self, quick: bool):
        self.quick = quick
        self.target = 0.06 if quick else 0.3
        self.repeats = 3 if quick else 7
        self.twin_seconds = 0.5 if quick else 2.0
        self.sweep = (1_000, 10_000, 100_000) if quick else (100, 1_000, 10_000, 100_000, 1_000_000)


def all_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def round_sizes(players: int) -> dict[str, int]:
    last = n_game_rounds(players)
    return {"first": 1, "middle": (last + 1) // 2, "last": last}


class Times(list):
    """Wall seconds of each repeat; ``cpu`` holds the process CPU seconds (all threads) of each."""

    def __init__(self):
        super().__init__()
        self.cpu: list[float] = []


def time_calls(call, n: int, repeats: int) -> Times:
    times = Times()
    for _ in range(repeats):
        c0 = time.process_time()
        t0 = time.perf_counter()
        call(n)
        times.append(time.perf_counter() - t0)
        times.cpu.append(time.process_time() - c0)
    return times


def calibrated(call, target: float, repeats: int, n_min: int = 1, n_max: int = MAX_ROUNDS_PER_CALL):
    """Warm up (compile or load the kernels), size n so that one call takes about ``target`` seconds,
    then time ``repeats`` calls. Returns (n, seconds per call of each repeat). ``n_min`` should be
    real work: on a busy machine a parallel call's start alone can take a scheduler time slice."""
    call(n_min)
    call(n_min)
    n = n_min
    while True:
        t0 = time.perf_counter()
        call(n)
        took = time.perf_counter() - t0
        if took >= target / 4 or n >= n_max:
            break
        n = min(n_max, n * 8)
    n = int(min(n_max, max(n_min, n * target / max(took, 1e-9))))
    return n, time_calls(call, n, repeats)


def rates(n_units: int, plays_per_unit: int, times: Times, unit: str) -> dict:
    med = statistics.median(times)
    best = min(times)
    return {
        # CPU-time rate: what one core does when it runs; on a shared machine it is less disturbed
        # by other processes than wall time (wall time is the figure that counts).
        "plays_per_cpu_s": n_units * plays_per_unit / statistics.median(times.cpu),
        f"{unit}_per_s": n_units / med,
        "plays_per_s": n_units * plays_per_unit / med,
        f"best_{unit}_per_s": n_units / best,
        "best_plays_per_s": n_units * plays_per_unit / best,
        f"n_{unit}": n_units,
        "repeats": len(times),
    }


def bench_rounds(players: int, r: int, policy: str, threads: int, p: Pass) -> dict:
    def call(n):
        wizsim.simulate_rounds(players, r, n, policy, seed=1, threads=threads)

    n, times = calibrated(call, p.target, p.repeats, n_min=max(1, 300_000 // (players * r)))
    return {"players": players, "r": r, "policy": policy, "threads": threads,
            **rates(n, players * r, times, "rounds")}


def game_plays(players: int) -> int:
    R = n_game_rounds(players)
    return players * R * (R + 1) // 2


def bench_games(players: int, policy: str, threads: int, p: Pass) -> dict:
    def call(n):
        wizsim.simulate_games(players, n, policy, seed=1, threads=threads)

    n, times = calibrated(call, p.target, p.repeats, n_min=max(1, 300_000 // game_plays(players)),
                          n_max=MAX_ROUNDS_PER_CALL // n_game_rounds(players))
    return {"players": players, "policy": policy, "threads": threads,
            **rates(n, game_plays(players), times, "games")}


def bench_sweep(threads: int, p: Pass) -> list[dict]:
    out = []
    for n in p.sweep:
        def call(k):
            wizsim.simulate_rounds(4, 15, k, "random", seed=1, threads=threads)

        call(n)
        reps = max(p.repeats, int(p.target * 20e6 / 60 / n))  # small batches: more repeats
        times = time_calls(call, n, min(reps, 200))
        out.append({"players": 4, "r": 15, "threads": threads, "batch": n, **rates(n, 60, times, "rounds")})
    return out


def bench_scaling(p: Pass, n: int) -> dict:
    """1 thread and all threads in alternation on the same batch (4 players, r = 15), so that both
    see the same machine: on a shared machine another process can take a core for seconds."""
    threads = all_threads()
    pairs = 5 if p.quick else 11
    one, many = Times(), Times()
    for _ in range(pairs):
        for t, out in ((1, one), (threads, many)):
            c0 = time.process_time()
            t0 = time.perf_counter()
            wizsim.simulate_rounds(4, 15, n, "random", seed=1, threads=t)
            out.append(time.perf_counter() - t0)
            out.cpu.append(time.process_time() - c0)
    ratios = sorted(a / b for a, b in zip(one, many, strict=True))
    return {"players": 4, "r": 15, "n_rounds": n, "pairs": pairs, "threads": threads,
            "one_thread": rates(n, 60, one, "rounds"), "all_threads": rates(n, 60, many, "rounds"),
            "median_pair_ratio": statistics.median(ratios), "best_over_best": min(one) / min(many)}


def bench_twin(p: Pass, kernel_rounds: dict[int, dict]) -> dict:
    """The plain-Python twin on the same rounds (4 players, r = 15, random policy)."""
    try:
        from wizsim.sim.reference import simulate_rounds_reference
    except ImportError:
        return {"available": False}
    n, times = calibrated(lambda k: simulate_rounds_reference(4, 15, k, 1), p.twin_seconds, 3 if p.quick else 5,
                          n_max=100_000)
    twin = rates(n, 60, times, "rounds")
    out = {"available": True, "players": 4, "r": 15, "twin": twin}
    for threads, row in kernel_rounds.items():
        out[f"speedup_{threads}_threads"] = row["plays_per_s"] / twin["plays_per_s"]
    return out


_COMPILE_PROBE = """
import time
t0 = time.perf_counter()
import wizsim
t1 = time.perf_counter()
wizsim.simulate_rounds(4, 15, 10)
t2 = time.perf_counter()
wizsim.simulate_games(4, 2)
t3 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2)
"""


def bench_compile() -> dict:
    """A fresh process with an empty Numba cache, then a second one loading what the first cached."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "WIZSIM_NUMBA_CACHE": "1"}
        out = {}
        for name in ("cold", "cached"):
            t0 = time.perf_counter()
            res = subprocess.run([sys.executable, "-c", _COMPILE_PROBE], env=env, capture_output=True, text=True,
                                 check=True)
            wall = time.perf_counter() - t0
            imp, rounds, games = (float(x) for x in res.stdout.split())
            out[name] = {"process_s": wall, "import_s": imp, "first_rounds_call_s": rounds,
                         "first_games_call_s": games}
        return out


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from wizsim.bits import HAS_BMI2

    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "numba_threads": all_threads(),
        "threading_layer": _threading_layer(),
        "load_average_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "bmi2_pdep": bool(HAS_BMI2),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "wizsim": wizsim.__version__,
        "platform": platform.platform(),
    }


def _threading_layer() -> str:
    try:
        return numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        return "not yet chosen"


def run(quick: bool, compile_time: bool, log) -> dict:
    p = Pass(quick)
    info = machine()
    thread_counts = sorted({1, all_threads()})
    res: dict = {"machine": info, "quick": quick, "policies": policy_names(), "rounds": [], "games": []}

    log(f"wizsim {info['wizsim']} on {info['cpu']} ({info['cores']} cores, numba {info['numba']}), "
        f"load {info['load_average_at_start']}")
    log("random policy, rounds (median of repeats):")
    log(f"  {'players':>7} {'r':>3} {'threads':>7} {'rounds/s':>12} {'plays/s':>12}")
    for players in PLAYERS:
        for r in round_sizes(players).values():
            for threads in thread_counts:
                row = bench_rounds(players, r, "random", threads, p)
                res["rounds"].append(row)
                log(f"  {players:>7} {r:>3} {threads:>7} {row['rounds_per_s']:>12,.0f} {row['plays_per_s']:>12,.0f}")
    res["machine"]["threading_layer"] = _threading_layer()

    log("every policy, 4 players, r = 15:")
    res["policy_rounds"] = []
    for policy in policy_names():
        for threads in thread_counts:
            if policy == "random":
                row = next(x for x in res["rounds"] if x["players"] == 4 and x["r"] == 15 and x["threads"] == threads)
            else:
                row = bench_rounds(4, 15, policy, threads, p)
            res["policy_rounds"].append(row)
            log(f"  {policy:>10} {threads} thread(s) {row['rounds_per_s']:>12,.0f} rounds/s "
                f"{row['plays_per_s']:>14,.0f} plays/s")

    log("whole games:")
    for policy in policy_names():
        for players in PLAYERS:
            for threads in thread_counts:
                row = bench_games(players, policy, threads, p)
                res["games"].append(row)
                log(f"  {policy:>10} {players} players {threads} thread(s) {row['games_per_s']:>10,.0f} games/s "
                    f"{row['plays_per_s']:>14,.0f} plays/s")

    log("batch sizes, 4 players, r = 15:")
    res["sweep"] = []
    for threads in thread_counts:
        for row in bench_sweep(threads, p):
            res["sweep"].append(row)
            log(f"  {threads} thread(s) batch {row['batch']:>9,} {row['plays_per_s']:>14,.0f} plays/s")

    if all_threads() > 1:
        res["scaling"] = sc = bench_scaling(p, 250_000 if p.quick else 1_000_000)
        log(f"alternating 1 and {sc['threads']} threads, 4 players, r = 15, {sc['n_rounds']:,} rounds a call: "
            f"{sc['one_thread']['plays_per_s']:,.0f} vs {sc['all_threads']['plays_per_s']:,.0f} plays/s (medians), "
            f"best {sc['one_thread']['best_plays_per_s']:,.0f} vs {sc['all_threads']['best_plays_per_s']:,.0f}; "
            f"median pair ratio {sc['median_pair_ratio']:.2f}, best/best {sc['best_over_best']:.2f}")

    kernel_rows = {t: next(x for x in res["rounds"] if x["players"] == 4 and x["r"] == 15 and x["threads"] == t)
                   for t in thread_counts}
    res["twin"] = bench_twin(p, kernel_rows)
    if res["twin"]["available"]:
        tw = res["twin"]
        log(f"plain-Python twin, 4 players, r = 15: {tw['twin']['plays_per_s']:,.0f} plays/s; speed-up "
            + ", ".join(f"{tw[f'speedup_{t}_threads']:,.0f}x on {t} thread(s)" for t in thread_counts))
    else:
        log("plain-Python twin: n/a (wizsim.sim.reference not found)")

    if compile_time:
        res["compile"] = bench_compile()
        c = res["compile"]
        log(f"cold start (empty Numba cache): {c['cold']['process_s']:.1f} s; second process (cache loads): "
            f"{c['cached']['process_s']:.1f} s")

    one = kernel_rows[1]["plays_per_s"]
    res["headline"] = {"random_4p_r15_plays_per_s_1_thread": one,
                       "random_4p_r15_plays_per_cpu_s_1_thread": kernel_rows[1]["plays_per_cpu_s"]}
    if all_threads() > 1:
        many = kernel_rows[all_threads()]["plays_per_s"]
        res["headline"][f"random_4p_r15_plays_per_s_{all_threads()}_threads"] = many
        res["headline"]["parallel_scaling"] = many / one
        sc = res["scaling"]
        res["headline"]["alternating_plays_per_s_1_thread"] = sc["one_thread"]["plays_per_s"]
        res["headline"][f"alternating_plays_per_s_{all_threads()}_threads"] = sc["all_threads"]["plays_per_s"]
        res["headline"]["alternating_median_pair_ratio"] = sc["median_pair_ratio"]
        res["headline"]["alternating_best_over_best"] = sc["best_over_best"]
    log("headline: " + ", ".join(f"{k} = {v:,.2f}" for k, v in res["headline"].items()))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a short pass (about a minute)")
    ap.add_argument("--json", action="store_true", help="print one JSON object of figures on stdout")
    ap.add_argument("--out", type=Path, default=None, help="where to save the JSON (default: results/run[-quick].json)")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold-compile measurement of the full pass")
    args = ap.parse_args(argv)

    log = (lambda s: print(s, file=sys.stderr, flush=True)) if args.json else (lambda s: print(s, flush=True))
    res = run(args.quick, compile_time=not (args.quick or args.no_compile), log=log)
    out = args.out or RESULTS / ("run-quick.json" if args.quick else "run.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    log(f"saved {out}")
    if args.json:
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
