"""Streaming summaries of large simulations: run in chunks, keep only running sums.

Memory stays bounded whatever the count: a chunk's arrays are dropped once its sums are taken.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import numpy as np

from wizsim.config import RulesConfig
from wizsim.sim.driver import check_seed, seat_policies, simulate_games, simulate_rounds

ROUND_CHUNK = 1 << 20
GAME_CHUNK = 1 << 14


@dataclass
class Summary:
    mode: str  # "rounds" or "games"
    players: int
    round: int | None
    rounds: int
    games: int
    policies: list[str]
    hook: bool
    seed: int
    threads: int | None
    seconds: float = 0.0
    card_plays: int = 0
    mean_bid_by_seat: list[float] = field(default_factory=list)
    mean_tricks_by_seat: list[float] = field(default_factory=list)
    mean_score_by_seat: list[float] = field(default_factory=list)
    exact_bid_share_by_seat: list[float] = field(default_factory=list)
    no_trump_share: float = 0.0
    mean_total_by_player: list[float] | None = None
    win_share_by_player: list[float] | None = None

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("nan")

    @property
    def card_plays_per_second(self) -> float:
        return self.card_plays / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict:
        out = asdict(self)
        out["rounds_per_second"] = self.rounds_per_second
        out["card_plays_per_second"] = self.card_plays_per_second
        return out


class _Sums:
    def __init__(self, players: int):
        self.n = 0
        self.bid = np.zeros(players)
        self.tricks = np.zeros(players)
        self.score = np.zeros(players)
        self.exact = np.zeros(players)
        self.no_trump = 0
        self.no_trump_eligible = 0

    def add(self, bids, tricks, scores, trump, eligible_mask):
        """bids/tricks/scores (m, players) for m rounds; trump (m,); eligible_mask: rounds with a turn-up."""
        self.n += bids.shape[0]
        self.bid += bids.sum(axis=0, dtype=np.int64)
        self.tricks += tricks.sum(axis=0, dtype=np.int64)
        self.score += scores.sum(axis=0, dtype=np.int64)
        self.exact += (bids == tricks).sum(axis=0)
        self.no_trump += int((trump[eligible_mask] == -1).sum())
        self.no_trump_eligible += int(eligible_mask.sum())

    def fill(self, s: Summary):
        n = max(self.n, 1)
        s.mean_bid_by_seat = (self.bid / n).tolist()
        s.mean_tricks_by_seat = (self.tricks / n).tolist()
        s.mean_score_by_seat = (self.score / n).tolist()
        s.exact_bid_share_by_seat = (self.exact / n).tolist()
        s.no_trump_share = self.no_trump / self.no_trump_eligible if self.no_trump_eligible else float("nan")


def summarize(players: int, *, r: int | None = None, rounds: int | None = None, games: int | None = None,
              policies="random", hook: bool = False, seed: int | None = 0, threads: int | None = None,
              progress=None) -> Summary:
    """Simulate ``rounds`` rounds of size ``r`` or ``games`` whole games and summarise them by seat.

    ``progress`` is called with the number of rounds (or games) finished after every chunk.
    The no-trump share counts only rounds that turn up a card (not the last round of a game).
    """
    cfg = RulesConfig(players=players, hook=bool(hook))
    seed = check_seed(seed)
    names = seat_policies(policies, players)
    sums = _Sums(players)
    # Load (or compile) the kernels before the clock starts: rates should measure simulation.
    if games is None:
        cfg.check_round(r)
        simulate_rounds(players, r, 1, names, hook=cfg.hook, seed=seed, threads=threads)
    else:
        simulate_games(players, 1, names, hook=cfg.hook, seed=seed, threads=threads)
    t0 = time.perf_counter()
    if games is None:
        cfg.check_round(r)
        summary = Summary("rounds", players, r, int(rounds), 0, names, cfg.hook, seed, threads)
        done = 0
        while done < rounds:
            m = min(ROUND_CHUNK, rounds - done)
            b = simulate_rounds(players, r, m, names, hook=cfg.hook, seed=seed, first_index=done, threads=threads)
            sums.add(b.bids, b.tricks, b.scores, b.trump, b.turn_up >= 0)
            done += m
            if progress:
                progress(m)
        summary.card_plays = int(rounds) * r * players
    else:
        R = cfg.rounds_per_game
        summary = Summary("games", players, None, int(games) * R, int(games), names, cfg.hook, seed, threads)
        total = np.zeros(players)
        wins = np.zeros(players)
        done = 0
        has_turn_up = np.arange(R) < R - 1
        while done < games:
            m = min(GAME_CHUNK, games - done)
            g = simulate_games(players, m, names, hook=cfg.hook, seed=seed, first_game=done, threads=threads)
            eligible = np.broadcast_to(has_turn_up, (m, R)).reshape(-1)
            sums.add(g.bids.reshape(-1, players), g.tricks.reshape(-1, players), g.scores.reshape(-1, players),
                     g.trump.reshape(-1), eligible)
            total += g.final.sum(axis=0)
            w = g.winners
            wins += (w / w.sum(axis=1, keepdims=True)).sum(axis=0)  # a tie shares the win
            done += m
            if progress:
                progress(m)
        summary.card_plays = int(games) * players * R * (R + 1) // 2
        summary.mean_total_by_player = (total / max(games, 1)).tolist()
        summary.win_share_by_player = (wins / max(games, 1)).tolist()
    summary.seconds = time.perf_counter() - t0
    sums.fill(summary)
    return summary
