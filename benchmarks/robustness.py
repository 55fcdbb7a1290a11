"""Advice at tables unlike its model (issue 17): refusals, calibration and value, the advisor at its defaults.

    python benchmarks/robustness.py                       # every table, r = 3, 6, 10, 15, bid and play advice
    python benchmarks/robustness.py --questions 40 --quick  # a short look
    python benchmarks/robustness.py --bid-trust 0.9       # the same with another trust (fitting the default)
    python benchmarks/robustness.py --no-play --hero heuristic:play_noise=0.1  # a hero less predictable
    python benchmarks/robustness.py --no-play --first 400 --questions 800 --out more.json  # questions 400..1199
    python benchmarks/robustness.py --no-bid --first-deal 16 --deals 48 --out more.json  # play deals 16..63
    python benchmarks/robustness.py --merge first.json more.json --out all.json  # one run of both
    python benchmarks/robustness.py --no-play --rounds 10,15 --questions 200 --seat-doubt 0.3  # fitting a prior

Four players (``--players`` 3..6: the round sizes then end at that game's last round). The hero (the
heuristic) sits in every seat in turn; the three others play one table's policies: ``random``, ``heuristic:bid_shift=0.5``, ``heuristic:bid_shift=-0.5``, ``search:worlds=8``, a
mixed table (random, bid_shift=0.5, search:worlds=8) and the heuristic itself as the control. The advisor
is never told who the opponents are (its default model, the heuristic, and its default trusts).

Bid advice, per question (one deal of round index i, the true earlier bids as the real policies made
them): the advised bid b and its predicted chance of being made; then the true deal is replayed with the
hero bidding b (the others as before, the same cards and random streams: common random numbers) and
compared with the hero's own heuristic bid on the same deal. Reported: refusals (an error for a legal
question), observed minus predicted P(exact) with its 95% interval twice, at the advised bid (made in the
replay) and at the hero's own bid (made at the true table, the advice unheeded: a bid the advisor did not
choose, so its prediction carries no selection), and the value of the advised bid over the heuristic's,
per round, with its paired 95% interval.

Play advice, per deal (bids as the real policies made them): the hero asks ``advise_play`` at every card
it plays and plays the best card; the others play their policies. Reported: refusals, the value over the
hero's own heuristic play on the same deal (paired), and observed minus predicted P(make) of the first
card's advice, twice: as the hero fares following the advice at every card, and as the prediction is
said ("play it now and play on to make it": the advised first card, then the hero's heuristic, the
deal replayed from that point on the same random streams). The raw run, every question and deal (what
``--merge`` and ``--against`` read), goes to benchmarks/raw/robustness.json (not committed: re-made by the
command); its summary, the same without the per-question and per-deal lists (the figures docs/results.md
quotes, small enough to commit), to benchmarks/results/robustness.json (``--out`` and ``--summary`` move them).

The same questions: each table against the control on the questions whose deal, seat, heard bids and
trump are the same at both, where any advisor that answers from the question says the same at both
tables (``same_questions``). Their gap in observed - predicted is the gap in the observed rate at the
advised bid: more than 0.06 and no prediction of those bids is within +-0.03 at both tables on those
questions (an advisor that advised other bids would meet another gap).
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from wizsim import advise, advise_play
from wizsim.advisor.table_fit import TablePlay
from wizsim.bits import bit, lowest_bit, popcount
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, WIZARD_MASK, format_card, format_cards, mask_to_cards
from wizsim.deal.kernels import PLAY_STREAM, stream_key
from wizsim.policies import make_slots
from wizsim.policies.dispatch import NET, SEARCH, choose_card
from wizsim.policies.observation import Obs
from wizsim.policies.records import RoundState
from wizsim.policies.rollout import close_trick, play_card
from wizsim.rules.kernels import LED_NONE, legal_mask
from wizsim.sim.driver import simulate_rounds
from wizsim.sim.round import BID_FORCED, BID_FREE
from wizsim.stats import Z95

PLAYERS = 4
HERO = "heuristic"
# --turn-up wizard: every deal turns up a Wizard (the dealer names the trump: the named suit is evidence), the
# hero in the seats before the dealer's (the dealer hears no named suit)
DEAL: dict = {}
LEARN = False  # --learn: the advisor learns the table's play from the rounds before the question's
LEARN_ON = "heuristic"  # --learn --policy M: the model whose cards each seat's are read against
TABLES = {
    "heuristic (control)": ["heuristic"] * 3,
    "random": ["random"] * 3,
    "heuristic:bid_shift=0.5": ["heuristic:bid_shift=0.5"] * 3,
    "heuristic:bid_shift=-0.5": ["heuristic:bid_shift=-0.5"] * 3,
    "search:worlds=8": ["search:worlds=8"] * 3,
    "mixed": ["random", "heuristic:bid_shift=0.5", "search:worlds=8"],
}
# Tables run only when named (``--tables net``): a table of the learned player, to tell how far the advisor
# told ``--policy net`` is off at a table that does play as told from how far net is from search.
EXTRA_TABLES = {"net": ["net"] * 3}
ROUNDS = (3, 6, 10, 15)
MIXED = ("random", "heuristic:bid_shift=0.5", "search:worlds=8", "heuristic:bid_shift=-0.5")


def tables_for(players: int) -> dict:
    """The tables at ``players`` players: each of ``TABLES`` with ``players - 1`` opponents (the mixed one
    takes ``MIXED`` in turn: at 4 players random, bid_shift=0.5 and search, as ``TABLES``)."""
    return {name: ([MIXED[k % len(MIXED)] for k in range(players - 1)] if name == "mixed" else [opp[0]] * (players - 1))
            for name, opp in TABLES.items()}


def rounds_for(players: int) -> tuple:
    """``ROUNDS`` up to the game's last round at ``players`` players, and that last round (no trump, the
    whole deck dealt)."""
    last = 60 // players
    return tuple(sorted({r for r in ROUNDS if r < last} | {last}))
SEED = 2026


def seat_names(opponents: list[str], hero: int) -> list[str]:
    names = list(opponents)
    names.insert(hero, HERO)
    return names


def own_play() -> dict:
    """The hero's own play, which a player knows and tells the bid advisor (its default is the heuristic)."""
    return {} if HERO == "heuristic" else {"play": HERO}


def trump_args(turn_up: int, trump: int) -> dict:
    """The advisor's view of the trump: the turned-up card, and the suit named on a Wizard."""
    if turn_up < 0:
        return {"trump": "none"}
    if FIRST_WIZARD <= turn_up < FIRST_JESTER:
        return {"trump": "SHDC"[trump], "trump_card": "W"}
    return {"trump": None, "trump_card": format_card(turn_up)}


def interval(x: np.ndarray) -> dict:
    x = np.asarray(x, np.float64)
    if len(x) < 2:
        return {"mean": float(x.mean()) if len(x) else None, "low": None, "high": None, "n": int(len(x))}
    half = Z95 * x.std(ddof=1) / np.sqrt(len(x))
    return {"mean": float(x.mean()), "low": float(x.mean() - half), "high": float(x.mean() + half), "n": int(len(x))}


def _learned() -> tuple:
    from wizsim.advisor import table_fit

    return table_fit.MODELLED


def learned_table(names: list[str], r: int, i: int, hero: int) -> tuple[dict, dict]:
    """``--learn``: the table's play and bids as the advisor learns them from the game so far, rounds 1 .. r - 1 played
    by the same seats (their own deals: seed ``SEED + 1``, index i), and the opponents' model that gives
    (``advise(policy=...)``; nothing where every seat keeps the default, so the answer is the untold one)."""
    table = TablePlay(PLAYERS, LEARN_ON)
    for k in range(1, r):
        h = simulate_rounds(PLAYERS, k, 1, names, seed=SEED + 1, first_index=i, trick_log=True)
        table.add_round(range(PLAYERS), k, h.hands[0], int(h.turn_up[0]), int(h.trump[0]), h.bids[0], h.log_cards[0])
    names = table.policies(range(PLAYERS), hero)
    seen = {"noise": [table.player(s).noise for s in range(PLAYERS)],
            "bid_shift": [table.player(s).bid_shift for s in range(PLAYERS)]}
    return ({} if all(n == table.model for n in names) else {"policy": names}), seen


def bid_questions(opponents: list[str], r: int, n: int, trust: dict, first: int = 0) -> dict:
    refusals, diffs, own_diffs, values, seconds = 0, [], [], [], []
    errors, asked = [], []
    for i in range(first, first + n):
        hero = i % (PLAYERS - 1 if DEAL else PLAYERS)
        names = seat_names(opponents, hero)
        truth = simulate_rounds(PLAYERS, r, 1, names, seed=SEED, first_index=i, **DEAL)
        hand = format_cards(mask_to_cards(int(truth.hands[0, hero])))
        learned, seen = learned_table(names, r, i, hero) if LEARN else ({}, None)
        started = time.perf_counter()
        try:
            a = advise(hand, seat=hero + 1, players=PLAYERS, bids=[int(b) for b in truth.bids[0, :hero]], seed=i,
                       **trump_args(int(truth.turn_up[0]), int(truth.trump[0])), **own_play(), **{**trust, **learned})
        except ValueError as err:
            refusals += 1
            errors.append(str(err)[:200])
            continue
        seconds.append(time.perf_counter() - started)
        b = a.best_bid
        mode = np.full(PLAYERS, BID_FREE, np.int8)
        mode[hero] = BID_FORCED
        fixed = np.zeros(PLAYERS, np.int8)
        fixed[hero] = b
        replay = simulate_rounds(PLAYERS, r, 1, names, seed=SEED, first_index=i, bid_mode=mode, fixed_bids=fixed, **DEAL)
        diffs.append(float(replay.tricks[0, hero] == b) - float(a.p_exact[b]))
        own = int(truth.bids[0, hero])  # the bid the hero made at the true table, the advice unheeded
        own_diffs.append(float(truth.tricks[0, hero] == own) - float(a.p_exact[own]))
        values.append(float(replay.scores[0, hero]) - float(truth.scores[0, hero]))
        asked.append({"index": i, "seat": hero + 1, "heard": [int(x) for x in truth.bids[0, :hero]],
                      "trump": int(truth.trump[0]), "advised": int(b), "predicted": float(a.p_exact[b]),
                      "made": bool(replay.tricks[0, hero] == b),
                      "own_made": bool(truth.tricks[0, hero] == truth.bids[0, hero]), "own": own,
                      "own_predicted": float(a.p_exact[own]), **(seen or {})})
    return {"questions": n, "refusals": refusals, "errors": errors[:3], "calibration": interval(diffs),
            "own_calibration": interval(own_diffs), "value": interval(values),
            "median_seconds": float(np.median(seconds)) if seconds else None,
            "diffs": diffs, "own_diffs": own_diffs, "values": values, "asked": asked}


def same_questions(results: list[dict], control: str = "heuristic (control)") -> dict:
    """Each table against the control on the questions the advisor could not tell apart: the same deal and
    seat, the same heard bids and trump (seat 1 hears no bids). There every advisor that answers from the
    question alone says the same at both tables, so the gap between the tables' observed - predicted
    is the gap in the observed rate at the same advised bid, whatever the advisor predicts: when it
    exceeds 0.06, no prediction of these bids is within +-0.03 at both tables on these questions."""
    by = {(x["table"], x["r"]): {q["index"]: q for q in x["bid"].get("asked", [])} for x in results if x["bid"]}
    out = {}
    order = list(TABLES)
    for name in sorted({t for t, _ in by} - {control}, key=lambda t: (order.index(t) if t in order else len(order), t)):
        gap, own, here, there, unlike, total = [], [], [], [], 0, 0
        for (t, r), qs in by.items():
            if t != name or (control, r) not in by:
                continue
            ctl = by[(control, r)]
            for i, q in qs.items():
                c = ctl.get(i)
                if c is None:
                    continue
                total += 1
                if (q["heard"], q["trump"]) != (c["heard"], c["trump"]):
                    continue
                if q["advised"] != c["advised"] or abs(q["predicted"] - c["predicted"]) > 1e-9:
                    unlike += 1  # the same question answered differently (a wall-clock stop): left out
                    continue
                gap.append(float(q["made"]) - float(c["made"]))
                own.append(float(q["own_made"]) - float(c["own_made"]))
                here.append(float(c["made"]) - c["predicted"])
                there.append(float(q["made"]) - q["predicted"])
        if gap:
            out[name] = {"same": len(gap), "of": total, "answered_differently": unlike,
                         "control": interval(here), "table": interval(there), "gap": interval(gap),
                         "own_bid_gap": interval(own)}
    return out


SIDES = (("below", -1), ("same", 0), ("above", 1))


def advised_vs_own(results: list[dict]) -> dict:
    """Per table, bid calibration split by where the advised bid lies against the hero's own bid (below,
    the same, above): at the advised bid and at the own bid, over the questions of runs that kept the own
    bid's prediction. Where the two bids are the same the two columns are the same questions' figures; a
    miss that only the advised bid shows lies where the advice leaves the heuristic's bid."""
    out = {}
    for name in dict.fromkeys(x["table"] for x in results):
        qs = [q for x in results if x["table"] == name and x["bid"] for q in x["bid"].get("asked", [])
              if "own_predicted" in q]
        if not qs:
            continue
        out[name] = {}
        for side, sign in SIDES:
            sel = [q for q in qs if np.sign(q["advised"] - q["own"]) == sign]
            out[name][side] = {"questions": len(sel),
                               "advised": interval([float(q["made"]) - q["predicted"] for q in sel]),
                               "own": interval([float(q["own_made"]) - q["own_predicted"] for q in sel])}
    return out


class Table:
    """One round stepped card by card: the hero's cards from play advice, the others' from their policies
    through the round kernel's own decision (``dispatch.choose_card``) and trick bookkeeping."""

    def __init__(self, truth, names: list[str], r: int, index: int):
        self.r = r
        self.names = names
        self.slots = make_slots(names)
        self.live = truth.hands[0].copy()
        self.turn_up = int(truth.turn_up[0])
        self.trump = int(truth.trump[0])
        self.bids = truth.bids[0].copy()
        self.tricks = np.zeros(PLAYERS, np.int8)
        self.seat_played = np.zeros(PLAYERS, np.uint64)
        self.voids = np.zeros(PLAYERS, np.int8)
        self.trick_cards = np.full(PLAYERS, -1, np.int8)
        self.rng = np.array([stream_key(np.uint64(SEED), np.int64(index), PLAY_STREAM)], np.uint64)
        self.played = np.uint64(0)
        self.order: list[int] = []
        self.leader, self.n, self.led, self.best, self.win_pos = 0, 0, LED_NONE, -1, -1

    def to_play(self) -> int:
        return (self.leader + self.n) % PLAYERS

    def policy_card(self, s: int) -> int:
        slot = self.slots.slot_of(self.names[s])
        legal = np.uint64(legal_mask(self.live[s], self.led))  # kernels return Python ints: masks stay uint64
        obs = Obs(np.int64(s), np.int64(PLAYERS), np.int64(self.r), False, self.live[s], legal, np.int64(-1),
                  np.int64(self.turn_up), np.int64(self.trump), self.bids, self.tricks, self.seat_played,
                  np.uint64(self.played), self.trick_cards, np.int64(self.n), np.int64(self.led),
                  np.int64(self.win_pos), self.voids)
        search = True if self.slots.kinds[slot] == SEARCH else None
        net = True if self.slots.kinds[slot] == NET else None  # net's code only where a seat plays it
        return int(choose_card(self.slots.kinds[slot], self.slots.params[slot], self.slots.table, obs, self.rng,
                               search, None, net))

    def legal(self, s: int) -> int:
        return popcount(legal_mask(self.live[s], self.led))

    def play(self, s: int, card: int) -> None:
        self.played = np.uint64(self.played | np.uint64(bit(card)))
        state = RoundState(self.live, self.seat_played, self.voids, self.trick_cards, self.bids, self.tricks)
        self.led, self.best, self.win_pos = play_card(state, self.trump, s, card, self.n, self.led, self.best,
                                                      self.win_pos)
        self.order.append(card)
        self.n += 1
        if self.n == PLAYERS:
            self.leader = close_trick(PLAYERS, self.leader, self.win_pos, self.tricks)
            self.n, self.led, self.best, self.win_pos = 0, LED_NONE, -1, -1


def own_copy(hand: int, card: int) -> int:
    """The hand's own copy of an advised card: advice names a Wizard or Jester by any of its four ids."""
    if card < FIRST_WIZARD or hand >> card & 1:
        return card
    first = FIRST_WIZARD if card < FIRST_JESTER else FIRST_JESTER
    return next(c for c in range(first, first + 4) if hand >> c & 1)


def play_questions(opponents: list[str], r: int, n: int, trust: dict, first: int = 0) -> dict:
    refusals, diffs, said, values, calls, seconds = 0, [], [], [], 0, []
    errors, asked = [], []
    for i in range(first, first + n):
        hero = i % (PLAYERS - 1 if DEAL else PLAYERS)
        names = seat_names(opponents, hero)
        truth = simulate_rounds(PLAYERS, r, 1, names, seed=SEED, first_index=i, **DEAL)
        learned, seen = learned_table(names, r, i, hero) if LEARN else ({}, None)
        t = Table(truth, names, r, i)
        predicted = replay = None
        refused = False
        while len(t.order) < PLAYERS * r:
            s = t.to_play()
            if s != hero or t.legal(s) == 1:
                card = t.policy_card(s) if s != hero else int(lowest_bit(legal_mask(t.live[s], t.led)))
                t.play(s, card)
                continue
            hand = format_cards(mask_to_cards(int(t.live[hero])))
            started = time.perf_counter()
            try:
                a = advise_play(hand, seat=hero + 1, players=PLAYERS, bids=[int(b) for b in t.bids],
                                played=format_cards(t.order), seed=i, **trump_args(t.turn_up, t.trump),
                                **{**trust, **learned})
            except ValueError as err:
                refusals += 1
                errors.append(str(err)[:200])
                refused = True
                break
            seconds.append(time.perf_counter() - started)
            calls += 1
            card = own_copy(int(t.live[hero]), int(a.cards[a.best_index]))
            if predicted is None:
                predicted = float(a.p_make[a.best_index])
                replay = copy.deepcopy(t)
                replay.play(hero, card)
            t.play(hero, card)
        if refused:
            continue
        made = t.tricks[hero] == t.bids[hero]
        score = 20 + 10 * int(t.tricks[hero]) if made else -10 * abs(int(t.tricks[hero]) - int(t.bids[hero]))
        values.append(score - float(truth.scores[0, hero]))
        asked.append({"index": i, "seat": hero + 1, "made": bool(made), "value": values[-1],
                      "predicted": predicted, **({"policy": learned.get("policy")} if LEARN else {}), **(seen or {})})
        if predicted is not None:
            diffs.append(float(made) - predicted)
            while len(replay.order) < PLAYERS * r:  # the hero's heuristic after the advised first card
                s = replay.to_play()
                replay.play(s, replay.policy_card(s))
            said.append(float(replay.tricks[hero] == replay.bids[hero]) - predicted)
    return {"deals": n, "first_deal": first, "advice_calls": calls, "refusals": refusals, "errors": errors[:3],
            "calibration": interval(diffs), "calibration_as_said": interval(said), "value": interval(values),
            "median_seconds": float(np.median(seconds)) if seconds else None, "diffs": diffs, "said": said,
            "values": values, "asked": asked}


def fmt(iv: dict, digits: int = 2) -> str:
    if iv["mean"] is None:
        return "n/a"
    if iv["low"] is None:
        return f"{iv['mean']:+.{digits}f}"
    return f"{iv['mean']:+.{digits}f} [{iv['low']:+.{digits}f}, {iv['high']:+.{digits}f}]"


def print_header() -> None:
    print(f"{'table':<26} {'r':>2}  {'bid: refusals':>13}  {'obs - pred P(exact)':>24}  {'at the own bid':>24}"
          f"  {'value of advised bid':>24}  {'play: refusals':>14}  {'value of play advice':>24}  {'obs - pred P(make)':>24}"
          f"  {'as said':>24}")


def print_row(row: dict) -> None:
    bid = row["bid"]
    p = row["play"] or {"refusals": "-", "value": {"mean": None}, "calibration": {"mean": None},
                        "calibration_as_said": {"mean": None}}
    own = bid.get("own_calibration") or {"mean": None}
    print(f"{row['table']:<26} {row['r']:>2}  {bid['refusals']:>13}  {fmt(bid['calibration'], 3):>24}  "
          f"{fmt(own, 3):>24}  {fmt(bid['value']):>24}  {p['refusals']:>14}  {fmt(p['value']):>24}  "
          f"{fmt(p['calibration'], 3):>24}  {fmt(p['calibration_as_said'], 3):>24}", flush=True)


def summarize(results: list[dict]) -> tuple[dict, dict, dict]:
    """Print and return (each table pooled over r, ``same_questions``, ``advised_vs_own``)."""
    pooled = {}
    print(f"\npooled over r: {'table':<26}  {'bid: refusals':>13}  {'obs - pred P(exact)':>24}  "
          f"{'at the own bid':>24}  {'value of advised bid':>24}  {'play: refusals':>14}  {'value of play advice':>24}  "
          f"{'obs - pred P(make)':>24}  {'as said':>24}")
    for name in dict.fromkeys(x["table"] for x in results):
        rows = [x for x in results if x["table"] == name]
        plays = [x["play"] for x in rows if x["play"]]
        p = pooled[name] = {
            "bid_refusals": sum(x["bid"]["refusals"] for x in rows),
            "bid_calibration": interval(np.concatenate([x["bid"]["diffs"] for x in rows])),
            "bid_calibration_own": (interval(np.concatenate([x["bid"]["own_diffs"] for x in rows]))
                                    if all("own_diffs" in x["bid"] for x in rows) else None),
            "bid_value": interval(np.concatenate([x["bid"]["values"] for x in rows])),
            "play_refusals": sum(x["refusals"] for x in plays),
            "play_calibration": interval(np.concatenate([x["diffs"] for x in plays])) if plays else None,
            "play_calibration_as_said": interval(np.concatenate([x["said"] for x in plays])) if plays else None,
            "play_value": interval(np.concatenate([x["values"] for x in plays])) if plays else None}
        none = {"mean": None}
        print(f"pooled over r: {name:<26}  {p['bid_refusals']:>13}  {fmt(p['bid_calibration'], 3):>24}  "
              f"{fmt(p['bid_calibration_own'] or none, 3):>24}  {fmt(p['bid_value']):>24}  {p['play_refusals'] if plays else '-':>14}  "
              f"{fmt(p['play_value'] or none):>24}  {fmt(p['play_calibration'] or none, 3):>24}  "
              f"{fmt(p['play_calibration_as_said'] or none, 3):>24}", flush=True)
    same = same_questions(results)
    if same:
        print("\nthe same questions: the same deal, seat, heard bids and trump as at the control")
        print(f"same questions: {'table':<26}  {'questions':>12}  {'control: obs - pred':>24}  {'table: obs - pred':>24}"
              f"  {'gap (table - control)':>24}  {'gap at the own bid':>24}")
        for name, g in same.items():
            print(f"same questions: {name:<26}  "
                  f"{g['same']:>5} of {g['of']:<5} {fmt(g['control'], 3):>24}  {fmt(g['table'], 3):>24}  "
                  f"{fmt(g['gap'], 3):>24}  {fmt(g['own_bid_gap'], 3):>24}", flush=True)
    sides = advised_vs_own(results)
    if sides:
        print("\nobs - pred P(exact) by where the advised bid lies against the hero's own bid")
        print(f"advised vs own: {'table':<26}  {'side':>5}  {'questions':>9}  {'at the advised bid':>24}  "
              f"{'at the own bid':>24}")
        for name, by in sides.items():
            for side, g in by.items():
                print(f"advised vs own: {name:<26}  {side:>5}  {g['questions']:>9}  {fmt(g['advised'], 3):>24}  "
                      f"{fmt(g['own'], 3):>24}", flush=True)
    return pooled, same, sides


def against(results: list[dict], base: dict) -> dict:
    """``--against BASE.json``: each table's bid advice against another run's on the questions both asked
    (the same deal, seat and heard bids: question i is deal i of the seed in both), paired: the change in
    observed - predicted P(exact) at the advised bid and in the advised bid's value, pooled over r and at
    each r, with 95% intervals."""
    by = {(x["table"], x["r"]): {q["index"]: (q, d, v) for q, d, v in zip(x["bid"]["asked"], x["bid"]["diffs"],
                                                                            x["bid"]["values"], strict=True)}
          for x in base["results"] if x["bid"] and "asked" in x["bid"]}
    out = {}
    print("\nagainst the base run, paired on the questions both asked: the change (this run - base)")
    print(f"against: {'table':<26}  {'r':>6}  {'questions':>9}  {'obs - pred P(exact)':>24}  {'value of advised bid':>24}"
          f"  {'questions answered otherwise':>28}")
    for name in dict.fromkeys(x["table"] for x in results):
        pooled_d, pooled_v, pooled_n = [], [], 0
        for x in [x for x in results if x["table"] == name and x["bid"]]:
            old = by.get((name, x["r"]), {})
            d, v, changed = [], [], 0
            for q, dq, vq in zip(x["bid"]["asked"], x["bid"]["diffs"], x["bid"]["values"], strict=True):
                if q["index"] in old:
                    q0, d0, v0 = old[q["index"]]
                    d.append(dq - d0)
                    v.append(vq - v0)
                    changed += (q["advised"], q["predicted"]) != (q0["advised"], q0["predicted"])
            if d:
                out[f"{name} r={x['r']}"] = {"calibration": interval(d), "value": interval(v), "changed": changed}
                print(f"against: {name:<26}  {x['r']:>6}  {len(d):>9}  {fmt(interval(d), 3):>24}  "
                      f"{fmt(interval(v)):>24}  {changed:>28}")
                pooled_d += d
                pooled_v += v
                pooled_n += changed
        if pooled_d:
            out[name] = {"calibration": interval(pooled_d), "value": interval(pooled_v), "changed": pooled_n}
            print(f"against: {name:<26}  {'pooled':>6}  {len(pooled_d):>9}  {fmt(interval(pooled_d), 3):>24}  "
                  f"{fmt(interval(pooled_v)):>24}  {pooled_n:>28}", flush=True)
    plays = against_plays(results, base)
    return {**out, **({"play": plays} if plays else {})}


def against_plays(results: list[dict], base: dict) -> dict:
    """Play advice against another run's on the deals both played (deal i of the seed in both, the base's
    values in deal order from its ``first_deal``), paired: the change in the value of following the advice,
    pooled over r and at each r; and how many deals scored otherwise."""
    by = {(x["table"], x["r"]): dict(enumerate(x["play"]["values"], x["play"].get("first_deal", 0)))
          for x in base["results"] if x.get("play")}
    out = {}
    rows = [x for x in results if x.get("play") and "asked" in x["play"] and (x["table"], x["r"]) in by]
    if rows:
        print("\nagainst the base run, play advice on the deals both played: the change (this run - base)")
        print(f"against: {'table':<26}  {'r':>6}  {'deals':>9}  {'value of play advice':>24}  {'deals scored otherwise':>22}")
    for name in dict.fromkeys(x["table"] for x in rows):
        pooled_v, pooled_n = [], 0
        for x in [x for x in rows if x["table"] == name]:
            old = by[(name, x["r"])]
            v = [q["value"] - old[q["index"]] for q in x["play"]["asked"] if q["index"] in old]
            changed = sum(d != 0 for d in v)
            out[f"{name} r={x['r']}"] = {"value": interval(v), "changed": changed}
            print(f"against: {name:<26}  {x['r']:>6}  {len(v):>9}  {fmt(interval(v)):>24}  {changed:>22}")
            pooled_v += v
            pooled_n += changed
        out[name] = {"value": interval(pooled_v), "changed": pooled_n}
        print(f"against: {name:<26}  {'pooled':>6}  {len(pooled_v):>9}  {fmt(interval(pooled_v)):>24}  "
              f"{pooled_n:>22}", flush=True)
    return out


def merge_runs(runs: list[dict]) -> list[dict]:
    """One run's rows from several (``--merge``): a table and round size's bid questions from every run
    (each question once, in index order), its play deals from the runs that played them. The runs must
    share the seed, the hero and the advisor's settings; a question asked twice must have been answered
    alike."""
    keys = [(x["seed"], x.get("players", 4), x.get("hero", "heuristic"), json.dumps(x["trust"], sort_keys=True),
             x.get("learn", False)) for x in runs]
    if len(set(keys)) > 1:
        raise SystemExit(f"robustness.py: the runs differ in seed, players, hero or settings: {sorted(set(keys))}")
    if any("asked" not in x["bid"] for run in runs for x in run["results"] if x["bid"]):
        raise SystemExit("robustness.py: --merge needs the per-question records (\"asked\") of runs made since they "
                         "were kept")
    rows: dict = {}
    for run in runs:
        for x in run["results"]:
            row = rows.setdefault((x["table"], x["r"]), {"table": x["table"], "opponents": x["opponents"], "r": x["r"],
                                                         "asked": {}, "refusals": 0, "plays": [], "seconds": 0.0})
            for q, d, v in zip(x["bid"]["asked"], x["bid"]["diffs"], x["bid"]["values"], strict=True):
                old = row["asked"].get(q["index"])
                if old is not None and old[0] != q:
                    raise SystemExit(f"robustness.py: question {q['index']} of {x['table']}, r={x['r']}, "
                                     "was answered differently in two runs")
                row["asked"][q["index"]] = (q, d, v)
            row["refusals"] += x["bid"]["refusals"]
            row["seconds"] += x["seconds"]
            if x["play"]:
                row["plays"].append(x["play"])
    out = []
    for row in rows.values():
        qs = [row["asked"][i] for i in sorted(row["asked"])]
        diffs, values = [d for _, d, _ in qs], [v for _, _, v in qs]
        bid = {"questions": len(qs) + row["refusals"], "refusals": row["refusals"], "errors": [],
               "calibration": interval(diffs), "value": interval(values), "median_seconds": None,
               "diffs": diffs, "values": values, "asked": [q for q, _, _ in qs]}
        if qs and all("own_predicted" in q for q, _, _ in qs):  # runs made since the own bid's prediction was kept
            bid["own_diffs"] = [float(q["own_made"]) - q["own_predicted"] for q, _, _ in qs]
            bid["own_calibration"] = interval(bid["own_diffs"])
        play = merge_plays(row["plays"], f"{row['table']}, r={row['r']}")
        out.append({"table": row["table"], "opponents": row["opponents"], "r": row["r"], "bid": bid, "play": play,
                    "seconds": row["seconds"]})
    order = list(TABLES)
    out.sort(key=lambda x: (order.index(x["table"]) if x["table"] in order else len(order), x["r"]))
    return out


def merge_plays(plays: list[dict], where: str) -> dict | None:
    """One table and round size's play deals from runs that played disjoint ranges of them (``--first-deal``)."""
    if len(plays) <= 1:
        return plays[0] if plays else None
    spans = sorted((p.get("first_deal", 0), p.get("first_deal", 0) + p["deals"]) for p in plays)
    if any(a[1] > b[0] for a, b in itertools.pairwise(spans)):
        raise SystemExit(f"robustness.py: {where}: two runs played the same play deals ({spans})")
    plays = sorted(plays, key=lambda p: p.get("first_deal", 0))
    diffs, said, values = ([v for p in plays for v in p[k]] for k in ("diffs", "said", "values"))
    medians = [p["median_seconds"] for p in plays if p["median_seconds"] is not None]
    return {"deals": sum(p["deals"] for p in plays), "first_deal": spans[0][0],
            "advice_calls": sum(p["advice_calls"] for p in plays), "refusals": sum(p["refusals"] for p in plays),
            "errors": [e for p in plays for e in p["errors"]][:3], "calibration": interval(diffs),
            "calibration_as_said": interval(said), "value": interval(values),
            "median_seconds": float(np.median(medians)) if medians else None,  # the runs' medians' median
            "diffs": diffs, "said": said, "values": values, "asked": [a for p in plays for a in p.get("asked", [])]}


RAW = Path(__file__).resolve().parent / "raw"  # raw runs: ignored by git, re-made by the command
RESULTS = Path(__file__).resolve().parent / "results"  # their summaries: committed, each under 200 KB


def summary(out: dict) -> dict:
    """The run without its per-question and per-deal lists (``asked``, ``diffs``, ...): every pooled and
    per-size figure, small enough to commit. ``--merge`` and ``--against`` need the raw run."""
    def row(x: dict) -> dict:
        return {k: ({f: v for f, v in x[k].items() if not isinstance(v, list) or f == "errors"}
                    if k in ("bid", "play") and isinstance(x[k], dict) else x[k]) for k in x}

    return {**{k: v for k, v in out.items() if k != "results"}, "per_question": "dropped (the raw run has them)",
            "results": [row(x) for x in out["results"]]}


def main() -> None:
    global HERO, LEARN, LEARN_ON, PLAYERS, DEAL
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=100, help="bid questions per table and round size")
    ap.add_argument("--deals", type=int, default=None, help="play-advice deals per table and round size "
                    "(default: a quarter of --questions)")
    ap.add_argument("--first", type=int, default=0, help="the first bid question's index (to extend a run: "
                    "question i is deal i of the seed, the hero in seat i mod the players)")
    ap.add_argument("--first-deal", type=int, default=0, help="the first play deal's index (to extend a run, as "
                    "--first for bid questions)")
    ap.add_argument("--players", type=int, default=PLAYERS, choices=range(3, 7), metavar="3..6",
                    help="players at the table (default 4; the tables fill the other seats alike, the mixed one "
                    "from random, bid_shift=0.5, search, bid_shift=-0.5)")
    ap.add_argument("--rounds", default=None, help="comma list of round sizes (default 3, 6, 10 and the last round "
                    "at the table's player count: 15 at 4 players)")
    ap.add_argument("--tables", default=None, help="comma list of table names (default: all)")
    ap.add_argument("--policy", default=None, help="tell the advisor this opponents' model (default: its own)")
    ap.add_argument("--bid-trust", type=float, default=None)
    ap.add_argument("--play-trust", type=float, default=None)
    ap.add_argument("--play-noise", type=float, default=None, help="the opponents' model's play noise "
                    "(default: the advisor's)")
    ap.add_argument("--doubt", type=float, default=None, help="bid advice: the prior of the blind table "
                    "(default: the advisor's)")
    ap.add_argument("--seat-doubt", type=float, default=None, help="bid advice: the prior that one heard seat is "
                    "blind on its own (default: the advisor's)")
    ap.add_argument("--play-doubt", type=float, default=None, help="play advice: the prior of the blind table "
                    "in the worlds' weights (default: the advisor's)")
    ap.add_argument("--play-seat-doubt", type=float, default=None, help="play advice: the prior that one seat is "
                    "blind on its own in the worlds' weights (default: the advisor's)")
    ap.add_argument("--hero", default=HERO, help="the hero's own policy (bid advice is told it as its play; "
                    "default: the heuristic)")
    ap.add_argument("--learn", action="store_true", help="the advisor learns each seat's play noise (and what --learn-what names) "
                    "from rounds 1 .. r - 1 played by the same table (the game so far); with --policy M (heuristic, "
                    "net or net:weights=search) each seat's cards are read against M's")
    ap.add_argument("--learn-what", default=None, help="with --learn: the comma list of figures the opponents' "
                    "model takes (noise, bid_shift, blind; default: the advisor's, table_fit.MODELLED)")
    ap.add_argument("--turn-up", choices=("any", "wizard"), default="any",
                    help="wizard: every deal turns up a Wizard, the dealer names the trump, the hero sits before "
                         "the dealer (what the named suit tells)")
    ap.add_argument("--trump-trust", type=float, default=None, help="how far the dealer's named suit is trusted")
    ap.add_argument("--no-play", action="store_true", help="bid advice only")
    ap.add_argument("--no-bid", action="store_true", help="play advice only")
    ap.add_argument("--quick", action="store_true", help="r = 6 and 10 only")
    ap.add_argument("--merge", nargs="+", default=None, metavar="RUN.json", help="print and save these runs' "
                    "results as one (runs that extend each other with --first), instead of running")
    ap.add_argument("--against", default=None, metavar="BASE.json", help="also print each table's bid and play advice "
                    "against this run's on the questions both asked, paired (e.g. --learn against the untold)")
    ap.add_argument("--out", default=None, help="the raw run (default benchmarks/raw/robustness.json, not committed)")
    ap.add_argument("--summary", default=None, help="its summary (default benchmarks/results/ with --out's file name)")
    args = ap.parse_args()
    if args.hero != HERO and not args.no_play:
        ap.error("--hero needs --no-play: play advice is not told the hero's own play")
    HERO = args.hero
    if args.learn and not args.merge and args.policy:
        from wizsim.advisor.table_fit import learnable_model

        try:  # --learn --policy M: each seat's noise learned on M, told M where nothing was learned
            LEARN_ON = learnable_model(args.policy)
        except ValueError as err:
            ap.error(f"--learn --policy: {err}")
    LEARN = args.learn
    if args.learn_what is not None:
        from wizsim.advisor import table_fit

        what = tuple(x.strip() for x in args.learn_what.split(",") if x.strip())
        if not args.learn or set(what) - {"noise", "bid_shift", "blind"}:
            ap.error("--learn-what needs --learn and names of noise, bid_shift, blind")
        table_fit.MODELLED = what
    PLAYERS = args.players
    if args.turn_up == "wizard":
        DEAL = {"turn_up_pool": int(WIZARD_MASK)}
    rounds = ((6, 10) if args.quick else rounds_for(PLAYERS)) if args.rounds is None else tuple(
        int(x) for x in args.rounds.split(","))
    if any(not 1 <= r <= 60 // PLAYERS for r in rounds):
        ap.error(f"--rounds: a round at {PLAYERS} players has 1..{60 // PLAYERS} cards")
    every = tables_for(PLAYERS)
    named = {**every, **{k: [v[0]] * (PLAYERS - 1) for k, v in EXTRA_TABLES.items()}}
    tables = every if args.tables is None else {k: named[k] for k in args.tables.split(",")}
    deals = args.deals if args.deals is not None else max(4, args.questions // 4)
    trust = {k: v for k, v in (("bid_trust", args.bid_trust), ("play_noise", args.play_noise), ("policy", args.policy),
                               ("trump_trust", args.trump_trust)) if v is not None}
    play_trust = {**trust, **({"play_trust": args.play_trust} if args.play_trust is not None else {})}
    if args.doubt is not None:  # bid advice only
        trust["doubt"] = args.doubt
    if args.seat_doubt is not None:
        trust["seat_doubt"] = args.seat_doubt
    if args.play_doubt is not None:
        play_trust["doubt"] = args.play_doubt
    if args.play_seat_doubt is not None:
        play_trust["seat_doubt"] = args.play_seat_doubt
    if args.merge:
        runs = [json.loads(Path(f).read_text()) for f in args.merge]
        results = merge_runs(runs)
        print(f"{len(runs)} runs merged")
        print_header()
        for row in results:
            print_row(row)
        first = min(x.get("first", 0) for x in runs)
        questions = max((x["bid"]["questions"] for x in results), default=0)  # per table and round size
        deals = max((x["play"]["deals"] for x in results if x["play"]), default=0)  # per table and round size
        play_trust, HERO, LEARN = runs[0]["trust"], runs[0].get("hero", HERO), runs[0].get("learn", False)
        PLAYERS = runs[0].get("players", 4)
        if LEARN and "learned" in runs[0]:
            from wizsim.advisor import table_fit

            table_fit.MODELLED = tuple(runs[0]["learned"])  # what the merged runs' model took
    else:
        results = []
        first, questions = args.first, args.questions
        print_header()
        for name, opponents in tables.items():
            for r in rounds:
                started = time.perf_counter()
                bid = bid_questions(opponents, r, 0 if args.no_bid else args.questions, trust, args.first)
                play = None if args.no_play else play_questions(opponents, r, deals, play_trust, args.first_deal)
                row = {"table": name, "opponents": opponents, "r": r, "bid": bid, "play": play,
                       "seconds": time.perf_counter() - started}
                results.append(row)
                print_row(row)
    pooled, same, sides = summarize(results)
    paired = against(results, json.loads(Path(args.against).read_text())) if args.against else None
    out = {"machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                       "date": time.strftime("%Y-%m-%d"), "loadavg": os.getloadavg()},
           "seed": SEED, "players": PLAYERS, "hero": HERO, "first": first, "questions": questions, "deals": deals, "trust": play_trust,
           **({"turn_up": "wizard", "bid_trust_sent": trust} if DEAL else {}),
           **({"learn": True, "learned": list(_learned())} if LEARN else {}),
           **({"against": {"run": Path(args.against).name, "change": paired}} if paired else {}), "results": results, "pooled": pooled, "same_questions": same, "advised_vs_own": sides}
    path = Path(args.out) if args.out else RAW / ("robustness-quick.json" if args.quick else "robustness.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, separators=(",", ":")))  # per question: one line, not megabytes of indent
    short = Path(args.summary) if args.summary else RESULTS / path.name
    short.write_text(json.dumps(summary(out), indent=1) + "\n")
    print(f"saved {path} (raw) and {short} (summary)")


if __name__ == "__main__":
    main()
