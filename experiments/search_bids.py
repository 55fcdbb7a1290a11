"""How the search policy bids against the heuristic: on the same hands and the same heard bids.

    python experiments/search_bids.py                     # 4 players, r = 3, 6, 10, 15, 200 deals a size
    python experiments/search_bids.py --rounds 15 --deals 100 --policy search:worlds=32

A table of the search policy plays each deal; for every seat, the heuristic's bid is asked on the
same hand, trump and earlier bids as the search seat heard them, at ``bid_shift`` 0 and on a grid of
shifts. Printed per round size: the search bid minus the heuristic's on average, and the ``bid_shift``
whose heuristic comes nearest the search bids (least squares). This is what the advisor's model of a
search player's bids (the heuristic with that policy's ``bid_shift``) leaves out (docs/results.md, robustness).
"""

from __future__ import annotations

import argparse

import numpy as np

from wizsim.policies import make_slots
from wizsim.policies.heuristic import P_BID_SHIFT, heuristic_bid
from wizsim.sim.driver import simulate_rounds

SEED = 99


def compare(players: int, r: int, deals: int, policy: str) -> tuple[float, float, float]:
    """(mean search bid - heuristic bid at shift 0, the best-fitting shift, its mean squared error)."""
    res = simulate_rounds(players, r, deals, [policy] * players, seed=SEED)
    slots = make_slots(["heuristic"])
    shifts = np.round(np.arange(-2.0, 1.01, 0.1), 2)
    errors = np.zeros((len(shifts), deals * players))
    for k, shift in enumerate(shifts):
        params = slots.params[0].copy()
        params[P_BID_SHIFT] = shift
        for i in range(deals):
            bids = res.bids[i].astype(np.int8)
            for seat in range(players):
                heard = np.full(players, -1, np.int8)
                heard[:seat] = bids[:seat]
                own = heuristic_bid(params, slots.table, seat, players, r, res.hands[i, seat], int(res.turn_up[i]),
                                    int(res.trump[i]), heard, -1)
                errors[k, i * players + seat] = own - int(bids[seat])
    at_zero = int(np.flatnonzero(shifts == 0.0)[0])
    mse = (errors ** 2).mean(axis=1)
    best = int(np.argmin(mse))
    return float(-errors[at_zero].mean()), float(shifts[best]), float(mse[best])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", default="3,6,10,15")
    ap.add_argument("--deals", type=int, default=200, help="deals per round size")
    ap.add_argument("--policy", default="search:worlds=8")
    args = ap.parse_args()
    print(f"{args.policy}, {args.players} players, {args.deals} deals a size, seed {SEED}")
    for r in (int(x) for x in args.rounds.split(",")):
        diff, shift, mse = compare(args.players, r, args.deals, args.policy)
        print(f"r={r:>2}: search bid - heuristic bid {diff:+.3f} a seat; nearest heuristic bid_shift {shift:+.1f} "
              f"(mean squared error {mse:.3f})", flush=True)


if __name__ == "__main__":
    main()
