"""How the search players play their cards against a heuristic hero: each of their cards replayed beside the
heuristic's card in the same spot.

    python experiments/search_play.py                         # 15 cards, 4 players, 150 deals a hero seat
    python experiments/search_play.py --round 10 --policy heuristic:bid_shift=-0.5 --deals 2000

The hero (the heuristic) sits in each seat in turn with three opponents of ``--policy``; every deal is
played with its trick log and then replayed card by card (``policies.rollout.play_tricks``, the engine's
one trick loop), asking at each card what the heuristic would have played in the same seat with the same
hand, the cards seen and the tricks taken. Printed per situation (leading or following, still needing
tricks or not, and for a follower its place in the trick): how many real choices (two legal cards or
more), how often the card is the heuristic's, how often it takes the lead of the trick as it stands
(``winner now``) against how often the heuristic's card would have, and how often that player won the
trick in the end; then the hero's make rate and tricks over its bid, and the opponents' make rate.

This is the play the advisor's model of the opponents (the heuristic with play noise) leaves out at a
table of ``search:worlds=8`` (docs/results.md, "Why the search table misses"). A table of the heuristic replays
to the heuristic's card at every choice, which checks the replay (tests/test_search_play.py).
"""

from __future__ import annotations

import argparse

import numba
import numpy as np

from wizsim.bits import ONE, ZERO, popcount
from wizsim.policies.heuristic import _winners, heuristic_card
from wizsim.policies.records import Log, RoundInfo, RoundState
from wizsim.policies.rollout import play_tricks
from wizsim.rules.kernels import STRENGTH
from wizsim.sim.driver import simulate_rounds

SEED = 500
# the replay's columns, one row a card in order of play
SEAT, TRICK, PLACE, NEED, N_LEGAL, CARD, HEURISTIC, CARD_WINS, HEURISTIC_WINS, WON = range(10)


@numba.njit
def _replayed(ctx, obs):
    """``play_tricks``'s chooser: the card the log says, with the heuristic's card in its place noted."""
    seat, players, hand, legal, turn_up, trump = obs.seat, obs.players, obs.hand, obs.legal, obs.turn_up, obs.trump
    bids, tricks, played, trick_cards = obs.bids, obs.tricks, obs.played, obs.trick_cards
    n_in_trick, led, win_pos, voids = obs.n_in_trick, obs.led, obs.winning_pos, obs.voids
    order, out = ctx
    j = popcount(played)
    card = order[j]
    need = bids[seat] - tricks[seat]
    own = heuristic_card(seat, players, hand, legal, turn_up, trump, need, played, trick_cards[max(win_pos, 0)],
                         n_in_trick, led, voids)
    out[j, SEAT], out[j, TRICK], out[j, PLACE], out[j, NEED] = seat, j // players, n_in_trick, need
    out[j, N_LEGAL], out[j, CARD], out[j, HEURISTIC] = popcount(legal), card, own
    if n_in_trick > 0:  # on a lead every card takes the lead: nothing to tell
        w = _winners(legal, trump, led, STRENGTH[trump + 1, led + 2, trick_cards[win_pos]])
        out[j, CARD_WINS] = (w >> np.uint64(card)) & ONE
        out[j, HEURISTIC_WINS] = (w >> np.uint64(own)) & ONE
    return card


def replay(batch, i: int) -> np.ndarray:
    """Round ``i`` of a batch played with ``trick_log``: one row a card (the columns above)."""
    players = batch.players
    order = batch.log_cards[i].astype(np.int8)
    out = np.zeros((len(order), 10), np.int64)
    trick_cards = np.full(players, -1, np.int8)
    play_tricks(_replayed, (order, out), RoundInfo(players, batch.r, False, int(batch.turn_up[i]), int(batch.trump[i])),
                RoundState(batch.hands[i].astype(np.uint64).copy(), np.zeros(players, np.uint64),
                           np.zeros(players, np.int8), trick_cards, batch.bids[i].astype(np.int8),
                           np.zeros(players, np.int8)), 0, 0, ZERO, len(order),
                Log(False, trick_cards, trick_cards, trick_cards))
    out[:, WON] = batch.log_winner[i][out[:, TRICK]] == out[:, SEAT]
    return out


def play(players: int, r: int, deals: int, policy: str, seed: int = SEED):
    """Per hero seat, the batch and its replayed rows (each row with the hero's seat appended)."""
    runs = []
    for hero in range(players):
        names = [policy] * players
        names[hero] = "heuristic"
        batch = simulate_rounds(players, r, deals, names, seed=seed + hero, trick_log=True)
        rows = np.concatenate([replay(batch, i) for i in range(batch.n)])
        runs.append((hero, batch, np.column_stack([rows, np.full(len(rows), hero)])))
    return runs


def situations(rows: np.ndarray, players: int):
    """(label, rows) per situation, real choices only."""
    rows = rows[rows[:, N_LEGAL] > 1]
    lead, need = rows[:, PLACE] == 0, rows[:, NEED] > 0
    out = [("lead, needs tricks", rows[lead & need]), ("lead, bid made", rows[lead & ~need])]
    for place in range(1, players):
        at = rows[:, PLACE] == place
        out.append((f"follow {place + 1}, needs tricks", rows[at & need]))
    out.append(("follow, bid made", rows[~lead & ~need]))
    return out


def report(players: int, r: int, deals: int, policy: str, seed: int = SEED) -> list[str]:
    runs = play(players, r, deals, policy, seed)
    rows = np.concatenate([x for _, _, x in runs])
    lines = [f"{policy} around a heuristic hero, {players} players, {r} cards, {deals} deals a hero seat, seed {seed}"]
    for who, mine in (("opponents", rows[:, SEAT] != rows[:, -1]), ("hero", rows[:, SEAT] == rows[:, -1])):
        lines.append(f"{who}:")
        for label, x in situations(rows[mine], players):
            if not len(x):
                continue
            line = (f"  {label:24s} {len(x):7d} choices  the heuristic's card {np.mean(x[:, CARD] == x[:, HEURISTIC]):.3f}"
                    f"  won the trick {np.mean(x[:, WON]):.3f}")
            if not label.startswith("lead"):
                line += f"  winner now {np.mean(x[:, CARD_WINS]):.3f} (the heuristic's card {np.mean(x[:, HEURISTIC_WINS]):.3f})"
            lines.append(line)
    made, over, others = [], [], []
    for hero, batch, _ in runs:
        rest = [s for s in range(players) if s != hero]
        made.append(np.mean(batch.bids[:, hero] == batch.tricks[:, hero]))
        over.append(np.mean(batch.tricks[:, hero].astype(int) - batch.bids[:, hero]))
        others.append(np.mean(batch.bids[:, rest] == batch.tricks[:, rest]))
    lines.append(f"hero makes its bid {np.mean(made):.3f}, tricks over its bid {np.mean(over):+.3f}; "
                 f"the opponents make theirs {np.mean(others):.3f}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--round", type=int, default=15)
    ap.add_argument("--deals", type=int, default=150, help="deals per hero seat")
    ap.add_argument("--policy", default="search:worlds=8")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    print("\n".join(report(args.players, args.round, args.deals, args.policy, args.seed)), flush=True)


if __name__ == "__main__":
    main()
