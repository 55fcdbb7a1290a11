"""The practice table under load: N games at once (default 8) played to their end against a real
``wizsim serve`` through ``POST /api/play``, each client choosing a random legal action at once; prints the
median and 90th percentile time of a request (each answers the others' decisions up to the player's next
one) and of one opponent decision (a request's time over the others' decisions it made).

    python benchmarks/practice_table.py [--games 8] [--policy heuristic] [--rounds 15]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor


def one_game(url: str, seed: int, policy: str, rounds: int) -> list[tuple[float, int]]:
    import httpx

    rng = random.Random(seed)
    body = {"players": 4, "me": seed % 4, "seed": seed, "policies": policy, "rounds": rounds, "choices": []}
    out, played = [], 0
    with httpx.Client(timeout=120) as client:
        while True:
            started = time.perf_counter()
            res = client.post(url + "api/play", json=body)
            took = time.perf_counter() - started
            res.raise_for_status()
            a = res.json()
            done = sum(x is not None for x in a["bids"]) + sum(len(t["cards"]) for t in a["trick_log"])
            made = max(1, done - played)  # the others' decisions in this answer (about)
            out.append((took, made))
            if a["game_over"]:
                return out
            played = done + 1
            body["choices"].append(rng.choice(a["legal"]))


def main() -> None:
    from wizsim.web.harness import served

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--policy", default="heuristic")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    with served() as url:
        one_game(url, 999, args.policy, 1)  # warm the players' kernels
        with ThreadPoolExecutor(args.games) as pool:
            games = list(pool.map(lambda s: one_game(url, s, args.policy, args.rounds), range(args.games)))
    requests = [t for g in games for t, _ in g]
    per_decision = [t / n for g in games for t, n in g]
    q = lambda xs, p: statistics.quantiles(xs, n=10)[p - 1] * 1000  # noqa: E731
    print(f"{args.games} games at once, 4 players, {args.rounds} rounds, others {args.policy}: {len(requests)} requests")
    print(f"  a request: median {statistics.median(requests) * 1000:.1f} ms, 90th percentile {q(requests, 9):.1f} ms")
    print(f"  an opponent decision: median {statistics.median(per_decision) * 1000:.1f} ms, "
          f"90th percentile {q(per_decision, 9):.1f} ms")


if __name__ == "__main__":
    main()
