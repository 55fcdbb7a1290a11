"""Monte Carlo advice: deals drawn from the information set, every candidate bid played on each.

Deal ``i`` of a run is round index ``i`` of the seed, the same for every candidate bid (common random
numbers), so per-deal differences between two bids measure their difference far more precisely than
either bid alone. Earlier seats whose policy bids from its hand are conditioned on their heard bids by
rejection (``BID_CONDITION``): the accepted deals are an unweighted sample of the conditioned
distribution, so the effective sample size is the number accepted. A policy whose bid ignores its
hand (``random``) tells nothing by its bid; those seats just make the heard bid (``BID_FORCED``).

Stopping: with ``samples`` given, exactly that many accepted deals (fewer only when the rejection
budget runs out). Otherwise deals are added in doubling batches until the paired 95% interval of the
score difference between the best allowed bid and the runner-up excludes 0, or one work budget for
the whole call (deals played and deals rejected, ``MAX_CARD_PLAYS``) is spent; the 5% error is spread
over the successive checks (``look_z``) so the rule as a whole keeps 95%. A stop on the budget with
the best bids not separated is a close call (``close_call``): the advice names them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from wizsim.advisor.question import AdviceError
from wizsim.policies import make_slots, policy_entry
from wizsim.rules.api import score
from wizsim.sim.candidates import NO_CHECK, candidate_rounds_kernel
from wizsim.sim.round import BID_CONDITION, BID_FORCED, BID_FREE, TRUMP_BY_RULES
from wizsim.stats import Z95

ALPHA = 0.05
FIRST_BATCH = 1_000
# Default precision: one work budget for the whole call, in card plays, covering the deals played
# (deals x candidate bids x cards per round x players) and the deals drawn and rejected by the
# conditioning: the heuristic plays about 8 million cards a second on the reference machine's two
# cores, so a close call stops after about 3 s whatever the round size and however unlikely the
# heard bids (a 15-card hand: about 30,000 deals).
MAX_CARD_PLAYS = 24_000_000
MIN_CAP = 2_000
# A drawn deal that the conditioning rejects costs its deal and the earlier seats' bids: about a
# sixth of a card play per card dealt (measured: 1 million drawn deals a second at 4 players x 12
# cards, against 8.7 million card plays a second).
DRAWN_DEAL_COST = 1 / 6
# With a fixed --samples: tried deals per accepted deal wanted, and in absolute terms.
MAX_TRIED_FACTOR = 400
MAX_TRIED = 10_000_000


@dataclass
class Sample:
    tricks: np.ndarray  # (n, r+1) int8: tricks taken by the player bidding b, per accepted deal
    tried: int  # deals drawn, accepted or not
    conditioned: bool  # earlier bids were conditioned on by rejection
    z: float = Z95  # critical value of the last precision check (the stopping rule's, see look_z)
    capped: bool = False  # default precision stopped by the work budget (or max_samples), not by separating the bids


def kernel_setup(q):
    """The fixed parts of ``play_round`` for question ``q`` (seats 0-based in the arrays)."""
    players, seat0 = q.players, q.seat - 1
    names = [q.policy] * players
    names[seat0] = q.player_policy
    slots = make_slots(names)
    seat_slot = np.array([slots.slot_of(n) for n in names], dtype=np.int8)
    fixed_hands = np.zeros(players, np.uint64)
    fixed_hands[seat0] = np.uint64(q.hand_mask)
    bid_mode = np.full(players, BID_FREE, np.int8)
    fixed_bids = np.zeros(players, np.int8)
    bid_mode[seat0] = BID_FORCED
    conditioned = False
    if q.earlier_bids is not None:
        blind = policy_entry(q.policy).hand_blind
        for s, b in enumerate(q.earlier_bids):
            bid_mode[s] = BID_FORCED if blind else BID_CONDITION
            fixed_bids[s] = b
        conditioned = not blind and len(q.earlier_bids) > 0
    trump_check = NO_CHECK
    if q.dealer_named_trump and not policy_entry(q.policy).hand_blind:
        trump_check = q.trump
        conditioned = True
    fixed_trump = TRUMP_BY_RULES if q.last_round else q.trump
    pool = np.uint64(q.turn_up_pool if not q.last_round else 0)
    return dict(players=players, r=q.r, hook=q.hook, seat_slot=seat_slot, slots=slots, fixed_hands=fixed_hands,
                turn_up_pool=pool, fixed_trump=fixed_trump, bid_mode=bid_mode, fixed_bids=fixed_bids, seat=seat0,
                trump_check=trump_check, conditioned=conditioned)


def run_deals(setup, seed: int, first_index: int, n: int, want_hands: bool = False):
    """Deals ``first_index .. first_index + n - 1``: accepted (n,) bool, tricks (n, r+1) int8, and,
    with ``want_hands``, turn_up (n,) int8 and hands (n, players) uint64 (else None, None)."""
    r = setup["r"]
    slots = setup["slots"]
    accepted = np.zeros(n, np.bool_)
    tricks = np.zeros((n, r + 1), np.int8)
    turn_up = np.zeros(n, np.int8)
    hands = np.zeros((n if want_hands else 1, setup["players"]), np.uint64)
    candidates = np.arange(r + 1, dtype=np.int8)
    candidate_rounds_kernel(np.uint64(seed), np.int64(first_index), setup["players"], r, setup["hook"],
                            setup["seat_slot"], slots.kinds, slots.params, slots.table, setup["fixed_hands"],
                            setup["turn_up_pool"], np.int64(setup["fixed_trump"]), setup["bid_mode"],
                            setup["fixed_bids"], setup["seat"], candidates, np.int64(setup["trump_check"]),
                            bool(want_hands), accepted, tricks, turn_up, hands)
    if want_hands:
        return accepted, tricks, turn_up, hands
    return accepted, tricks, None, None


def scores_of(tricks: np.ndarray) -> np.ndarray:
    """(n, r+1) scores of bidding b (column b) and taking ``tricks[:, b]``."""
    return score(np.arange(tricks.shape[1])[None, :], tricks)


def look_z(look: int) -> float:
    """Critical value of the ``look``-th (0-based) check of the stopping rule. Checking after every
    batch would, over many looks, declare a winner more often than 5% of the time by chance; spending
    the 5% as 2.5%, 1.25%, ... over the looks keeps the whole rule at 95% confidence."""
    return NormalDist().inv_cdf(1 - ALPHA / 2 ** (look + 1) / 2)


def close_call(scores: np.ndarray, allowed: np.ndarray, z: float) -> list[int]:
    """The allowed bids not separated from the best one (the best included): those whose paired
    interval (``z``) of the per-deal score difference against the best includes 0. Empty when the
    best stands apart from every other bid."""
    n = scores.shape[0]
    idx = np.flatnonzero(allowed)
    if idx.size < 2 or n == 0:
        return []
    means = scores[:, idx].mean(axis=0)
    best = idx[int(np.argmax(means))]
    close = []
    for b in idx:
        if b == best:
            continue
        d = scores[:, best] - scores[:, b]
        sd = d.std(ddof=1) if n > 1 else np.inf
        if not d.mean() - z * sd / np.sqrt(n) > 0:
            close.append(int(b))
    return sorted([int(best), *close]) if close else []


def separated(scores: np.ndarray, allowed: np.ndarray, look: int = 0) -> bool:
    """True when the best allowed candidate (a bid, or a card for play advice) beats the runner-up at
    the confidence of check ``look`` (paired interval of the per-deal score difference, see ``look_z``)."""
    n = scores.shape[0]
    idx = np.flatnonzero(allowed)
    if idx.size < 2:
        return n >= FIRST_BATCH
    means = scores[:, idx].mean(axis=0)
    order = np.argsort(-means, kind="stable")
    best = idx[order[0]]
    # a candidate scoring the same as the best on every deal is interchangeable with it, not a rival
    # (two low cards that both lose): the decision is between the best and the first that differs
    rivals = [idx[j] for j in order[1:] if not np.array_equal(scores[:, idx[j]], scores[:, best])]
    if not rivals:
        return n >= FIRST_BATCH
    d = scores[:, best] - scores[:, rivals[0]]
    sd = d.std(ddof=1) if n > 1 else np.inf
    return d.mean() - look_z(look) * sd / np.sqrt(n) > 0


def deal_costs(q) -> tuple[float, float]:
    """Work, in card plays, of one deal played for every candidate bid and of one drawn deal."""
    return float((q.r + 1) * q.r * q.players), DRAWN_DEAL_COST * q.r * q.players


def default_budget(q) -> float:
    """The work budget of a default-precision call, in card plays (sampling and rejection together)."""
    played_cost, _ = deal_costs(q)
    return max(MAX_CARD_PLAYS, MIN_CAP * played_cost)


def default_cap(q) -> int:
    """The deals a default-precision call plays when nothing is rejected and the bids never separate."""
    played_cost, drawn_cost = deal_costs(q)
    return int(default_budget(q) / (played_cost + drawn_cost))


def sample(q, seed: int, samples: int | None = None, allowed: np.ndarray | None = None,
           max_samples: int | None = None) -> Sample:
    """Accepted deals for question ``q`` (see the module docstring for when it stops)."""
    setup = kernel_setup(q)
    played_cost, drawn_cost = deal_costs(q)
    if samples is not None:
        want = cap = samples
        budget = None
        max_tried = min(MAX_TRIED, MAX_TRIED_FACTOR * max(cap, FIRST_BATCH)) if setup["conditioned"] else None
    else:
        want = min(FIRST_BATCH, max_samples or FIRST_BATCH)
        cap = max_samples or np.inf
        budget = default_budget(q)
        max_tried = None
    if allowed is None:
        allowed = np.ones(q.r + 1, bool)
    parts: list[np.ndarray] = []
    have = 0
    tried = 0
    rate = 1.0
    look = 0
    z = Z95
    capped = False
    while True:
        need = want - have
        n = need if not setup["conditioned"] else int(min(max(need / max(rate, 1e-4) * 1.1, 256), 4_000_000))
        if max_tried is not None:
            n = min(n, max_tried - tried)
        if budget is not None:
            left = budget - (have * played_cost + tried * drawn_cost)
            n = min(n, int(left / (drawn_cost + min(rate, 1.0) * played_cost)))
        if n <= 0:
            capped = budget is not None
            break
        acc, tricks, _, _ = run_deals(setup, seed, tried, n)
        usable = n
        if budget is not None:  # the deals whose work, counted in order, still fits the budget
            work = (tried + np.arange(1, n + 1)) * drawn_cost + (have + np.cumsum(acc)) * played_cost
            usable = int(np.searchsorted(work, budget, side="right"))
        kept = np.flatnonzero(acc[:usable])[:need]
        # deals after the last one kept count as not drawn: the next batch starts there
        tried += int(kept[-1]) + 1 if len(kept) == need else usable
        parts.append(tricks[kept])
        have += len(kept)
        rate = max(have, 1) / max(tried, 1)
        if usable < n and len(kept) < need:
            capped = True
            break
        if have < want:
            continue
        if samples is not None:
            break
        if want >= cap:
            capped = True
            break
        all_tricks = np.concatenate(parts)
        parts = [all_tricks]
        z = look_z(look)
        if separated(scores_of(all_tricks), allowed, look):
            break
        look += 1
        want = min(2 * want, cap)
    tricks = np.concatenate(parts) if parts else np.zeros((0, q.r + 1), np.int8)
    if len(tricks) == 0:
        what = []
        if setup["bid_mode"][: q.seat - 1].tolist().count(BID_CONDITION):
            what.append(f"the earlier bids {list(q.earlier_bids)}")
        if setup["trump_check"] != NO_CHECK:
            what.append("the dealer naming that trump")
        raise AdviceError(f"no deal among {tried:,} drawn matches {' and '.join(what)} as the {q.policy} policy "
                          f"plays: (nearly) impossible for it")
    if capped and look > 0:
        z = look_z(look - 1)  # the last check made; the deals added after it did not get one
    return Sample(tricks, tried, setup["conditioned"], z, capped)
