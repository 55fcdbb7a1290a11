"""Play advice's first card, two checks: does the pick flatter its own figure, and is its P(make) as said
right where the model is?

    python experiments/play_first_card.py                  # the pick: the heuristic table, 10 cards, 60 deals
    python experiments/play_first_card.py --rounds 15 --table search:worlds=8
    python experiments/play_first_card.py --as-said --told --rounds 10,15 --deals 250  # calibration, model told

At the first card the hero (the heuristic) plays in each deal of ``benchmarks/robustness.py``'s tables:

- the pick (default): the advice is asked twice on the same question, with the deal's seed (the card
  picked and its P(make)) and with another seed (a fresh, independent set of worlds: that card's
  P(make) again). Picking the best of noisy estimates biases the picked one upward (a winner's
  curse); printed: the two means and their paired difference with its 95% interval, and how often
  the second set picks the same card.
- ``--as-said``: the advised card is played, then the hero's heuristic plays on (the deal replayed on
  the same random streams, as ``robustness.py``'s "as said"); printed: observed - predicted P(make)
  with its 95% interval. ``--told`` tells the advisor the model exactly (``bid_trust`` and
  ``play_trust`` 1, ``doubt`` and ``seat_doubt`` 0): at the heuristic table the model is then the
  truth, so a miss beyond the interval would be a fault of the advisor, not of its model.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
from pathlib import Path

import numpy as np

from wizsim import advise_play
from wizsim.bits import lowest_bit
from wizsim.cards import format_cards, mask_to_cards
from wizsim.rules.kernels import legal_mask
from wizsim.sim.driver import simulate_rounds
from wizsim.stats import Z95

OTHER_SEED = 1_000_003  # added to the deal's seed for the second, independent set of worlds
TOLD = {"bid_trust": 1.0, "play_trust": 1.0, "doubt": 0.0, "seat_doubt": 0.0}


def _robustness():
    spec = importlib.util.spec_from_file_location("robustness", Path(__file__).resolve().parent.parent / "benchmarks" / "robustness.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def first_cards(rb, opponents: list[str], r: int, deals: int):
    """Per deal: (the table just before the hero's first real choice, the hero's seat, the question's arguments)."""
    for i in range(deals):
        hero = i % rb.PLAYERS
        names = rb.seat_names(opponents, hero)
        truth = simulate_rounds(rb.PLAYERS, r, 1, names, seed=rb.SEED, first_index=i)
        t = rb.Table(truth, names, r, i)
        while len(t.order) < rb.PLAYERS * r:
            s = t.to_play()
            if s != hero or t.legal(s) == 1:  # the others, and the hero's forced cards, play on
                t.play(s, t.policy_card(s) if s != hero else int(lowest_bit(legal_mask(t.live[s], t.led))))
                continue
            ask = dict(hand=format_cards(mask_to_cards(int(t.live[hero]))), seat=hero + 1, players=rb.PLAYERS,
                       bids=[int(b) for b in t.bids], played=format_cards(t.order), seed=i,
                       **rb.trump_args(t.turn_up, t.trump))
            yield t, hero, ask
            break


def pick(rb, opponents: list[str], r: int, deals: int) -> list[tuple[float, float, bool]]:
    """Per deal: (P(make) of the card picked, the same card's P(make) on other worlds, the same card picked)."""
    out = []
    for _, _, ask in first_cards(rb, opponents, r, deals):
        a = advise_play(**ask)
        b = advise_play(**{**ask, "seed": ask["seed"] + OTHER_SEED})
        j = list(b.cards).index(a.cards[a.best_index])
        out.append((float(a.p_make[a.best_index]), float(b.p_make[j]), b.best_index == j))
    return out


def as_said(rb, opponents: list[str], r: int, deals: int, told: bool) -> list[tuple[float, float]]:
    """Per deal: (the advised card's P(make), whether the bid was made playing it, then the hero's heuristic)."""
    out = []
    for t, hero, ask in first_cards(rb, opponents, r, deals):
        a = advise_play(**ask, **(TOLD if told else {}))
        replay = copy.deepcopy(t)
        replay.play(hero, rb.own_copy(int(t.live[hero]), int(a.cards[a.best_index])))
        while len(replay.order) < rb.PLAYERS * r:
            s = replay.to_play()
            replay.play(s, replay.policy_card(s))
        out.append((float(a.p_make[a.best_index]), float(replay.tricks[hero] == replay.bids[hero])))
    return out


def _half(d: np.ndarray) -> float:
    return Z95 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="10", help="comma list of round sizes (4 players)")
    ap.add_argument("--deals", type=int, default=60, help="deals per round size")
    ap.add_argument("--table", default="heuristic", help="the three opponents' policy")
    ap.add_argument("--as-said", action="store_true", help="check P(make) as said instead of the pick")
    ap.add_argument("--told", action="store_true", help="with --as-said: tell the advisor the model exactly")
    args = ap.parse_args()
    if args.told and not args.as_said:
        ap.error("--told goes with --as-said")
    rb = _robustness()
    opponents = [args.table] * (rb.PLAYERS - 1)
    for r in (int(x) for x in args.rounds.split(",")):
        if args.as_said:
            got = np.array(as_said(rb, opponents, r, args.deals, args.told))
            d = got[:, 1] - got[:, 0]
            print(f"{args.table}, r={r}{', model told' if args.told else ''}: {len(d)} first cards; predicted "
                  f"{got[:, 0].mean():.3f}, made {got[:, 1].mean():.3f}, observed - predicted {d.mean():+.3f} "
                  f"+- {_half(d):.3f}", flush=True)
            continue
        pairs = pick(rb, opponents, r, args.deals)
        picked, fresh = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        d = picked - fresh
        print(f"{args.table}, r={r}: {len(d)} first cards; P(make) as picked {picked.mean():.4f}, on other worlds "
              f"{fresh.mean():.4f}, difference {d.mean():+.4f} +- {_half(d):.4f}; the same card picked again "
              f"{np.mean([p[2] for p in pairs]):.0%}", flush=True)


if __name__ == "__main__":
    main()
