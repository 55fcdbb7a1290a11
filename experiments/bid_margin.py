"""Would advising the heuristic's own bid, unless another is clearly better, hold at the search table?

    python experiments/bid_margin.py --record 400 --out /tmp/margin   # the questions (about 10 min, 2 cores)
    python experiments/bid_margin.py --analyze /tmp/margin             # the rules, from the records

The questions are robustness.py's (4 players, seed 2026, the hero the heuristic, the advisor at its
defaults), at the heuristic table and at ``search:worlds=8``, r = 15, 10, 6, 3. Each record keeps the
advisor's expected score of every bid, the paired difference of each bid against the hero's own bid
(on the advisor's deals), and the true deal replayed with the hero bidding each bid from the advised
to its own (the others as before, the same random streams). A rule then picks, per question, a bid
between the advised and the own one: the one nearest the own bid within ``m`` points of the best, or the
own bid unless the advised one is better by ``m + z`` paired standard errors. Printed per rule and
table: observed - predicted P(exact) at the chosen bid and its value over the own bid, pooled and per r.
Results: experiments/results/bid-margin.txt.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import robustness as R  # noqa: E402

from wizsim import advise  # noqa: E402
from wizsim.advisor.sampling import weighted_mean_se  # noqa: E402
from wizsim.cards import format_cards, mask_to_cards  # noqa: E402
from wizsim.sim.driver import simulate_rounds  # noqa: E402
from wizsim.sim.round import BID_FORCED, BID_FREE  # noqa: E402

TABLES = {"control": "heuristic (control)", "search": "search:worlds=8"}


def record(table: str, rounds: list[int], n: int) -> list[dict]:
    opponents = R.TABLES[table]
    recs = []
    for r in rounds:
        for i in range(n):
            hero = i % R.PLAYERS
            names = R.seat_names(opponents, hero)
            truth = simulate_rounds(R.PLAYERS, r, 1, names, seed=R.SEED, first_index=i)
            hand = format_cards(mask_to_cards(int(truth.hands[0, hero])))
            a = advise(hand, seat=hero + 1, players=R.PLAYERS, bids=[int(b) for b in truth.bids[0, :hero]], seed=i,
                       **R.trump_args(int(truth.turn_up[0]), int(truth.trump[0])))
            own, b = int(truth.bids[0, hero]), int(a.best_bid)
            diff_m = diff_se = None
            if a.deal_scores is not None and a.deal_scores.shape[0] > 1:
                d = a.deal_scores.astype(np.float64) - a.deal_scores[:, [own]].astype(np.float64)
                m, se = weighted_mean_se(d, a.deal_weights)
                diff_m, diff_se = [float(x) for x in m], [float(x) for x in se]
            outcomes = {}
            lo, hi = min(b, own), max(b, own)
            for c in range(max(0, lo - 1), min(r, hi + 1) + 1):
                if not a.allowed[c]:
                    continue
                if c == own:
                    outcomes[str(c)] = (bool(truth.tricks[0, hero] == own), float(truth.scores[0, hero]))
                    continue
                mode = np.full(R.PLAYERS, BID_FREE, np.int8)
                mode[hero] = BID_FORCED
                fixed = np.zeros(R.PLAYERS, np.int8)
                fixed[hero] = c
                rep = simulate_rounds(R.PLAYERS, r, 1, names, seed=R.SEED, first_index=i, bid_mode=mode,
                                      fixed_bids=fixed)
                outcomes[str(c)] = (bool(rep.tricks[0, hero] == c), float(rep.scores[0, hero]))
            recs.append({"r": r, "i": i, "advised": b, "own": own, "ev": [float(x) for x in a.ev],
                         "p_exact": [float(x) for x in a.p_exact], "allowed": [bool(x) for x in a.allowed],
                         "diff_m": diff_m, "diff_se": diff_se, "outcomes": outcomes})
        print(table, r, flush=True)
    return recs


def choose(q: dict, m: float, z: float | None) -> int:
    b, own = q["advised"], q["own"]
    if b == own:
        return b
    if z is not None and q["diff_se"] is not None:
        return own if q["diff_m"][b] <= m + z * q["diff_se"][b] else b
    lo, hi = sorted((b, own))
    ev = q["ev"]
    near = [c for c in range(lo, hi + 1) if q["allowed"][c] and ev[c] >= ev[b] - m and str(c) in q["outcomes"]]
    return min(near, key=lambda c: abs(c - own))


def rule_figures(recs: list[dict], m: float, z: float | None, r: int | None = None) -> tuple[float, float, float, float]:
    cal, val = [], []
    for q in recs:
        if r is not None and q["r"] != r:
            continue
        c = choose(q, m, z)
        made, score = q["outcomes"][str(c)]
        cal.append(made - q["p_exact"][c])
        val.append(score - q["outcomes"][str(q["own"])][1])
    cal, val = np.array(cal), np.array(val)
    half = lambda x: R.Z95 * x.std(ddof=1) / np.sqrt(len(x))  # noqa: E731
    return float(cal.mean()), float(half(cal)), float(val.mean()), float(half(val))


def analyze(folder: Path) -> None:
    data = {k: json.loads((folder / f"{k}.json").read_text()) for k in TABLES}
    rules = ([("the advised bid", 0.0, None)] + [(f"m = {m}", m, None) for m in (1, 2, 3, 5, 8)]
             + [(f"z = {z}", 0.0, z) for z in (0.5, 1, 1.96)] + [("always the own bid", 1e9, None)])
    print("rule                  table      obs - pred P(exact)     value over own bid      obs - pred at r = 3, 6, 10, 15")
    for label, m, z in rules:
        for name, recs in data.items():
            c, ch, v, vh = rule_figures(recs, m, z)
            per = " ".join(f"{rule_figures(recs, m, z, r)[0]:+.3f}" for r in (3, 6, 10, 15))
            print(f"{label:<20}  {name:<8}  {c:+.3f} [{c - ch:+.3f}, {c + ch:+.3f}]  {v:+.2f} [{v - vh:+.2f}, {v + vh:+.2f}]"
                  f"  {per}")


def is_our_record(path: Path) -> bool:
    """Whether ``path`` holds records this script wrote (it overwrites only those)."""
    try:
        recs = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(recs, list) and all(isinstance(q, dict) and {"r", "i", "advised", "own", "outcomes"} <= q.keys()
                                          for q in recs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", type=int, default=None, metavar="N", help="record N questions a round size")
    ap.add_argument("--table", choices=list(TABLES), default=None, help="with --record: one table (default both)")
    ap.add_argument("--out", default=None, help="with --record: the folder for control.json and search.json")
    ap.add_argument("--analyze", default=None, metavar="FOLDER", help="print the rules' figures from the records")
    args = ap.parse_args()
    if args.record:
        if not args.out:
            ap.error("--record needs --out FOLDER")
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for name in [args.table] if args.table else TABLES:
            path = out / f"{name}.json"
            if path.exists() and not is_our_record(path):
                ap.error(f"{path} exists and is not this script's record: not overwritten")
            path.write_text(json.dumps(record(TABLES[name], [15, 10, 6, 3], args.record)))
    if args.analyze:
        analyze(Path(args.analyze))
    if not (args.record or args.analyze):
        ap.error("give --record N --out FOLDER and/or --analyze FOLDER")


if __name__ == "__main__":
    main()
