"""Engine speed: random rounds and whole games per second, serial and parallel, against the twin.

    python benchmarks/run.py            # the full pass (a few minutes), saved to results/run.json
    python benchmarks/run.py --quick    # a short pass, saved to results/run-quick.json
    python benchmarks/run.py --json     # the same figures as one JSON object on stdout
    python benchmarks/run.py --against 933eb41   # this checkout against another revision, as ratios
    python benchmarks/run.py --against c140dfa --clock cpu --runs 9 --figures search  # one figure, more runs

Figures (issue 2, deliverable 9):
- rounds/s and card plays/s (a card play = one card put on a trick) of the random policy for 3..6
  players at r = 1, the middle round and the last round, on 1 thread and on all Numba threads;
- every policy of ``wizsim.policies.policy_names()`` at 4 players, r = 15, and in whole games;
- whole games/s for every player count;
- a sweep of batch sizes (rounds per call) at 4 players, r = 15;
- 1 thread and all threads in alternation on one batch (the fairest scaling figure on a shared machine);
- the speed-up over the plain-Python round twin (``wizsim.sim.reference``) on the same rounds;
- (full pass) the cold compile time of a fresh process and the start of a second one (cache load).

``--against REV`` compares this checkout (its working tree, as it is) with revision REV, built in a
temporary git worktree (``git worktree add --detach``, removed afterwards). Each side runs in its own
processes with its own ``PYTHONPATH`` and a fresh ``NUMBA_CACHE_DIR``, on this Python and its installed
packages: no venv is made, which is sound while REV's dependencies are this checkout's (the run says
when REV's ``pyproject.toml`` lists other ones). Every figure is the ``card_plays_per_second`` of
``wizsim simulate ... --threads 1 --json`` (4 players: random and heuristic at r = 15 and r = 5, whole
games, the search policy at r = 5 on a few rounds; a figure REV's CLI refuses is skipped): both sides
are warmed up first (compile, then cache), then timed in alternation, REV then HEAD, ``--runs`` times
each; the table gives each side's median and the ratio HEAD / REV (above 1: this checkout is faster),
the median of the ratios of the pairs of runs (robust to a change of the machine's load during the
run) and the ratio of the medians, and the JSON (``results/against-REV.json``) every run, the paired ratios and each process's wall time.
``--clock cpu`` times the same simulation by the process's CPU time instead of wall time (one thread:
on a shared machine, less disturbed by the other processes), saved to ``against-REV-cpu.json``.

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


ROOT = Path(__file__).resolve().parents[1]
# The figures of --against: (name, arguments of ``wizsim simulate`` after --players 4 --threads 1 --json).
AGAINST_FIGURES = (
    ("random r=15", ("--round", "15", "--rounds", "1000000", "--policy", "random")),
    ("random r=5", ("--round", "5", "--rounds", "1000000", "--policy", "random")),
    ("heuristic r=15", ("--round", "15", "--rounds", "200000", "--policy", "heuristic")),
    ("heuristic r=5", ("--round", "5", "--rounds", "300000", "--policy", "heuristic")),
    ("random games", ("--games", "100000", "--policy", "random")),
    ("heuristic games", ("--games", "20000", "--policy", "heuristic")),
    # 60 rounds (about 6 s a run): at 12 (about a second) the paired ratios of one checkout against itself
    # spread 0.73-1.47 on this shared machine.
    ("search r=5", ("--round", "5", "--rounds", "60", "--policy", "search")),
)
# Runs ``wizsim simulate`` from the checkout on PYTHONPATH, after checking that it is that one. With
# the CPU clock, the summary's timer (``time.perf_counter`` in both old and new wizsim) reads the
# process's CPU time instead.
_CLI = ("import os, sys, time\n"
        "if sys.argv[1] == 'cpu':\n"
        "    time.perf_counter = time.process_time\n"
        "del sys.argv[1]\n"
        "import wizsim\n"
        "root = os.path.realpath(os.environ['PYTHONPATH'])\n"
        "if not os.path.realpath(wizsim.__file__).startswith(root + os.sep):\n"
        "    sys.exit(f'wizsim imported from {wizsim.__file__}, not from {root}')\n"
        "from wizsim.cli import main\n"
        "main()\n")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def _dependencies(pyproject: str) -> str:
    """The ``dependencies = [...]`` block of a pyproject.toml text ('' when there is none)."""
    start = pyproject.find("dependencies = [")
    return pyproject[start:pyproject.find("]", start) + 1] if start >= 0 else ""


class Side:
    """One checkout to time: its folder on PYTHONPATH and a Numba cache of its own."""

    def __init__(self, name: str, root: Path, cache: Path):
        self.name, self.root = name, root
        package_root = root / "src" if (root / "src" / "wizsim").is_dir() else root  # src layout since 0.2.0
        self.env = {**os.environ, "PYTHONPATH": str(package_root), "NUMBA_CACHE_DIR": str(cache),
                    "WIZSIM_NUMBA_CACHE": "1"}

    def simulate(self, args, clock: str = "wall") -> tuple[float | None, float, str]:
        """(card plays per second, process wall seconds, error text) of one ``simulate`` run."""
        cmd = [sys.executable, "-c", _CLI, clock, "simulate", "--players", "4", "--threads", "1", "--json", *args]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, cwd=self.root, env=self.env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if res.returncode != 0:
            return None, wall, (res.stderr.strip().splitlines() or [f"exit {res.returncode}"])[-1]
        return float(json.loads(res.stdout)["card_plays_per_second"]), wall, ""


def against(rev: str, runs: int, log, clock: str = "wall", only: tuple[str, ...] = ()) -> dict:
    """This checkout against ``rev``, figure by figure (see the module docstring); ``only``: the figures
    whose names contain one of these words (all when empty)."""
    commit = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    head = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    res = {"rev": rev, "rev_commit": commit, "head_commit": head, "head_dirty": dirty, "runs": runs, "clock": clock,
           "machine": machine(), "figures": [], "skipped": []}
    if _dependencies(_git("show", f"{commit}:pyproject.toml")) != _dependencies((ROOT / "pyproject.toml").read_text()):
        res["dependencies_differ"] = True
        log(f"note: {rev}'s pyproject.toml lists other dependencies; both sides run on this environment's packages")
    with tempfile.TemporaryDirectory(prefix="wizsim-against-") as tmp:
        tree = Path(tmp) / "rev"
        _git("worktree", "add", "--detach", str(tree), commit)
        try:
            sides = (Side(rev, tree, Path(tmp) / "cache-rev"), Side("HEAD", ROOT, Path(tmp) / "cache-head"))
            log(f"{rev} ({commit[:12]}) against HEAD ({head[:12]}{', uncommitted changes' if dirty else ''}), "
                f"{runs} interleaved runs a figure, {clock} clock, load {res['machine']['load_average_at_start']}")
            for name, args in AGAINST_FIGURES:
                if only and not any(o in name for o in only):
                    continue
                row = _against_figure(name, args, sides, runs, log, clock)
                (res["figures"] if "ratio" in row else res["skipped"]).append(row)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
            subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True)
    log("")
    log(f"{'figure':<16} {rev + ' (plays/s)':>22} {'HEAD (plays/s)':>16} {'ratio':>6} {'of medians':>10} "
        f"{'process s':>13}")
    for f in res["figures"]:
        log(f"{f['figure']:<16} {f['rev']['median']:>22,.0f} {f['head']['median']:>16,.0f} "
            f"{f['paired_ratio_median']:>6.2f} {f['ratio']:>10.2f} "
            f"{f['rev']['median_wall_s']:>6.2f}/{f['head']['median_wall_s']:<6.2f}")
    for f in res["skipped"]:
        log(f"{f['figure']:<16} skipped: {f['reason']}")
    log("ratio = HEAD / REV, the median over the pairs of runs (each HEAD run against the REV run just "
        "before it: a drift in the machine's load falls on both); of medians = HEAD median / REV median; "
        "above 1: HEAD is faster. process s = each side's median wall seconds a run (start-up included)")
    return res


def _against_figure(name, args, sides, runs, log, clock) -> dict:
    for side in sides:  # warm-up: compile, and check that the side has this figure
        rate, _, err = side.simulate(args)
        if rate is None:
            if side.name == "HEAD":
                raise RuntimeError(f"{name}: this checkout failed: {err}")
            log(f"{name}: skipped, {side.name} cannot run it ({err})")
            return {"figure": name, "args": list(args), "reason": f"{side.name}: {err}"}
        side.simulate(args)  # a second run loads the cache the first one wrote
    got = {side.name: ([], []) for side in sides}
    for _ in range(runs):
        for side in sides:
            rate, wall, err = side.simulate(args, clock)
            if rate is None:
                raise RuntimeError(f"{name}: {side.name} failed: {err}")
            got[side.name][0].append(rate)
            got[side.name][1].append(wall)
    rev, head = (got[side.name] for side in sides)
    row = {"figure": name, "args": list(args)}
    for key, (rates_, walls) in (("rev", rev), ("head", head)):
        row[key] = {"plays_per_s": rates_, "median": statistics.median(rates_), "wall_s": walls,
                    "median_wall_s": statistics.median(walls)}
    row["ratio"] = row["head"]["median"] / row["rev"]["median"]
    row["paired_ratio_median"] = statistics.median(h / r for h, r in zip(head[0], rev[0], strict=True))
    log(f"{name}: {row['rev']['median']:,.0f} vs {row['head']['median']:,.0f} plays/s, ratio "
        f"{row['paired_ratio_median']:.2f} (of medians {row['ratio']:.2f})")
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a short pass (about a minute)")
    ap.add_argument("--json", action="store_true", help="print one JSON object of figures on stdout")
    ap.add_argument("--out", type=Path, default=None, help="where to save the JSON (default: results/run[-quick].json)")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold-compile measurement of the full pass")
    ap.add_argument("--against", metavar="REV", help="compare this checkout with git revision REV (ratios)")
    ap.add_argument("--runs", type=int, default=5, help="with --against: interleaved runs a side and figure (>= 3)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="with --against: time the simulation by wall time (the CLI's own figure) or by the "
                         "process's CPU time (one thread: less disturbed on a shared machine)")
    ap.add_argument("--figures", default="",
                    help="with --against: only the figures whose names contain one of these comma-separated "
                         "words (e.g. 'search' or 'games,r=15')")
    args = ap.parse_args(argv)
    if args.runs < 3:
        ap.error("--runs must be at least 3")

    log = (lambda s: print(s, file=sys.stderr, flush=True)) if args.json else (lambda s: print(s, flush=True))
    if args.against:
        only = tuple(w.strip() for w in args.figures.split(",") if w.strip())
        res = against(args.against, args.runs, log, args.clock, only)
        name = "".join(c if c.isalnum() or c in "._-" else "_" for c in args.against)
        part = ("-" + "".join(c if c.isalnum() else "_" for c in "-".join(only))) if only else ""
        out = args.out or RESULTS / f"against-{name}{'-cpu' if args.clock == 'cpu' else ''}{part}.json"
    else:
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
