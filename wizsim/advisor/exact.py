"""Round 1 by exact enumeration: with one card each, play is forced, so no sampling is needed.

The player takes the trick or not, whatever it bids, so everything follows from one number, the
chance that the player's card wins. It is a sum over the opponents' cards (and over the turned-up
card when only its suit or "none" is known, RULES.md 3), each deal weighted by how likely the heard
earlier bids (and a dealer's named suit on a turned-up Wizard) are under the opponents' policy given
that seat's card. In round 1 those choices depend on that seat's single card and public information
only, so the weight is the policy's own bid kernel evaluated per card (``choice_frequencies``): 0 or 1
for a deterministic policy, hence exact; a policy whose bid ignores its hand weighs nothing.

To keep six players cheap, the unknown cards are grouped into classes that are interchangeable for
the question "does the player's card win?" (its *role*: Wizard, Jester, higher or lower trump, higher
or lower card of its own suit, another suit) and carry the same weights; deals are enumerated over
classes, each counted with its number of card assignments. The winner of each class pattern is
found by the rules' batch kernel (``rules.kernels.trick_winners``) on representative cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, N_RANKS, mask_to_cards
from wizsim.policies import make_slots, policy_entry
from wizsim.rules.kernels import trick_winners

N_REPS = 64  # play streams per card when asking a policy for its choice (exact for deterministic ones)


@dataclass
class ExactResult:
    p_win: float  # chance that the player takes the trick
    n_deals: int  # deals consistent with what the player knows (nonzero weight)


def role(card: int, u: int, trump: int) -> int:
    """Class of the unknown card ``u`` relative to the player's ``card``: cards of one role are
    interchangeable for whether ``card`` wins the trick (see the module docstring)."""
    u_wizard = FIRST_WIZARD <= u < FIRST_JESTER
    u_jester = u >= FIRST_JESTER
    if FIRST_WIZARD <= card < FIRST_JESTER:
        return 0 if u_wizard else 1  # only a Wizard played before it beats a Wizard
    if card >= FIRST_JESTER:
        return 0 if u_jester else 1  # a Jester wins only when every card is a Jester
    if u_wizard:
        return 0
    suit = card // N_RANKS
    if suit == trump:  # a trump loses only to Wizards and higher trumps
        return 1 if (not u_jester and u // N_RANKS == trump and u > card) else 2
    if u_jester:
        return 1
    u_suit = u // N_RANKS
    if u_suit == trump:
        return 2
    if u_suit == suit:
        return 3 if u > card else 4
    return 5  # another suit: harmless unless it sets the led suit, and then any of them does


def seat_weights(q, turn_up: int, cards: np.ndarray) -> dict[int, np.ndarray]:
    """0-based seat -> weight of each card in ``cards`` (the chance of what that seat was heard doing)."""
    from wizsim.sim.candidates import choice_frequencies

    weights: dict[int, np.ndarray] = {}
    if policy_entry(q.policy).hand_blind:
        return weights
    slots = make_slots([q.policy])
    kind, params, table = slots.kinds[0], slots.params[0], slots.table
    ids = cards.astype(np.int8)
    if q.earlier_bids:
        bids = np.full(q.players, -1, np.int8)
        for s, heard in enumerate(q.earlier_bids):
            out = np.empty(len(ids), np.float64)
            choice_frequencies(kind, params, table, s, q.players, 1, ids, turn_up, q.trump, bids, -1,
                               heard, False, N_REPS, out)
            weights[s] = out
            bids[s] = heard
    if q.dealer_named_trump:
        out = np.empty(len(ids), np.float64)
        choice_frequencies(kind, params, table, q.players - 1, q.players, 1, ids, turn_up, q.trump,
                           np.full(q.players, -1, np.int8), -1, q.trump, True, N_REPS, out)
        weights[q.players - 1] = out
    return weights


def _falling(n: int, m: int) -> float:
    out = 1.0
    for i in range(m):
        out *= n - i
    return out


def exact_round_one(q) -> ExactResult:
    """The chance that the player's single card takes the trick, given everything ``q`` knows."""
    assert q.r == 1
    card = q.hand[0]
    seat0 = q.seat - 1
    others = [s for s in range(q.players) if s != seat0]
    turn_ups = [q.trump_card] if q.trump_card is not None else [int(c) for c in mask_to_cards(q.turn_up_pool)]
    num = 0.0
    den = 0.0
    n_deals = 0
    for turn_up in turn_ups:
        unknown = mask_to_cards(q.unknown_mask & ~(1 << turn_up)).astype(np.int64)
        w = seat_weights(q, turn_up, unknown)
        cond = sorted(w)
        keys = [(role(card, int(u), q.trump),) + tuple(float(w[s][i]) for s in cond) for i, u in enumerate(unknown)]
        classes = sorted(set(keys))
        index = {key: i for i, key in enumerate(classes)}
        cls = np.array([index[key] for key in keys], np.int64)
        counts = np.bincount(cls, minlength=len(classes))
        rep = np.array([unknown[np.flatnonzero(cls == c)[0]] for c in range(len(classes))], np.int64)
        class_w = {s: np.array([key[1 + cond.index(s)] for key in classes]) for s in cond}
        allowed = [np.flatnonzero(class_w[s] > 0) if s in class_w else np.arange(len(classes)) for s in others]
        if any(a.size == 0 for a in allowed):
            continue
        grid = np.stack(np.meshgrid(*allowed, indexing="ij"), axis=-1).reshape(-1, len(others))
        m_max = len(others)
        ff = np.array([[_falling(int(n), m) for m in range(m_max + 1)] for n in counts])
        ways = np.ones(len(grid))
        for c in range(len(classes)):
            ways *= ff[c, (grid == c).sum(axis=1)]
        weight = ways.copy()
        for j, s in enumerate(others):
            if s in class_w:
                weight *= class_w[s][grid[:, j]]
        trick = np.empty((len(grid), q.players), np.int64)
        trick[:, seat0] = card
        for j, s in enumerate(others):
            trick[:, s] = rep[grid[:, j]]
        wins = trick_winners(trick, q.trump) == seat0
        num += float(weight[wins].sum())
        den += float(weight.sum())
        n_deals += int(round(ways[weight > 0].sum()))
    if den <= 0:
        from wizsim.advisor.question import AdviceError

        raise AdviceError(f"the earlier bids {list(q.earlier_bids or [])} are impossible for the {q.policy} policy "
                          f"with the cards left")
    return ExactResult(num / den, n_deals)

