"""Tournaments: whole games between policies, every policy in every seat equally often, deals shared.

The table has ``players`` player identities and one policy name per identity (repeats allowed).
Each *deal* (a game id: its first dealer, every round's cards and play stream) is played once per
distinct rotation of the policies over the identities: rotation j gives player i the policy
``policies[(i + j) % players]``. Seats rotate inside a game (the deal passes left) and the first dealer
is shared by the rotations of a deal, so over a deal's rotations every policy sits in every seat of
every round equally often, on the same cards: the luck of the deal cancels in comparisons.
Rotations that repeat an earlier one (``heuristic`` four times has one distinct rotation) are not
replayed. ``games`` counts every rotation played: ``games=20_000`` with four distinct rotations is
5,000 deals x 4; it is rounded up to a whole number of deals.

Statistics per policy name (over every seat it held):
- ``mean_score``: mean final total per game, with a 95% interval built over deals (rotations of one
  deal are correlated, so each deal contributes one averaged observation: mean +- 1.96 standard
  errors of the per-deal means; no interval with a single deal);
- ``win_rate``: share of games won, a tie for first shared equally among the tied players;
- ``differences``: for each pair of policies (a, b), the mean over deals of (a's mean final score per
  game in the deal - b's), with a paired 95% interval over deals: both play the same cards, so the
  luck of the deal cancels and the interval is far narrower than the two means' own;
- ``bid_accuracy``: share of rounds whose bid was exact; ``mean_abs_bid_error``: mean |bid - tricks|;
  both overall and by round size.

Memory is flat in ``games``: each chunk of deals is reduced to exact running totals (Python ints:
sums and sums of squares of per-deal points, counts of exact bids, of bid errors, of win shares in
60ths, which every tie of 1..6 players divides) and dropped. Means and standard deviations are then
formed from the exact sums, one rounding each, so they do not depend on the chunking or the order of
summation. ``keep_games=True`` also keeps the per-game table (``.games``), which grows with the run.

``engine="dask"`` plays the same chunks of deals on a Dask cluster (``scheduler``: an existing one's
address; ``workers``: a local one of that many workers): each chunk's per-game arrays are computed on a
worker, gathered in chunk order and reduced by the same code, so the result is the local one, identical.
Users' players travel to the workers: one given by a spec (``FILE.py:NAME``, the file's absolute path,
or ``package.module:NAME``) is loaded there by that path; one given as an object is pickled with
cloudpickle (its class by value when it was defined in ``__main__``, a notebook, a function or a
``FILE.py``; by reference to its module otherwise, which the workers must then be able to import) and
an object that does not pickle is refused naming it. Each chunk starts from a fresh copy, so a player
whose decisions depend on the observation alone plays exactly as locally; one that keeps state from
game to game (its own random generator, learning) plays each chunk from the state it had when the run began.
"""

from __future__ import annotations

import contextlib
import math
import sys
import threading
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from wizsim.config import ENGINES, MAX_ROUND_INDEX, ConfigError, RulesConfig, check_count, check_flag, n_game_rounds
from wizsim.policies import seat_policies
from wizsim.policies.registry import USER_PLAYERS, is_user_player, looks_like_player_spec, seat_identity
from wizsim.sim.driver import simulate_games
from wizsim.sim.plan import DEAL_CHUNK, estimate_seconds, make_plan
from wizsim.stats import Z95, json_float
from wizsim.table.players import check_timeout

DASK_TASK_SECONDS = 2.0


def distinct_rotations(policies: list[str]) -> int:
    """The number of different lists among the rotations of ``policies`` (a divisor of its length)."""
    p = len(policies)
    for j in range(1, p):
        if p % j == 0 and policies[j:] + policies[:j] == policies:
            return j
    return p


WIN_UNITS = 60  # a win shared by t tied players is 60 // t of these: exact for every t in 1..6


@dataclass
class TournamentResult:
    players: int
    policies: list[str]  # the policy of player i in rotation 0
    seed: int
    hook: bool
    n_deals: int
    rotations: int
    games: pd.DataFrame | None  # one row per (game, player); only with keep_games=True
    summary: pd.DataFrame  # one row per distinct policy name
    by_round: pd.DataFrame  # one row per (policy, round size)
    differences: pd.DataFrame | None = None  # one row per pair of policies: a, b, mean, low, high, deals
    identities: dict | None = None  # policy name -> what that player is (wizsim.identity)

    @property
    def n_games(self) -> int:
        return self.n_deals * self.rotations

    def to_dict(self) -> dict:
        entries = []
        for row in self.summary.itertuples(index=False):
            br = self.by_round[self.by_round.policy == row.name]
            entries.append({
                "name": row.name,
                "mean_score": json_float(row.mean_score),
                "score_low": json_float(row.score_low),
                "score_high": json_float(row.score_high),
                "win_rate": json_float(row.win_rate),
                "bid_accuracy": json_float(row.bid_accuracy),
                "mean_abs_bid_error": json_float(row.mean_abs_bid_error),
                "seats_per_game": int(row.seats_per_game),
                "bid_accuracy_by_round": {int(r): json_float(a) for r, a in zip(br["round"], br.bid_accuracy, strict=True)},
                "mean_abs_bid_error_by_round": {int(r): json_float(a) for r, a in zip(br["round"], br.mean_abs_bid_error, strict=True)},
            })
            if self.identities and row.name in self.identities:
                entries[-1]["identity"] = self.identities[row.name]
        out = {"games": self.n_games, "players": self.players, "policies": entries, "deals": self.n_deals,
               "rotations": self.rotations, "seed": self.seed, "hook": self.hook,
               "table": list(self.policies)}
        if self.differences is not None:
            out["differences"] = [{"a": row.a, "b": row.b, "mean": json_float(row.mean), "low": json_float(row.low),
                                   "high": json_float(row.high), "deals": int(row.deals)}
                                  for row in self.differences.itertuples(index=False)]
        return out


def _mean_interval(total: int, squares: int, n: int, scale: int) -> tuple[float, float, float]:
    """Mean and 95% interval of n values v_i / scale from the exact sums of the integers v_i and of
    their squares: (mean, low, high), the interval nan for a single value."""
    mean = total / (n * scale)  # int / int: the exact quotient, rounded once
    if n < 2:
        return mean, float("nan"), float("nan")
    var = (n * squares - total * total) / (n * (n - 1) * scale * scale)
    half = Z95 * math.sqrt(var) / math.sqrt(n)
    return mean, mean - half, mean + half


class _Totals:
    """Exact running totals of a tournament, per distinct policy name:
    what every statistic of the result needs, whatever the number of games."""

    def __init__(self, seat_mask: np.ndarray, n_rounds: int):
        self.seat_mask = seat_mask  # (K, d, p) bool: policy k holds player i in rotation j
        self.per_deal = seat_mask.sum(axis=(1, 2))  # c_k: seats policy k holds over a deal's rotations
        k = seat_mask.shape[0]
        self.points = [0] * k  # sum over deals of X_k (the deal's points of policy k's seats)
        self.points_sq = [0] * k
        self.wins = [0] * k  # in WIN_UNITS
        self.exact = [[0] * n_rounds for _ in range(k)]  # by round size
        self.abs_err = [[0] * n_rounds for _ in range(k)]
        # paired differences, policy a against b (a < b): per deal Y = X_a * c_b - X_b * c_a, an integer
        # equal to (a's mean points per seat-game - b's) * c_a * c_b
        self.pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
        self.pair_sum = [0] * len(self.pairs)
        self.pair_sq = [0] * len(self.pairs)

    def add(self, final: np.ndarray, exact: np.ndarray, abs_err: np.ndarray) -> None:
        """One chunk of whole deals: final (m * d, p) totals, exact and abs_err (m * d, R, p), by player."""
        d, p = self.seat_mask.shape[1:]
        m = final.shape[0] // d
        final = final.astype(np.int64).reshape(m, d, p)
        is_win = final == final.max(axis=2, keepdims=True)
        share = is_win * (WIN_UNITS // is_win.sum(axis=2, keepdims=True))
        exact = exact.reshape(m, d, -1, p)
        abs_err = abs_err.astype(np.int64).reshape(m, d, -1, p)
        # per-deal points fit an int64 many times over (|X| < 36 seats x 2,500 points), and so do
        # the chunk's sums of squares
        points = np.stack([(final * mask).sum(axis=(1, 2)) for mask in self.seat_mask])  # (K, m)
        for i, (a, b) in enumerate(self.pairs):
            y = points[a] * int(self.per_deal[b]) - points[b] * int(self.per_deal[a])  # |y| < 2**23: y @ y fits
            self.pair_sum[i] += int(y.sum())
            self.pair_sq[i] += int(y @ y)
        for k, mask in enumerate(self.seat_mask):
            self.points[k] += int(points[k].sum())
            self.points_sq[k] += int(points[k] @ points[k])
            self.wins[k] += int((share * mask).sum())
            e = (exact & mask[None, :, None, :]).sum(axis=(0, 1, 3))
            a = (abs_err * mask[None, :, None, :]).sum(axis=(0, 1, 3))
            for r in range(e.shape[0]):
                self.exact[k][r] += int(e[r])
                self.abs_err[k][r] += int(a[r])


def run_tournament(players: int, policies, games: int, *, seed: int | None = 0, hook: bool = False,
                   threads: int | None = None, progress=None, keep_games: bool = False, engine: str = "local",
                   scheduler: str | None = None, workers: int | None = None,
                   dask_processes: bool = True, decision_timeout: float | None = None) -> TournamentResult:
    """Play about ``games`` whole games (see the module docstring); ``progress(k)`` is told of k more games.

    Each policy's entry of the result says what that player is (``identities``, ``wizsim.identity``).
    A user's player that fails, or takes longer than ``decision_timeout`` seconds over one decision,
    stops the tournament with a ``PlayerError`` naming it, its seat, the decision and the round.

    ``keep_games=True`` also returns the per-game table ``.games`` (memory grows with the games);
    without it memory stays flat in ``games``. ``engine="dask"`` plays the chunks on a Dask cluster:
    the one at ``scheduler``, or a local one of ``workers`` workers (processes unless
    ``dask_processes=False``); the result is the local one, identical.
    """
    from wizsim._dask import check_engine_options

    check_engine_options(engine, scheduler, workers, ENGINES, ConfigError)
    players = RulesConfig(players=players).players  # a NumPy integer as a Python int
    names = seat_policies(policies, players)
    games = check_count(games, "games", 1, (MAX_ROUND_INDEX + 1) // n_game_rounds(players))  # int64 round indices
    keep_games = check_flag(keep_games, "keep_games")
    decision_timeout = check_timeout(decision_timeout)
    identities = {name: seat_identity(name) for name in dict.fromkeys(names)}
    d = distinct_rotations(names)
    # the run's units are deals: each is played once per distinct rotation
    # a chunk's totals are exact integers, so the chunk size never changes a result: on a cluster a chunk
    # is about DASK_TASK_SECONDS of play, so that a short run of costly seats (search, a Python player)
    # still spreads over the workers
    chunk = DEAL_CHUNK if engine == "local" else min(DEAL_CHUNK, max(1, int(
        DASK_TASK_SECONDS / (d * estimate_seconds(players, names, 1, "game", None, 1)))))
    plan = make_plan(players, games=-(-games // d), policies=names, hook=hook, seed=seed, chunk_size=chunk)
    p, seed, n_deals = players, plan.seed, plan.games
    R = n_game_rounds(p)
    rot_policies = [[names[(i + j) % p] for i in range(p)] for j in range(d)]
    distinct = list(dict.fromkeys(names))
    seat_mask = np.array([[[rot_policies[j][i] == name for i in range(p)] for j in range(d)] for name in distinct])
    totals = _Totals(seat_mask, R)

    kept = [] if keep_games else None
    job = (p, d, rot_policies, plan.hook, seed, decision_timeout)
    if engine == "local":
        results = contextlib.nullcontext(play_chunk(*job, c.start, c.stop, threads) for c in plan.chunks())
    else:
        results = _on_dask(job, list(plan.chunks()), _travel(policies, names), scheduler, workers, threads,
                           dask_processes)
    with results as chunk_results:
        for final, exact, abs_err in chunk_results:  # in chunk order, whichever engine played them
            totals.add(final, exact, abs_err)
            if kept is not None:
                kept.append((final, exact.sum(axis=1), abs_err.sum(axis=1)))
            if progress is not None:
                progress(final.shape[0])

    rows, round_rows = [], []
    for k, name in enumerate(distinct):
        c = int(totals.per_deal[k])
        mean, low, high = _mean_interval(totals.points[k], totals.points_sq[k], n_deals, c)
        cnt = n_deals * c  # (game, player) places policy k held
        rows.append({
            "name": name,
            "seats_per_game": int(names.count(name)),
            "mean_score": mean,
            "score_low": low,
            "score_high": high,
            "win_rate": totals.wins[k] / (WIN_UNITS * cnt),
            "bid_accuracy": sum(totals.exact[k]) / (cnt * R),
            "mean_abs_bid_error": sum(totals.abs_err[k]) / (cnt * R),
        })
        for r in range(R):
            round_rows.append({
                "policy": name,
                "round": r + 1,
                "bid_accuracy": totals.exact[k][r] / cnt,
                "mean_abs_bid_error": totals.abs_err[k][r] / cnt,
            })
    diff_rows = []
    for i, (a, b) in enumerate(totals.pairs):
        scale = int(totals.per_deal[a]) * int(totals.per_deal[b])
        mean, low, high = _mean_interval(totals.pair_sum[i], totals.pair_sq[i], n_deals, scale)
        diff_rows.append({"a": distinct[a], "b": distinct[b], "mean": mean, "low": low, "high": high,
                          "deals": n_deals})
    differences = pd.DataFrame(diff_rows, columns=["a", "b", "mean", "low", "high", "deals"])
    games_df = None if kept is None else _games_table(kept, n_deals, d, p, rot_policies, distinct)
    return TournamentResult(p, names, seed, plan.hook, n_deals, d, games_df, pd.DataFrame(rows),
                            pd.DataFrame(round_rows), differences, identities)


def play_chunk(p: int, d: int, rot_policies, hook: bool, seed: int, decision_timeout, start: int, stop: int,
               threads):
    """Deals ``start..stop-1``, each once per rotation: the per-game arrays the totals add up,
    ``final`` (games, p), ``exact`` and ``abs_err`` (games, R, p), by player."""
    deals = np.arange(start, stop, dtype=np.int64)
    game_ids = np.repeat(deals, d)
    per_game = [rot_policies[j] for _ in deals for j in range(d)]
    batch = simulate_games(p, len(game_ids), hook=hook, seed=seed, threads=threads, game_ids=game_ids,
                           player_policies=per_game, decision_timeout=decision_timeout)
    bids = batch.by_player(batch.bids).astype(np.int16)
    tricks = batch.by_player(batch.tricks).astype(np.int16)
    return batch.final, bids == tricks, np.abs(bids - tricks)


# --- the Dask engine ---------------------------------------------------------------------------------

def _as_list(policies) -> list:
    if isinstance(policies, str):
        return policies.split(",")
    return list(policies) if isinstance(policies, (list, tuple)) else [policies]


def _travel(policies, names: list[str]) -> dict[str, tuple[str, object]]:
    """How each user's player seated in ``names`` reaches a worker: ``("spec", text)``, a spec the worker
    loads (a file's path made absolute), or ``("pickle", bytes)``, the object pickled with cloudpickle."""
    given_as_text = {x.strip() for x in _as_list(policies) if isinstance(x, str)}
    travel = {}
    for name in dict.fromkeys(names):
        if not is_user_player(name):
            continue
        if name in given_as_text and looks_like_player_spec(name):
            where, _, attr = name.rpartition(":")
            if where.endswith(".py"):
                where = str(Path(where).resolve())
            travel[name] = ("spec", f"{where}:{attr}")
        else:
            travel[name] = ("pickle", _pickled(name, USER_PLAYERS[name]))
    return travel


def _pickled(name: str, obj) -> bytes:
    import cloudpickle

    # a class from a FILE.py spec lives in a module only this process has: send it by value
    module = sys.modules.get(type(obj).__module__)
    by_value = module is not None and module.__name__.startswith("wizsim_user_")
    if by_value:
        cloudpickle.register_pickle_by_value(module)
    try:
        return cloudpickle.dumps(obj)
    except Exception as err:
        raise ConfigError(f"player {name!r} cannot travel to the Dask workers: it does not pickle "
                          f"({type(err).__name__}: {err}); give it as FILE.py:NAME or package.module:NAME") from None
    finally:
        if by_value:
            cloudpickle.unregister_pickle_by_value(module)


def _rebuilt(name: str, how: str, what):
    try:
        if how == "spec":
            from wizsim.table.players import load_player

            return load_player(what)
        import cloudpickle

        return cloudpickle.loads(what)
    except Exception as err:
        raise ConfigError(f"player {name!r} cannot be rebuilt on a Dask worker ({type(err).__name__}: {err}); "
                          "give it as FILE.py:NAME or package.module:NAME that the workers can load") from None


# Workers that run several tasks as threads of one process (processes=False) share one registry of
# users' players and must not launch parallel kernels concurrently: one chunk at a time per process.
_CHUNK_LOCK = threading.Lock()
_MISSING = object()


def dask_chunk(travel: dict, job: tuple, start: int, stop: int, threads):
    """The task: ``play_chunk`` on a worker, with the run's users' players seated under their names
    (fresh copies; the process's own entries under those names are put back afterwards)."""
    from wizsim._dask import worker_threads

    with _CHUNK_LOCK:
        seated = {name: _rebuilt(name, how, what) for name, (how, what) in travel.items()}
        saved = {name: USER_PLAYERS.get(name, _MISSING) for name in seated}
        USER_PLAYERS.update(seated)
        try:
            return play_chunk(*job, start, stop, worker_threads(threads))
        finally:
            for name, old in saved.items():
                if old is _MISSING:
                    USER_PLAYERS.pop(name, None)
                else:
                    USER_PLAYERS[name] = old


@contextlib.contextmanager
def _on_dask(job, chunks, travel, scheduler, workers, threads, processes):
    """The chunks' results in chunk order, played on a Dask cluster, at most two chunks per worker in
    flight (the client's memory stays flat)."""
    import os

    from wizsim._dask import cluster_workers, open_client

    client, cluster = open_client(scheduler, workers, processes, ConfigError)
    try:
        n_workers = cluster_workers(client)
        if threads is None and cluster is not None:
            threads = max(1, (os.cpu_count() or 1) // n_workers)  # a local cluster shares this machine's cores
        run_id = uuid.uuid4().hex[:12]
        todo = iter(chunks)
        window = deque()

        def submit():
            c = next(todo, None)
            if c is not None:
                window.append(client.submit(dask_chunk, travel, job, c.start, c.stop, threads,
                                            key=f"wizsim-tournament-{run_id}-{c.index}", pure=False))

        for _ in range(2 * n_workers):
            submit()

        def results():
            while window:
                fut = window.popleft()
                res = fut.result()
                fut.release()
                submit()
                yield res

        yield results()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _games_table(kept, n_deals: int, d: int, p: int, rot_policies, distinct) -> pd.DataFrame:
    """The per-game table: one row per (game, player), games in order (deal-major, rotation-minor)."""
    final = np.concatenate([f for f, _, _ in kept])
    n = final.shape[0]
    is_win = final == final.max(axis=1, keepdims=True)
    win_share = is_win / is_win.sum(axis=1, keepdims=True)
    code = {name: k for k, name in enumerate(distinct)}
    pol = np.tile(np.array([[code[x] for x in row] for row in rot_policies], dtype=np.int8), (n_deals, 1))
    game_no = np.repeat(np.arange(n), p)
    return pd.DataFrame({
        "game": game_no,
        "deal": game_no // d,
        "rotation": game_no % d,
        "player": np.tile(np.arange(p), n),
        "policy": pd.Categorical.from_codes(pol.ravel(), categories=distinct),
        "score": final.ravel(),
        "win": win_share.ravel(),
        "exact_rounds": np.concatenate([e for _, e, _ in kept]).ravel(),
        "abs_bid_error": np.concatenate([a for _, _, a in kept]).ravel(),
    })
