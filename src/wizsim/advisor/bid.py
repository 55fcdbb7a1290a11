"""``advise``: the bid advice for one question, exact in round 1 and by Monte Carlo otherwise.

``advise(hand, trump, seat, players=4, *, bids=None, hook=False, trump_card=None, samples=None,
seed=None, policy=None, method="auto", max_samples=None, play=None, bid_trust=None, play_noise=None, doubt=None,
seat_doubt=None) -> Advice`` (docs/guide/advisor.md). ``policy`` is the opponents' model (one name, or one per other
seat; default ``DEFAULT_OPPONENTS``), ``bid_trust`` how far their heard bids are trusted, ``play_noise``
how often they play a random card in the simulations, ``doubt`` the prior that the table is blind and
``seat_doubt`` that one heard seat is (``advisor.opponents``); the player's own cards are played to its
bid by ``play``'s bid-aware play (default ``PLAYER_POLICY``).
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import Stopwatch
from wizsim.advisor.advice import Advice, best_allowed
from wizsim.advisor.opponents import DEFAULT_OPPONENTS, OpponentModel, check_trust, opponent_names
from wizsim.advisor.question import AdviceError, check_memory, check_policy_name, check_sampling, make_question
from wizsim.config import check_seed
from wizsim.rules.api import score
from wizsim.stats import Z95

PLAYER_POLICY = "heuristic"
METHODS = ("auto", "exact", "monte-carlo")


def advise(hand, trump, seat, players=4, *, bids=None, hook=False, trump_card=None, samples=None, seed=None,
           policy=None, method="auto", max_samples=None, play=None, bid_trust=None, play_noise=None,
           doubt=None, seat_doubt=None, explain=False, trump_trust=None) -> Advice:
    """Advise a bid (docs/guide/advisor.md). ``method`` "auto" enumerates round 1 exactly and samples otherwise;
    "monte-carlo" forces sampling (to check the sampler against the exact answer). ``max_samples``
    overrides the default-precision cap. ``play`` is the policy that plays the player's own cards in
    the candidate rounds (default ``PLAYER_POLICY``). ``explain``: the answer carries its reasons
    (``advisor.reasons``: each card's chance of taking a trick, read off the same deals)."""
    from wizsim.advisor.reasons import bid_reasons, card_chances, check_explain

    clock = Stopwatch()
    player_policy = check_policy_name(play, "play", PLAYER_POLICY)
    bid_trust = check_trust(bid_trust, "bid_trust")
    play_noise = check_trust(play_noise, "play_noise")
    doubt = check_trust(doubt, "doubt")
    seat_doubt = check_trust(seat_doubt, "seat_doubt")
    trump_trust = check_trust(trump_trust, "trump_trust")
    explain = check_explain(explain)
    q = make_question(hand, trump, seat, players, bids=bids, hook=hook, trump_card=trump_card,
                      policy=DEFAULT_OPPONENTS, player_policy=player_policy)
    model = OpponentModel.build(opponent_names(policy, q.players, q.seat), q.seat - 1, player_policy, bid_trust, 0.0,
                                play_noise, doubt, seat_doubt, trump_trust)
    samples, max_samples = check_sampling(samples, max_samples, method, METHODS)
    check_memory({"samples": samples, "max_samples": max_samples}, q.r + 1)
    if method == "exact" and q.r != 1:
        raise AdviceError(f"exact enumeration is for round 1 (one card), the hand has {q.r}")
    seed = check_seed(seed)
    r = q.r
    allowed = np.ones(r + 1, bool)
    if q.forbidden >= 0:
        allowed[q.forbidden] = False
    bids_range = np.arange(r + 1)
    if r == 1 and method != "monte-carlo":
        from wizsim.advisor.exact import exact_round_one

        res = exact_round_one(q, model)
        p_tricks = np.tile([1.0 - res.p_win, res.p_win], (2, 1))
        ev = _expected_scores(p_tricks)
        advice = Advice(q.describe(), best_allowed(ev, allowed), allowed, p_tricks, ev, ev.copy(), ev.copy(),
                        "exact", res.n_deals, res.n_deals, None, model.opponents_label(), q.player_policy,
                        res.conditioned, warning=res.warning, bid_trust=bid_trust, play_noise=play_noise,
                        doubt=doubt, seat_doubt=seat_doubt, trump_trust=trump_trust)
        chances = np.full((2, 1), res.p_win)  # the one card takes the trick or not, whatever the bid
    else:
        from wizsim.advisor.sampling import close_call, sample, scores_of, weighted_mean_se

        got = sample(q, model, seed, samples=samples, allowed=allowed, max_samples=max_samples, explain=explain)
        n = got.tricks.shape[0]
        w = got.weights if got.weights is not None else np.ones(n)
        p_tricks = np.stack([np.bincount(got.tricks[:, b], weights=w, minlength=r + 1)[: r + 1] / w.sum()
                             for b in bids_range])
        scores = scores_of(got.tricks)
        ev, se = weighted_mean_se(scores.astype(np.float64), got.weights)
        half = Z95 * se
        advice = Advice(q.describe(), best_allowed(ev, allowed), allowed, p_tricks, ev, ev - half, ev + half,
                        "monte-carlo", n, got.tried, seed, model.opponents_label(), q.player_policy, got.conditioned,
                        ess=got.ess, warning=got.warning, bid_trust=bid_trust, play_noise=play_noise,
                        doubt=doubt, seat_doubt=seat_doubt, trump_trust=trump_trust)
        advice.close_call = close_call(scores, allowed, got.z, got.weights)
        advice.deal_scores, advice.deal_weights = scores, got.weights
        advice.capped = got.capped
        advice.timed_out = got.timed_out
        chances = card_chances(got.won, got.weights, q.hand) if explain else None
    if explain:
        advice.reasons = bid_reasons(q.hand, chances, advice.p_tricks, advice.best_bid)
    advice.seconds, advice.compile_seconds = clock.seconds, clock.compiled
    return advice


def _expected_scores(p_tricks: np.ndarray) -> np.ndarray:
    """Expected score of each bid b (row b of ``p_tricks``: the distribution of tricks taken)."""
    t = np.arange(p_tricks.shape[0])
    scores = score(t[:, None], t[None, :])  # row b: the score of bidding b and taking t
    return np.array([float(p_tricks[b] @ scores[b]) for b in t])
