"""Strength and cost of the learned policy ``net`` (issue 35).

    NUMBA_NUM_THREADS=1 nice -n 10 python benchmarks/net.py                  # the issue's figures
    python benchmarks/net.py --games 200 --search-games 40 --speed-rounds 2000  # a quick look
    python benchmarks/net.py --parts one-seat          # one part again; the others' figures are kept
    python benchmarks/net.py --parts against --against OLD.npz  # paired by deal against other weights

- **strength**: ``wizsim tournament``'s machinery (``run_tournament``): whole games, every policy in every
  seat of every deal (rotations), paired difference per deal with its 95% interval: ``net,heuristic`` at 4
  players (``--games``, the issue's ``wizsim tournament --players 4 --policies net,heuristic --games 2000
  --seed 1``), and 3, 5, 6 players (``--games-other``; one ``net`` against two and four heuristics at 3
  and 5 players); ``net,search:worlds=8`` at 4 players
  (``--search-games``: the search costs about 2 s of a core a game); one ``net`` against three heuristics at
  4 players, and one ``search:worlds=8`` the same (``--one-seat-games``: the make-up of
  ``benchmarks/strength.py``'s table, where the default search makes +163). Each policy's exact-bid share
  (``bid_accuracy``) comes from the same games; ``search:worlds=8,heuristic`` gives the search's beside it
  (``--search-games`` too).
- **cost**: card plays a second on one thread inside the round kernel (``simulate_rounds``, 4 players,
  15 cards, whole rounds: the bids are in the time), ``net`` and the heuristic alternated in one run,
  medians of ``--repeats``, and their ratio.
- **agreement** (``--agreement DIR``, a Parquet dataset of ``search`` games with ``--trick-log``): the share of
  the search's own decisions (card decisions with two or more kinds of legal card, and bids) that ``net``
  and the heuristic take too, replayed at the open table.

Results go to benchmarks/results/net.json (``--out``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import wizsim  # noqa: E402
from wizsim.policies.net_weights import digest, read_weights, weights_path  # noqa: E402
from wizsim.tournament import run_tournament  # noqa: E402


def strength(players: int, policies: str, games: int, seed: int) -> dict:
    t = time.perf_counter()
    res = run_tournament(players, policies, games, seed=seed, threads=1).to_dict()
    d = res["differences"][0]
    return {"players": players, "policies": policies, "games": res["games"], "deals": res["deals"], "seed": seed,
            "difference": {"a": d["a"], "b": d["b"], "mean": d["mean"], "low": d["low"], "high": d["high"]},
            "bid_accuracy": {p["name"]: p["bid_accuracy"] for p in res["policies"]},
            "mean_score": {p["name"]: p["mean_score"] for p in res["policies"]},
            "seconds": round(time.perf_counter() - t, 1)}


def deal_differences(players: int, policies: str, games: int, seed: int) -> np.ndarray:
    """Per deal, the first policy's mean points a seat-game minus the second's (the tournament's paired
    difference, deal by deal): what pairs two weight files played on the same deals."""
    res = run_tournament(players, policies, games, seed=seed, threads=1, keep_games=True)
    g = res.games
    a, b = res.differences.iloc[0][["a", "b"]]
    per = g.groupby(["deal", "policy"], observed=True)["score"].mean().unstack()
    return (per[a] - per[b]).to_numpy()


def against(weights: Path, games: int, seed: int) -> dict:
    """These weights against ``weights``, paired by deal: each file's ``net`` - heuristic per deal at 4
    players (``net,heuristic``, the same deals), the other file played in a child process
    (``WIZSIM_NET_WEIGHTS``), and the mean of the per-deal change with its 95% interval."""
    import subprocess
    import tempfile

    here = deal_differences(4, "net,heuristic", games, seed)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "other.npy"
        code = (f"import sys, numpy as np; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); "
                f"from net import deal_differences; np.save({str(out)!r}, "
                f"deal_differences(4, 'net,heuristic', {games}, {seed}))")
        subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "WIZSIM_NET_WEIGHTS": str(weights)})
        there = np.load(out)
    w, _ = read_weights(weights)
    d = here - there
    half = 1.959964 * d.std(ddof=1) / np.sqrt(len(d))
    return {"other_weights": str(weights), "other_sha256": digest(w), "deals": len(d), "games": games, "seed": seed,
            "this": float(here.mean()), "other": float(there.mean()),
            "change": {"mean": float(d.mean()), "low": float(d.mean() - half), "high": float(d.mean() + half)}}


def speed(rounds: int, repeats: int, players: int = 4, r: int = 15) -> dict:
    """Card plays a second on one thread, ``net`` and the heuristic alternated (first calls compile): by the
    process's CPU time (what the thread spent, whatever the neighbours take) and by the wall clock."""
    cpu = {"net": [], "heuristic": []}
    wall = {"net": [], "heuristic": []}
    for name in cpu:
        wizsim.simulate_rounds(players, r, 10, name, seed=0, threads=1)
    for k in range(repeats):
        for name in cpu:
            c, t = time.process_time(), time.perf_counter()
            wizsim.simulate_rounds(players, r, rounds, name, seed=k, threads=1)
            cpu[name].append(rounds * r * players / (time.process_time() - c))
            wall[name].append(rounds * r * players / (time.perf_counter() - t))
    med = {n: float(np.median(v)) for n, v in cpu.items()}
    med_wall = {n: float(np.median(v)) for n, v in wall.items()}
    return {"players": players, "r": r, "rounds": rounds, "repeats": repeats, "card_plays_per_cpu_second": med,
            "card_plays_per_wall_second": med_wall, "heuristic_over_net_cpu": med["heuristic"] / med["net"],
            "heuristic_over_net_wall": med_wall["heuristic"] / med_wall["net"], "cpu": cpu, "wall": wall}


def agreement(folder: Path, limit: int | None = None) -> dict:
    """Share of the search's decisions in ``folder`` (a search self-play dataset) that net and the heuristic
    take too."""
    import pyarrow.dataset as ds

    from wizsim.table.round import Round

    rounds = ds.dataset(folder / "rounds", format="parquet", partitioning="hive").to_table().to_pandas()
    tricks = ds.dataset(folder / "tricks", format="parquet", partitioning="hive").to_table().to_pandas()
    judges = {"net": wizsim.player("net"), "heuristic": wizsim.player("heuristic")}
    same = {n: {"bid": 0, "card": 0} for n in judges}
    total = {"bid": 0, "card": 0}
    by_round = dict(tuple(tricks.sort_values("trick").groupby("round_index")))
    keys = sorted(by_round)[:limit]
    for ri in keys:
        rows = rounds[rounds.round_index == ri].sort_values("seat")
        p, r = int(rows.players.iloc[0]), int(rows["round"].iloc[0])
        hands = [[c for c in range(60) if (int(h) >> c) & 1] for h in rows.hand]
        turn_up = int(rows.turn_up.iloc[0])
        rd = Round(p, r, hands=hands, turn_up=turn_up if turn_up >= 0 else None)
        if rd.phase == "trump":
            rd.apply(int(rows.trump.iloc[0]))
        for b in rows.bid:
            obs = rd.observation(rd.current_player)
            if r > 1:
                total["bid"] += 1
                for n, j in judges.items():
                    same[n]["bid"] += int(j.bid(obs) == int(b))
            rd.apply(int(b))
        for cards in by_round[ri].cards:
            for c in cards:
                obs = rd.observation(rd.current_player)
                kinds = {c2 if c2 < 52 else 52 + (c2 >= 56) for c2 in obs.legal}
                if len(kinds) > 1:
                    total["card"] += 1
                    kind = c if c < 52 else 52 + (c >= 56)
                    for n, j in judges.items():
                        c2 = j.card(obs)
                        same[n]["card"] += int((c2 if c2 < 52 else 52 + (c2 >= 56)) == kind)
                rd.apply(int(c))
    return {"dataset": str(folder), "rounds": len(keys), "decisions": total,
            "agreement": {n: {k: v / max(1, total[k]) for k, v in s.items()} for n, s in same.items()}}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="net,heuristic games at 4 players")
    ap.add_argument("--games-other", type=int, default=400, help="net,heuristic games at 3, 5 and 6 players (0: skip)")
    ap.add_argument("--search-games", type=int, default=100, help="games with search:worlds=8 (0: skip)")
    ap.add_argument("--speed-rounds", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--agreement", type=Path, default=None, help="a search self-play dataset with --trick-log")
    ap.add_argument("--agreement-rounds", type=int, default=None)
    ap.add_argument("--one-seat-games", type=int, default=400,
                    help="games of one net (and, with --search-games, one search:worlds=8) against three heuristics at "
                         "4 players: the make-up of benchmarks/strength.py's search table (0: skip)")
    ap.add_argument("--against", type=Path, default=None,
                    help="another weights file: net - heuristic of both on the same --games deals, paired by deal")
    ap.add_argument("--parts", default="speed,4p,against,agreement,search,one-seat,other",
                    help="the comma list of parts to run; the others keep their figures from --out when it exists")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "net.json")
    args = ap.parse_args(argv)
    parts = set(args.parts.split(","))
    w, meta = read_weights()
    sha = digest(w)
    wp = weights_path().resolve()
    command = "python benchmarks/net.py " + " ".join(argv or sys.argv[1:])
    result = {}
    if parts != set(ap.get_default("parts").split(",")) and args.out.exists():  # a part re-run: keep the rest
        result = json.loads(args.out.read_text())
        same = result.get("weights_sha256") == sha if "weights_sha256" in result else (  # an older file: by the recipe
            {k: v for k, v in result.get("weights_meta", {}).items() if k != "examples"}
            == {k: v for k, v in meta.items() if k != "examples"})
        if not same:
            raise SystemExit(f"{args.out} holds figures of other weights: run every part (no --parts)")
    result.update({"weights": str(wp.relative_to(ROOT)) if wp.is_relative_to(ROOT) else str(wp), "weights_sha256": sha,
                   "weights_meta": meta,
                   "machine": platform.machine(), "cpus": os.cpu_count()})
    result.setdefault("commands", {})

    def show(key, value):
        result[key] = value
        result["commands"][key] = command
        print(key, json.dumps(value), flush=True)

    if "speed" in parts:
        show("speed", speed(args.speed_rounds, args.repeats))
    if "4p" in parts:
        show("vs_heuristic_4p", strength(4, "net,heuristic", args.games, args.seed))
    if args.against is not None and "against" in parts:
        show("against_other_weights_4p", against(args.against, args.games, args.seed))
    if args.agreement and "agreement" in parts:
        show("agreement_with_search", agreement(args.agreement, args.agreement_rounds))
    if args.search_games and "search" in parts:
        show("vs_search_4p", strength(4, "net,search:worlds=8", args.search_games, args.seed))
        show("search_vs_heuristic_4p", strength(4, "search:worlds=8,heuristic", args.search_games, args.seed))
    if args.one_seat_games and "one-seat" in parts:
        show("one_net_vs_heuristics_4p", strength(4, "net,heuristic,heuristic,heuristic", args.one_seat_games, args.seed))
        if args.search_games:
            show("one_search_vs_heuristics_4p", strength(4, "search:worlds=8,heuristic,heuristic,heuristic",
                                                         args.one_seat_games, args.seed))
    if args.games_other and "other" in parts:
        for p in (3, 5, 6):  # a list whose length divides the table: one net and the heuristics at 3 and 5
            table = "net,heuristic" if p % 2 == 0 else ",".join(["net"] + ["heuristic"] * (p - 1))
            show(f"vs_heuristic_{p}p", strength(p, table, args.games_other, args.seed))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    return result


if __name__ == "__main__":
    main()
