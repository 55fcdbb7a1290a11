"""Strength of the search policy (issue 11): tournaments against the heuristic, seats rotated, paired.

    python benchmarks/strength.py                 # 3, 4 and 5 players, 1,000+ games each, + self-play
    python benchmarks/strength.py --deals 25      # quick look

Each deal (a game id: its first dealer, every round's cards and play streams) is played once per
rotation of ``search,heuristic,...`` over the players, so the search policy sits in every seat of every
round on the same cards. One observation per deal: the search seats' mean final score minus the
heuristic seats' mean final score over the deal's rotations; the 95% interval is over deals
(mean +- 1.96 standard errors), the paired comparison the issue asks for. Also: each policy's mean score,
bid accuracy (exact bids / rounds), games per second, and the search policy's self-play bid accuracy
at 4 players beside the heuristic's. Results go to benchmarks/results/strength.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from wizsim import simulate_games
from wizsim.stats import Z95


def table(players: int, search: str, deals: int, seed: int) -> dict:
    names = [search] + ["heuristic"] * (players - 1)
    rot = [[names[(i + j) % players] for i in range(players)] for j in range(players)]
    game_ids = np.repeat(np.arange(deals, dtype=np.int64), players)
    per_game = [rot[j] for _ in range(deals) for j in range(players)]
    started = time.perf_counter()
    batch = simulate_games(players, len(game_ids), seed=seed, game_ids=game_ids, player_policies=per_game)
    seconds = time.perf_counter() - started
    final = batch.final.astype(np.float64)  # (games, players) by player
    is_search = np.array([[p == search for p in row] for row in per_game])
    s_sum = np.where(is_search, final, 0).reshape(deals, -1).sum(1) / is_search.reshape(deals, -1).sum(1)
    h_sum = np.where(~is_search, final, 0).reshape(deals, -1).sum(1) / (~is_search).reshape(deals, -1).sum(1)
    diff = s_sum - h_sum
    half = Z95 * diff.std(ddof=1) / np.sqrt(deals)
    bids = batch.by_player(batch.bids)
    tricks = batch.by_player(batch.tricks)
    exact = (bids == tricks)  # (games, rounds, players)
    sel = np.broadcast_to(is_search[:, None, :], exact.shape)
    return {
        "players": players, "policies": ",".join(names), "deals": deals, "games": len(game_ids),
        "search_mean_score": float(s_sum.mean()), "heuristic_mean_score": float(h_sum.mean()),
        "difference": float(diff.mean()), "difference_low": float(diff.mean() - half),
        "difference_high": float(diff.mean() + half),
        "search_bid_accuracy": float(exact[sel].mean()), "heuristic_bid_accuracy": float(exact[~sel].mean()),
        "seconds": seconds, "games_per_second": len(game_ids) / seconds,
    }


def self_play(players: int, search: str, games: int, seed: int) -> dict:
    out = {}
    for name in (search, "heuristic"):
        started = time.perf_counter()
        batch = simulate_games(players, games, seed=seed, policies=name)
        seconds = time.perf_counter() - started
        exact = batch.by_player(batch.bids) == batch.by_player(batch.tricks)
        out[name] = {"bid_accuracy": float(exact.mean()), "mean_score": float(batch.final.mean()),
                     "games": games, "seconds": seconds}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--search", default="search", help="the search policy's name, with parameters")
    ap.add_argument("--deals", type=int, default=None, help="deals per table (default: 1,000 games' worth)")
    ap.add_argument("--players", default="4,3,5")
    ap.add_argument("--self-play-games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=str(Path(__file__).parent / "results" / "strength.json"))
    args = ap.parse_args()
    results = {"search": args.search, "tables": [], "machine": {
        "cpu_count": os.cpu_count(), "load_average_at_start": os.getloadavg(), "python": platform.python_version(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z")}}
    for players in (int(p) for p in args.players.split(",")):
        deals = args.deals or -(-1000 // players)
        row = table(players, args.search, deals, args.seed)
        results["tables"].append(row)
        print(f"{players} players, {row['games']} games ({deals} deals x {players} rotations): search "
              f"{row['search_mean_score']:.1f}, heuristic {row['heuristic_mean_score']:.1f} points per game; "
              f"difference {row['difference']:+.1f} [{row['difference_low']:+.1f}, {row['difference_high']:+.1f}]; "
              f"bid accuracy {row['search_bid_accuracy']:.1%} vs {row['heuristic_bid_accuracy']:.1%}; "
              f"{row['games_per_second']:.2f} games/s", flush=True)
    if args.self_play_games:
        sp = self_play(4, args.search, args.self_play_games, args.seed)
        results["self_play_4p"] = sp
        print("self-play, 4 players: " + "; ".join(f"{k} bid accuracy {v['bid_accuracy']:.1%} "
                                                    f"({v['games']} games)" for k, v in sp.items()), flush=True)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
