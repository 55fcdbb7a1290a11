"""``wizsim serve`` speed as a person at the table sees it: the README example (W,AS,3H, spades
trump, seat 2, default precision) through HTTP on a warm server.

    python benchmarks/serve.py                # 50 sequential requests, then 8 concurrent clients
    python benchmarks/serve.py --requests 100 --clients 8 --per-client 10 --json

It starts a real server (``wizsim serve --port 0``: warmed before it says it is ready), sends one
warm-up request, then times ``--requests`` sequential requests (one keep-alive connection, seed i
for request i) and reports their median and 95th percentile; then ``--clients`` clients, each on
its own connection, send ``--per-client`` requests at once: every answer must be a 200 equal to the
same seed's sequential answer. Target (issue 12): median within 0.3 s. Saves
``benchmarks/results/serve.json`` with the machine's details.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from run import machine  # benchmarks/run.py: the machine's details, recorded the same way in every result

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the browser harness lives with the tests
from harness import served  # noqa: E402

EXAMPLE = {"hand": "W,AS,3H", "trump": "S", "seat": 2}
TARGET_MEDIAN_S = 0.3


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (linear interpolation between closest ranks)."""
    xs = sorted(values)
    k = (len(xs) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def timed_post(client: httpx.Client, body: dict) -> tuple[float, httpx.Response]:
    t0 = time.perf_counter()
    res = client.post("/api/advise", json=body)
    return time.perf_counter() - t0, res


def sequential(url: str, n: int) -> dict:
    times, samples, answers = [], [], {}
    with httpx.Client(base_url=url, timeout=60) as c:
        timed_post(c, {**EXAMPLE, "seed": 10_000})  # warm the connection and the answer path
        for i in range(n):
            t, res = timed_post(c, {**EXAMPLE, "seed": i})
            res.raise_for_status()
            times.append(t)
            samples.append(res.json()["samples"])
            answers[i] = res.json()
    return {"requests": n, "median_s": statistics.median(times), "p95_s": percentile(times, 95),
            "min_s": min(times), "max_s": max(times), "samples_median": statistics.median(samples),
            "answers": answers}


def concurrent(url: str, clients: int, per_client: int, reference: dict) -> dict:
    def client_run(k: int):
        out = []
        with httpx.Client(base_url=url, timeout=120) as c:
            for j in range(per_client):
                seed = (k * per_client + j) % len(reference)
                t, res = timed_post(c, {**EXAMPLE, "seed": seed})
                ok = res.status_code == 200 and res.json() == reference[seed]
                out.append((t, res.status_code, ok))
        return out

    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        runs = [x for part in pool.map(client_run, range(clients)) for x in part]
    wall = time.perf_counter() - t0
    times = [t for t, _, _ in runs]
    return {"clients": clients, "requests": len(runs), "errors": sum(1 for _, s, _ in runs if s != 200),
            "answers_differing_from_sequential": sum(1 for _, s, ok in runs if s == 200 and not ok),
            "wall_s": wall, "requests_per_s": len(runs) / wall, "median_s": statistics.median(times),
            "p95_s": percentile(times, 95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--per-client", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "serve.json"))
    args = parser.parse_args()
    with served() as url:
        seq = sequential(url, args.requests)
        conc = concurrent(url, args.clients, args.per_client, seq.pop("answers"))
    result = {"case": "README example W,AS,3H, trump S, seat 2, default precision, through HTTP on a warm server",
              "target_median_s": TARGET_MEDIAN_S, "sequential": seq, "concurrent": conc, "machine": machine()}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"sequential: {seq['requests']} requests, median {seq['median_s'] * 1000:.1f} ms, "
          f"p95 {seq['p95_s'] * 1000:.1f} ms (target median <= {TARGET_MEDIAN_S * 1000:.0f} ms), "
          f"{seq['samples_median']:.0f} deals per answer")
    print(f"concurrent: {conc['clients']} clients x {args.per_client} requests: {conc['errors']} errors, "
          f"{conc['answers_differing_from_sequential']} answers differing, median {conc['median_s'] * 1000:.1f} ms, "
          f"p95 {conc['p95_s'] * 1000:.1f} ms, {conc['requests_per_s']:.1f} requests/s")
    print(f"saved {args.out}")
    if seq["median_s"] > TARGET_MEDIAN_S or conc["errors"] or conc["answers_differing_from_sequential"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
