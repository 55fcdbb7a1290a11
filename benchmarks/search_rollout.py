"""Search with net's play-outs against today's search at equal time per decision (issue 35, item 4).

    nice -n 10 python benchmarks/search_rollout.py --minutes 25     # calibrate, then as many games as fit
    python benchmarks/search_rollout.py --games 40                   # quick look

``search:rollout=net`` plays every play-out (the searcher's own later cards and every other seat's, and the
bids after the searcher's) by the learned policy ``net`` instead of the heuristic. A net card play costs
tens of heuristic ones, so at equal time it sees fewer worlds. First each side's seconds per decision
are measured (whole 4-player games, the search seat beside three heuristic seats, a warm-up first so
that compile time stays out; median of ``--repeats``), for today's ``search:worlds=8`` and for the net
side at a few ``worlds`` and ``doublings``; the net side is then the one whose time per decision is
nearest the heuristic side's. Then a tournament (``wizsim.tournament.run_tournament``: whole games, the deal's
rotations seat every policy in every seat on the same cards, a paired 95% interval over deals) of
``NET,TODAY,NET,TODAY`` for as many games as the time left allows (or ``--games``).

Prints both times, the games, and the mean difference (net-play-out side minus today's) with its
paired 95% interval; writes benchmarks/results/search-rollout.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

TODAY = "search:worlds=8"
PLAYERS = 4


def net_side(how: str) -> str:
    from wizsim.policies import check_policy

    return check_policy(f"search:rollout=net:{how}")  # canonical: as the tournament names it


def seconds_per_decision(policy: str, games: int, repeats: int, seed: int) -> float:
    """Median seconds per decision of ``policy`` in one seat of whole games beside three heuristic seats
    (the heuristic seats' time is in it: about a thousandth of a search decision's)."""
    from wizsim import simulate_games
    from wizsim.config import n_game_rounds

    rounds = n_game_rounds(PLAYERS)
    decisions = games * (rounds + rounds * (rounds + 1) // 2)  # a bid and r cards in round r
    names = [policy] + ["heuristic"] * (PLAYERS - 1)
    simulate_games(PLAYERS, 1, names, seed=seed)  # compile, or load the cache
    times = []
    for k in range(repeats):
        started = time.perf_counter()
        simulate_games(PLAYERS, games, names, seed=seed + 1 + k)
        times.append(time.perf_counter() - started)
    return statistics.median(times) / decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=25.0, help="wall time for the whole run (default 25)")
    ap.add_argument("--games", type=int, default=None, help="play this many games instead of filling the time")
    ap.add_argument("--net", nargs="+", default=["worlds=1", "worlds=2:doublings=0", "worlds=2:doublings=1",
                                                 "worlds=2", "worlds=3:doublings=1"],
                    help="the net side's worlds (and doublings) to time: the nearest to today's time plays")
    ap.add_argument("--calibration-games", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "search-rollout.json")
    args = ap.parse_args()
    start = time.perf_counter()

    from wizsim.tournament import run_tournament

    today = seconds_per_decision(TODAY, args.calibration_games, args.repeats, args.seed)
    print(f"{TODAY}: {today * 1e3:.2f} ms per decision", flush=True)
    net_times = {}
    for w in args.net:
        net_times[w] = seconds_per_decision(net_side(w), args.calibration_games, args.repeats, args.seed)
        print(f"{net_side(w)}: {net_times[w] * 1e3:.2f} ms per decision", flush=True)
    how = min(net_times, key=lambda w: abs(net_times[w] / today - 1))
    net = net_side(how)
    print(f"equal time: {net} ({net_times[how] / today:.2f} x today's time per decision)", flush=True)

    policies = [net, TODAY, net, TODAY]
    per_game = PLAYERS // 2 * 135 * (net_times[how] + today)  # two seats each, 135 decisions a seat
    threads = None
    if args.games is None:
        # the calibration ran on one thread; the tournament runs on the Numba threads there are
        left = args.minutes * 60 - (time.perf_counter() - start)
        import numba

        threads = numba.get_num_threads()
        games = max(2, int(left * 0.85 / per_game * threads))
    else:
        games = args.games
    print(f"playing about {games} games ({policies})", flush=True)
    played = time.perf_counter()
    res = run_tournament(PLAYERS, policies, games, seed=args.seed)
    seconds = time.perf_counter() - played
    d = res.differences.iloc[0]
    sign = 1.0 if d["a"] == net else -1.0
    mean, low, high = sign * d["mean"], *sorted((sign * d["low"], sign * d["high"]))
    games_played = int(res.n_games)
    print(f"{games_played} games ({res.n_deals} deals x {res.rotations} rotations) in {seconds:.0f} s")
    print(f"{net} minus {TODAY}: {mean:+.1f} points per game, 95% paired interval [{low:+.1f}, {high:+.1f}]")
    for row in res.summary.itertuples():
        print(f"  {row.name}: mean score {row.mean_score:.1f}, bid accuracy {row.bid_accuracy:.3f}")

    out = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "players": PLAYERS,
        "today": TODAY,
        "net": net,
        "seconds_per_decision": {TODAY: today, **{net_side(w): t for w, t in net_times.items()}},
        "time_ratio": net_times[how] / today,
        "policies": ",".join(policies),
        "deals": int(res.n_deals),
        "games": games_played,
        "seconds": seconds,
        "difference": mean,
        "difference_low": low,
        "difference_high": high,
        "tournament": res.to_dict(),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "load": os.getloadavg()[0],
                    "threads": threads},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
