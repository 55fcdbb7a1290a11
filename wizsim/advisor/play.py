"""Play advice: for every legal card now, the chance of making the bid and the expected round score.

``advise_play(hand, trump, seat, players=4, *, bids, played=(), hook=False, trump_card=None, samples=None,
seed=None, policy=None, play=None) -> PlayAdvice`` (CONTRACT.md, "Play advice"). The question is checked
and turned into the public state of the round by ``advisor.played``; ``policy`` is the opponents' policy
and ``play`` the one playing the player's own later cards (both default ``heuristic``).

A *world* is one deal of the unseen cards to the other seats (each gets as many as it still holds, none
of a suit it showed it lacks) and, before the last round, the turned-up card when only its suit is
known. Every legal card is played out on the same worlds (common random numbers), so the per-world
differences between two cards measure their difference far more precisely than either card alone.
The heard bids are evidence, as for bid advice: a world counts only when each opponent's policy, shown
that opponent's whole hand (its cards in the world plus those it already played), bids what was heard.

- **exact** when every policy involved is deterministic (the heuristic is: its bids and plays depend
  only on what it sees), no opponent dealer named the trump on a turned-up Wizard (the heuristic
  breaks ties between suits at random there, so that evidence is not 0 or 1), and the deals
  consistent with the counts and voids number at most ``EXACT_LIMIT`` (20,000): every such deal is
  enumerated, weighted 0/1 by the bid evidence, and played out once per card. Typical: the last tricks, and any state where the other seats hold few
  cards and the undealt pile is small (late in the last rounds of a game).
- **monte-carlo** otherwise: worlds from the world sampler (``sim.worlds``), added in doubling batches
  with the bid advisor's stopping rule (``advisor.sampling.separated``: the best card beats the
  runner-up by a paired 95% interval, the error spread over the looks) or, with ``samples``, exactly
  that many. One work budget covers the whole call: sampling (worlds drawn, accepted or not) and
  play-outs (cards played) are counted in card plays against ``MAX_WORK``.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from wizsim.advisor.advice import PlayAdvice
from wizsim.advisor.played import PlayQuestion, make_play_question
from wizsim.advisor.question import AdviceError, check_memory, check_policy_name, check_sampling
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, SUIT_MASKS, mask_to_cards

METHODS = ("auto", "exact", "monte-carlo")
EXACT_LIMIT = 20_000
# Counting deals with voids goes through every split of the remaining cards among the seats; past
# this many (seat, count) states the count is not worth making and the answer is sampled.
COUNT_STATES_LIMIT = 50_000
# Work budget in card plays for one call (about 0.5 s of heuristic play on the reference machine's two
# cores), and what drawing one world costs in those units (each opponent's bid is asked once).
MAX_WORK = 4_000_000
MIN_CAP = 1_000


@dataclass
class Evaluation:
    tricks: np.ndarray  # (n, k) int8: the player's tricks at the end of the round, per world and card
    tried: int  # worlds drawn or enumerated, accepted or not
    method: str
    conditioned: bool
    tolerance: int = 0  # the heard bids were matched within this many tricks


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
    for key, m in classes.items():
        seats = [i for i, ok in enumerate(key) if ok]
        nxt: dict[tuple[int, ...], int] = {}
        for state, ways in states.items():
            for split in _splits(m, [state[i] for i in seats]):
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


def enumerate_deals(q: PlayQuestion) -> tuple[np.ndarray, np.ndarray]:
    """Every consistent deal: worlds (n, players) uint64 (the player's own hand in its column) and the
    turned-up card of each (n,) int8."""
    others = _other_seats(q)
    needs = [q.held_counts[s] for s in others]
    allowed = _allowed_masks(q)
    rows: list[list[int]] = []
    turn_ups: list[int] = []

    def deal(i: int, left: int, hands: list[int], t: int):
        if i == len(others):
            rows.append(hands.copy())
            turn_ups.append(t)
            return
        pool = [int(c) for c in mask_to_cards(left & allowed[i])]
        for combo in itertools.combinations(pool, needs[i]):
            m = 0
            for c in combo:
                m |= 1 << c
            hands[i] = m
            deal(i + 1, left & ~m, hands, t)

    for t in _turn_up_choices(q):
        deal(0, q.unseen_mask & ~(1 << t if t >= 0 else 0), [0] * len(others), t)
    worlds = np.zeros((len(rows), q.players), np.uint64)
    worlds[:, q.me] = np.uint64(q.hand_mask)
    if rows:
        worlds[:, others] = np.array(rows, dtype=np.uint64)
    return worlds, np.array(turn_ups, np.int8)


def play_kernels() -> tuple:
    """The kernels a play-advice call runs (for the CLI's first-run compile notice)."""
    from wizsim.sim.evaluation import evaluate_worlds_kernel
    from wizsim.sim.worlds import sample_worlds_kernel

    return (sample_worlds_kernel, evaluate_worlds_kernel)


def _deterministic(name: str) -> bool:
    """Whether the policy's card play draws nothing at random: exact needs it."""
    from wizsim.policies import policy_entry

    return policy_entry(name).deterministic_play


def _hand_blind(name: str) -> bool:
    from wizsim.policies import policy_entry

    return policy_entry(name).hand_blind


def _dealer_named_trump(q: PlayQuestion) -> bool:
    """An opponent dealer named the trump on a turned-up Wizard, and its policy reads its hand."""
    wizard = q.trump_card is not None and FIRST_WIZARD <= q.trump_card < FIRST_JESTER
    return wizard and q.me != q.players - 1 and not _hand_blind(q.policy)


def _score(bid: int, tricks: np.ndarray) -> np.ndarray:
    from wizsim.rules.api import score

    return score(bid, tricks)


def _exact(q: PlayQuestion, state, candidates: np.ndarray, seed: int) -> Evaluation:
    from wizsim.advisor.evidence import worlds_evidence
    from wizsim.sim.evaluation import evaluate_worlds

    worlds, turn_ups = enumerate_deals(q)
    tried = len(worlds)
    if tried == 0:
        raise AdviceError("no deal of the unseen cards fits what was played: the seats that showed a void "
                          "cannot hold the cards left")
    # As the sampler does: when no deal matches the bids exactly (opponents who bid unlike the
    # policy), the bids are matched within one trick more, and so on; every deal shares one tolerance.
    for tolerance in range(q.r + 1):
        keep = worlds_evidence(state, worlds, turn_ups, q.policy, tolerance)
        if keep.any():
            break
    tricks = evaluate_worlds(state, worlds[keep], turn_ups[keep], candidates, q.policy, q.play, seed)
    return Evaluation(tricks, tried, "exact", bool((~keep).any()), tolerance)


def _monte_carlo(q: PlayQuestion, state, candidates: np.ndarray, seed: int, samples: int | None,
                 max_samples: int | None) -> Evaluation:
    from wizsim.advisor.sampling import FIRST_BATCH, separated
    from wizsim.sim.evaluation import evaluate_worlds
    from wizsim.sim.worlds import sample_worlds

    k = len(candidates)
    plays_left = q.players * q.r - len(q.played)
    per_world = k * plays_left  # card plays to evaluate one world
    cap = samples if samples is not None else (max_samples or max(MIN_CAP, MAX_WORK // per_world))
    want = samples if samples is not None else min(FIRST_BATCH, cap)
    allowed = np.ones(k, bool)
    parts: list[np.ndarray] = []
    have = tried = work = look = tolerance = 0
    bid = q.bids[q.me]
    while True:
        n = want - have
        worlds, turn_ups, tries, tol = sample_worlds(state, n, seed, first_index=have, policy=q.policy)
        tolerance = max(tolerance, tol)
        tricks = evaluate_worlds(state, worlds, turn_ups, candidates, q.policy, q.play, seed, first_index=have)
        parts.append(tricks)
        have += n
        tried += int(np.sum(tries))
        work += n * per_world + int(np.sum(tries)) * (q.players - 1)
        if samples is not None or have >= cap:
            break
        all_tricks = np.concatenate(parts)
        parts = [all_tricks]
        if separated(_score(bid, all_tricks), allowed, look):
            break
        if 2 * work > MAX_WORK:  # the next batch (as many worlds again) would overrun the budget
            break
        look += 1
        want = min(2 * want, cap)
    return Evaluation(np.concatenate(parts), tried, "monte-carlo", not _hand_blind(q.policy), tolerance)


def advise_play(hand, trump, seat, players=4, *, bids, played=(), hook=False, trump_card=None, samples=None,
                seed=None, policy=None, play=None, method="auto", max_samples=None) -> PlayAdvice:
    """Advise a card (CONTRACT.md, "Play advice"). ``method`` "auto" enumerates where the module docstring
    says and samples otherwise; "exact" insists on enumeration and "monte-carlo" forces sampling (to
    check one against the other). ``max_samples`` overrides the default-precision cap."""
    from wizsim.config import check_seed

    started = time.perf_counter()
    policy = check_policy_name(policy, "policy", "heuristic")
    play = check_policy_name(play, "play", "heuristic")
    q = make_play_question(hand, trump, seat, players, bids=bids, played=played, hook=hook, trump_card=trump_card,
                           policy=policy, play=play)
    samples, max_samples = check_sampling(samples, max_samples, method, METHODS)
    seed = check_seed(seed)
    candidates = q.legal_cards
    check_memory({"samples": samples, "max_samples": max_samples}, len(candidates), per_deal=8 * q.players + 24)
    state = q.state()
    exact_ok = _deterministic(policy) and _deterministic(play) and not _dealer_named_trump(q)
    n_deals = count_deals(q) if exact_ok and method != "monte-carlo" else None
    if method == "exact" and (n_deals is None or n_deals > EXACT_LIMIT):
        why = ("a policy involved draws at random" if not exact_ok else
               f"more than {EXACT_LIMIT:,} deals are consistent with what you have seen")
        raise AdviceError(f"exact enumeration is not possible here: {why}")
    if n_deals is not None and n_deals <= EXACT_LIMIT:
        ev = _exact(q, state, candidates, seed)
    else:
        ev = _monte_carlo(q, state, candidates, seed, samples, max_samples)
    advice = _advice(q, candidates, ev, seed)
    advice.seconds = time.perf_counter() - started
    return advice


def _advice(q: PlayQuestion, candidates: np.ndarray, ev: Evaluation, seed: int) -> PlayAdvice:
    from wizsim.stats import Z95

    bid = q.bids[q.me]
    n = ev.tricks.shape[0]
    scores = _score(bid, ev.tricks)
    mean = scores.mean(axis=0)
    if ev.method == "exact":
        low = high = mean
    else:
        half = Z95 * scores.std(axis=0, ddof=1) / np.sqrt(n) if n > 1 else np.full(len(candidates), np.inf)
        low, high = mean - half, mean + half
    return PlayAdvice(q.describe(), candidates, (ev.tricks == bid).mean(axis=0), mean, low, high,
                      ev.tricks.mean(axis=0), ev.method, n, ev.tried, seed if ev.method != "exact" else None,
                      q.policy, q.play, ev.conditioned, tolerance=ev.tolerance)
