"""Issue 17's measure on the advisor as it was before the issue (commit 8c987d4: heard bids hard evidence).

    git worktree add /tmp/before 8c987d4
    PYTHONPATH=/tmp/before python experiments/before_issue_17.py search 3,6,10,15 300

The same questions as ``robustness.py`` (seed 2026, question i: deal i, the hero, the heuristic, in seat
i mod 4, the others one table's policies), bid advice at its defaults: refusals and observed - predicted
P(exact) at the advised bid (the true deal replayed with the hero bidding it) and at the hero's own bid
(the true table). It stands alone because ``robustness.py`` needs modules that tree does not have; run
against today's tree it gives today's figures for the same two columns. Prints only."""

from __future__ import annotations

import sys
import time

import numpy as np

from wizsim import advise
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, format_card, format_cards, mask_to_cards
from wizsim.sim.driver import simulate_rounds
from wizsim.sim.round import BID_FORCED, BID_FREE

PLAYERS, SEED = 4, 2026
TABLES = {"control": ["heuristic"] * 3, "random": ["random"] * 3, "shift+0.5": ["heuristic:bid_shift=0.5"] * 3,
          "search": ["search:worlds=8"] * 3}


def trump_args(turn_up: int, trump: int) -> dict:
    if turn_up < 0:
        return {"trump": "none"}
    if FIRST_WIZARD <= turn_up < FIRST_JESTER:
        return {"trump": "SHDC"[trump], "trump_card": "W"}
    return {"trump": None, "trump_card": format_card(turn_up)}


def mean_half(x: list[float]) -> str:
    return f"{np.mean(x):+.3f} ±{1.96 * np.std(x, ddof=1) / np.sqrt(len(x)):.3f}"


def main() -> None:
    table, rounds, n = sys.argv[1], [int(x) for x in sys.argv[2].split(",")], int(sys.argv[3])
    opponents = TABLES[table]
    all_adv, all_own = [], []
    for r in rounds:
        adv, own, refused, started = [], [], 0, time.time()
        for i in range(n):
            hero = i % PLAYERS
            names = list(opponents)
            names.insert(hero, "heuristic")
            truth = simulate_rounds(PLAYERS, r, 1, names, seed=SEED, first_index=i)
            hand = format_cards(mask_to_cards(int(truth.hands[0, hero])))
            try:
                a = advise(hand, seat=hero + 1, players=PLAYERS, bids=[int(b) for b in truth.bids[0, :hero]], seed=i,
                           **trump_args(int(truth.turn_up[0]), int(truth.trump[0])))
            except ValueError:
                refused += 1
                continue
            b = a.best_bid
            mode = np.full(PLAYERS, BID_FREE, np.int8)
            mode[hero] = BID_FORCED
            fixed = np.zeros(PLAYERS, np.int8)
            fixed[hero] = b
            replay = simulate_rounds(PLAYERS, r, 1, names, seed=SEED, first_index=i, bid_mode=mode, fixed_bids=fixed)
            adv.append(float(replay.tricks[0, hero] == b) - float(a.p_exact[b]))
            o = int(truth.bids[0, hero])
            own.append(float(truth.tricks[0, hero] == o) - float(a.p_exact[o]))
        print(f"{table:10s} r={r:2d} n={n} refused {refused / n:.1%}  advised {mean_half(adv)}  own {mean_half(own)}  "
              f"{time.time() - started:.0f}s", flush=True)
        all_adv += adv
        all_own += own
    print(f"{table} pooled advised {np.mean(all_adv):+.3f} own {np.mean(all_own):+.3f}")


if __name__ == "__main__":
    main()
