"""Search with net's play-outs against today's search at equal time per decision (issue 35, item 4).

    nice -n 10 python benchmarks/search_rollout.py --minutes 25     # calibrate, then as many games as fit
    python benchmarks/search_rollout.py --games 40                   # quick look
    nice -n 10 python benchmarks/search_rollout.py --rollout self --minutes 25  # net in the searcher's seat only

``search:rollout=net`` plays every play-out (the searcher's own later cards and every other seat's, and the
bids after the searcher's) by the learned policy ``net`` instead of the heuristic. A net card play costs
tens of heuristic ones, so at equal time it sees fewer worlds. First each side's seconds per decision
are measured (whole 4-player games, the search seat beside three heuristic seats, a warm-up first so
that compile time stays out; median of ``--repeats``), for today's ``search:worlds=8`` and for the net
side at a few ``worlds`` and ``doublings``; the net side is then the one whose time per decision is
nearest the heuristic side's. Then tournaments (``wizsim.tournament.run_tournament``: whole games, the deal's
rotations seat every policy in every seat on the same cards, a paired 95% interval over deals) of
``NET,TODAY,NET,TODAY`` in blocks of ``--block`` deals (each block its own deals, seed ``seed * 1000 +
block``) while the time lasts (or until ``--games``): each block's paired interval is turned back into
its sums over deals and pooled, the interval one tournament over every deal would give, and the result
file is rewritten after each block, so a run stopped early keeps what it played.

``--rollout self`` (``search:rollout=self``): net plays only the searcher's own later cards in the play-outs,
the heuristic every other seat's: about three times today's cost at the same worlds, so the net side sees
about a third of the worlds.

Prints both times, the games, and the mean difference (net-play-out side minus today's) with its
paired 95% interval; writes benchmarks/results/search-rollout.json (``--rollout self``:
search-rollout-self.json).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

TODAY = "search:worlds=8"
PLAYERS = 4


ROLLOUT = "net"  # --rollout
CANDIDATES = {"net": ["worlds=1", "worlds=2:doublings=0", "worlds=2:doublings=1", "worlds=2", "worlds=3:doublings=1"],
              "self": ["worlds=2", "worlds=3:doublings=1", "worlds=3", "worlds=4:doublings=1"]}


def net_side(how: str) -> str:
    from wizsim.policies import check_policy

    return check_policy(f"search:rollout={ROLLOUT}:{how}")  # canonical: as the tournament names it


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
    ap.add_argument("--rollout", choices=tuple(CANDIDATES), default="net",
                    help="the net side's play-outs: net in every seat (default), or self (net in the searcher's seat)")
    ap.add_argument("--net", nargs="+", default=None,
                    help="the net side's worlds (and doublings) to time: the nearest to today's time plays "
                         "(default: a few near equal time for --rollout)")
    ap.add_argument("--block", type=int, default=10, help="deals per tournament block (default 10)")
    ap.add_argument("--calibration-games", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--out", type=Path, default=None, help="default benchmarks/results/search-rollout.json "
                                                           "(--rollout self: search-rollout-self.json)")
    args = ap.parse_args()
    global ROLLOUT
    ROLLOUT = args.rollout
    args.net = args.net or CANDIDATES[ROLLOUT]
    args.out = args.out or Path(__file__).parent / "results" / (
        "search-rollout.json" if ROLLOUT == "net" else f"search-rollout-{ROLLOUT}.json")
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
    deadline = start + args.minutes * 60
    per_deal = 2 * PLAYERS // 2 * 135 * (net_times[how] + today)  # 2 rotations, 2 seats each, 135 decisions a seat
    print(f"playing blocks of {args.block} deals ({2 * args.block} games) of {policies}, about {per_deal:.1f} s "
          f"of one thread a deal, until {'the games are played' if args.games else 'the time is up'}", flush=True)
    blocks = []
    played = time.perf_counter()
    while True:
        if args.games is not None and 2 * args.block * len(blocks) >= args.games:
            break
        if args.games is None and time.perf_counter() + (time.perf_counter() - played) / max(1, len(blocks)) > deadline:
            break
        res = run_tournament(PLAYERS, policies, 2 * args.block, seed=args.seed * 1000 + len(blocks))
        blocks.append(block_totals(res, net))
        summary = pooled(blocks)
        print(f"  {summary['games']} games: {summary['difference']:+.1f} [{summary['difference_low']:+.1f}, "
              f"{summary['difference_high']:+.1f}]", flush=True)
        write(args.out, how, net, today, net_times, policies, summary, time.perf_counter() - played)
    summary = pooled(blocks)
    print(f"{summary['games']} games ({summary['deals']} deals x 2 rotations) in {time.perf_counter() - played:.0f} s")
    print(f"{net} minus {TODAY}: {summary['difference']:+.1f} points per game, 95% paired interval "
          f"[{summary['difference_low']:+.1f}, {summary['difference_high']:+.1f}]")
    print(f"mean scores: {net} {summary['mean_score'][net]:.1f}, {TODAY} {summary['mean_score'][TODAY]:.1f}; "
          f"exact bids {summary['bid_accuracy'][net]:.3f} / {summary['bid_accuracy'][TODAY]:.3f}")
    print(f"wrote {args.out}")


def block_totals(res, net: str) -> dict:
    """One tournament's paired difference (net side minus today's) as sums over its deals, recovered from
    its mean and 95% interval (``wizsim.tournament``: the sample variance over deals), so that blocks of
    other deals pool into the interval one tournament over all of them would give."""
    from wizsim.stats import Z95

    d = res.differences.iloc[0]
    sign = 1.0 if d["a"] == net else -1.0
    n = int(res.n_deals)
    mean = sign * float(d["mean"])
    var = ((float(d["high"]) - float(d["low"])) / (2 * Z95)) ** 2 * n
    rows = {row.name: row for row in res.summary.itertuples()}
    return {"n": n, "sum": n * mean, "squares": var * (n - 1) + n * mean * mean,
            "score": {k: float(r.mean_score) * n for k, r in rows.items()},
            "exact": {k: float(r.bid_accuracy) * n for k, r in rows.items()}}


def pooled(blocks: list[dict]) -> dict:
    from wizsim.stats import Z95

    n = sum(b["n"] for b in blocks)
    total = sum(b["sum"] for b in blocks)
    squares = sum(b["squares"] for b in blocks)
    mean = total / n
    half = Z95 * math.sqrt(max(0.0, (squares - n * mean * mean) / (n - 1)) / n) if n > 1 else float("nan")
    names = blocks[0]["score"]
    return {"deals": n, "games": 2 * n, "blocks": len(blocks), "difference": mean, "difference_low": mean - half,
            "difference_high": mean + half,
            "mean_score": {k: sum(b["score"][k] for b in blocks) / n for k in names},
            "bid_accuracy": {k: sum(b["exact"][k] for b in blocks) / n for k in names}}


def write(path: Path, how: str, net: str, today: float, net_times: dict, policies: list, summary: dict,
          seconds: float) -> None:
    import numba

    out = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "players": PLAYERS,
        "today": TODAY,
        "net": net,
        "seconds_per_decision": {TODAY: today, **{net_side(w): t for w, t in net_times.items()}},
        "time_ratio": net_times[how] / today,
        "policies": ",".join(policies),
        "seconds": seconds,
        **summary,
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "load": os.getloadavg()[0],
                    "threads": numba.get_num_threads()},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
