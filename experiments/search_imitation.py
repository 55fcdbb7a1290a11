"""A cheap imitation of the search players' cards, tried as the advisor's model of a sharp table (issue 17).

    python experiments/search_imitation.py                    # 15 cards, 4 players
    python experiments/search_imitation.py --round 10

A table of ``search:worlds=8`` around a heuristic hero (the hero in each seat in turn) is played with its
trick log; each card a search player chose among two or more is replayed (``policies.rollout.play_tricks``)
and every legal card of that spot described by ``N_FEATURES`` numbers (``features``: whether it is the
heuristic's card, whether it takes the lead of the trick, its rank, a Wizard, a Jester, a boss, what the
player still needs, ...). A conditional logit (the chosen card against the other legal ones, fitted by
Newton's method) is fitted on half the deals and judged on the other half: its log-loss per choice
against every legal card alike and against the heuristic with its best play noise. Then the imitation
plays, taking its highest-scoring card (it costs a few heuristic card plays a card), with bids by the
heuristic at ``bid_shift`` 0 and -0.5, around a heuristic hero: the hero's make rate and tricks over its
bid, the imitators' make rate, beside the search table's own. Last, the robustness benchmark's seat-1
bid questions (nothing heard: the same question at every table, ``benchmarks/raw/
robustness-bid-1200.json``, the raw run that ``benchmarks/robustness.py`` writes) are predicted with the imitators as the opponents (the hero bids the advised
bid, the other hands dealt at random, ``--sims`` deals a question) and set against what the hero made at
the search table and at the heuristic table.

What it showed (``experiments/results/search-imitation.txt``, docs/results.md, "Why the search table misses"): the
search players' choices are barely predictable from such features (log-loss 1.48 against 1.56 for every
card alike at 15 cards), yet at 15 cards the imitators hand the hero what the search players do and
predict its seat-1 questions there within their interval; they make their own bids far less often than
the search players, and at 10 cards an imitation fitted on 10-card choices predicts the hero's bids
made too rarely (where the heuristic's model already holds). Not a model of them, so not in the advisor.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numba
import numpy as np

from wizsim.bits import ONE, ZERO, bit, lowest_bit, popcount
from wizsim.cards import FULL_DECK_MASK, JESTER_MASK, N_RANKS, SUIT_MASKS, WIZARD_MASK
from wizsim.policies import parse_policy
from wizsim.policies.heuristic import _bosses, _winners, heuristic_bid, heuristic_card
from wizsim.policies.records import Log, RoundInfo, RoundState
from wizsim.policies.registry import TABLES
from wizsim.policies.rollout import play_tricks
from wizsim.rules.kernels import STRENGTH
from wizsim.sim.driver import simulate_rounds
from wizsim.sim.round import TRUMP_BY_RULES

PLAYERS = 4
SEED = 700
RAW = Path(__file__).resolve().parent.parent / "benchmarks" / "raw"  # robustness.py's raw runs
N_FEATURES = 24
MAX_ROWS = 4_000_000


@numba.njit
def features(c, players, hand, legal, trump, need, played, trick_cards, n_in_trick, led, win_pos, heuristic, out):
    """``out`` (N_FEATURES,): what the imitation knows of playing ``c`` now."""
    unseen = FULL_DECK_MASK & ~(played | hand)
    cb = bit(c)
    wiz = 1.0 if cb & WIZARD_MASK else 0.0
    jes = 1.0 if cb & JESTER_MASK else 0.0
    suited = 1.0 - wiz - jes
    rank = (c % N_RANKS) / 12.0 if suited > 0 else wiz
    is_trump = 1.0 if suited > 0 and trump >= 0 and c // N_RANKS == trump else 0.0
    boss = 1.0 if suited > 0 and _bosses(cb, unseen) != ZERO else 0.0
    sure = popcount(hand & WIZARD_MASK) + popcount(_bosses(hand & ~WIZARD_MASK & ~JESTER_MASK, unseen))
    needs = 1.0 if need > 0 else 0.0
    lead = 1.0 if n_in_trick == 0 else 0.0
    follow = 1.0 - lead
    if n_in_trick > 0:
        w = _winners(legal, trump, led, STRENGTH[trump + 1, led + 2, trick_cards[win_pos]])
    else:
        w = legal & ~JESTER_MASK
    wins = 1.0 if w & cb != ZERO else 0.0
    lowest_winner = 1.0 if w != ZERO and lowest_bit(w) == c else 0.0
    suit_share = popcount(hand & SUIT_MASKS[c // N_RANKS]) / popcount(hand) if suited > 0 else 0.0
    out[0] = 1.0 if c == heuristic else 0.0
    out[1] = wins * follow
    out[2] = needs * wins * follow
    out[3] = (1 - needs) * wins * follow
    out[4] = wiz
    out[5] = jes
    out[6] = is_trump
    out[7] = rank
    out[8] = needs * rank
    out[9] = boss
    out[10] = needs * wiz
    out[11] = wins * follow * (players - 1 - n_in_trick) / (players - 1)
    out[12] = wins * wiz * follow
    out[13] = lowest_winner * follow
    out[14] = needs * wins * follow * min(max(sure - need, -3), 3) / 3.0
    out[15] = suit_share
    out[16] = lead * rank
    out[17] = lead * needs * boss
    out[18] = lead * (1 - needs) * rank
    out[19] = lead * wiz
    out[20] = needs * min(need, 5) / 5.0 * wins * follow
    out[21] = (1 - needs) * wiz
    out[22] = lead * jes
    out[23] = needs * follow * (1 - wins) * rank


@numba.njit
def _recorded(ctx, obs):
    """``play_tricks``'s chooser for the replay: the logged card, each legal card's features recorded
    (rows of decision ``count[1]``) where a seat other than the hero chose among two or more."""
    seat, players, hand, legal, turn_up, trump = obs.seat, obs.players, obs.hand, obs.legal, obs.turn_up, obs.trump
    bids, tricks, played, trick_cards = obs.bids, obs.tricks, obs.played, obs.trick_cards
    n_in_trick, led, win_pos, voids = obs.n_in_trick, obs.led, obs.winning_pos, obs.voids
    order, x, meta, count, hero = ctx
    card = order[popcount(played)]
    if seat != hero and popcount(legal) > 1:
        need = bids[seat] - tricks[seat]
        own = heuristic_card(seat, players, hand, legal, turn_up, trump, need, played, trick_cards[max(win_pos, 0)],
                             n_in_trick, led, voids)
        m = legal
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - ONE
            k = count[0]
            features(c, players, hand, legal, trump, need, played, trick_cards, n_in_trick, led, win_pos, own, x[k])
            meta[k, 0], meta[k, 1] = count[1], c == card
            count[0] += 1
        count[1] += 1
    return card


@numba.njit
def _imitator(ctx, obs):
    """``play_tricks``'s chooser for a table: the hero plays the heuristic, the others their highest-scoring
    card under ``weights`` (the lowest id among equals)."""
    seat, players, hand, legal, turn_up, trump = obs.seat, obs.players, obs.hand, obs.legal, obs.turn_up, obs.trump
    bids, tricks, played, trick_cards = obs.bids, obs.tricks, obs.played, obs.trick_cards
    n_in_trick, led, win_pos, voids = obs.n_in_trick, obs.led, obs.winning_pos, obs.voids
    hero, weights, f = ctx
    need = bids[seat] - tricks[seat]
    own = heuristic_card(seat, players, hand, legal, turn_up, trump, need, played, trick_cards[max(win_pos, 0)],
                         n_in_trick, led, voids)
    if seat == hero or popcount(legal) == 1:
        return own
    best, best_score = own, -1e300
    m = legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - ONE
        features(c, players, hand, legal, trump, need, played, trick_cards, n_in_trick, led, win_pos, own, f)
        score = (f * weights).sum()
        if score > best_score:
            best, best_score = c, score
    return best


@numba.njit
def _table_round(hands, players, r, turn_up, trump, hero, hero_bid, hero_params, params, table, weights, out):
    """One round: every seat bids by the heuristic (the hero with ``hero_params``, or ``hero_bid`` when it is
    0 or more), then plays; ``out`` gets the bids and the tricks."""
    bids = np.full(players, -1, np.int8)
    for s in range(players):
        if s == hero and hero_bid >= 0:
            bids[s] = hero_bid
        else:
            bids[s] = heuristic_bid(hero_params if s == hero else params, table, s, players, r, hands[s], turn_up,
                                    trump, bids, -1)
    live = hands.copy()
    tricks = np.zeros(players, np.int8)
    tc = np.full(players, -1, np.int8)
    play_tricks(_imitator, (hero, weights, np.zeros(N_FEATURES)), RoundInfo(players, r, False, turn_up, trump),
                RoundState(live, np.zeros(players, np.uint64), np.zeros(players, np.int8), tc, bids, tricks), 0, 0, ZERO,
                players * r, Log(False, tc, tc, tc))
    out[0], out[1] = bids, tricks


def search_tables(r: int, deals: int, seed: int) -> list:
    """Per hero seat, a batch of ``deals`` rounds of search:worlds=8 around it, with trick logs."""
    out = []
    for hero in range(PLAYERS):
        names = ["search:worlds=8"] * PLAYERS
        names[hero] = "heuristic"
        out.append((hero, simulate_rounds(PLAYERS, r, deals, names, seed=seed + hero, trick_log=True)))
    return out


def choices(tables) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(features per legal card, its decision, whether chosen, number of decisions) of the search seats."""
    x = np.zeros((MAX_ROWS, N_FEATURES))
    meta = np.zeros((MAX_ROWS, 2), np.int64)
    count = np.zeros(2, np.int64)
    for hero, batch in tables:
        for i in range(batch.n):
            order = batch.log_cards[i].astype(np.int8)
            tc = np.full(PLAYERS, -1, np.int8)
            play_tricks(_recorded, (order, x, meta, count, hero),
                        RoundInfo(PLAYERS, batch.r, False, int(batch.turn_up[i]), int(batch.trump[i])),
                        RoundState(batch.hands[i].astype(np.uint64).copy(), np.zeros(PLAYERS, np.uint64),
                                   np.zeros(PLAYERS, np.int8), tc, batch.bids[i].astype(np.int8),
                                   np.zeros(PLAYERS, np.int8)), 0, 0, ZERO, len(order), Log(False, tc, tc, tc))
    k = int(count[0])
    return x[:k], meta[:k, 0], meta[:k, 1].astype(bool), int(count[1])


def log_loss(w, x, dec, chosen, n) -> tuple[float, np.ndarray, np.ndarray]:
    """Mean negative log-likelihood of the choices under the logit ``w``, its gradient and Hessian."""
    s = x @ w
    top = np.full(n, -np.inf)
    np.maximum.at(top, dec, s)
    e = np.exp(s - top[dec])
    z = np.zeros(n)
    np.add.at(z, dec, e)
    p = e / z[dec]
    mean_x = np.zeros((n, x.shape[1]))
    np.add.at(mean_x, dec, p[:, None] * x)
    loss = -(s[chosen] - top - np.log(z)).sum() / n
    grad = -(x[chosen].sum(0) - mean_x.sum(0)) / n
    hess = ((x * p[:, None]).T @ x - mean_x.T @ mean_x) / n
    return loss, grad, hess


def fit(x, dec, chosen, n, ridge: float = 1e-4, steps: int = 30) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        loss, grad, hess = log_loss(w, x, dec, chosen, n)
        step = np.linalg.solve(hess + ridge * np.eye(len(w)), grad + ridge * w)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def play_table(r: int, deals: int, weights, shift: float, seed: int) -> tuple[float, float, float]:
    """(hero's make rate, its tricks over its bid, the imitators' make rate), the hero in each seat in turn."""
    table = TABLES["heuristic_values"]()
    hero_params = parse_policy("heuristic").params_row()
    params = parse_policy(f"heuristic:bid_shift={shift}").params_row()
    made, over, others = [], [], []
    out = np.zeros((2, PLAYERS), np.int64)
    dealt = deals_of(r, deals, seed)
    for i in range(deals):
        hero = i % PLAYERS
        _table_round(dealt.hands[i], PLAYERS, r, int(dealt.turn_up[i]), int(dealt.trump[i]), hero, -1, hero_params,
                     params, table, weights, out)
        bids, tricks = out
        made.append(bids[hero] == tricks[hero])
        over.append(tricks[hero] - bids[hero])
        others.append(np.mean([bids[s] == tricks[s] for s in range(PLAYERS) if s != hero]))
    return float(np.mean(made)), float(np.mean(over)), float(np.mean(others))


def deals_of(r: int, n: int, seed: int, hand: int = 0, turn_up: int = -1, trump: int = TRUMP_BY_RULES):
    """``n`` deals by the engine's dealer (docs/rules.md: the turned-up card, a dealer's named suit on a Wizard,
    no trump at the last round), seat 1 holding ``hand`` when given, the turned-up card ``turn_up`` and
    the trump ``trump`` when given: the batch's ``hands``, ``turn_up`` and ``trump``."""
    fixed = np.zeros(PLAYERS, np.uint64)
    fixed[0] = np.uint64(hand)
    pool = None if turn_up < 0 else np.uint64(1) << np.uint64(turn_up)
    return simulate_rounds(PLAYERS, r, n, ["heuristic"] * PLAYERS, seed=seed, fixed_hands=fixed, turn_up_pool=pool,
                           fixed_trump=trump if turn_up >= 0 else TRUMP_BY_RULES)


def seat_one(r: int, weights, sims: int, seed: int) -> list[str]:
    """The robustness run's seat-1 questions of size r, predicted with each model of the opponents."""
    runs = json.loads((RAW / "robustness-bid-1200.json").read_text())["results"]
    rows = {x["table"]: x["bid"]["asked"] for x in runs if x["r"] == r}
    control = {q["index"]: q for q in rows["heuristic (control)"] if q["seat"] == 1}
    table = TABLES["heuristic_values"]()
    hero_params = parse_policy("heuristic").params_row()
    models = {"the heuristic": (np.eye(N_FEATURES)[0], 0.0), "imitators": (weights, 0.0),
              "imitators, bid_shift -0.5": (weights, -0.5)}
    out = np.zeros((2, PLAYERS), np.int64)
    seen = {"at search:worlds=8": [], "at the heuristic table": []}
    predicted = {name: [] for name in ["the advisor", *models]}
    for q in rows["search:worlds=8"]:
        c = control.get(q["index"])
        if q["seat"] != 1 or c is None or c["advised"] != q["advised"]:
            continue
        truth = simulate_rounds(PLAYERS, r, 1, ["heuristic"] * PLAYERS, seed=2026, first_index=q["index"])
        hand, turn_up, trump = int(truth.hands[0, 0]), int(truth.turn_up[0]), int(truth.trump[0])
        seen["at search:worlds=8"].append(float(q["made"]))
        seen["at the heuristic table"].append(float(c["made"]))
        predicted["the advisor"].append(q["predicted"])
        dealt = deals_of(r, sims, seed + q["index"], hand, turn_up, trump)  # the same deals for every model
        for name, (w, shift) in models.items():
            params = parse_policy(f"heuristic:bid_shift={shift}").params_row()
            made = 0
            for hands in dealt.hands:
                _table_round(hands, PLAYERS, r, turn_up, trump, 0, q["advised"], hero_params, params, table, w, out)
                made += out[1, 0] == q["advised"]
            predicted[name].append(made / sims)
    lines = [f"seat-1 questions at {r} cards ({len(predicted['the advisor'])}, the advised bid the same at both tables), "
             f"observed - predicted P(exact), {sims} deals a question:"]
    for where, obs in seen.items():
        for name, pred in predicted.items():
            d = np.asarray(obs) - np.asarray(pred)
            lines.append(f"  {where:24s} {name:26s} {d.mean():+.3f} ± {1.96 * d.std(ddof=1) / np.sqrt(len(d)):.3f}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--round", type=int, default=15)
    ap.add_argument("--deals", type=int, default=150, help="search deals a hero seat, for fitting and as many again to judge")
    ap.add_argument("--table-deals", type=int, default=4000)
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    r = args.round
    fitted = search_tables(r, args.deals, args.seed)
    judged = search_tables(r, args.deals, args.seed + 100)
    x, dec, chosen, n = choices(fitted)
    xt, dect, chosent, nt = choices(judged)
    w = fit(x, dec, chosen, n)
    print(f"search:worlds=8 around a heuristic hero, {PLAYERS} players, {r} cards: {n} choices fitted, {nt} judged")
    print("weights: " + " ".join(f"{v:+.2f}" for v in w))
    uniform = log_loss(np.zeros(N_FEATURES), xt, dect, chosent, nt)[0]
    noise = min(log_loss(np.eye(N_FEATURES)[0] * a, xt, dect, chosent, nt)[0] for a in np.linspace(0.1, 4.0, 40))
    print(f"log-loss a choice, judged deals: imitation {log_loss(w, xt, dect, chosent, nt)[0]:.3f}, every legal card "
          f"alike {uniform:.3f}, the heuristic with its best noise {noise:.3f}")
    search = []
    for hero, batch in fitted + judged:
        rest = [s for s in range(PLAYERS) if s != hero]
        search.append((np.mean(batch.bids[:, hero] == batch.tricks[:, hero]),
                       np.mean(batch.tricks[:, hero].astype(int) - batch.bids[:, hero]),
                       np.mean(batch.bids[:, rest] == batch.tricks[:, rest])))
    m, o, e = np.mean(search, axis=0)
    print(f"  search:worlds=8 (its own deals)          hero makes {m:.3f}, over its bid {o:+.3f}; they make {e:.3f}")
    heuristic = np.eye(N_FEATURES)[0]
    for name, weights, shift in (("heuristic", heuristic, 0.0), ("heuristic:bid_shift=-0.5", heuristic, -0.5),
                                 ("imitators", w, 0.0), ("imitators, bid_shift -0.5", w, -0.5)):
        m, o, e = play_table(r, args.table_deals, weights, shift, args.seed)
        print(f"  {name:40s} hero makes {m:.3f}, over its bid {o:+.3f}; they make {e:.3f}")
    print("\n".join(seat_one(r, w, args.sims, args.seed)), flush=True)


if __name__ == "__main__":
    main()
