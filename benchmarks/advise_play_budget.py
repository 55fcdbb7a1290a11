"""Play advice's wall-clock limit over the late rounds of real games: how long default-precision advice takes.

    python benchmarks/advise_play_budget.py                       # 4 players, rounds 10-15, 6 seeds
    python benchmarks/advise_play_budget.py --seeds 12 --rounds 13-15 --every 1
    python benchmarks/advise_play_budget.py --json                # also saved to results/advise-play-budget.json
    python benchmarks/advise_play_budget.py --policy net --json   # told net (results/advise-play-budget-net.json)

Each round is played by the heuristic in every seat (``simulate_rounds`` with the trick log, round ``r`` of
the run ``seed``); one seat a round (seat ``1 + (seed + r) % players``) is the hero, and at every ``--every``-th
of its card decisions ``wizsim.advise_play`` is asked, at default precision, for exactly what that seat knows
there (its cards, the trump and turned-up card, every bid, the cards played). A warm-up call first keeps
compiling out of the figures (the limit leaves compiling out too).

Printed: the calls, the median, 99th percentile and worst call time, how many ran past the documented stop
(0.75 s) and past it by half (1.125 s), per path (exact, Monte Carlo, cut by the clock, one legal card); and
the worst call as a ``advise_play(...)`` line that re-runs it. The machine may be shared: the load average
at the start and end is recorded, and ``--threads`` (Numba's) can be set.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from wizsim import advise_play
from wizsim.cards import format_card
from wizsim.sim.driver import simulate_rounds

RESULTS = Path(__file__).resolve().parent / "results"
DOCUMENTED_STOP = 0.75


def _rounds(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def questions(players: int, r: int, seed: int, every: int):
    """(the advise_play keyword arguments, the hero's number of legal cards) at the hero's decisions of round
    ``r`` of the run ``seed``, every ``every``-th one."""
    batch = simulate_rounds(players, r, 1, "heuristic", seed=seed, first_index=r - 1, trick_log=True)
    hero = (seed + r) % players
    cards = [int(c) for c in batch.log_cards[0]]
    leaders = [int(x) for x in batch.log_leader[0]]
    hand = {c for c in range(60) if int(batch.hands[0, hero]) >> c & 1}
    last = players * r == 60
    turn_up = int(batch.turn_up[0])
    base = dict(trump=int(batch.trump[0]), seat=hero + 1, players=players, bids=[int(b) for b in batch.bids[0]])
    if not last and turn_up >= 0:
        base["trump_card"] = format_card(turn_up)
    asked = 0
    for i, card in enumerate(cards):
        trick, pos = divmod(i, players)
        if (leaders[trick] + pos) % players != hero:
            continue
        if asked % every == 0:
            done = [format_card(c) for c in cards[:i]]
            played = "/".join(",".join(done[t * players:(t + 1) * players]) for t in range(-(-len(done) // players)))
            if len(done) % players == 0 and done:
                played += "/"
            yield dict(base, hand=",".join(format_card(c) for c in sorted(hand)), played=played,
                       seed=seed * 1000 + i)
        asked += 1
        hand.discard(card)


def call_line(kw: dict) -> str:
    return "advise_play(" + ", ".join(f"{k}={v!r}" for k, v in kw.items()) + ")"


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", default="10-15", help="the rounds of the game to play, e.g. 10-15")
    ap.add_argument("--seeds", type=int, default=6, help="runs 0..N-1 (each a game's rounds)")
    ap.add_argument("--every", type=int, default=1, help="ask at every K-th decision of the hero")
    ap.add_argument("--policy", default=None, help="the opponents' model told to the advisor (e.g. net; default: "
                    "its own)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON and save them to results/ "
                    "(advise-play-budget.json, or advise-play-budget-POLICY.json with --policy)")
    args = ap.parse_args(argv)
    told = {} if args.policy is None else {"policy": args.policy}
    load_start = os.getloadavg()
    advise_play(hand="3S,5S", trump=0, seat=1, players=4, bids=[1, 0, 0, 0], seed=1, **told)  # compile
    rows = []
    for seed in range(args.seeds):
        for r in _rounds(args.rounds):
            if args.players * r > 60:
                continue
            for kw in questions(args.players, r, seed, args.every):
                t0 = time.perf_counter()
                a = advise_play(**kw, **told)
                seconds = time.perf_counter() - t0
                path = "forced" if len(a.cards) == 1 else (
                    "cut" if a.timed_out else a.method)
                rows.append(dict(seconds=seconds, round=r, method=a.method, path=path, samples=int(a.samples),
                                 tried=int(a.tried), timed_out=bool(a.timed_out), cards=len(a.cards), call=kw))
            print(f"seed {seed} round {r}: {len(rows)} calls so far", file=sys.stderr, flush=True)
    times = np.array([row["seconds"] for row in rows])
    worst = rows[int(np.argmax(times))]
    paths = {}
    for name in sorted({row["path"] for row in rows}):
        t = np.array([row["seconds"] for row in rows if row["path"] == name])
        paths[name] = dict(calls=len(t), median=float(np.median(t)), p99=float(np.percentile(t, 99)),
                           worst=float(t.max()))
    out = dict(
        date=dt.datetime.now().isoformat(timespec="seconds"), machine=platform.machine(), python=sys.version.split()[0],
        cpus=os.cpu_count(), numba_threads=int(os.environ.get("NUMBA_NUM_THREADS", "0")) or None,
        load_start=load_start, load_end=os.getloadavg(), players=args.players, rounds=args.rounds, seeds=args.seeds,
        every=args.every, policy=args.policy, calls=len(rows), median=float(np.median(times)), p99=float(np.percentile(times, 99)),
        worst=float(times.max()), over_stop=int((times > DOCUMENTED_STOP).sum()),
        over_stop_and_half=int((times > 1.5 * DOCUMENTED_STOP).sum()), paths=paths,
        worst_call=dict(seconds=worst["seconds"], method=worst["method"], samples=worst["samples"],
                        timed_out=worst["timed_out"], line=call_line(worst["call"])),
        mean_samples={name: statistics.fmean(row["samples"] for row in rows if row["path"] == name) for name in paths},
    )
    print(f"{out['calls']} calls ({args.players} players, rounds {args.rounds}, {args.seeds} seeds): median "
          f"{out['median']:.3f} s, p99 {out['p99']:.3f} s, worst {out['worst']:.3f} s; past {DOCUMENTED_STOP} s: "
          f"{out['over_stop']}, past {1.5 * DOCUMENTED_STOP:.3f} s: {out['over_stop_and_half']}")
    for name, p in paths.items():
        print(f"  {name:12s} {p['calls']:5d} calls  median {p['median']:.3f} s  p99 {p['p99']:.3f} s  worst "
              f"{p['worst']:.3f} s  mean samples {out['mean_samples'][name]:.0f}")
    print(f"worst ({worst['method']}, {worst['samples']} samples, timed out: {worst['timed_out']}): "
          f"{out['worst_call']['line']}")
    print(f"load average at the start {load_start[0]:.1f}, at the end {out['load_end'][0]:.1f}")
    if args.json:
        RESULTS.mkdir(exist_ok=True)
        name = "advise-play-budget.json" if args.policy is None else f"advise-play-budget-{args.policy}.json"
        (RESULTS / name).write_text(json.dumps(out, indent=1) + "\n")
        print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
