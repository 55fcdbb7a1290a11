"""Is play advice's P(make) of the card it picks flattered by the pick? (a winner's curse check)

    python benchmarks/play_selection.py                   # the heuristic table, 10 cards, 60 deals
    python benchmarks/play_selection.py --rounds 6 --deals 200 --table search:worlds=8

Play advice picks the card whose estimate is best on one set of worlds; that same estimate of the
picked card is then biased upward when the Monte Carlo noise is large against the gaps between cards.
At the first card the hero (the heuristic) plays in each deal of ``benchmarks/robustness.py``'s tables,
the advice is asked twice on the same question: with the deal's seed (the card picked and its
P(make)) and with another seed (a fresh, independent set of worlds: that card's P(make) again).
Printed: the mean of the two and their paired difference with its 95% interval (0 when the pick does
not flatter its own figure), and how often the second set picks the same card.
"""

from __future__ import annotations

import argparse
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


def _robustness():
    spec = importlib.util.spec_from_file_location("robustness", Path(__file__).with_name("robustness.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def first_card_pairs(rb, opponents: list[str], r: int, deals: int) -> list[tuple[float, float, bool]]:
    """Per deal: (P(make) of the card picked, the same card's P(make) on other worlds, the same card picked)."""
    out = []
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
            hand = format_cards(mask_to_cards(int(t.live[hero])))
            ask = dict(seat=hero + 1, players=rb.PLAYERS, bids=[int(b) for b in t.bids], played=format_cards(t.order),
                       **rb.trump_args(t.turn_up, t.trump))
            a = advise_play(hand, seed=i, **ask)
            b = advise_play(hand, seed=i + OTHER_SEED, **ask)
            j = list(b.cards).index(a.cards[a.best_index])
            out.append((float(a.p_make[a.best_index]), float(b.p_make[j]), b.best_index == j))
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", default="10", help="comma list of round sizes (4 players)")
    ap.add_argument("--deals", type=int, default=60, help="deals per round size")
    ap.add_argument("--table", default="heuristic", help="the three opponents' policy")
    args = ap.parse_args()
    rb = _robustness()
    for r in (int(x) for x in args.rounds.split(",")):
        pairs = first_card_pairs(rb, [args.table] * (rb.PLAYERS - 1), r, args.deals)
        picked, fresh = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
        d = picked - fresh
        half = Z95 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
        print(f"{args.table}, r={r}: {len(d)} first cards; P(make) as picked {picked.mean():.4f}, on other worlds "
              f"{fresh.mean():.4f}, difference {d.mean():+.4f} +- {half:.4f}; the same card picked again "
              f"{np.mean([p[2] for p in pairs]):.0%}", flush=True)


if __name__ == "__main__":
    main()
