"""``Advice``: the advisor's answer, as numpy arrays, a pandas table and a JSON-ready dict.

pandas is imported only when ``Advice.table`` is first read: the command line renders from the
arrays, and importing pandas would cost more than answering a small question.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from wizsim.stats import json_float

TABLE_COLUMNS = ("bid", "allowed", "p_exact", "ev", "ev_low", "ev_high", "expected_tricks")


@dataclass
class Advice:
    """The answer to one question (CONTRACT.md).

    best_bid: the allowed bid with the highest expected score. p_tricks: (r+1, r+1), row b the
    distribution of tricks taken when bidding b and playing to make it. ev, ev_low, ev_high: expected
    score per bid and its 95% interval (equal for exact answers). method: "exact" or "monte-carlo".
    samples: deals used per bid (the accepted ones: the effective sample size of the rejection
    sampler) or, for "exact", the deals enumerated. tried: deals drawn (accepted or not).
    close_call: the bids within precision of the best (see the field).
    """

    question: dict  # hand, players, seat, trump, trump_card, earlier_bids, hook (canonical forms)
    best_bid: int
    allowed: np.ndarray  # (r+1,) bool
    p_tricks: np.ndarray  # (r+1, r+1) float64
    ev: np.ndarray  # (r+1,) float64
    ev_low: np.ndarray
    ev_high: np.ndarray
    method: str
    samples: int
    tried: int
    seed: int | None
    policy: str  # the opponents' policy
    player_policy: str  # the policy playing the player's cards to the bid
    conditioned: bool  # earlier bids (or a dealer's named suit) were conditioned on
    seconds: float = 0.0
    # Monte Carlo only: the bids not separated from the best at the precision reached (the best
    # included; [] when the best stands apart); None for exact answers, which have no sampling error.
    close_call: list[int] | None = None
    capped: bool = False  # stopped by the work budget before the best bid was clear

    @property
    def r(self) -> int:
        return self.p_tricks.shape[0] - 1

    @property
    def ess(self) -> int:
        """Effective sample size: rejection sampling keeps unweighted deals, so it is ``samples``."""
        return self.samples

    @property
    def p_exact(self) -> np.ndarray:
        return self.p_tricks.diagonal().copy()

    @property
    def expected_tricks(self) -> np.ndarray:
        return self.p_tricks @ np.arange(self.r + 1)

    @cached_property
    def table(self):
        """One row per bid 0..r with the CONTRACT.md columns (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame({name: values for name, values in zip(TABLE_COLUMNS, self._columns(), strict=True)})

    def _columns(self):
        return (np.arange(self.r + 1), self.allowed.astype(bool), self.p_exact, self.ev, self.ev_low, self.ev_high,
                self.expected_tricks)

    def rows(self) -> list[dict]:
        cols = self._columns()
        out = []
        for b in range(self.r + 1):
            out.append({"bid": int(cols[0][b]), "allowed": bool(cols[1][b]),
                        **{name: json_float(col[b]) for name, col in zip(TABLE_COLUMNS[2:], cols[2:], strict=True)}})
        return out

    def to_dict(self) -> dict:
        """The CONTRACT.md JSON object."""
        return {**self.question, "best_bid": int(self.best_bid), "method": self.method, "samples": int(self.samples),
                "table": self.rows(), "close_call": self.close_call}


def best_allowed(ev: np.ndarray, allowed: np.ndarray) -> int:
    """Highest expected score among the allowed bids; ties go to the lower bid."""
    masked = np.where(allowed, ev, -np.inf)
    return int(np.argmax(masked))
