"""Streaming summaries of large simulations: run the plan's chunks (``sim.plan``), keep only running sums.

Memory stays bounded whatever the count: a chunk's arrays are dropped once its sums are taken.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from wizsim._numba import Stopwatch
from wizsim.sim.driver import simulate_games, simulate_rounds
from wizsim.sim.plan import make_plan
from wizsim.stats import json_safe

# Games simulated a call when only summarised: a chunk of the plan (GAME_CHUNK, 65,536 games) in calls
# of this size keeps each call's result arrays (about 5 MB) in the processor's cache while they are
# summed, about 10% faster at 4 players with random policies.
SUMMARY_GAMES = 1 << 14


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
    seconds: float = 0.0  # simulating, compiling left out (``compile_seconds``)
    compile_seconds: float = 0.0
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
        return json_safe(out)  # the last round has no no-trump share: null, not NaN


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
              policies="heuristic", hook: bool = False, seed: int | None = 0, threads: int | None = None,
              progress=None, decision_timeout: float | None = None) -> Summary:
    """Simulate ``rounds`` rounds of size ``r`` or ``games`` whole games and summarise them by seat.

    The arguments are checked by ``sim.plan.make_plan`` (the errors ``wizsim simulate`` prints).
    ``progress`` is called with the number of rounds (or games) finished after every chunk.
    The no-trump share counts only rounds that turn up a card (not the last round of a game).
    ``decision_timeout``: seconds a user's Python player may take over one decision (``simulate_rounds``).
    """
    plan = make_plan(players, r=r, rounds=rounds, games=games, policies=policies, hook=hook, seed=seed)
    names, hook, seed = list(plan.policies), plan.hook, plan.seed
    clock = Stopwatch()
    sums = _Sums(players)
    # Load (or compile) the kernels before the clock starts: rates should measure simulation.
    if plan.mode == "rounds":
        simulate_rounds(players, plan.round, 1, names, hook=hook, seed=seed, threads=threads,
                        decision_timeout=decision_timeout)
    else:
        simulate_games(players, 1, names, hook=hook, seed=seed, threads=threads, decision_timeout=decision_timeout)
    if plan.mode == "rounds":
        summary = Summary("rounds", players, plan.round, plan.rounds, 0, names, hook, seed, threads)
        for c in plan.chunks():
            b = simulate_rounds(players, plan.round, c.size, names, hook=hook, seed=seed, first_index=c.start,
                                threads=threads, decision_timeout=decision_timeout)
            sums.add(b.bids, b.tricks, b.scores, b.trump, b.turn_up >= 0)
            if progress:
                progress(c.size)
    else:
        R = plan.rounds_per_unit
        summary = Summary("games", players, None, plan.games * R, plan.games, names, hook, seed, threads)
        total = np.zeros(players)
        wins = np.zeros(players)
        has_turn_up = np.arange(R) < R - 1
        for c in plan.chunks():
            shares = np.empty((c.size, players))  # each game's share of the win (a tie shares it)
            for lo in range(0, c.size, SUMMARY_GAMES):
                m = min(SUMMARY_GAMES, c.size - lo)
                g = simulate_games(players, m, names, hook=hook, seed=seed, first_game=c.start + lo, threads=threads,
                                   decision_timeout=decision_timeout)
                eligible = np.broadcast_to(has_turn_up, (m, R)).reshape(-1)
                sums.add(g.bids.reshape(-1, players), g.tricks.reshape(-1, players), g.scores.reshape(-1, players),
                         g.trump.reshape(-1), eligible)
                total += g.final.sum(axis=0)
                w = g.winners
                shares[lo:lo + m] = w / w.sum(axis=1, keepdims=True)
            wins += shares.sum(axis=0)  # one sum a chunk: the same additions whatever SUMMARY_GAMES is
            if progress:
                progress(c.size)
        summary.mean_total_by_player = (total / plan.games).tolist()
        summary.win_share_by_player = (wins / plan.games).tolist()
    summary.card_plays = plan.n_units * plan.card_plays_per_unit
    summary.seconds, summary.compile_seconds = clock.seconds, clock.compiled
    sums.fill(summary)
    return summary
