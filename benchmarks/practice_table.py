"""The practice table under load: N games at once (default 8) played to their end against a real
``wizsim serve`` through ``POST /api/play``, each client choosing a random legal action at once; prints the
median and 90th percentile time of a request (each answers the others' decisions up to the player's next
one) and of one opponent decision (a request's time over the others' decisions it made), the slowest
request, and how many requests the server refused: 422 for a replay over its per-request bound
(``practice.MAX_REPLAY_COST`` heuristic card plays, ``api.MAX_CARD_PLAYS``), 503 for a full answer queue
(``app.QUEUE_WAIT_S``). A refused request is counted and sent again (a 503 after its Retry-After).

    python benchmarks/practice_table.py [--games 8] [--policy heuristic|search] [--rounds 15]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REFUSED: dict[int, int] = {}  # status -> requests the server refused


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
            if res.status_code in (422, 503):
                REFUSED[res.status_code] = REFUSED.get(res.status_code, 0) + 1
                print(f"  refused ({res.status_code}): {res.json()['detail']}", file=sys.stderr)
                if res.status_code == 422:
                    raise SystemExit(f"the server refused a replay of game {seed}: over its per-request bound")
                time.sleep(float(res.headers.get("retry-after", 1)))
                continue
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
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the browser harness lives with the tests
    from harness import served

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--policy", default="heuristic", choices=("heuristic", "search", "random"),
                        help="the opponents' policy")
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
    print(f"  the slowest request: {max(requests) * 1000:.1f} ms; refused: "
          f"{sum(REFUSED.values())} ({REFUSED.get(422, 0)} over the replay bound, {REFUSED.get(503, 0)} queue full)")


if __name__ == "__main__":
    main()
