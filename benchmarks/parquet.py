"""Parquet dataset writing, end to end: 4 players, r = 15, random policy (issue 5's benchmark).

Prints rounds per second written to Parquet (``wizsim.dataset.run.write_dataset``, local engine,
default chunk size), the same rounds simulated without writing (chunk by chunk, results dropped),
their ratio, bytes per row on disk, and the peak memory of a long run in a child process (RSS sampled
every half second, so a flat profile shows memory does not grow with the run).

    python benchmarks/parquet.py            # 8M rounds x 3 repeats, 100M-round memory run
    python benchmarks/parquet.py --quick    # 2M rounds x 3, 10M-round memory run
    python benchmarks/parquet.py --json     # one JSON object (also saved in benchmarks/results/)

The machine is shared: figures are medians of interleaved repeats (write, no-write, write, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numba
import psutil

from wizsim.dataset.run import write_dataset
from wizsim.dataset.spec import ROUND_CHUNK
from wizsim.sim.driver import simulate_rounds

PLAYERS, R = 4, 15
RESULTS = Path(__file__).parent / "results"


def sim_only(n: int, seed: int) -> float:
    t0 = time.perf_counter()
    done = 0
    while done < n:
        m = min(ROUND_CHUNK, n - done)
        simulate_rounds(PLAYERS, R, m, "random", seed=seed, first_index=done)
        done += m
    return time.perf_counter() - t0


def write_once(n: int, seed: int, out: Path) -> tuple[float, int]:
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    rep = write_dataset(out, PLAYERS, r=R, rounds=n, policies="random", seed=seed)
    seconds = time.perf_counter() - t0
    size = sum(p.stat().st_size for p in out.rglob("*.parquet"))
    assert rep.chunks_written == rep.chunks
    shutil.rmtree(out, ignore_errors=True)
    return seconds, size


def memory_child(n: int, out: str) -> None:
    """Run in a child: write n rounds, sample RSS, print one JSON line."""
    proc = psutil.Process()
    samples = []
    stop = threading.Event()

    def sample():
        t0 = time.perf_counter()
        while not stop.is_set():
            samples.append((round(time.perf_counter() - t0, 1), proc.memory_info().rss))
            stop.wait(0.5)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    t0 = time.perf_counter()
    write_dataset(out, PLAYERS, r=R, rounds=n, policies="random", seed=1, overwrite=True)
    seconds = time.perf_counter() - t0
    stop.set()
    th.join()
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    size = sum(p.stat().st_size for p in Path(out).rglob("*.parquet"))
    rss = [s[1] for s in samples]
    q = len(rss) // 4
    print(json.dumps({"rounds": n, "seconds": seconds, "rounds_per_second": n / seconds, "peak_rss_bytes": peak,
                      "rss_quartiles_mb": [round(rss[min(i * q, len(rss) - 1)] / 2**20) for i in range(4)]
                      + [round(rss[-1] / 2**20)], "bytes": size, "bytes_per_row": size / (n * PLAYERS)}))


def memory_run(n: int, base: Path) -> dict:
    out = base / "memory"
    cmd = [sys.executable, __file__, "--_memory-child", str(n), str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    shutil.rmtree(out, ignore_errors=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rounds", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--memory-rounds", type=int, default=None, help="0 skips the memory run")
    ap.add_argument("--dir", default=None, help="where to write (default: a temporary folder)")
    ap.add_argument("--_memory-child", nargs=2, metavar=("N", "DIR"), dest="memory_child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.memory_child:
        memory_child(int(args.memory_child[0]), args.memory_child[1])
        return
    n = args.rounds or (2_000_000 if args.quick else 8_000_000)
    n_mem = args.memory_rounds if args.memory_rounds is not None else (10_000_000 if args.quick else 100_000_000)
    base = Path(args.dir or tempfile.mkdtemp(prefix="wizsim-bench-"))
    base.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    # warm-up: compile (or load) every kernel before any clock starts
    write_dataset(base / "warm", PLAYERS, r=R, rounds=5000, chunk_size=2000, overwrite=True)
    sim_only(5000, 0)
    write_s, sim_s, size = [], [], 0
    for i in range(args.repeats):
        w, size = write_once(n, 100 + i, base / "speed")
        write_s.append(w)
        sim_s.append(sim_only(n, 100 + i))
    w_med, s_med = statistics.median(write_s), statistics.median(sim_s)
    result = {
        "benchmark": "parquet", "players": PLAYERS, "round": R, "policy": "random", "rounds": n,
        "chunk_rounds": ROUND_CHUNK, "repeats": args.repeats,
        "written_rounds_per_second": n / w_med,
        "written_rounds_per_second_all": [n / x for x in write_s],
        "simulated_rounds_per_second_no_writing": n / s_med,
        "simulated_rounds_per_second_all": [n / x for x in sim_s],
        "ratio_written_to_no_writing": s_med / w_med,
        "bytes_per_row": size / (n * PLAYERS), "bytes_per_round": size / n,
    }
    if n_mem:
        result["memory"] = memory_run(n_mem, base)
    result["machine"] = {"platform": platform.platform(), "python": platform.python_version(),
                         "cpus": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
                         "load_before": load_before, "load_after": os.getloadavg(),
                         "memory_total_gb": round(psutil.virtual_memory().total / 2**30, 1)}
    if not args.dir:
        shutil.rmtree(base, ignore_errors=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / ("parquet-quick.json" if args.quick else "parquet.json")).write_text(json.dumps(result, indent=2))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{n:,} rounds (4 players, r=15, random) written to Parquet: {result['written_rounds_per_second']:,.0f} "
          f"rounds/s; without writing {result['simulated_rounds_per_second_no_writing']:,.0f} rounds/s; "
          f"ratio {result['ratio_written_to_no_writing']:.2f}")
    print(f"{result['bytes_per_row']:.2f} bytes per row ({result['bytes_per_round']:.1f} per round)")
    if n_mem:
        m = result["memory"]
        print(f"{m['rounds']:,} rounds: peak RSS {m['peak_rss_bytes'] / 2**20:,.0f} MB, RSS over the run "
              f"{m['rss_quartiles_mb']} MB, {m['rounds_per_second']:,.0f} rounds/s, {m['bytes'] / 1e9:.2f} GB")
    print(f"load average before/after: {load_before} / {result['machine']['load_after']}")


if __name__ == "__main__":
    main()
