"""``Advice``: the advisor's answer, as numpy arrays, a pandas table and a JSON-ready dict.

pandas is imported only when ``Advice.table`` is first read: the command line renders from the
arrays, and importing pandas would cost more than answering a small question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from wizsim.stats import json_float

TABLE_COLUMNS = ("bid", "allowed", "p_exact", "ev", "ev_low", "ev_high", "expected_tricks")


@dataclass(kw_only=True)
class Weighed:
    """What bid and play advice share about their weighed deals (keyword fields, after each answer's own)."""

    ess: float | None = None  # effective sample size of the weighted deals (None: ``samples``)
    warning: str | None = None  # what was heard or seen is unlikely under the opponents' model (one line)
    bid_trust: float = 1.0
    trump_trust: float = 1.0  # how far a dealer's named suit is trusted (``advisor.opponents``)
    timed_out: bool = False  # default precision stopped by the wall clock, not the work budget
    play_noise: float = 0.0  # how often the modelled opponents play a random card in the simulations
    doubt: float = 0.0  # the prior that the table is blind, not the model's (``policies.model``)
    seat_doubt: float = 0.0  # the prior that one heard seat alone is blind (``policies.model``)
    compile_seconds: float = 0.0  # compiling or loading kernels during the call: left out of ``seconds``
    # Monte Carlo only: the score of every choice (bid or card) on every kept deal (n, choices) and the
    # deals' weights (None: all 1), for paired comparisons of two choices on the same deals (the review's
    # loss interval)
    deal_scores: np.ndarray | None = field(default=None, repr=False, compare=False)
    deal_weights: np.ndarray | None = field(default=None, repr=False, compare=False)


@dataclass
class Advice(Weighed):
    """The answer to one question (docs/guide/advisor.md).

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
    reasons: dict | None = None  # explain=True: where the numbers come from (``advisor.reasons``)

    @property
    def r(self) -> int:
        return self.p_tricks.shape[0] - 1

    @property
    def p_exact(self) -> np.ndarray:
        return self.p_tricks.diagonal().copy()

    @property
    def expected_tricks(self) -> np.ndarray:
        return self.p_tricks @ np.arange(self.r + 1)

    @cached_property
    def table(self):
        """One row per bid 0..r with the columns docs/guide/advisor.md lists (a pandas DataFrame)."""
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
        """The JSON object of ``--json`` (docs/guide/advisor.md)."""
        return {"phase": "bid", **self.question, "best_bid": int(self.best_bid), "method": self.method,
                "samples": int(self.samples), "table": self.rows(), "close_call": self.close_call,
                "ess": json_float(self.ess if self.ess is not None else self.samples), "policy": self.policy,
                "bid_trust": self.bid_trust, "play_noise": self.play_noise, "doubt": self.doubt,
                "seat_doubt": self.seat_doubt, "warning": self.warning, "trump_trust": self.trump_trust,
                **with_reasons(self.reasons)}


def with_reasons(reasons: dict | None) -> dict:
    """The JSON object's ``"reasons"`` entry: none at all unless the answer was explained."""
    return {} if reasons is None else {"reasons": reasons}


PLAY_COLUMNS = ("card", "p_make", "ev", "ev_low", "ev_high", "expected_tricks")


@dataclass
class PlayAdvice(Weighed):
    """The answer to one play-phase question (docs/guide/advisor.md, "Which card now?").

    cards: the legal cards, ascending ids; for each, p_make (the chance of ending the round with exactly
    the bid when playing it now and playing on to make it), ev with its 95% interval (equal for exact
    answers) and expected_tricks (at the end of the round, those already taken included). best_card:
    the card with the highest expected score (ties: the lower id). samples: the deals used for every
    card (the same deals), or for "exact" the consistent deals enumerated; tried: deals drawn or
    enumerated, accepted or not.
    """

    question: dict  # PlayQuestion.describe(): phase, hand, ..., tricks_taken, hook (canonical forms)
    cards: np.ndarray  # (k,) int8
    p_make: np.ndarray  # (k,) float64
    ev: np.ndarray
    ev_low: np.ndarray
    ev_high: np.ndarray
    expected_tricks: np.ndarray
    method: str
    samples: int
    tried: int
    seed: int | None
    policy: str  # the opponents' policy
    play: str  # the policy playing the player's own later cards
    conditioned: bool  # the opponents' bids (or cards) were weighed
    seconds: float = 0.0
    play_trust: float = 0.0
    reasons: dict | None = None  # explain=True: the figures and a line of play (``advisor.reasons``)
    # explain=True: the worlds played out, to explain the advice against any card (``reasons.Explained``)
    explained: object = field(default=None, repr=False, compare=False)

    @property
    def best_index(self) -> int:
        return int(np.argmax(self.ev))

    @property
    def best_card(self) -> str:
        from wizsim.cards import format_card

        return format_card(int(self.cards[self.best_index]))

    def _columns(self):
        from wizsim.cards import format_card

        return ([format_card(int(c)) for c in self.cards], self.p_make, self.ev, self.ev_low, self.ev_high,
                self.expected_tricks)

    @cached_property
    def table(self):
        """One row per legal card, ascending id order, with the columns docs/guide/advisor.md lists (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame({name: values for name, values in zip(PLAY_COLUMNS, self._columns(), strict=True)})

    def rows(self) -> list[dict]:
        cols = self._columns()
        return [{"card": cols[0][j], **{name: json_float(col[j]) for name, col in zip(PLAY_COLUMNS[1:], cols[1:],
                                                                                    strict=True)}}
                for j in range(len(self.cards))]

    def to_dict(self) -> dict:
        """The JSON object of ``--json`` (docs/guide/advisor.md)."""
        return {**self.question, "best_card": self.best_card, "method": self.method, "samples": int(self.samples),
                "table": self.rows(), "ess": json_float(self.ess if self.ess is not None else self.samples),
                "policy": self.policy, "bid_trust": self.bid_trust, "play_trust": self.play_trust,
                "play_noise": self.play_noise, "doubt": self.doubt, "seat_doubt": self.seat_doubt,
                "warning": self.warning, "trump_trust": self.trump_trust, **with_reasons(self.reasons)}


def best_allowed(ev: np.ndarray, allowed: np.ndarray) -> int:
    """Highest expected score among the allowed bids; ties go to the lower bid."""
    masked = np.where(allowed, ev, -np.inf)
    return int(np.argmax(masked))
