"""Search speed (issue 11): worlds sampled per second, search decisions per second at r = 5, 10, 15, and
whole 4-player games per second with one search seat (goal: at least 1 game per second per thread).

    python benchmarks/search.py            # 3 timed repeats per case, median quoted
    python benchmarks/search.py --json

Decisions per second count every bid and every card the search seat chooses (forced single-card plays
included: they cost nothing and are what a game asks for). Per thread: the rates are divided by the
threads Numba ran on. Results go to benchmarks/results/search.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numba

from wizsim import simulate_games, simulate_rounds


def _median_time(fn, repeats: int) -> float:
    fn()  # warm: compile or load the cache
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def worlds_per_second(repeats: int) -> dict:
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "tests"))
    from play_brute import random_state

    from wizsim.advisor.kernels.world_batches import sample_worlds
    from wizsim.advisor.played import make_play_question

    out = {}
    for label, (players, r, n_played) in {"4p r=10, after 4 tricks (heard bids as evidence)": (4, 10, 17),
                                          "4p r=15, after 10 tricks": (4, 15, 41)}.items():
        state = make_play_question(**random_state(players, r, 3, n_played)).state()
        n = 20_000
        sec = _median_time(lambda state=state, n=n: sample_worlds(state, n, 1), repeats)
        tries = sample_worlds(state, n, 1)[2].sum()
        out[label] = {"worlds_per_second": n / sec, "tries_per_world": float(tries / n)}
    return out


def decisions_per_second(policy: str, repeats: int) -> dict:
    out = {}
    for r in (5, 10, 15):
        n = {5: 200, 10: 60, 15: 40}[r]
        sec = _median_time(lambda r=r, n=n: simulate_rounds(4, r, n, [policy, "heuristic", "heuristic", "heuristic"],
                                                            seed=1), repeats)
        out[f"r={r}"] = {"decisions_per_second": n * (r + 1) / sec, "rounds": n, "seconds": sec}
    return out


def games_per_second(policy: str, repeats: int) -> dict:
    n = 8
    sec = _median_time(lambda: simulate_games(4, n, [policy, "heuristic", "heuristic", "heuristic"], seed=1), repeats)
    threads = numba.get_num_threads()
    return {"games_per_second": n / sec, "games_per_second_per_thread": n / sec / min(threads, n), "threads": threads}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="search")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = {"policy": args.policy, "load_average_at_start": os.getloadavg(), "cores": os.cpu_count(),
           "worlds": worlds_per_second(args.repeats), "decisions": decisions_per_second(args.policy, args.repeats),
           "games": games_per_second(args.policy, args.repeats)}
    Path(__file__).with_name("results").joinpath("search.json").write_text(json.dumps(res, indent=1) + "\n")
    if args.json:
        print(json.dumps(res, indent=1))
        return
    for k, v in res["worlds"].items():
        print(f"worlds, {k}: {v['worlds_per_second']:,.0f}/s ({v['tries_per_world']:.1f} tries each)")
    for k, v in res["decisions"].items():
        print(f"search decisions, 4 players {k}: {v['decisions_per_second']:,.0f}/s")
    g = res["games"]
    print(f"4-player games with one search seat: {g['games_per_second']:.2f}/s on {g['threads']} threads "
          f"({g['games_per_second_per_thread']:.2f}/s per thread)")


if __name__ == "__main__":
    main()
