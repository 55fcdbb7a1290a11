"""Trump advice: the dealer facing a turned-up Wizard asks which suit to name.

``advise_trump(hand, seat, players=4, *, bids=None, hook=False, samples=None, seed=None, policy=None,
play=None, bid_trust=None, play_noise=None, doubt=None) -> TrumpAdvice`` (docs/guide/advisor.md, "Which suit, dealer?"). The dealer names the suit
after the deal and before anyone bids (docs/rules.md 3, 4), so no bid has been heard: the other seats bid by
their policies on each simulated deal, seeing the named suit. For each suit the bid advisor's
computation runs on the same deals (common random numbers: deal ``i`` is the same whatever the suit),
every bid of the dealer is played to make it, and the suit's value is its best bid's expected score.

The hook forbids the dealer one bid that depends on bids not yet made: with the hook on, each deal
scores the dealer's bid ``b`` only where ``b`` is allowed after the simulated bids, and otherwise the
best allowed neighbour is taken (``b - 1`` or ``b + 1``, whichever scores more on average over the deals).

Round 1 is exact (``advisor.exact`` per suit). Otherwise deals are added in doubling batches until the
best suit beats the runner-up by a paired 95% interval (its best bid against the runner-up's best bid
on the same deals), or the bid advisor's work budget is spent; a close call names the suits within
precision.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from wizsim._numba import Stopwatch
from wizsim.advisor.advice import with_reasons
from wizsim.advisor.question import AdviceError, make_question
from wizsim.cards import FIRST_WIZARD, format_trump, shorten
from wizsim.stats import Z95, json_float

SUITS = (0, 1, 2, 3)
TRUMP_COLUMNS = ("suit", "best_bid", "ev", "ev_low", "ev_high")


@dataclass
class TrumpAdvice:
    """Each suit the dealer may name: its best bid, that bid's expected score and 95% interval."""

    question: dict
    best_bid: np.ndarray  # (4,) int
    ev: np.ndarray  # (4,) float64
    ev_low: np.ndarray
    ev_high: np.ndarray
    method: str
    samples: int
    seed: int | None
    policy: str
    close_call: list[str] | None = None
    seconds: float = 0.0
    compile_seconds: float = 0.0  # compiling or loading kernels during the call: left out of ``seconds``
    warning: str | None = None  # what the answer had to give up (search players on fewer worlds), or None
    reasons: dict | None = None  # explain=True: where the numbers come from (``advisor.reasons``)
    # Monte Carlo only: each suit's value (its best bid's score) on every deal (n, 4), for paired comparisons
    deal_scores: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def best_index(self) -> int:
        return int(np.argmax(self.ev))

    @property
    def best_suit(self) -> str:
        return format_trump(self.best_index)

    @cached_property
    def table(self):
        """One row per suit S, H, D, C with the columns docs/guide/advisor.md lists (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame(self.rows())

    def rows(self) -> list[dict]:
        return [{"suit": format_trump(s), "best_bid": int(self.best_bid[s]), "ev": json_float(self.ev[s]),
                 "ev_low": json_float(self.ev_low[s]), "ev_high": json_float(self.ev_high[s])} for s in SUITS]

    def to_dict(self) -> dict:
        return {"phase": "trump", **self.question, "best_suit": self.best_suit, "method": self.method,
                "samples": int(self.samples), "table": self.rows(), "close_call": self.close_call,
                "policy": self.policy, "warning": self.warning, **with_reasons(self.reasons)}


def _questions(hand, seat, players, hook, policy, play):
    return [make_question(hand, format_trump(s), seat, players, trump_card="W", policy=policy, player_policy=play,
                          bids=None) for s in SUITS]


def advise_trump(hand, seat, players=4, *, bids=None, hook=False, samples=None, seed=None, policy=None, play=None,
                 bid_trust=None, max_samples=None, play_noise=None, doubt=None, explain=False) -> TrumpAdvice:
    """Which suit to name as dealer on a turned-up Wizard (see the module docstring); ``explain``: the answer
    carries its reasons (``advisor.reasons``)."""
    from wizsim.advisor.bid import PLAYER_POLICY
    from wizsim.advisor.opponents import OpponentModel, check_trust, opponent_names
    from wizsim.advisor.question import check_policy_name, check_sampling, parse_bids
    from wizsim.advisor.reasons import check_explain
    from wizsim.config import check_flag, check_seed

    started = Stopwatch()
    play = check_policy_name(play, "play", PLAYER_POLICY)
    bid_trust = check_trust(bid_trust, "bid_trust")
    play_noise = check_trust(play_noise, "play_noise")
    doubt = check_trust(doubt, "doubt")
    explain = check_explain(explain)
    hook = check_flag(hook, "hook", error=AdviceError)
    heard = parse_bids(bids)
    qs = _questions(hand, seat, players, hook, "heuristic", play)
    q0 = qs[0]
    if q0.seat != q0.players:
        raise AdviceError(f"only the dealer (seat {q0.players}) names the trump on a turned-up Wizard, got seat "
                          f"{q0.seat}")
    if heard:
        raise AdviceError(f"the dealer names the trump before anyone bids: leave out the bids, got "
                          f"{shorten(repr(bids), 40)}")
    samples, max_samples = check_sampling(samples, max_samples, "auto", ("auto",))
    seed = check_seed(seed)
    model = OpponentModel.build(opponent_names(policy, q0.players, q0.seat), q0.seat - 1, play, bid_trust, 0.0,
                                play_noise, doubt)
    describe = {k: v for k, v in q0.describe().items() if k not in ("trump", "trump_card")}
    describe["earlier_bids"] = []
    describe["hook"] = hook
    if q0.r == 1:
        advice = _exact(qs, model, describe, started, explain)
    else:
        advice = _monte_carlo(qs, model, describe, hook, samples, seed, max_samples, started, explain)
    advice.compile_seconds = started.compiled
    return advice


def _exact(qs, model, describe, started, explain=False) -> TrumpAdvice:
    from wizsim.advisor.bid import _expected_scores
    from wizsim.advisor.exact import exact_round_one

    best = np.zeros(4, int)
    ev = np.zeros(4)
    p_win = np.zeros(4)
    n = 0
    for s, q in enumerate(qs):
        res = exact_round_one(q, model)
        p_win[s] = res.p_win
        scores = _expected_scores(np.tile([1.0 - res.p_win, res.p_win], (2, 1)))
        best[s] = int(np.argmax(scores))
        ev[s] = scores[best[s]]
        n = res.n_deals
    advice = TrumpAdvice(describe, best, ev, ev.copy(), ev.copy(), "exact", n, None, model.opponents_label(), None)
    if explain:  # one card: its chance of taking the trick is the expected tricks, whatever the bid
        from wizsim.advisor.reasons import trump_reasons

        advice.reasons = trump_reasons(qs[0].hand, best, p_win, p_win[[advice.best_index]], advice.best_index)
    advice.seconds = started.seconds
    return advice


def _dealer_scores(tricks: np.ndarray, earlier_total: np.ndarray | None, r: int) -> np.ndarray:
    """(n, r+1) the dealer's score of each bid on each deal; with the hook (``earlier_total`` the other
    seats' bid total per deal) the forbidden bid scores as its better allowed neighbour."""
    from wizsim.advisor.sampling import scores_of

    scores = scores_of(tricks).astype(np.float64)
    if earlier_total is None:
        return scores
    out = scores.copy()
    means = scores.mean(axis=0)
    forbidden = r - earlier_total.astype(np.int64)
    for f in range(r + 1):
        rows = forbidden == f
        if rows.any():
            # the neighbour that scores more on average: a choice made without seeing the deal
            nb = max((b for b in (f - 1, f + 1) if 0 <= b <= r), key=lambda b: means[b])
            out[rows, f] = scores[rows, nb]
    return out


def _monte_carlo(qs, model, describe, hook, samples, seed, max_samples, started, explain=False) -> TrumpAdvice:
    from wizsim.advisor.sampling import (
        FIRST_BATCH,
        MIN_DEALS,
        affordable,
        deal_costs,
        deal_types,
        default_budget,
        default_cap,
        in_doubt,
        kernel_setup,
        look_z,
        run_typed_deals,
    )

    q0 = qs[0]
    r = q0.r
    cut_warning = None
    cap = samples if samples is not None else (max_samples or max(FIRST_BATCH, default_cap(q0) // 4))
    if samples is None and deal_costs(q0, model)[0] > deal_costs(q0)[0]:
        # opponents dearer than the heuristic (search): the budget counts their work, four suits a deal
        budget = default_budget(q0, model)
        model, cut_warning = affordable(q0, model, budget, lambda m: len(SUITS) * sum(deal_costs(q0, m)))
        cap = max_samples or max(MIN_DEALS, int(budget / (len(SUITS) * sum(deal_costs(q0, model)))))
    setups = [kernel_setup(q, model) for q in qs]
    want = samples if samples is not None else min(FIRST_BATCH, cap)
    parts = [[] for _ in SUITS]
    parts_totals = [[] for _ in SUITS]
    parts_won = [[] for _ in SUITS]  # explain: the dealer's cards that took a trick (``advisor.reasons``)
    have = 0
    look = 0
    z = Z95
    while True:
        idx = np.arange(have, want)
        for s, setup in enumerate(setups):
            earlier = np.zeros(len(idx), np.int16)
            # the table's type in doubt: nothing is heard yet, so each deal's type is drawn from the prior
            blind = (deal_types(setup, seed, have, np.ones((len(idx), q0.players)))[1] if in_doubt(setup)
                     else None)
            won = np.zeros((len(idx), r + 1), np.uint64) if explain else None
            tricks = run_typed_deals(setup, seed, idx, blind, earlier=earlier, won=won)
            parts_won[s].append(won)
            parts[s].append(tricks)
            parts_totals[s].append(earlier)  # the others' bids depend on the suit named
        have = want
        per_suit = [_dealer_scores(np.concatenate(parts[s]), np.concatenate(parts_totals[s]) if hook else None, r)
                    for s in SUITS]
        means = np.array([sc.mean(axis=0) for sc in per_suit])  # (4, r+1)
        best_bid = means.argmax(axis=1)
        value = np.stack([per_suit[s][:, best_bid[s]] for s in SUITS], axis=1)  # (n, 4)
        if samples is not None or have >= cap:
            break
        z = look_z(look)
        if not _close(value, z):
            break
        look += 1
        want = min(2 * want, cap)
    n = value.shape[0]
    ev = value.mean(axis=0)
    half = Z95 * value.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(4, np.inf)
    close = _close(value, z)
    advice = TrumpAdvice(describe, best_bid, ev, ev - half, ev + half, "monte-carlo", n, seed, model.opponents_label(),
                         [format_trump(s) for s in close], warning=cut_warning, deal_scores=value)
    if explain:
        from wizsim.advisor.reasons import card_chances, trump_reasons

        best = advice.best_index
        expected = np.array([np.concatenate(parts[s])[:, best_bid[s]].mean() for s in SUITS])
        won = np.concatenate(parts_won[best])[:, [best_bid[best]]]
        advice.reasons = trump_reasons(q0.hand, best_bid, expected, card_chances(won, None, q0.hand)[0], best)
    advice.seconds = started.seconds
    return advice


def _close(value: np.ndarray, z: float) -> list[int]:
    """The suits whose paired interval against the best suit includes 0 (the best included; [] when
    the best stands apart)."""
    n = value.shape[0]
    means = value.mean(axis=0)
    best = int(np.argmax(means))
    close = []
    for s in SUITS:
        if s == best:
            continue
        d = value[:, best] - value[:, s]
        sd = d.std(ddof=1) if n > 1 else np.inf
        if not d.mean() - z * sd / np.sqrt(n) > 0:
            close.append(s)
    return sorted([best, *close]) if close else []


def is_trump_question(trump, trump_card, seat, players, bids) -> bool:
    """The CLI's rule: a turned-up Wizard, no suit named, the dealer's seat and no bids ask for trump advice
    (any other seat missing the suit is told to give the suit the dealer named)."""
    from wizsim.config import DEFAULT_PLAYERS

    if trump is not None or trump_card is None or seat != (players or DEFAULT_PLAYERS):
        return False
    text = str(trump_card).strip().upper()
    is_wizard = text in ("W", "Z", "WIZARD") or (isinstance(trump_card, (int, np.integer))
                                                 and FIRST_WIZARD <= int(trump_card) < FIRST_WIZARD + 4)
    return is_wizard and not bids
