"""Monte Carlo advice: deals drawn from the information set, weighed by the opponents' model, every
candidate bid played on each.

Deal ``i`` of a run is round index ``i`` of the seed, the same for every candidate bid (common random
numbers), so per-deal differences between two bids measure their difference far more precisely than
either bid alone. What the earlier seats' bids (and an opponent dealer's named suit) tell about their
cards is weighed by ``policies.model`` (the likelihood of what was heard given the deal, soft unless
``bid_trust`` is 1) and met by rejection control (``advisor.kernels.evidence``): kept deals carry weights, mostly 1,
and every estimate and interval is weighted, with the effective sample size reported. The threshold
is the 99th percentile of the first batch's likelihoods, so the answer depends only on the seed.

With the table's type in doubt (``OpponentModel.doubt`` or ``seat_doubt`` > 0, ``policies.model``) every
deal is weighed, by its mixture weight in place of the model's likelihood, and played out with the blind
seats drawn for it from the posterior (``run_typed_deals``: those seats play ``random``).

Stopping: with ``samples`` given, that many kept deals (fewer only when the draw budget runs out).
Otherwise deals are added in doubling batches until the paired 95% interval of the score difference
between the best allowed bid and the runner-up excludes 0, or one work budget for the whole call
(deals played and deals drawn, ``MAX_CARD_PLAYS``) is spent; the 5% error is spread over the
successive checks (``look_z``) so the rule as a whole keeps 95%. A stop on the budget with the best
bids not separated is a close call (``close_call``): the advice names them all.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from wizsim._numba import compile_seconds
from wizsim.advisor.kernels.candidate_rounds import BLOCK, candidate_rounds_kernel
from wizsim.advisor.kernels.evidence import BLOCK as EVIDENCE_BLOCK
from wizsim.advisor.kernels.evidence import NO_NAMED, deal_likelihoods_kernel, table_types_kernel
from wizsim.policies import make_slots
from wizsim.policies.dispatch import kernel_ext
from wizsim.policies.records import Evidence, Fixed, Opponents, RoundInfo, Seats
from wizsim.rules.api import score
from wizsim.sim.round import BID_FORCED, BID_FREE, TRUMP_BY_RULES
from wizsim.stats import Z95

ALPHA = 0.05
FIRST_BATCH = 1_000
# Default precision: one work budget for the whole call, in card plays, covering the deals played
# (deals x candidate bids x cards per round x players) and the deals drawn and weighed: the heuristic
# plays about 8 million cards a second on the reference machine's two cores, so a close call stops
# after about 3 s whatever the round size and however unlikely the heard bids (a 15-card hand: about
# 30,000 deals).
MAX_CARD_PLAYS = 24_000_000
MIN_CAP = 2_000
# The smallest first batch, when the player's own search play (``--play search``) costs more than the budget:
# fewer deals, and it says so (search opponents get a stand-in instead: ``affordable``).
MIN_DEALS = 2
# A default-precision call stops at this wall-clock time even when the work budget is not spent (a
# slower machine, a busy one): the documented 3 s, plus half. Only then does the deal count depend on
# more than the seed, and the answer says so.
TIME_LIMIT = 4.5
# A drawn deal that is weighed costs its deal and the earlier seats' model bids: about a sixth of a
# card play per card dealt (measured: 1 million drawn deals a second at 4 players x 12 cards, against
# 8.7 million card plays a second).
DRAWN_DEAL_COST = 1 / 6
# With a fixed --samples: drawn deals per kept deal wanted, and in absolute terms.
MAX_TRIED_FACTOR = 400
MAX_TRIED = 10_000_000
THRESHOLD_QUANTILE = 0.99
PILOT = 1_000  # the first deals of a run, whose likelihoods set rejection control's threshold
# A heard bid is "unlikely under the model" when fewer drawn deals than this share have the seat's
# model bid within one trick of it: the answer then says so.
UNLIKELY_SHARE = 0.01


@dataclass
class Sample:
    tricks: np.ndarray  # (n, r+1) int8: tricks taken by the player bidding b, per kept deal
    weights: np.ndarray | None  # (n,) float64 weights of the kept deals; None when all are 1
    tried: int  # deals drawn, kept or not
    conditioned: bool  # the heard bids (or a named suit) were weighed
    z: float = Z95  # critical value of the last precision check (the stopping rule's, see look_z)
    capped: bool = False  # default precision stopped by the work budget (or max_samples), not by separating the bids
    warning: str | None = None  # the evidence is unlikely under the model (one line), or None
    timed_out: bool = False  # stopped by the wall clock (``TIME_LIMIT``), not by the work budget
    blind_share: float | None = None  # the table's type in doubt: the weighted share of other seats played out blind
    won: np.ndarray | None = None  # explain only: (n, r+1) uint64, the player's cards that took a trick bidding b

    @property
    def ess(self) -> float:
        return effective_size(self.weights, len(self.tricks))


def effective_size(weights, n: int) -> float:
    """Kish's effective sample size of weighted draws: (sum w)^2 / sum w^2 (n when unweighted)."""
    if weights is None:
        return float(n)
    total = float(weights.sum())
    return total * total / float((weights * weights).sum()) if total > 0 else 0.0


def bid_kernels() -> tuple:
    """The kernels a bid-advice call runs (for the first-run compile notice)."""
    return (candidate_rounds_kernel, deal_likelihoods_kernel, table_types_kernel)


def kernel_setup(q, model):
    """The fixed parts of ``play_round`` for question ``q`` (seats 0-based in the arrays); ``model`` the
    ``advisor.opponents.OpponentModel``."""
    players, seat0 = q.players, q.seat - 1
    names = list(model.names)
    slots = make_slots(names)
    seat_slot = np.array([slots.slot_of(n) for n in names], dtype=np.int8)
    fixed_hands = np.zeros(players, np.uint64)
    fixed_hands[seat0] = np.uint64(q.hand_mask)
    bid_mode = np.full(players, BID_FREE, np.int8)
    fixed_bids = np.zeros(players, np.int8)
    bid_mode[seat0] = BID_FORCED
    n_heard = 0
    if q.earlier_bids is not None:
        for s, b in enumerate(q.earlier_bids):
            bid_mode[s] = BID_FORCED
            fixed_bids[s] = b
        n_heard = len(q.earlier_bids)
    named = NO_NAMED
    if q.dealer_named_trump and model.trump_trust > 0 and model.kinds[players - 1]:
        named = q.trump
    conditioned = model.reads_bids(range(n_heard)) or named != NO_NAMED
    fixed_trump = TRUMP_BY_RULES if q.last_round else q.trump
    pool = np.uint64(q.turn_up_pool if not q.last_round else 0)
    setup = dict(players=players, r=q.r, hook=q.hook, seat_slot=seat_slot, slots=slots, fixed_hands=fixed_hands,
                 turn_up_pool=pool, fixed_trump=fixed_trump, bid_mode=bid_mode, fixed_bids=fixed_bids, seat=seat0,
                 named=named, n_heard=n_heard, conditioned=conditioned, model=model, trump=q.trump,
                 doubt=float(model.doubt), seat_doubt=float(model.seat_doubt))
    if model.doubt > 0 or model.seat_doubt > 0:
        setup.update(table_types_setup(setup))
    return setup


def in_doubt(setup) -> bool:
    """Whether the table's type is in doubt (``policies.model``): deals weighed and played out by type."""
    return setup["doubt"] > 0 or setup["seat_doubt"] > 0


def table_types_setup(setup) -> dict:
    """With the table's type in doubt (``policies.model``): ``seat_blind`` (players,), each seat's
    probability of what it was heard doing if it is blind, and ``typed``, the round kernel's seats and
    slots for each set of blind seats drawn (filled as they are met)."""
    from wizsim.policies.model import seat_factors

    players = setup["players"]
    seat_blind = np.ones(players, np.float64)
    seat_factors(opponents(setup), round_info(setup), setup["seat"], np.zeros(players, np.uint64), setup["fixed_bids"],
                 np.int64(setup["n_heard"]), np.int64(setup["named"]), np.full(players, -1, np.int8), True, seat_blind)
    return dict(seat_blind=seat_blind, typed={})


def deal_types(setup, seed: int, first_index: int, seat_model: np.ndarray):
    """(mixture weight (n,), blind seats drawn (n,) int8, one bit a seat) of deals ``first_index ..``
    given each seat's likelihood under the model (``advisor.kernels.evidence.table_types_kernel``)."""
    n = len(seat_model)
    weight = np.zeros(n, np.float64)
    blind = np.zeros(n, np.int8)
    table_types_kernel(np.uint64(seed), np.int64(first_index), np.ascontiguousarray(seat_model, np.float64),
                       setup["seat_blind"], setup["doubt"], seat_priors(setup), np.int64(setup["seat"]), weight, blind)
    return weight, blind


def opponents(setup) -> Opponents:
    """The opponents' model of ``setup`` as the kernels take it (``records.Opponents``)."""
    return setup["model"].record()


def round_info(setup) -> RoundInfo:
    """The round of ``setup`` as the model's kernels take it (``records.RoundInfo``; each deal has its own
    turned-up card)."""
    return RoundInfo(np.int64(setup["players"]), np.int64(setup["r"]), bool(setup["hook"]), np.int64(-1),
                     np.int64(setup["trump"]))


def seat_priors(setup) -> np.ndarray:
    """Per seat, the prior that it alone is blind: ``seat_doubt`` for each other seat heard (its bid, or a
    dealer's named suit), 0 for the seats not heard yet (``policies.model``)."""
    out = np.zeros(setup["players"], np.float64)
    out[: setup["n_heard"]] = setup["seat_doubt"]
    if setup["named"] != NO_NAMED:
        out[setup["players"] - 1] = setup["seat_doubt"]
    out[setup["seat"]] = 0.0
    return out


def _typed_setup(setup, mask: int):
    """``setup`` with the seats of bit mask ``mask`` playing ``DOUBT_POLICY``."""
    typed = setup["typed"]
    if mask not in typed:
        from wizsim.advisor.opponents import DOUBT_POLICY

        names = [DOUBT_POLICY if mask >> s & 1 else n for s, n in enumerate(setup["model"].names)]
        slots = make_slots(names)
        typed[mask] = dict(slots=slots, seat_slot=np.array([slots.slot_of(n) for n in names], dtype=np.int8))
    return {**setup, **typed[mask]}


def run_typed_deals(setup, seed: int, indices: np.ndarray, blind: np.ndarray | None,
                    earlier: np.ndarray | None = None, won: np.ndarray | None = None) -> np.ndarray:
    """Tricks (n, r+1) int8 of deals ``indices``, each played out with its blind seats (``blind`` (n,) bit
    masks, None: all on the model's table) playing ``DOUBT_POLICY``; ``earlier`` and ``won`` as ``run_deals``'s."""
    if blind is None or not blind.any():
        return run_deals(setup, seed, indices, earlier=earlier, won=won)[0]
    tricks = np.zeros((len(indices), setup["r"] + 1), np.int8)
    for mask in np.unique(blind):
        rows = blind == mask
        where = setup if mask == 0 else _typed_setup(setup, int(mask))
        part = None if earlier is None else np.zeros(int(rows.sum()), np.int16)
        part_won = None if won is None else np.zeros((int(rows.sum()), won.shape[1]), np.uint64)
        tricks[rows] = run_deals(where, seed, indices[rows], earlier=part, won=part_won)[0]
        if earlier is not None:
            earlier[rows] = part
        if won is not None:
            won[rows] = part_won
    return tricks


def blind_share(blind: np.ndarray, weights: np.ndarray | None, players: int) -> float | None:
    """The weighted share of the other seats played out blind (``blind`` bit masks)."""
    if not len(blind):
        return None
    seats = np.unpackbits(blind.astype(np.uint8)[:, None], axis=1).sum(axis=1) / (players - 1)
    return float(np.average(seats, weights=weights))


def weigh_deals(setup, seed: int, first_index: int, n: int, per_seat: bool = False):
    """(likelihood, acceptance draw, model bids (n, players), named suit possible) of deals
    ``first_index .. first_index + n - 1`` (see ``advisor.kernels.evidence``); with ``per_seat``, a fifth: each seat's
    probability of what it was heard doing under the model (n, players)."""
    like = np.zeros(n, np.float64)
    u = np.zeros(n, np.float64)
    model_bids = np.zeros((n, setup["players"]), np.int8)
    named_ok = np.zeros(n, np.bool_)
    seat_model = np.ones((n if per_seat else 0, setup["players"]), np.float64)
    players = setup["players"]
    evidence = Evidence(setup["fixed_bids"], np.int64(setup["n_heard"]), np.int64(setup["named"]),
                        np.zeros(players, np.uint64), np.zeros(0, np.int8), np.int64(0))
    from wizsim.sim.driver import run_batch

    info, them = round_info(setup), opponents(setup)

    def rows(kern, a, b):
        kern((np.uint64(seed), np.int64(first_index), np.int64(a), np.int64(b)),
             (setup["fixed_hands"], setup["turn_up_pool"]), info, setup["seat"], them, evidence,
             (like, u, model_bids, named_ok, seat_model), (np.empty(1, np.uint64), np.empty(players, np.uint64)))

    run_batch(deal_likelihoods_kernel, n, EVIDENCE_BLOCK, None, rows)
    if per_seat:
        return like, u, model_bids, named_ok, seat_model
    return like, u, model_bids, named_ok


def run_deals(setup, seed: int, indices: np.ndarray, want_hands: bool = False, earlier: np.ndarray | None = None,
              won: np.ndarray | None = None):
    """Deals ``indices`` of the run: tricks (n, r+1) int8, and, with ``want_hands``, turn_up (n,) int8
    and hands (n, players) uint64 (else None, None); ``earlier`` (n,) int16, when given, gets the total
    of the bids made before the player's on each deal; ``won`` (n, r+1) uint64, when given, the player's
    cards that took a trick on each deal bidding b (its trick log read: advice's reasons)."""
    r = setup["r"]
    slots = setup["slots"]
    n = len(indices)
    tricks = np.zeros((n, r + 1), np.int8)
    turn_up = np.zeros(n, np.int8)
    hands = np.zeros((n if want_hands else 1, setup["players"]), np.uint64)
    candidates = np.arange(r + 1, dtype=np.int8)
    if earlier is None:
        earlier = np.zeros(n, np.int16)
    from wizsim.sim.driver import run_batch  # here: the simulation's driver is not needed to import advice

    indices = np.ascontiguousarray(indices, np.int64)
    won = np.zeros((0, 0), np.uint64) if won is None else won
    seats = Seats(setup["seat_slot"], slots.kinds, slots.params, slots.table)
    fixed = Fixed(setup["fixed_hands"], setup["turn_up_pool"], np.int64(setup["fixed_trump"]), setup["bid_mode"],
                  setup["fixed_bids"])
    ext = kernel_ext(slots.kinds, params=slots.params)

    def rows(kern, a, b):
        kern(np.uint64(seed), indices[a:b], setup["players"], r, setup["hook"], seats, fixed, candidates,
             (setup["seat"], bool(want_hands), tricks[a:b], turn_up[a:b], hands[a:b] if want_hands else hands,
              earlier[a:b], won[a:b] if won.shape[0] else won), ext)

    run_batch(candidate_rounds_kernel, n, BLOCK, ext, rows)
    if want_hands:
        return tricks, turn_up, hands
    return tricks, None, None


def draw_deals(q, model, seed: int, n: int):
    """Deals ``0 .. n-1`` of a run as ``sample`` keeps them: (kept (n,) bool, weights (n,), tricks (n, r+1)
    int8 and, for every deal, turn_up (n,) int8 and hands (n, players) uint64); for tests and studies. The
    table's type, when in doubt, is left out: the weights are the model's and every deal is played on its table."""
    setup = kernel_setup(q, model)
    indices = np.arange(n)
    tricks, turn_up, hands = run_deals(setup, seed, indices, want_hands=True)
    if not setup["conditioned"]:
        return np.ones(n, bool), np.ones(n), tricks, turn_up, hands
    like, u, _, _ = weigh_deals(setup, seed, 0, n)
    c = threshold(like[:PILOT], evidence_bound(setup))
    return u * c < like, np.maximum(like / c, 1.0), tricks, turn_up, hands


def scores_of(tricks: np.ndarray) -> np.ndarray:
    """(n, r+1) scores of bidding b (column b) and taking ``tricks[:, b]``."""
    return score(np.arange(tricks.shape[1])[None, :], tricks)


def look_z(look: int) -> float:
    """Critical value of the ``look``-th (0-based) check of the stopping rule. Checking after every
    batch would, over many looks, declare a winner more often than 5% of the time by chance; spending
    the 5% as 2.5%, 1.25%, ... over the looks keeps the whole rule at 95% confidence."""
    return NormalDist().inv_cdf(1 - ALPHA / 2 ** (look + 1) / 2)


def weighted_mean_se(x: np.ndarray, weights: np.ndarray | None):
    """Mean of the columns of ``x`` (n, k) or of ``x`` (n,) and its standard error: the plain ones when
    unweighted, else the self-normalised importance-sampling estimate and its delta-method error."""
    n = x.shape[0]
    if weights is None:
        mean = x.mean(axis=0)
        se = x.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(np.shape(mean), np.inf)
        return mean, se
    weights = weights / weights.max()  # scale-free; a lone world (or equal weights) then weighs exactly 1
    w = weights if x.ndim == 1 else weights[:, None]
    total = weights.sum()
    mean = (w * x).sum(axis=0) / total
    se = np.sqrt((w * w * (x - mean) ** 2).sum(axis=0)) / total
    if n < 2:
        se = np.full(np.shape(mean), np.inf)
    return mean, se


def close_call(scores: np.ndarray, allowed: np.ndarray, z: float, weights: np.ndarray | None = None) -> list[int]:
    """The allowed bids not separated from the best one (the best included): those whose paired
    interval (``z``) of the per-deal score difference against the best includes 0. Empty when the
    best stands apart from every other bid."""
    n = scores.shape[0]
    idx = np.flatnonzero(allowed)
    if idx.size < 2 or n == 0:
        return []
    means, _ = weighted_mean_se(scores[:, idx].astype(np.float64), weights)
    best = idx[int(np.argmax(means))]
    close = []
    for b in idx:
        if b == best:
            continue
        mean, se = weighted_mean_se((scores[:, best] - scores[:, b]).astype(np.float64), weights)
        if not mean - z * se > 0:
            close.append(int(b))
    return sorted([int(best), *close]) if close else []


def separated(scores: np.ndarray, allowed: np.ndarray, look: int = 0, weights: np.ndarray | None = None) -> bool:
    """True when the best allowed candidate (a bid, or a card for play advice) beats the runner-up at
    the confidence of check ``look`` (paired interval of the per-deal score difference, see ``look_z``)."""
    n = scores.shape[0]
    idx = np.flatnonzero(allowed)
    if idx.size < 2:
        return n >= FIRST_BATCH
    means, _ = weighted_mean_se(scores[:, idx].astype(np.float64), weights)
    order = np.argsort(-means, kind="stable")
    best = idx[order[0]]
    # a candidate scoring the same as the best on every deal is interchangeable with it, not a rival
    # (two low cards that both lose): the decision is between the best and the first that differs
    rivals = [idx[j] for j in order[1:] if not np.array_equal(scores[:, idx[j]], scores[:, best])]
    if not rivals:
        return n >= FIRST_BATCH
    mean, se = weighted_mean_se((scores[:, best] - scores[:, rivals[0]]).astype(np.float64), weights)
    return mean - look_z(look) * se > 0


def deal_costs(q, model=None) -> tuple[float, float]:
    """Work, in heuristic card plays, of one deal played for every candidate bid (each seat's card plays
    at its policy's cost, ``policies.policy_cost``) and of one drawn deal."""
    from wizsim.policies import policy_cost

    per_play = 1.0 if model is None else float(np.mean([policy_cost(n, q.r) for n in model.names]))
    return float((q.r + 1) * q.r * q.players) * per_play, DRAWN_DEAL_COST * q.r * q.players


def default_budget(q, model=None) -> float:
    """The work budget of a default-precision call, in heuristic card plays (sampling and weighing
    together); at least ``MIN_CAP`` deals for policies no slower than the heuristic."""
    played_cost, _ = deal_costs(q, model)
    slow = played_cost > (q.r + 1) * q.r * q.players
    return MAX_CARD_PLAYS if slow else max(MAX_CARD_PLAYS, MIN_CAP * played_cost)


def default_cap(q, model=None) -> int:
    """The deals a default-precision call plays when nothing is rejected and the bids never separate."""
    played_cost, drawn_cost = deal_costs(q, model)
    return max(MIN_DEALS, int(default_budget(q, model) / (played_cost + drawn_cost)))


def threshold(like: np.ndarray, bound: float) -> float:
    """Rejection control's threshold from the first batch's likelihoods: their 99th percentile, else their
    largest, else (none of them possible: hard evidence that few deals meet) ``bound``, the largest
    likelihood any deal can have, which makes it plain rejection sampling."""
    c = float(np.quantile(like, THRESHOLD_QUANTILE)) if len(like) else 0.0
    if c <= 0:
        c = float(like.max(initial=0.0))
    return c if c > 0 else bound


def evidence_bound(setup) -> float:
    """The largest likelihood a deal can give the heard bids and the named suit (``policies.model``)."""
    from wizsim.policies.model import bids_bound, named_trump_bound

    m = setup["model"]
    bound = bids_bound(m.kinds, float(m.bid_trust), setup["players"], setup["r"], setup["hook"], setup["seat"],
                       setup["fixed_bids"], np.int64(setup["n_heard"]))
    if setup["named"] != NO_NAMED:
        bound *= named_trump_bound(m.kinds[-1], float(m.trump_trust))
    if in_doubt(setup):  # the mixture's weight with each seat's model part at its largest
        from wizsim.policies.model import seat_mixture

        return float(seat_mixture(seat_bounds(setup), setup["seat_blind"], setup["doubt"], seat_priors(setup),
                                  np.int64(setup["seat"]), np.zeros(setup["players"]))[0])
    return float(bound)


def seat_bounds(setup) -> np.ndarray:
    """Per seat, the largest probability of what it was heard doing under the model, whatever the deal."""
    return heard_bounds(setup["model"], setup["players"], setup["r"], setup["hook"], setup["seat"],
                        setup["fixed_bids"], setup["n_heard"], setup["named"] != NO_NAMED)


def heard_bounds(model, players: int, r: int, hook: bool, me: int, bids, n_heard: int, named: bool) -> np.ndarray:
    """Per seat, the largest probability of its first ``n_heard`` heard bids (and, with ``named``, of the
    dealer's named suit) under ``model``, whatever the deal: what rejection control bounds a mixture by."""
    from wizsim.policies.model import MODEL_BLIND, MODEL_NET, max_bid_weight, n_legal_bids, named_trump_bound
    from wizsim.rules.kernels import forbidden_bid

    out = np.ones(players, np.float64)
    total = 0
    for s in range(n_heard):
        b = int(bids[s])
        forbidden = forbidden_bid(hook, s, players, r, total)
        if s != me:
            modelled = model.kinds[s] != MODEL_BLIND and model.bid_trust > 0
            trust = float(model.bid_trust)
            if not modelled:
                out[s] = 1.0 / n_legal_bids(r, forbidden)
            elif model.kinds[s] == MODEL_NET:  # a softmax of 1
                out[s] = trust + (1.0 - trust) / n_legal_bids(r, forbidden)
            else:
                out[s] = max_bid_weight(b, r, forbidden, trust)
        total += b
    if named:
        out[players - 1] *= named_trump_bound(model.kinds[-1], float(model.trump_trust))
    return out


def unlikely_warning(q, setup, model_bids: np.ndarray, named_ok: np.ndarray) -> str | None:
    """One line naming the heard choices that the model finds unlikely (see ``UNLIKELY_SHARE``)."""
    m = setup["model"]
    odd = []
    for s in range(setup["n_heard"]):
        col = model_bids[:, s]
        if (col >= 0).any():
            near = np.abs(col.astype(np.int64) - int(q.earlier_bids[s])) <= 1
            if near.mean() < UNLIKELY_SHARE:
                odd.append(f"seat {s + 1}'s bid of {q.earlier_bids[s]}")
    if setup["named"] != NO_NAMED and named_ok.mean() < UNLIKELY_SHARE:
        odd.append("the dealer's named suit")
    if not odd:
        return None
    return (f"{' and '.join(odd)} {'is' if len(odd) == 1 else 'are'} unlikely for the opponents' model "
            f"({m.opponents_label()}): {'it counts' if len(odd) == 1 else 'they count'} for less, the cards for more")


# The fewest worlds a search player decides on in the simulations when default precision cuts them.
MIN_SEARCH_WORLDS = 4
# The fewest deals (worlds, for play advice) a default-precision answer with search players in its
# simulations rests on. Fewer are worse than a stand-in: the best of a few deals is the one they flattered
# (told ``search:worlds=8`` at a table of them, 15 cards, answers of about 2 deals were made 0.41 less often
# than they said, benchmarks/results/robustness-told-search-r15.json).
MIN_SEARCH_DEALS = 50


def _search_worlds(name: str) -> int | None:
    """The worlds of a search policy's name, None for any other policy."""
    from wizsim.policies import parse_policy

    spec = parse_policy(name)
    if spec.entry.name != "search":
        return None
    return int(spec.values[[p.name for p in spec.entry.params].index("worlds")])


def search_stand_in(name: str, play_noise: float) -> str:
    """The heuristic that stands in for search policy ``name`` in the simulations: the model that weighs
    its bids (``advisor.opponents``: the heuristic with its ``bid_shift``), playing with the model's noise."""
    from wizsim.advisor.opponents import with_play_noise
    from wizsim.policies import check_policy, parse_policy

    spec = parse_policy(name)
    shift = spec.values[[p.name for p in spec.entry.params].index("bid_shift")]
    return with_play_noise(check_policy(f"heuristic:bid_shift={shift!r}"), play_noise)


def time_fit(left: float, deals: int, seconds: float) -> int:
    """How many more deals fit in the ``left`` seconds before the wall-clock limit, at the pace of ``deals``
    deals in ``seconds``: a doubling batch may take as long as every batch before it, so a slow policy (a
    search player dearer than its cost says) or a slow machine would overrun the limit by a whole batch.
    The pace leaves out the call's first pass, which also loads the compiled kernels."""
    if left <= 0:
        return 0
    if seconds <= 0:
        return 1 << 40
    return int(left * deals / seconds)


def paced_want(spent: float, have: int, want: int, paced: tuple | None, limit: float) -> tuple:
    """(the deals to reach, whether the batch was cut by the wall clock, the pace's start): the first call
    (``paced`` None) marks the end of the first pass; later ones cut ``want`` to what ``time_fit`` allows."""
    if paced is None:
        return want, False, (spent, have)
    if have <= paced[1]:
        return want, False, paced
    fit = time_fit(limit - spent, have - paced[1], spent - paced[0])
    if fit < want - have:
        return have + max(fit, 0), True, paced
    return want, False, paced


def search_floor(model) -> int:
    """The deals a default-precision answer plays before its stopping rule may stop it: ``MIN_SEARCH_DEALS``
    with search players in the simulations (the best of fewer deals is the one they flattered), else 0.
    The batches stay small, so the wall-clock limit is checked between them."""
    return MIN_SEARCH_DEALS if any(_search_worlds(n) is not None for n in model.names) else 0


def affordable(q, model, budget: float, cost) -> tuple[object, str | None]:
    """Default precision: ``model`` as it can be simulated on ``MIN_SEARCH_DEALS`` deals within ``budget``
    (``cost(model)``: one deal's work), and the line that says what was changed (None: nothing).

    Search players (a 14-card hand against them: seconds a deal) first decide on fewer worlds, down to
    ``MIN_SEARCH_WORLDS``; when even that is too dear, the search opponents are played out by their
    stand-in (``search_stand_in``) and the player's own search play keeps the fewest worlds. A sample
    count given by the user plays them as named, however long it takes."""
    from dataclasses import replace

    from wizsim.policies import check_policy

    per_deal = cost(model)
    if MIN_SEARCH_DEALS * per_deal <= budget:
        return model, None
    worlds = {s: w for s, n in enumerate(model.names) if (w := _search_worlds(n)) is not None}
    if not worlds:
        return model, None

    def cut(fewer_of) -> tuple:
        names = list(model.names)
        for s in worlds:
            names[s] = fewer_of(s)
        return replace(model, names=tuple(names))

    def at_most(w: int):
        return cut(lambda s: check_policy(f"{model.names[s]}:worlds={min(worlds[s], w)}"))

    fits = lambda m: MIN_SEARCH_DEALS * cost(m) <= budget  # noqa: E731
    low, high = MIN_SEARCH_WORLDS, max(worlds.values())  # the most worlds that fit: cost grows with them
    if fits(at_most(low)) or all(s == model.me for s in worlds):
        while low < high:
            mid = (low + high + 1) // 2
            low, high = (mid, high) if fits(at_most(mid)) else (low, mid - 1)
        changed = sorted({(w, low) for w in worlds.values() if low < w})
        if not changed:
            return model, None
        said = ", ".join(f"{f} worlds instead of {w}" for w, f in changed)
        return at_most(low), (f"the search players decide on {said} in the simulations: as named, "
                              f"{MIN_SEARCH_DEALS} deals would cost more than the whole time budget (give the "
                              f"samples to play them as named)")
    stand_in = cut(lambda s: (check_policy(f"{model.names[s]}:worlds={MIN_SEARCH_WORLDS}") if s == model.me
                              else search_stand_in(model.names[s], model.play_noise)))
    mine = " (your own later play by search on 4 worlds)" if model.me in worlds else ""
    return stand_in, (f"the search opponents are played out by the heuristic in the simulations, as their bids are "
                      f"weighed{mine}: as named, {MIN_SEARCH_DEALS} deals would cost more than the whole time "
                      f"budget (give the samples to play them as named)")


def sample(q, model, seed: int, samples: int | None = None, allowed: np.ndarray | None = None,
           max_samples: int | None = None, explain: bool = False) -> Sample:
    """Kept deals for question ``q`` under the opponents' ``model`` (see the module docstring); with
    ``explain``, ``Sample.won`` too (the same deals' trick logs read)."""
    started, compiled = time.perf_counter(), compile_seconds()  # the limit leaves out compiling
    cut_warning = None
    if samples is None:
        model, cut_warning = affordable(q, model, default_budget(q, model), lambda m: sum(deal_costs(q, m)))
    setup = kernel_setup(q, model)
    played_cost, drawn_cost = deal_costs(q, model)
    search_min = search_floor(model)
    mixed = in_doubt(setup)  # the table's type in doubt: every deal weighed, and played out on its type
    conditioned = setup["conditioned"]
    weighed = conditioned or mixed
    if samples is not None:
        want = cap = samples
        budget = None
        max_tried = min(MAX_TRIED, MAX_TRIED_FACTOR * max(cap, FIRST_BATCH)) if weighed else None
    else:
        budget = default_budget(q, model)
        first = max(MIN_DEALS, min(FIRST_BATCH, int(budget / 4 / (played_cost + drawn_cost))))
        want = min(first, max_samples or first)
        cap = max_samples or np.inf
        max_tried = None
    if allowed is None:
        allowed = np.ones(q.r + 1, bool)
    parts: list[np.ndarray] = []
    wparts: list[np.ndarray] = []
    bparts: list[np.ndarray] = []
    won_parts: list[np.ndarray] = []
    have = 0
    tried = 0
    rate = 1.0
    look = 0
    z = Z95
    capped = False
    timed_out = False
    c = None
    warning = None
    cut, paced = False, None  # cut: this batch was cut to end by the wall-clock limit
    while True:
        if budget is not None and have:
            spent = time.perf_counter() - started - (compile_seconds() - compiled)
            if spent > TIME_LIMIT:
                capped = timed_out = True
                break
            want, cut_now, paced = paced_want(spent, have, want, paced, TIME_LIMIT)
            cut |= cut_now
            if want <= have:
                capped = timed_out = True
                break
        need = want - have
        n = need if not weighed else int(min(max(need / max(rate, 1e-4) * 1.1, FIRST_BATCH), 4_000_000))
        if max_tried is not None:
            n = min(n, max_tried - tried)
        # the first MIN_DEALS deals are played whatever they cost (a 14-card hand played by search on many
        # worlds costs more than the whole budget a deal): an answer, however rough, and it says how many
        budgeted = budget is not None and (have >= MIN_DEALS or MIN_DEALS * played_cost <= budget)
        if budgeted:
            left = budget - (have * played_cost + tried * drawn_cost)
            n = min(n, int(left / (drawn_cost + min(rate, 1.0) * played_cost)))
        if n <= 0:
            capped = budget is not None
            break
        blind_all = None
        if weighed:
            like, u, model_bids, named_ok, *seat_model = weigh_deals(setup, seed, tried, n, per_seat=mixed)
            if mixed:
                seat_model = seat_model[0]
                like, blind_all = deal_types(setup, seed, tried, seat_model)
            if c is None:
                c = threshold(like[:PILOT], evidence_bound(setup))
                warning = unlikely_warning(q, setup, model_bids, named_ok)
            acc = u * c < like
            w_all = np.maximum(like / c, 1.0)
        else:
            acc = np.ones(n, np.bool_)
            w_all = None
        usable = n
        if budgeted:  # the deals whose work, counted in order, still fits the budget
            work = (tried + np.arange(1, n + 1)) * drawn_cost + (have + np.cumsum(acc)) * played_cost
            usable = int(np.searchsorted(work, budget, side="right"))
        kept = np.flatnonzero(acc[:usable])[:need]
        # deals after the last one kept count as not drawn: the next batch starts there
        blind = blind_all[kept] if blind_all is not None else np.zeros(len(kept), np.int8)
        won = np.zeros((len(kept), q.r + 1), np.uint64) if explain else None
        tricks = run_typed_deals(setup, seed, tried + kept, blind, won=won)
        if explain:
            won_parts.append(won)
        tried += int(kept[-1]) + 1 if len(kept) == need else usable
        parts.append(tricks)
        wparts.append(w_all[kept] if w_all is not None else np.ones(len(kept)))
        bparts.append(blind)
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
        weights = _weights(wparts)
        wparts = [weights if weights is not None else np.ones(len(all_tricks))]
        z = look_z(look)
        if have >= search_min and separated(scores_of(all_tricks), allowed, look, weights):
            break
        if cut:
            capped = timed_out = True
            break
        look += 1
        want = min(2 * want, cap)
    tricks = np.concatenate(parts) if parts else np.zeros((0, q.r + 1), np.int8)
    if len(tricks) == 0 and conditioned:  # no deal met hard evidence within the budget: the cards alone
        m = setup["model"]
        got = sample(q, _blind(m), seed, samples, allowed, max_samples, explain)
        got.tried += tried
        got.warning = (f"no deal of {tried:,} drawn has the opponents' model ({m.opponents_label()}) doing what was "
                       f"heard at bid_trust {m.bid_trust:g}: it is ignored and the answer rests on the cards alone")
        return got
    weights = _weights(wparts)
    if capped and look > 0:
        z = look_z(look - 1)  # the last check made; the deals added after it did not get one
    share = blind_share(np.concatenate(bparts), weights, q.players) if mixed and bparts else None
    if cut_warning is not None:
        warning = cut_warning if warning is None else f"{warning}; {cut_warning}"
    won = (np.concatenate(won_parts) if won_parts else np.zeros((0, q.r + 1), np.uint64)) if explain else None
    return Sample(tricks, weights, tried, conditioned, z, capped, warning, timed_out, share, won)


def _blind(model):
    """The same model trusting nothing it heard."""
    from dataclasses import replace

    return replace(model, bid_trust=0.0, trump_trust=0.0)


def _weights(parts: list[np.ndarray]) -> np.ndarray | None:
    """The kept deals' weights, or None when every one is 1 (the plain estimates apply)."""
    if not parts:
        return None
    w = np.concatenate(parts)
    return None if np.all(w == 1.0) else w
