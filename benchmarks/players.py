"""Users' players at kernel and Python speed (issue 18 item 2).

    python benchmarks/players.py            # 5 paired runs, medians quoted
    python benchmarks/players.py --quick    # 3 shorter runs

1. A jitted player (``wizsim.jit_player``) made of the heuristic's own decisions (``wizsim.jit``'s
   ``heuristic_bid`` / ``heuristic_card`` / ``heuristic_trump``) against the built-in ``heuristic`` in
   ``simulate_rounds``: 4 players, r = 15 and r = 5, one thread. The two play exactly the same rounds
   (tests/test_jit_player.py), so the ratio is the price of the user's interface alone: the observation
   record, the calls through Numba's function types. Runs alternate A B A B, each timed by the process's
   CPU time (the machine is shared), and the ratio is the median of the pairs' ratios. Goal: within 2x.
2. A Python player (an object with ``trump``, ``bid``, ``card``) in a tournament against the heuristic:
   decisions per second, the user's decisions counted.

Results go to benchmarks/results/players.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numba

import wizsim
from wizsim.jit import heuristic_bid, heuristic_card, heuristic_trump

RESULTS = Path(__file__).resolve().parent / "results"


@numba.njit
def _bid(obs, rng):
    return heuristic_bid(obs)


@numba.njit
def _card(obs, rng):
    return heuristic_card(obs)


@numba.njit
def _trump(obs, rng):
    return heuristic_trump(obs, rng)


class Greedy:
    """Bids its Wizards and aces, plays its highest legal card: a Python bot's cost is its calls."""

    def __init__(self):
        self.decisions = 0

    def trump(self, obs):
        self.decisions += 1
        return 0

    def bid(self, obs):
        self.decisions += 1
        want = sum(1 for c in obs.hand if c >= 52 and c < 56 or (c < 52 and c % 13 == 12))
        return min(obs.legal, key=lambda b: abs(b - want))

    def card(self, obs):
        self.decisions += 1
        return max(obs.legal)


def card_plays_per_cpu_second(policies, r: int, rounds: int) -> float:
    c = time.process_time()
    wizsim.simulate_rounds(4, r, rounds, policies, seed=1, threads=1)
    return rounds * r * 4 / (time.process_time() - c)


def jitted_vs_heuristic(r: int, rounds: int, runs: int) -> dict:
    mine = wizsim.jit_player("heuristic-as-jitted", bid=_bid, card=_card, trump=_trump)
    card_plays_per_cpu_second(mine, r, 1000)  # compile both before timing
    card_plays_per_cpu_second("heuristic", r, 1000)
    jitted, builtin = [], []
    for _ in range(runs):
        jitted.append(card_plays_per_cpu_second(mine, r, rounds))
        builtin.append(card_plays_per_cpu_second("heuristic", r, rounds))
    ratios = [a / b for a, b in zip(jitted, builtin, strict=True)]
    return {"r": r, "rounds": rounds, "runs": runs, "jitted_card_plays_per_s": statistics.median(jitted),
            "heuristic_card_plays_per_s": statistics.median(builtin), "ratio": statistics.median(ratios)}


def python_player_tournament(games: int, runs: int) -> dict:
    rates = []
    for _ in range(runs):
        bot = Greedy()
        c, t = time.process_time(), time.perf_counter()
        wizsim.run_tournament(4, [bot, "heuristic"], games, seed=1, threads=1)
        cpu, wall = time.process_time() - c, time.perf_counter() - t
        rates.append((bot.decisions / cpu, bot.decisions / wall, bot.decisions))
    return {"games": games, "runs": runs, "decisions": rates[0][2],
            "decisions_per_cpu_second": statistics.median(r[0] for r in rates),
            "decisions_per_second": statistics.median(r[1] for r in rates)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", type=Path, default=RESULTS / "players.json")
    args = ap.parse_args()
    runs, rounds, games = (3, 100_000, 100) if args.quick else (5, 400_000, 400)
    out = {"machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "numba": numba.__version__,
                       "load": os.getloadavg(), "date": time.strftime("%Y-%m-%d")},
           "jitted": [jitted_vs_heuristic(r, rounds, runs) for r in (15, 5)],
           "python_player": python_player_tournament(games, runs)}
    for row in out["jitted"]:
        print(f"jitted player vs heuristic, r={row['r']}: {row['jitted_card_plays_per_s'] / 1e6:.1f}M vs "
              f"{row['heuristic_card_plays_per_s'] / 1e6:.1f}M card plays per CPU second, ratio {row['ratio']:.2f}")
    p = out["python_player"]
    print(f"Python player in a {p['games']}-game tournament: {p['decisions_per_cpu_second']:,.0f} of its decisions "
          f"per CPU second ({p['decisions_per_second']:,.0f} per second of wall clock)")
    args.out.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
