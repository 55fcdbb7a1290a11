"""Cheap stand-ins for the search players' play, tried as the advisor's model of a sharp table (issue 17).

    python experiments/stand_ins.py            # 15 cards, 4 players, 2,000 deals, seed 5

The hero (seat 1, the heuristic) with three opponents that bid as the heuristic with ``bid_shift`` and play
one of: ``heuristic`` (the control); ``trick`` (they see the true deal only to judge the current trick:
each legal card is played and the trick finished by the heuristic; a seat that needs tricks plays its
lowest winner, one that does not its highest loser); ``round`` (they see the true deal and play the card
whose heuristic play-out of the rest of the round scores best for them: about 125 times the heuristic's
cost); ``patient`` (the heuristic's cards, but a follower who still needs tricks ducks a trick it would
take when its Wizards and bosses left cover its need: the search players take the lead of a trick half
as often as the heuristic would there, ``experiments/search_play.py``). What the advisor would need from a
stand-in is what the search players do to the hero: at 15 cards it takes 0.73 tricks over its bid and
makes it 46.7% of the time (53.7% among heuristics). No stand-in does that (docs/results.md, robustness), so none
is in the model. The search players' own play costs
25,000 times the heuristic's: ``wizsim simulate --round 15 --policies heuristic,search:worlds=8,...``.
"""

from __future__ import annotations

import argparse

import numba
import numpy as np

from wizsim.bits import bit, lowest_bit, popcount
from wizsim.cards import FULL_DECK_MASK, JESTER_MASK, N_CARDS, WIZARD_MASK
from wizsim.policies import parse_policy
from wizsim.policies.heuristic import (
    _bosses,
    _pick_discard,
    _pick_max,
    _pick_min,
    _winners,
    heuristic_bid,
    heuristic_card,
)
from wizsim.policies.records import Log, RoundInfo, RoundState
from wizsim.policies.registry import TABLES
from wizsim.policies.rollout import heuristic_tricks, play_card, play_tricks, trick_status
from wizsim.rules.kernels import STRENGTH, legal_mask, score_round

PLAYS = {"heuristic": 0, "trick": 1, "round": 2, "patient": 3}


@numba.njit
def _choose(ctx, obs):
    seat, players, hand, legal, turn_up, trump = obs.seat, obs.players, obs.hand, obs.legal, obs.turn_up, obs.trump
    bids, tricks, seat_played, played, trick_cards = obs.bids, obs.tricks, obs.seat_played, obs.played, obs.trick_cards
    n_in_trick, led, win_pos, voids = obs.n_in_trick, obs.led, obs.winning_pos, obs.voids
    live0, play = ctx  # live0: the round's own hands array, advanced in place by the trick loop
    need = bids[seat] - tricks[seat]
    own = heuristic_card(seat, players, hand, legal, turn_up, trump, need, played, trick_cards[max(win_pos, 0)],
                         n_in_trick, led, voids)
    if seat == 0 or play == 0 or popcount(legal) == 1:
        return own
    if play == 3:
        return _patient(own, need, hand, legal, played, trump, trick_cards, n_in_trick, led, win_pos)
    led0, best0, win0 = trick_status(trick_cards, n_in_trick, trump)
    leader = (seat - n_in_trick) % players
    live = np.empty(players, np.uint64)
    sp = np.empty(players, np.uint64)
    tr = np.empty(players, np.int8)
    vd = np.empty(players, np.int8)
    tc = np.empty(players, np.int8)
    winners = np.uint64(0)
    best_card, best_score = own, -1e9
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        for s in range(players):
            live[s], sp[s], tr[s], vd[s], tc[s] = live0[s], seat_played[s], tricks[s], voids[s], trick_cards[s]
        state = RoundState(live, sp, vd, tc, bids, tr)
        ld, bs, wp = play_card(state, trump, seat, c, n_in_trick, led0, best0, win0)
        if play == 2:
            heuristic_tricks(RoundInfo(players, obs.r, obs.hook, turn_up, trump), state, n_in_trick + 1, leader,
                             played | bit(c))
            score = score_round(bids[seat], tr[seat])
            if score > best_score:
                best_card, best_score = c, score
            continue
        pl = played | bit(c)
        for i in range(n_in_trick + 1, players):
            s = (leader + i) % players
            cc = heuristic_card(s, players, live[s], legal_mask(live[s], ld), turn_up, trump, bids[s] - tricks[s], pl,
                                tc[max(wp, 0)], i, ld, vd)
            pl |= bit(cc)
            ld, bs, wp = play_card(state, trump, s, cc, i, ld, bs, wp)
        if wp == n_in_trick:
            winners |= bit(c)
    if play == 2:
        return best_card
    if need > 0:
        return _pick_min(winners, trump) if winners else own
    losers = legal & ~winners
    return _pick_max(losers, trump) if losers else own


@numba.njit
def _patient(own, need, hand, legal, played, trump, trick_cards, n_in_trick, led, win_pos):
    """The heuristic's card, except that a follower who still needs tricks and would take the lead of the
    trick with it ducks (the heuristic's discard among the cards that would not) when its Wizards and
    bosses left beside that card still cover what it needs: the patience the search players show
    (experiments/search_play.py)."""
    if need <= 0 or n_in_trick == 0:
        return own
    w = _winners(legal, trump, led, STRENGTH[trump + 1, led + 2, trick_cards[win_pos]])
    losers = legal & ~w
    if w & bit(own) == 0 or losers == 0:
        return own
    unseen = FULL_DECK_MASK & ~(played | hand)
    sure = hand & (WIZARD_MASK | _bosses(hand & ~WIZARD_MASK & ~JESTER_MASK, unseen)) & ~bit(own)
    return _pick_discard(losers, trump) if popcount(sure) >= need else own


@numba.njit
def _round(hands, players, r, hero_params, opp_params, table, play, out):
    bids = np.full(players, -1, np.int8)
    for s in range(players):
        bids[s] = heuristic_bid(hero_params if s == 0 else opp_params, table, s, players, r, hands[s], -1, -1, bids,
                                -1)
    live = hands.copy()
    tr = np.zeros(players, np.int8)
    tc = np.zeros(players, np.int8)
    play_tricks(_choose, (live, play), RoundInfo(players, r, False, -1, -1),
                RoundState(live, np.zeros(players, np.uint64), np.zeros(players, np.int8), tc, bids, tr), 0, 0,
                np.uint64(0), players * r, Log(False, tc, tc, tc))
    out[0], out[1] = bids, tr


def run(play: str, shift: float, deals: int, seed: int, players: int = 4, r: int = 15) -> dict:
    table = TABLES["heuristic_values"]()
    hero = parse_policy("heuristic").params_row()
    opp = parse_policy(f"heuristic:bid_shift={shift}").params_row()
    rng = np.random.default_rng(seed)
    res = np.zeros((deals, 2, players), np.int64)
    for i in range(deals):
        perm = rng.permutation(N_CARDS)
        hands = np.zeros(players, np.uint64)
        for s in range(players):
            for c in perm[s * r:(s + 1) * r]:
                hands[s] |= np.uint64(1) << np.uint64(c)
        _round(hands, players, r, hero, opp, table, PLAYS[play], res[i])
    bids, tricks = res[:, 0], res[:, 1]
    return {"play": play, "bid_shift": shift, "bids": bids.mean(0).round(2).tolist(),
            "made": (bids == tricks).mean(0).round(3).tolist(), "hero_over": float((tricks[:, 0] - bids[:, 0]).mean())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--round", type=int, default=15)
    args = ap.parse_args()
    for play, shift in (("heuristic", 0.0), ("trick", 0.0), ("trick", -0.4), ("round", 0.0), ("round", -0.4),
                        ("patient", 0.0), ("patient", -0.4)):
        got = run(play, shift, args.deals, args.seed, r=args.round)
        print(f"{play:9} bid_shift {shift:+.1f}: bids {got['bids']}  made {got['made']}  "
              f"hero over its bid {got['hero_over']:+.2f}")


if __name__ == "__main__":
    main()
