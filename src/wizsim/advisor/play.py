"""Play advice: for every legal card now, the chance of making the bid and the expected round score.

``advise_play(hand, trump, seat, players=4, *, bids, played=(), hook=False, trump_card=None, samples=None,
seed=None, policy=None, play=None, method="auto", max_samples=None, bid_trust=None, play_trust=None,
play_noise=None, doubt=None, seat_doubt=None) -> PlayAdvice`` (docs/guide/advisor.md, "Which card now?"). The question
is checked and turned into the public state of the round by ``advisor.played``; ``policy`` is the
opponents' model and ``play`` the policy playing the player's own later cards (both default
``heuristic``); the trusts and doubts are ``advisor.opponents``'.

A *world* is one deal of the unseen cards to the other seats (each gets as many as it still holds, none
of a suit it showed it lacks) and, before the last round, the turned-up card when only its suit is
known. Every legal card is played out on the same worlds (common random numbers), so the per-world
differences between two cards measure their difference far more precisely than either card alone.
What the opponents did is evidence, weighed as for bid advice by the opponents' model
(``policies.model``, through ``weigh_worlds``): each world weighs the likelihood of the heard bids, an
opponent dealer's named suit and the cards each opponent chose, given that opponent's whole hand (its
cards in the world plus those it already played), mixed over the table's type and each seat's
(``doubt``, ``seat_doubt``). The worlds are played out on the model's table.

- **exact** when every policy involved plays deterministically (the heuristic does: its plays depend
  only on what it sees) and the deals consistent with the counts and voids number at most
  ``EXACT_LIMIT`` (20,000) and, at default precision, playing them all fits the work budget below: every
  such deal is listed (``advisor.kernels.world_batches.enumerate_worlds``, a kernel that gives up past ``ENUMERATION_STEPS``),
  weighed by its likelihood (deals of weight 0 left out) and played out once per card. Typical: the last
  tricks, and any state where the other seats hold few cards and the undealt pile is small (late in the
  last rounds of a game). At default precision the deals go in an order drawn from the seed, piece by
  piece, the wall clock read between pieces: cut short by it, the deals played are a simple random sample
  of the consistent ones and the answer is a Monte Carlo one over them (``timed_out``, its intervals).
- **monte-carlo** otherwise: worlds from the world sampler (``advisor.kernels.world_batches``), kept by rejection control
  with weights as bid advice's (``advisor.kernels.evidence``), added in doubling batches with the bid advisor's
  stopping rule (``advisor.sampling.separated``: the best card beats the runner-up by a paired 95%
  interval, the error spread over the looks) or, with ``samples``, exactly that many. One work budget
  covers the whole call: sampling (worlds drawn, accepted or not) and play-outs (cards played) are
  counted in card plays against ``MAX_WORK``. The worlds of a batch are drawn in pieces with the clock
  read between them (a state with several seats void in several suits can take milliseconds a world).
- A default-precision call stops at ``TIME_LIMIT`` of wall clock (compiling left out) from its start,
  whichever path it takes. With one legal card the answer is that card at once, its figures from a small
  simulation (at most ``FORCED_SAMPLES`` worlds and ``FORCED_SHARE`` of the budget and the time).
- ``samples``: the worlds (deals) the figures rest on, each weighed once; ``tried``: the worlds drawn or
  listed, kept or not.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from wizsim._numba import Stopwatch
from wizsim.advisor.advice import PlayAdvice
from wizsim.advisor.played import PlayQuestion, make_play_question
from wizsim.advisor.question import AdviceError, check_memory, check_policy_name, check_sampling
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, SUIT_MASKS, mask_to_cards

METHODS = ("auto", "exact", "monte-carlo")
EXACT_LIMIT = 20_000
# Counting deals with voids goes through every split of the remaining cards among the seats; past
# this many (seat, count) states the count is not worth making and the answer is sampled.
COUNT_STATES_LIMIT = 50_000
# ... and past this many steps (state x split) of the count itself: with many seats and voids (6 players,
# mid-round) the states stay under the limit above while the splits between them run to tens of millions
# (12 s for one answer); such a state is sampled.
COUNT_STEPS_LIMIT = 200_000
# Work budget in card plays for one call (about 0.5 s of heuristic play on the reference machine's two
# cores), and what drawing one world costs in those units (each opponent's bid is asked once).
MAX_WORK = 4_000_000
MIN_CAP = 1_000
TIME_LIMIT = 0.75  # the documented 0.5 s, plus half: see advisor.sampling.TIME_LIMIT
# The exact path lists the deals in a kernel, walking at most this many combinations (about 0.05 s);
# a state that would need more is sampled.
ENUMERATION_STEPS = 1_000_000
# Default precision's exact path plays the deals in pieces of about this much work (in card plays: about
# 0.03 s on the reference machine), the wall clock read between them.
PIECE_WORK = MAX_WORK // 16
# Drawing one world may take many tries of the sampler (several seats void in several suits, 2 ms a
# world): the worlds of a batch are drawn in pieces of about this many seconds at the pace measured (the
# first piece this many worlds), the clock read between them.
PIECE_SECONDS = 0.02
FIRST_PIECE = 32
# Only one legal card: the answer is that card, with its figures (the chance of making the bid, the
# expected score) from a small simulation: at most this many worlds and this share of the budget.
FORCED_SAMPLES = 200
FORCED_SHARE = 0.25


@dataclass
class Evaluation:
    tricks: np.ndarray  # (n, k) int8: the player's tricks at the end of the round, per world and card
    tried: int  # worlds drawn or enumerated, kept or not
    method: str
    conditioned: bool
    weights: np.ndarray | None = None  # (n,) the worlds' weights under the opponents' model (None: all 1)
    warning: str | None = None
    timed_out: bool = False


def _other_seats(q: PlayQuestion) -> list[int]:
    return [s for s in range(q.players) if s != q.me]


def _turn_up_choices(q: PlayQuestion) -> list[int]:
    """The turned-up cards a world may have: the known one, each unseen card of the pool, or none (-1)."""
    if q.last_round:
        return [-1]
    if q.trump_card is not None:
        return [q.trump_card]
    return [int(c) for c in mask_to_cards(q.turn_up_pool & q.unseen_mask)]


def _allowed_masks(q: PlayQuestion) -> list[int]:
    """Per other seat: the cards it may hold (no card of a suit it showed it lacks)."""
    out = []
    for s in _other_seats(q):
        void = 0
        for suit in range(4):
            if q.voids[s] >> suit & 1:
                void |= int(SUIT_MASKS[suit])
        out.append(~void)
    return out


def _multinomial(n: int, needs: list[int]) -> int:
    """Ways to give each seat ``needs[i]`` of ``n`` cards, the rest undealt."""
    out = 1
    for need in needs:
        if need > n:
            return 0
        out *= math.comb(n, need)
        n -= need
    return out


def _count_one(cards: int, needs: list[int], allowed: list[int]) -> int | None:
    """Ways to give each seat ``needs[i]`` of ``cards`` within ``allowed[i]`` (the rest stay undealt);
    ``EXACT_LIMIT + 1`` when it is surely more than that, None when counting would take too long."""
    if all((a & cards) == cards for a in allowed):  # no void matters: a multinomial
        return _multinomial(bin(cards).count("1"), needs)
    # A lower bound first: the deals that leave every card of a suit some seat lacks undealt. When
    # even those are too many to enumerate, the exact count is not needed.
    free = cards
    for a in allowed:
        free &= a
    if _multinomial(bin(free).count("1"), needs) > EXACT_LIMIT:
        return EXACT_LIMIT + 1
    if math.prod(need + 1 for need in needs) > COUNT_STATES_LIMIT:
        return None
    # Cards with the same set of allowed seats are interchangeable for counting: split each such class.
    classes: dict[tuple[bool, ...], int] = {}
    for c in mask_to_cards(cards):
        key = tuple(bool(a >> int(c) & 1) for a in allowed)
        classes[key] = classes.get(key, 0) + 1
    states = {tuple(needs): 1}
    steps = 0
    for key, m in classes.items():
        seats = [i for i, ok in enumerate(key) if ok]
        nxt: dict[tuple[int, ...], int] = {}
        for state, ways in states.items():
            for split in _splits(m, [state[i] for i in seats]):
                steps += 1
                if steps > COUNT_STEPS_LIMIT:
                    return None
                new = list(state)
                for i, x in zip(seats, split, strict=True):
                    new[i] -= x
                w = math.factorial(m) // math.prod(math.factorial(x) for x in split) // math.factorial(m - sum(split))
                nxt[tuple(new)] = nxt.get(tuple(new), 0) + ways * w
        states = nxt
    return states.get(tuple(0 for _ in needs), 0)


def _splits(m: int, caps: list[int]):
    """Every (x_i) with 0 <= x_i <= caps[i] and sum <= m."""
    if not caps:
        yield ()
        return
    for x in range(min(m, caps[0]) + 1):
        for rest in _splits(m - x, caps[1:]):
            yield (x, *rest)


def count_deals(q: PlayQuestion) -> int | None:
    """The deals consistent with the counts and voids (before the bid evidence): the number when it is
    at most ``EXACT_LIMIT``, else some number above it; None when it is too costly to tell."""
    needs = [q.held_counts[s] for s in _other_seats(q)]
    allowed = _allowed_masks(q)
    total = 0
    for t in _turn_up_choices(q):
        cards = q.unseen_mask & ~(1 << t if t >= 0 else 0)
        got = _count_one(cards, needs, allowed)
        if got is None:
            return None
        total += got
        if total > EXACT_LIMIT:
            return total
    return total


def enumerate_deals(q: PlayQuestion, cap: int = EXACT_LIMIT) -> tuple[np.ndarray, np.ndarray] | None:
    """Every consistent deal (``advisor.kernels.world_batches.enumerate_worlds``): worlds (n, players) uint64 (the player's own
    hand in its column) and the turned-up card of each (n,) int8; None when there are more than ``cap`` or
    listing them would take more than ``ENUMERATION_STEPS`` steps."""
    from wizsim.advisor.kernels.world_batches import enumerate_worlds

    return enumerate_worlds(q.state(), _turn_up_choices(q), cap, ENUMERATION_STEPS)


def play_kernels() -> tuple:
    """The kernels a play-advice call runs (for the CLI's first-run compile notice)."""
    from wizsim.advisor.kernels.evidence import world_likelihoods_kernel
    from wizsim.advisor.kernels.playouts import evaluate_worlds_kernel
    from wizsim.advisor.kernels.world_batches import enumerate_worlds_kernel, sample_worlds_kernel

    return (sample_worlds_kernel, world_likelihoods_kernel, evaluate_worlds_kernel, enumerate_worlds_kernel)


def _deterministic(name: str) -> bool:
    """Whether the policy's card play draws nothing at random: exact needs it."""
    from wizsim.policies.registry import deterministic_play

    return deterministic_play(name)


def _named_suit(q: PlayQuestion) -> int:
    """The suit an opponent dealer named on a turned-up Wizard (evidence about its hand), else -2."""
    wizard = q.trump_card is not None and FIRST_WIZARD <= q.trump_card < FIRST_JESTER
    return q.trump if wizard and q.me != q.players - 1 else -2


def _score(bid: int, tricks: np.ndarray) -> np.ndarray:
    from wizsim.rules.api import score

    return score(bid, tricks)


def _conditioned(q: PlayQuestion, model) -> bool:
    """Whether anything the opponents did is weighed under ``model``."""
    others = [s for s in range(q.players) if s != q.me]
    reads_play = model.play_trust > 0 and len(q.played) > 0 and any(model.kinds[s] for s in others)
    return model.reads_bids(others) or reads_play or (_named_suit(q) >= 0 and model.trump_trust > 0
                                                      and bool(model.kinds[q.players - 1]))


def weigh_worlds(q: PlayQuestion, state, model, worlds, turn_ups, seed: int, first_index: int):
    """(likelihood, acceptance draw, model bids, whether the dealer's model may name the suit named) of each
    world under the opponents' ``model``: with the table's type in doubt (``model.doubt``, or each seat's,
    ``model.seat_doubt``), the mixture's weight (``advisor.kernels.evidence``)."""
    from wizsim.advisor.kernels.evidence import BLOCK, world_likelihoods_kernel
    from wizsim.policies.records import Evidence, TableDoubt
    from wizsim.sim.driver import run_batch

    a = state.kernel_args()
    n = len(worlds)
    like, u = np.zeros(n), np.zeros(n)
    model_bids = np.zeros((n, q.players), np.int8)
    named_ok = np.ones(n, np.bool_)
    order = np.array(q.played or (0,), np.int8)
    seat_blind, priors = _seat_types(q, state, model)
    if n:
        evidence = Evidence(a["bids"], a["players"], np.int64(_named_suit(q)), a["seat_played"], order,
                            np.int64(len(q.played)))
        worlds = np.ascontiguousarray(worlds, np.uint64)
        turn_ups = np.ascontiguousarray(turn_ups, np.int8)
        info, them, doubt = _round_info(a), _opponents(model), TableDoubt(float(model.doubt), priors, seat_blind)

        def rows(kern, lo, hi):
            p = q.players  # the span's scratch (the kernel is lean: it allocates nothing)
            scratch = (np.empty(p, np.uint64), np.empty(1, np.uint64), np.empty(p), np.empty(p), np.empty((2, p)),
                       np.empty(p))
            kern((np.uint64(seed), np.int64(first_index), np.int64(lo), np.int64(hi)), (worlds, turn_ups), info,
                 a["me"], them, evidence, doubt, (like, u, model_bids, named_ok), scratch)

        run_batch(world_likelihoods_kernel, n, BLOCK, None, rows)
    return like, u, model_bids, named_ok


def _opponents(model):
    """The opponents' ``model`` as the kernels take it (``records.Opponents``)."""
    return model.record()


def _round_info(a: dict):
    """The round of ``PlayState.kernel_args`` as the model's kernels take it (``records.RoundInfo``; each
    world has its own turned-up card)."""
    from wizsim.policies.records import RoundInfo

    return RoundInfo(a["players"], a["r"], a["hook"], np.int64(-1), a["trump"])


def _weighs_named(q: PlayQuestion, model) -> bool:
    """Whether the dealer's named suit counts: a modelled opponent dealer, trust above 0."""
    return _named_suit(q) >= 0 and model.trump_trust > 0 and bool(model.kinds[q.players - 1])


def _seat_types(q: PlayQuestion, state, model) -> tuple[np.ndarray, np.ndarray]:
    """(each seat's probability of its heard bid and named suit if it is blind, each seat's prior of being
    blind on its own): what the mixture weighs the worlds by (``policies.model``). Every other seat is
    heard once the bidding is over; the blind table's suit counts only where the model's does."""
    from wizsim.policies.model import seat_factors

    a = state.kernel_args()
    players = a["players"]
    blind = np.ones(players, np.float64)
    seat_factors(_opponents(model), _round_info(a), a["me"], np.zeros(players, np.uint64), a["bids"], np.int64(players),
                 np.int64(_named_suit(q) if _weighs_named(q, model) else -1), np.full(players, -1, np.int8), True,
                 blind)
    priors = np.full(players, float(model.seat_doubt))
    priors[a["me"]] = 0.0
    return blind, priors


def _bound(q: PlayQuestion, state, model) -> float:
    """The largest weight a world can get for what the opponents did (a card weighs at most 1)."""
    from wizsim.advisor.sampling import heard_bounds
    from wizsim.policies.model import bids_bound, named_trump_bound, seat_mixture

    a = state.kernel_args()
    if model.doubt > 0 or model.seat_doubt > 0:  # the mixture's weight with each seat's part at its largest
        bounds = heard_bounds(model, a["players"], a["r"], a["hook"], a["me"], a["bids"], a["players"],
                              _weighs_named(q, model))
        seat_blind, priors = _seat_types(q, state, model)
        return float(seat_mixture(bounds, seat_blind, float(model.doubt), priors, np.int64(a["me"]),
                                  np.zeros(a["players"]))[0])
    bound = bids_bound(model.kinds, float(model.bid_trust), a["players"], a["r"], a["hook"], a["me"], a["bids"],
                       a["players"])
    return float(bound * (named_trump_bound(model.kinds[-1], float(model.trump_trust)) if _named_suit(q) >= 0
                          else 1.0))


def _warning(q: PlayQuestion, model, like: np.ndarray, model_bids: np.ndarray, named_ok: np.ndarray) -> str | None:
    from wizsim.advisor.sampling import UNLIKELY_SHARE

    if not (like > 0).any():
        return (f"what the opponents did is impossible for their model ({model.opponents_label()}) at the trust "
                f"given: it counts only where a world allows it, else the answer rests on the cards alone")
    odd = []
    for s in range(q.players):
        col = model_bids[:, s]
        if s != q.me and (col >= 0).any():
            if (np.abs(col.astype(np.int64) - q.bids[s]) <= 1).mean() < UNLIKELY_SHARE:
                odd.append(f"seat {s + 1}'s bid of {q.bids[s]}")
    if _named_suit(q) >= 0 and model.trump_trust > 0 and model.kinds[q.players - 1] \
            and named_ok.mean() < UNLIKELY_SHARE:
        odd.append("the dealer's named suit")
    if not odd:
        return None
    return (f"{' and '.join(odd)} {'is' if len(odd) == 1 else 'are'} unlikely for the opponents' model "
            f"({model.opponents_label()}): {'it counts' if len(odd) == 1 else 'they count'} for less, the cards "
            f"for more")


class _Clock(Stopwatch):
    """The wall clock of one call, compiling left out (the limit is about answering, not compiling)."""

    def __init__(self, limit: float):
        super().__init__()
        self.limit = limit

    def spent(self) -> float:
        return self.seconds

    def over(self) -> bool:
        return self.seconds > self.limit


def _exact_cost(q: PlayQuestion, model, k: int) -> float:
    """Work, in card plays, of weighing one deal and playing it out for ``k`` cards (as ``_monte_carlo``
    counts it)."""
    from wizsim.policies import policy_cost

    plays_left = q.players * q.r - len(q.played)
    per_play = float(np.mean([policy_cost(n, -(-plays_left // q.players)) for n in model.names]))
    return k * plays_left * per_play + (q.players - 1) * (2 + len(q.played) // q.players)


def _piece(per_world: float) -> int:
    """Worlds in one piece of work between two looks at the clock."""
    return max(16, int(PIECE_WORK // max(per_world, 1.0)))


def _exact(q: PlayQuestion, state, model, candidates: np.ndarray, seed: int, deals, clock: _Clock | None,
           per_world: float, worlds_out: list | None = None) -> Evaluation:
    """Every deal of ``deals`` (``enumerate_deals``) weighed and played out. With a ``clock`` (default
    precision) the deals go in an order drawn from ``seed``, piece by piece, the clock read between pieces:
    cut short, the deals played are a simple random sample of them, and the answer is a Monte Carlo one
    over those (its intervals, its seed, ``timed_out``)."""
    from wizsim.advisor.kernels.playouts import evaluate_worlds

    worlds, turn_ups = deals
    n = len(worlds)
    if n == 0:
        raise AdviceError("no deal of the unseen cards fits what was played: the seats that showed a void "
                          "cannot hold the cards left")
    conditioned = _conditioned(q, model)
    order = np.random.default_rng(seed).permutation(n) if clock is not None else np.arange(n)
    step = _piece(per_world) if clock is not None else n
    seen: list[tuple] = []  # per piece: (likelihood, model bids, named suit possible) of its deals
    tricks, rows, weighed = [], [], 0
    for start in range(0, n, step):
        idx = order[start:start + step]
        weighed = start + len(idx)
        if conditioned:
            seen.append(weigh_worlds(q, state, model, worlds[idx], turn_ups[idx], seed, start))
            idx = idx[seen[-1][0] > 0]
        tricks.append(evaluate_worlds(state, worlds[idx], turn_ups[idx], candidates, seed=seed, names=model.names))
        rows.append(idx)
        if clock is not None and weighed < n and clock.over():
            break
    cut = weighed < n
    weights, warning = None, None
    if conditioned:
        like, _, model_bids, named_ok = (np.concatenate(part) for part in zip(*seen, strict=True))
        warning = _warning(q, model, like, model_bids, named_ok)
        weights = like[like > 0]
        if not len(weights):  # no deal has what the opponents did: the cards alone, every deal weighed equally
            rows = [order[:weighed]]
            tricks = [evaluate_worlds(state, worlds[rows[0]], turn_ups[rows[0]], candidates, seed=seed,
                                      names=model.names)]
            weights = None
    if not cut:  # the deals back in the order they were listed: the exact answer does not depend on the seed
        back = np.argsort(np.concatenate(rows), kind="stable")
        tricks = [np.concatenate(tricks)[back]]
        weights = weights[back] if weights is not None else None
    tricks = np.concatenate(tricks)
    if worlds_out is not None:  # explain: each row's world and play stream, for advice's reasons (``advisor.reasons``)
        at, streams = np.concatenate(rows), np.concatenate([np.arange(len(r)) for r in rows])
        if not cut:
            at, streams = at[back], streams[back]
        worlds_out.append((worlds[at], turn_ups[at], streams))
    if cut:
        return Evaluation(tricks, weighed, "monte-carlo", conditioned, weights, warning, timed_out=True)
    return Evaluation(tricks, n, "exact", conditioned, weights, warning)


def _draw(state, n: int, seed: int, first_index: int, clock: _Clock | None):
    """Worlds ``first_index ..`` of the run (``advisor.kernels.world_batches.sample_worlds``), ``n`` of them or, with a ``clock``,
    fewer when it runs out: drawn piece by piece (a piece about ``PIECE_SECONDS`` at the pace measured), the
    clock read between pieces, at least one piece drawn. Returns (worlds, turned-up cards, cut short)."""
    from wizsim.advisor.kernels.world_batches import sample_worlds

    if clock is None:
        return (*sample_worlds(state, n, seed, first_index=first_index), False)
    parts, done, size = [], 0, FIRST_PIECE
    while done < n:
        m = min(size, n - done)
        t0 = time.perf_counter()
        parts.append(sample_worlds(state, m, seed, first_index=first_index + done))
        seconds = time.perf_counter() - t0
        done += m
        if done < n and clock.over():
            break
        size = max(FIRST_PIECE, int(m * PIECE_SECONDS / max(seconds, 1e-6)))
    worlds, turn_ups = (np.concatenate(part) for part in zip(*parts, strict=True))
    return worlds, turn_ups, done < n


def _monte_carlo(q: PlayQuestion, state, model, candidates: np.ndarray, seed: int, samples: int | None,
                 max_samples: int | None, clock: _Clock | None = None, budget: float = MAX_WORK,
                 worlds_out: list | None = None) -> Evaluation:
    from wizsim.advisor.kernels.playouts import evaluate_worlds
    from wizsim.advisor.sampling import (
        FIRST_BATCH,
        MIN_DEALS,
        PILOT,
        _weights,
        affordable,
        paced_want,
        search_floor,
        separated,
        threshold,
    )
    from wizsim.policies import policy_cost

    if samples is None and clock is None:
        clock = _Clock(TIME_LIMIT)
    elif samples is not None:
        clock = None  # a count given is played whatever it takes
    k = len(candidates)
    plays_left = q.players * q.r - len(q.played)
    cards_left = -(-plays_left // q.players)  # a search decision's cost grows with the cards left to play

    def world_cost(m):  # heuristic card plays to evaluate one world
        return k * plays_left * float(np.mean([policy_cost(n, cards_left) for n in m.names]))

    cut_warning = None
    if samples is None:
        model, cut_warning = affordable(q, model, budget, world_cost)
    per_play = float(np.mean([policy_cost(n, cards_left) for n in model.names]))
    per_world = world_cost(model)
    per_draw = (q.players - 1) * (1 + len(q.played) // q.players)  # model decisions asked per world weighed
    floor = MIN_CAP if per_play <= 1 else MIN_DEALS
    cap = samples if samples is not None else (max_samples or max(floor, int(budget // per_world)))
    want = samples if samples is not None else min(FIRST_BATCH, cap, max(1, int(budget / 4 / per_world)))
    search_min = search_floor(model)
    allowed = np.ones(k, bool)
    conditioned = _conditioned(q, model)
    parts: list[np.ndarray] = []
    wparts: list[np.ndarray] = []
    have = drawn = work = look = 0
    c = None
    warning = None
    rate = 1.0
    bid = q.bids[q.me]
    max_drawn = 400 * cap + 10_000
    timed_out = cut = False  # cut: this batch was cut to end by the wall-clock limit
    paced = None
    while True:
        if clock is not None and have:
            spent = clock.spent()
            if spent > clock.limit:
                timed_out = True
                break
            want, cut_now, paced = paced_want(spent, have, want, paced, clock.limit)
            cut |= cut_now
            if want <= have:
                timed_out = True
                break
        need = want - have
        n = need if not conditioned else int(min(max(need / max(rate, 1e-3) * 1.1, FIRST_BATCH), 1_000_000))
        n = min(n, max_drawn - drawn)
        if n <= 0:
            break
        worlds, turn_ups, cut_drawing = _draw(state, n, seed, drawn, clock)
        n = len(worlds)
        if conditioned:
            like, u, model_bids, named_ok = weigh_worlds(q, state, model, worlds, turn_ups, seed, drawn)
            if c is None:
                c = threshold(like[:PILOT], _bound(q, state, model))
                warning = _warning(q, model, like, model_bids, named_ok)
            acc = u * c < like
            w = np.maximum(like / c, 1.0)
            kept = np.flatnonzero(acc)[:need]
            used = int(kept[-1]) + 1 if len(kept) == need else n
        else:
            kept = np.arange(n)
            w = np.ones(n)
            used = n
        tricks = evaluate_worlds(state, worlds[kept], turn_ups[kept], candidates, seed=seed, first_index=drawn,
                                 names=model.names)
        if worlds_out is not None:  # explain: the worlds, for advice's reasons (``advisor.reasons``)
            worlds_out.append((worlds[kept], turn_ups[kept], drawn + np.arange(len(kept))))
        parts.append(tricks)
        wparts.append(w[kept])
        have += len(kept)
        drawn += used
        rate = max(have, 1) / max(drawn, 1)
        work += len(kept) * per_world + used * (q.players - 1 + per_draw)
        if cut_drawing and have:  # the clock ran out inside the batch
            timed_out = True
            break
        if have < want and (samples is not None or 2 * work <= budget):
            continue
        if samples is not None or have >= cap or not have:
            break
        all_tricks = np.concatenate(parts)
        parts = [all_tricks]
        weights = _weights(wparts)
        wparts = [weights if weights is not None else np.ones(len(all_tricks))]
        if have >= search_min and separated(_score(bid, all_tricks), allowed, look, weights):
            break
        if cut:
            timed_out = True
            break
        if 2 * work > budget:  # the next batch (as many worlds again) would overrun the budget
            break
        look += 1
        want = min(2 * want, cap)
    tricks = np.concatenate(parts)
    if len(tricks) == 0 and conditioned:  # hard evidence no world met: the cards alone
        from dataclasses import replace

        got = _monte_carlo(q, state, replace(model, bid_trust=0.0, play_trust=0.0, trump_trust=0.0), candidates, seed, samples,
                           max_samples, clock, budget, worlds_out)
        got.tried += drawn
        got.warning = (f"no world of {drawn:,} drawn has the opponents' model ({model.opponents_label()}) doing what "
                       f"they did at the trust given: it is ignored and the answer rests on the cards alone")
        return got
    if cut_warning is not None:
        warning = cut_warning if warning is None else f"{warning}; {cut_warning}"
    return Evaluation(tricks, drawn, "monte-carlo", conditioned, _weights(wparts), warning, timed_out)


def advise_play(hand, trump, seat, players=4, *, bids, played=(), hook=False, trump_card=None, samples=None,
                seed=None, policy=None, play=None, method="auto", max_samples=None, bid_trust=None,
                play_trust=None, play_noise=None, doubt=None, seat_doubt=None, explain=False,
                trump_trust=None) -> PlayAdvice:
    """Advise a card (docs/guide/advisor.md, "Which card now?"). ``method`` "auto" enumerates where the module docstring
    says and samples otherwise; "exact" insists on enumeration and "monte-carlo" forces sampling (to
    check one against the other). ``max_samples`` overrides the default-precision cap. ``policy``: the
    opponents' model (one name or one per other seat), ``bid_trust`` / ``play_trust`` / ``trump_trust``: how
    far their bids, their cards and a dealer's named suit are trusted, ``play_noise`` how often they play a random card in the play-outs,
    ``doubt`` the prior that the table is blind and ``seat_doubt`` that one seat is on its own, which weigh
    the worlds (``advisor.opponents``). ``explain``: the answer carries its reasons (``advisor.reasons``)."""
    from wizsim.advisor.opponents import (
        DEFAULT_PLAY_ADVICE_DOUBT,
        DEFAULT_PLAY_ADVICE_NOISE,
        DEFAULT_PLAY_ADVICE_SEAT_DOUBT,
        OpponentModel,
        check_trust,
        opponent_names,
    )
    from wizsim.advisor.reasons import check_explain, explain_play
    from wizsim.config import check_seed

    clock = _Clock(TIME_LIMIT)
    play = check_policy_name(play, "play", "heuristic")
    bid_trust = check_trust(bid_trust, "bid_trust")
    play_trust = check_trust(play_trust, "play_trust")
    trump_trust = check_trust(trump_trust, "trump_trust")
    play_noise = DEFAULT_PLAY_ADVICE_NOISE if play_noise is None else check_trust(play_noise, "play_noise")
    doubt = DEFAULT_PLAY_ADVICE_DOUBT if doubt is None else check_trust(doubt, "doubt")
    seat_doubt = DEFAULT_PLAY_ADVICE_SEAT_DOUBT if seat_doubt is None else check_trust(seat_doubt, "seat_doubt")
    q = make_play_question(hand, trump, seat, players, bids=bids, played=played, hook=hook, trump_card=trump_card,
                           policy="heuristic", play=play)
    model = OpponentModel.build(opponent_names(policy, q.players, q.seat), q.me, play, bid_trust, play_trust,
                                play_noise, doubt, seat_doubt, trump_trust)
    samples, max_samples = check_sampling(samples, max_samples, method, METHODS)
    seed = check_seed(seed)
    worlds = [] if check_explain(explain) else None
    candidates = q.legal_cards
    check_memory({"samples": samples, "max_samples": max_samples}, len(candidates), per_deal=8 * q.players + 24)
    state = q.state()
    budget = MAX_WORK
    if len(candidates) == 1 and samples is None and method == "auto":  # forced: a small simulation for its figures
        budget *= FORCED_SHARE
        clock.limit *= FORCED_SHARE
        max_samples = min(max_samples or FORCED_SAMPLES, FORCED_SAMPLES)
    default = samples is None and method == "auto"  # default precision: the work budget and the clock hold
    deals = None
    if all(_deterministic(n) for n in model.names) and method != "monte-carlo":
        cap = min(EXACT_LIMIT, int(budget // _exact_cost(q, model, len(candidates)))) if default else EXACT_LIMIT
        deals = enumerate_deals(q, cap)
        if deals is None and method == "exact":
            raise AdviceError(f"exact enumeration is not possible here: more than {cap:,} deals are consistent "
                              f"with what you have seen (or too many partial deals to tell)")
    elif method == "exact":
        raise AdviceError("exact enumeration is not possible here: a policy involved draws at random")
    if deals is not None:
        ev = _exact(q, state, model, candidates, seed, deals, clock if default else None,
                    _exact_cost(q, model, len(candidates)), worlds)
    else:
        ev = _monte_carlo(q, state, model, candidates, seed, samples, max_samples, clock, budget, worlds)
    advice = _advice(q, model, candidates, ev, seed)
    if worlds is not None:
        explain_play(advice, state, model.names, seed, worlds, ev.tricks)
    advice.seconds, advice.compile_seconds = clock.seconds, clock.compiled
    return advice


def _advice(q: PlayQuestion, model, candidates: np.ndarray, ev: Evaluation, seed: int) -> PlayAdvice:
    from wizsim.advisor.sampling import effective_size, weighted_mean_se
    from wizsim.stats import Z95

    bid = q.bids[q.me]
    n = ev.tricks.shape[0]
    scores = _score(bid, ev.tricks).astype(np.float64)
    mean, se = weighted_mean_se(scores, ev.weights)
    w = ev.weights / ev.weights.max() if ev.weights is not None else np.ones(n)
    if ev.method == "exact":
        low = high = mean
    else:
        low, high = mean - Z95 * se, mean + Z95 * se
    p_make = (w[:, None] * (ev.tricks == bid)).sum(axis=0) / w.sum()
    tricks = (w[:, None] * ev.tricks).sum(axis=0) / w.sum()
    return PlayAdvice(q.describe(), candidates, p_make, mean, low, high, tricks, ev.method, n, ev.tried,
                      seed if ev.method != "exact" else None, model.opponents_label(), q.play, ev.conditioned,
                      ess=effective_size(ev.weights, n), warning=ev.warning, bid_trust=model.bid_trust,
                      play_trust=model.play_trust, timed_out=ev.timed_out, deal_scores=scores,
                      deal_weights=ev.weights, play_noise=model.play_noise, doubt=model.doubt,
                      seat_doubt=model.seat_doubt, trump_trust=model.trump_trust)
