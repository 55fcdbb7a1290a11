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
- ``bid_accuracy``: share of rounds whose bid was exact; ``mean_abs_bid_error``: mean |bid - tricks|;
  both overall and by round size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from wizsim.config import MAX_ROUND_INDEX, RulesConfig, check_count, n_game_rounds
from wizsim.policies import seat_policies
from wizsim.sim.driver import simulate_games
from wizsim.sim.plan import DEAL_CHUNK, make_plan
from wizsim.stats import Z95, json_float


def distinct_rotations(policies: list[str]) -> int:
    """The number of different lists among the rotations of ``policies`` (a divisor of its length)."""
    p = len(policies)
    for j in range(1, p):
        if p % j == 0 and policies[j:] + policies[:j] == policies:
            return j
    return p


@dataclass
class TournamentResult:
    players: int
    policies: list[str]  # the policy of player i in rotation 0
    seed: int
    hook: bool
    n_deals: int
    rotations: int
    games: pd.DataFrame  # one row per (game, player)
    summary: pd.DataFrame  # one row per distinct policy name
    by_round: pd.DataFrame  # one row per (policy, round size)

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
        return {"games": self.n_games, "players": self.players, "policies": entries, "deals": self.n_deals,
                "rotations": self.rotations, "seed": self.seed, "hook": self.hook,
                "table": list(self.policies)}


def run_tournament(players: int, policies, games: int, *, seed: int | None = 0, hook: bool = False,
                   threads: int | None = None, progress=None) -> TournamentResult:
    """Play about ``games`` whole games (see the module docstring); ``progress(k)`` is told of k more games."""
    names = seat_policies(policies, RulesConfig(players=players).players)
    games = check_count(games, "games", 1, (MAX_ROUND_INDEX + 1) // n_game_rounds(players))  # int64 round indices
    d = distinct_rotations(names)
    # the run's units are deals: each is played once per distinct rotation
    plan = make_plan(players, games=-(-games // d), policies=names, hook=hook, seed=seed, chunk_size=DEAL_CHUNK)
    p, seed, n_deals = players, plan.seed, plan.games
    rot_policies = [[names[(i + j) % p] for i in range(p)] for j in range(d)]

    finals, exact, abs_err, pol_idx = [], [], [], []
    distinct = list(dict.fromkeys(names))
    code = {n: k for k, n in enumerate(distinct)}
    for chunk in plan.chunks():
        deals = np.arange(chunk.start, chunk.stop, dtype=np.int64)
        game_ids = np.repeat(deals, d)
        per_game = [rot_policies[j] for _ in deals for j in range(d)]
        batch = simulate_games(p, len(game_ids), hook=plan.hook, seed=seed, threads=threads, game_ids=game_ids,
                               player_policies=per_game)
        bids = batch.by_player(batch.bids).astype(np.int16)
        tricks = batch.by_player(batch.tricks).astype(np.int16)
        finals.append(batch.final)
        exact.append(bids == tricks)
        abs_err.append(np.abs(bids - tricks))
        pol_idx.append(np.array([[code[n] for n in row] for row in per_game], dtype=np.int8))
        if progress is not None:
            progress(len(game_ids))
    final = np.concatenate(finals)  # (n, p) by player
    exact = np.concatenate(exact)  # (n, R, p)
    abs_err = np.concatenate(abs_err)
    pol = np.concatenate(pol_idx)  # (n, p)
    n = final.shape[0]
    is_win = final == final.max(axis=1, keepdims=True)
    win_share = is_win / is_win.sum(axis=1, keepdims=True)

    game_no = np.repeat(np.arange(n), p)
    games_df = pd.DataFrame({
        "game": game_no,
        "deal": game_no // d,
        "rotation": game_no % d,
        "player": np.tile(np.arange(p), n),
        "policy": pd.Categorical.from_codes(pol.ravel(), categories=distinct),
        "score": final.ravel(),
        "win": win_share.ravel(),
        "exact_rounds": exact.sum(axis=1).ravel(),
        "abs_bid_error": abs_err.sum(axis=1).ravel(),
    })

    rows, round_rows = [], []
    R = n_game_rounds(p)
    for k, name in enumerate(distinct):
        sel = pol == k  # (n, p)
        per_deal = np.where(sel, final, 0).reshape(n_deals, d, p).sum(axis=(1, 2)) / sel.reshape(n_deals, -1).sum(1)
        mean = float(per_deal.mean())
        if n_deals > 1:
            half = Z95 * float(per_deal.std(ddof=1)) / np.sqrt(n_deals)
            low, high = mean - half, mean + half
        else:
            low = high = float("nan")
        sel_r = np.broadcast_to(sel[:, None, :], exact.shape)
        rows.append({
            "name": name,
            "seats_per_game": int(names.count(name)),
            "mean_score": mean,
            "score_low": low,
            "score_high": high,
            "win_rate": float(win_share[sel].mean()),
            "bid_accuracy": float(exact[sel_r].mean()),
            "mean_abs_bid_error": float(abs_err[sel_r].mean()),
        })
        cnt = sel.sum()
        for r in range(R):
            round_rows.append({
                "policy": name,
                "round": r + 1,
                "bid_accuracy": float(exact[:, r, :][sel].sum() / cnt),
                "mean_abs_bid_error": float(abs_err[:, r, :][sel].sum() / cnt),
            })
    return TournamentResult(p, names, seed, plan.hook, n_deals, d, games_df, pd.DataFrame(rows),
                            pd.DataFrame(round_rows))
