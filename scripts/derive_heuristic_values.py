"""Derive the heuristic policy's card-value table by simulation; write it to data/ and the package.

Method (reproducible: fixed seed, fixed round counts):

1. Start from a rough prior table (``prior_row``): a Wizard is worth about one trick, a trump more the
   higher it is, a side ace less the longer its suit, small cards about nothing.
2. For every player count 3..6 and every round size 1..60/players, simulate ``--rounds`` rounds with
   all seats playing the heuristic (bids from the current table, bid-aware play), streams keyed by
   ``(--seed + iteration, round index)``.
3. For every (players, round size, trump or no trump) row, regress the tricks each seat took on its
   hand's features at bidding time (``heuristic.hand_features``: Wizards, Jesters, trump ranks, side
   ranks by suit length, voids with trumps, the earlier bids' excess, seat). The regression is ridge
   regression shrunk toward the current row (``--ridge``), so features a round size rarely shows
   (an ace in a 4-card suit with 2 cards dealt) keep their previous value instead of noise.
4. Replace the table by the fitted rows and repeat (``--iterations``): a fixed point is a table whose
   bids are the expected tricks of the policy that bids with it. The script prints the mean and the
   largest change per iteration; the mean settles after a few iterations, the largest keeps
   wandering in features a round size rarely shows (their few observations are resampled each time).

Outputs: ``data/heuristic_values.csv`` (columns: ``players``, ``round``, ``context`` = ``trump`` or
``none``, ``feature`` (see ``heuristic.feature_names``), ``value`` = expected tricks the feature adds,
four decimals) and ``wizsim/policies/heuristic_values.py``, the same numbers as a Python literal so an
installed package needs no data file (tests check the two agree).

    python scripts/derive_heuristic_values.py                 # full derivation (minutes)
    python scripts/derive_heuristic_values.py --iterations 0  # write the prior only
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

from wizsim._numba import kernel
from wizsim.config import n_game_rounds
from wizsim.policies import PolicySlots, make_slots
from wizsim.policies.dispatch import HEURISTIC
from wizsim.policies.heuristic import (
    F_EARLIER,
    F_JESTER,
    F_SEAT,
    F_SIDE,
    F_TRUMP,
    F_VOID,
    F_WIZARD,
    N_CONTEXTS,
    N_FEATURES,
    N_LENGTH_BUCKETS,
    TABLE_SIZE,
    feature_names,
    hand_features,
    table_row,
)
from wizsim.sim.driver import simulate_rounds

ROOT = Path(__file__).resolve().parents[1]
CSV_PATH = ROOT / "data" / "heuristic_values.csv"
MODULE_PATH = ROOT / "src" / "wizsim" / "policies" / "heuristic_values.py"
DECIMALS = 4


def combos():
    for players in range(3, 7):
        for r in range(1, n_game_rounds(players) + 1):
            yield players, r


def prior_row(players: int, r: int, ctx: int) -> np.ndarray:
    row = np.zeros(N_FEATURES)
    row[F_WIZARD] = 0.95
    row[F_JESTER] = 0.0
    k = np.arange(13) / 12.0
    row[F_TRUMP:F_TRUMP + 13] = 0.2 + 0.75 * k ** 2
    ace = [0.75, 0.7, 0.6, 0.4]
    king = [0.3, 0.45, 0.35, 0.2]
    queen = [0.1, 0.2, 0.2, 0.1]
    for b in range(N_LENGTH_BUCKETS):
        base = F_SIDE + b * 13
        row[base:base + 10] = 0.02
        row[base + 10] = queen[b]
        row[base + 11] = king[b]
        row[base + 12] = ace[b]
    row[F_VOID] = 0.15
    row[F_EARLIER] = -0.05
    row[F_SEAT:F_SEAT + 6] = 0.0
    return row


def prior_table() -> np.ndarray:
    table = np.zeros(TABLE_SIZE)
    for players, r in combos():
        for ctx, trump in enumerate((0, -1)):
            at = table_row(players, r, trump)
            table[at:at + N_FEATURES] = prior_row(players, r, ctx)
    return table


@kernel
def _normal_equations(hands, trump, bids, tricks, players, r, xtx, xty, counts):
    """Accumulate X'X, X'y per context (0 trump, 1 none) over every (round, seat); sparse outer products."""
    feats = np.zeros(N_FEATURES, dtype=np.float64)
    nz = np.empty(N_FEATURES, dtype=np.int64)
    for i in range(hands.shape[0]):
        ctx = 1 if trump[i] < 0 else 0
        for s in range(players):
            feats[:] = 0.0
            hand_features(hands[i, s], trump[i], s, players, r, bids[i], feats)
            n = 0
            for f in range(N_FEATURES):
                if feats[f] != 0.0:
                    nz[n] = f
                    n += 1
            y = tricks[i, s]
            for a in range(n):
                fa = nz[a]
                xty[ctx, fa] += feats[fa] * y
                for b in range(n):
                    fb = nz[b]
                    xtx[ctx, fa, fb] += feats[fa] * feats[fb]
            counts[ctx] += 1


def heuristic_slots(table: np.ndarray) -> PolicySlots:
    """The heuristic with its default parameters (``make_slots``) and the table being fitted."""
    return PolicySlots(("heuristic",), np.array([HEURISTIC], np.int8), make_slots(["heuristic"]).params, table)


def iterate(table: np.ndarray, rounds: int, seed: int, ridge: float, threads) -> tuple[np.ndarray, float]:
    new = table.copy()
    slots = heuristic_slots(table)
    for players, r in combos():
        batch = simulate_rounds(players, r, rounds, "heuristic", seed=seed, slots=slots, threads=threads)
        xtx = np.zeros((N_CONTEXTS, N_FEATURES, N_FEATURES))
        xty = np.zeros((N_CONTEXTS, N_FEATURES))
        counts = np.zeros(N_CONTEXTS, np.int64)
        _normal_equations(batch.hands, batch.trump, batch.bids, batch.tricks, players, r, xtx, xty, counts)
        for ctx, trump in enumerate((0, -1)):
            if counts[ctx] == 0:
                continue
            at = table_row(players, r, trump)
            old = table[at:at + N_FEATURES]
            a = xtx[ctx] + ridge * np.eye(N_FEATURES)
            new[at:at + N_FEATURES] = np.linalg.solve(a, xty[ctx] + ridge * old)
    new = np.round(new, DECIMALS)
    change = np.abs(new - table)
    return new, float(change.max()), float(change.mean())


def write_csv(table: np.ndarray, path: Path) -> None:
    names = feature_names()
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["players", "round", "context", "feature", "value"])
        for players, r in combos():
            for trump, ctx in ((0, "trump"), (-1, "none")):
                at = table_row(players, r, trump)
                for f, name in enumerate(names):
                    w.writerow([players, r, ctx, name, f"{table[at + f]:.{DECIMALS}f}"])


def write_module(table: np.ndarray, path: Path, command: str) -> None:
    lines = [
        '"""The heuristic policy\'s card-value table. Generated by scripts/derive_heuristic_values.py; do not edit.',
        "",
        f"Command: {command}",
        "Layout: see wizsim.policies.heuristic (table_row, feature_names); the same numbers as",
        'data/heuristic_values.csv."""',
        "",
        "VALUES = (",
    ]
    for i in range(0, table.size, N_FEATURES):
        lines.append("    " + ", ".join(f"{v:.{DECIMALS}f}" for v in table[i:i + N_FEATURES]) + ",")
    lines.append(")")
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40_000, help="rounds per (players, round size) and iteration")
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--ridge", type=float, default=20.0)
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args(argv)
    table = np.round(prior_table(), DECIMALS)
    for it in range(args.iterations):
        t0 = time.perf_counter()
        table, largest, mean = iterate(table, args.rounds, args.seed + it, args.ridge, args.threads)
        print(f"iteration {it + 1}: mean change {mean:.4f}, largest {largest:.4f} "
              f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    command = "python scripts/derive_heuristic_values.py " + " ".join(
        f"--{k} {v}" for k, v in vars(args).items() if k != "threads")
    write_csv(table, CSV_PATH)
    write_module(table, MODULE_PATH, command)
    print(f"wrote {CSV_PATH.relative_to(ROOT)} and {MODULE_PATH.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
