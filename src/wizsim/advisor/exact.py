"""Round 1 by exact enumeration: with one card each, play is forced, so no sampling is needed.

The player takes the trick or not, whatever it bids, so everything follows from one number, the
chance that the player's card wins. It is a sum over the opponents' cards (and over the turned-up
card when only its suit or "none" is known, docs/rules.md 3), each deal weighted by how likely the heard
earlier bids (and a dealer's named suit on a turned-up Wizard) are under the opponents' model given
that seat's card (``policies.model``). In round 1 those choices depend on that seat's single card and
public information only, so each seat's weight is a function of its card: the model's likelihood is an
exact probability, and so is the answer; a blind model (or a trust of 0: ``bid_trust`` for bids, ``trump_trust`` for a named suit) weighs nothing.

With the table's type in doubt (``model.doubt`` > 0, ``policies.model``) each deal weighs
``(1 - doubt) P(heard | deal, model) + doubt P(heard | blind)``, and with a doubt per seat
(``model.seat_doubt``) each heard seat's part of the model's likelihood is itself the mixture
``(1 - seat_doubt) P(its choice | its card, model) + seat_doubt P(its choice | blind)``; play being
forced, the type a deal is played on does not change who takes the trick, so the mixture weights are
all there is to it.

To keep six players cheap, the unknown cards are grouped into classes that are interchangeable for
the question "does the player's card win?" (its *role*: Wizard, Jester, higher or lower trump, higher
or lower card of its own suit, another suit) and carry the same weights; deals are enumerated over
classes, each counted with its number of card assignments. The winner of each class pattern is
found by the rules' batch kernel (``rules.kernels.trick_winners``) on representative cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.bits import bit
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, N_RANKS, mask_to_cards
from wizsim.policies.model import MODEL_BLIND, MODEL_NET, bid_weight, model_bid, named_trump_likelihood, seat_bid_weight
from wizsim.policies.records import RoundInfo
from wizsim.rules.kernels import trick_winners


@dataclass
class ExactResult:
    p_win: float  # chance that the player takes the trick
    n_deals: int  # deals consistent with what the player knows (nonzero weight)
    conditioned: bool = False  # some seat's choice was weighed
    warning: str | None = None  # the heard choices are impossible under the model (trust 1): ignored


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


def seat_weights(q, model, turn_up: int, cards: np.ndarray) -> dict[int, np.ndarray]:
    """0-based seat -> weight of each card in ``cards`` (the model's likelihood of what that seat was
    heard doing, holding that one card)."""
    weights: dict[int, np.ndarray] = {}
    bids = np.full(q.players, -1, np.int8)
    for s, heard in enumerate(q.earlier_bids or ()):
        info = RoundInfo(q.players, 1, bool(q.hook), turn_up, q.trump)
        bids[s] = heard
        if model.kinds[s] == MODEL_NET and model.bid_trust > 0:
            weights[s] = np.array([seat_bid_weight(model.record(), s, info, np.uint64(bit(int(c))), bids, -1)[0]
                                   for c in cards])
        elif model.kinds[s] != MODEL_BLIND and model.bid_trust > 0:
            weights[s] = np.array([bid_weight(model_bid(model.kinds[s], model.params[s], model.table, s, info,
                                                        np.uint64(bit(int(c))), bids, -1), heard, 1, -1,
                                              model.bid_trust)
                                   for c in cards])
    dealer = q.players - 1
    if q.dealer_named_trump and model.kinds[dealer] != MODEL_BLIND and model.trump_trust > 0:
        w = np.array([named_trump_likelihood(model.kinds[dealer], model.params[dealer], model.table, model.trump_trust,
                                             q.players, 1, np.uint64(bit(int(c))), q.trump, model.record().net)
                      for c in cards])
        weights[dealer] = weights.get(dealer, 1.0) * w
    return weights


def _falling(n: int, m: int) -> float:
    out = 1.0
    for i in range(m):
        out *= n - i
    return out


def exact_round_one(q, model) -> ExactResult:
    """The chance that the player's single card takes the trick, given everything ``q`` knows and the
    opponents' ``model`` (``advisor.opponents.OpponentModel``). Heard choices that the model finds
    impossible (only at trust 1) are ignored, with a warning: a legal state always gets an answer."""
    res = _enumerate(q, model, weigh=True)
    if res.n_deals == 0:
        res = _enumerate(q, model, weigh=False)
        res.warning = (f"what the opponents did is impossible for their model ({model.opponents_label()}) at "
                       f"bid_trust {model.bid_trust:g} (trump_trust {model.trump_trust:g}): it is ignored and the answer rests on the cards alone")
    return res


def _enumerate(q, model, weigh: bool) -> ExactResult:
    assert q.r == 1
    card = q.hand[0]
    seat0 = q.seat - 1
    others = [s for s in range(q.players) if s != seat0]
    turn_ups = [q.trump_card] if q.trump_card is not None else [int(c) for c in mask_to_cards(q.turn_up_pool)]
    num = 0.0
    den = 0.0
    n_deals = 0
    conditioned = False
    doubt = float(model.doubt) if weigh else 0.0
    seat_doubt = float(model.seat_doubt) if weigh else 0.0
    num_b = den_b = 0.0  # the blind table's sums: every deal weighs the same
    heard = [s for s in range(len(q.earlier_bids or ())) if s != seat0]
    for turn_up in turn_ups:
        unknown = mask_to_cards(q.unknown_mask & ~(1 << turn_up)).astype(np.int64)
        w = seat_weights(q, model, turn_up, unknown) if weigh else {}
        if seat_doubt > 0:  # each heard seat may be blind on its own: 1/2 for its bid, 1/4 for a named suit
            w = {s: (1 - seat_doubt) * v + seat_doubt * (0.5 if s in heard else 1.0)
                 * (0.25 if s == q.players - 1 and q.dealer_named_trump else 1.0) for s, v in w.items()}
        conditioned = conditioned or bool(w)
        # the probability of the heard bids under the model is the weights' product times 1/2 (r = 1: two
        # legal bids) for each heard seat they leave out; under the blind table 1/2 for each, and 1/4 for
        # a dealer's named suit when the model weighs it
        scale_a = 0.5 ** len([s for s in heard if s not in w])
        like_b = 0.5 ** len(heard) * (0.25 if q.players - 1 in w else 1.0)
        cond = sorted(w)
        keys = [(role(card, int(u), q.trump),) + tuple(float(w[s][i]) for s in cond) for i, u in enumerate(unknown)]
        classes = sorted(set(keys))
        index = {key: i for i, key in enumerate(classes)}
        cls = np.array([index[key] for key in keys], np.int64)
        counts = np.bincount(cls, minlength=len(classes))
        rep = np.array([unknown[np.flatnonzero(cls == c)[0]] for c in range(len(classes))], np.int64)
        class_w = {s: np.array([key[1 + cond.index(s)] for key in classes]) for s in cond}
        allowed = [np.flatnonzero(class_w[s] > 0) if s in class_w and doubt == 0 else np.arange(len(classes))
                   for s in others]
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
        if doubt > 0:
            weight *= scale_a
            num_b += float(ways[wins].sum()) * like_b
            den_b += float(ways.sum()) * like_b
            n_deals += int(round(ways.sum()))
        else:
            n_deals += int(round(ways[weight > 0].sum()))
        num += float(weight[wins].sum())
        den += float(weight.sum())
    if doubt > 0:
        num, den = (1 - doubt) * num + doubt * num_b, (1 - doubt) * den + doubt * den_b
    if den <= 0:
        return ExactResult(0.0, 0, conditioned)
    return ExactResult(num / den, n_deals, conditioned)
