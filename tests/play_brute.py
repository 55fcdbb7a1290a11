"""Brute-force play advice from the reference twins only, for the tests to compare against.

Written from docs/rules.md and the twins (``rules.reference.Trick``, ``policies.heuristic_reference``), not
from ``wizsim.advisor.play``: every deal of the unseen cards to the other seats (and of the turned-up
card when only its suit is known) is listed with ``itertools`` and filtered afterwards by the voids
shown and weighed by the opponents' model's twins (``policies.reference.bid_weight``, ``trump_weight``
and ``play_likelihood``: each opponent's heuristic twin, shown its whole hand, bidding, naming the trump
and choosing its cards), then every legal card is played out with the heuristic twin in every seat.
"""

from __future__ import annotations

import itertools

from wizsim.cards import N_CARDS, SUIT_MASKS, card_suit
from wizsim.policies.heuristic import DEFAULT_BID_SHIFT
from wizsim.policies.heuristic_values import VALUES
from wizsim.policies.records import Opponents, RoundInfo
from wizsim.policies.reference import (
    bid_weight,
    heuristic_bid,
    heuristic_card,
    heuristic_trump_choices,
    play_likelihood,
    play_seat_likelihoods,
    trump_weight,
)
from wizsim.rules.reference import Trick, score_round

PARAMS = [DEFAULT_BID_SHIFT]


def cards_of(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def heard(q, hands: dict[int, set[int]], turn_up: int, bid_trust: float = 1.0, play_trust: float = 0.0,
          trump_trust: float | None = None) -> float:
    """The chance of what the opponents did given their hands: each opponent's bid (its heuristic twin
    holding its cards now plus those it played), an opponent dealer's named trump on a turned-up Wizard
    (at ``trump_trust``; None: the bid trust), and (``play_trust`` > 0) every card each opponent chose, as
    the model's twins weigh them."""
    trump_trust = bid_trust if trump_trust is None else trump_trust
    dealer = q.players - 1
    whole = {s: sorted(hands[s] | set(cards_of(q.seat_played[s]))) for s in hands}
    w = 1.0
    for s in range(q.players):
        if s == q.me or bid_trust == 0:  # trust 0: the same for every deal, a factor the model leaves out
            continue
        forbidden = -1
        if q.hook and s == dealer:
            left = q.r - sum(q.bids[:-1])
            forbidden = left if 0 <= left <= q.r else -1
        model = heuristic_bid(PARAMS, VALUES, s, q.players, q.r, whole[s], q.trump, list(q.bids), forbidden)
        w *= bid_weight(model, q.bids[s], q.r, forbidden, bid_trust)
    if q.trump_card is not None and 52 <= q.trump_card < 56 and q.me != dealer and trump_trust > 0:
        choices = heuristic_trump_choices(PARAMS, VALUES, q.players, q.r, whole[dealer])
        w *= trump_weight(choices, q.trump, trump_trust)
    if play_trust > 0 and q.played:
        masks = [0] * q.players
        for s in range(q.players):
            cards = whole[s] if s != q.me else set(q.hand) | set(cards_of(q.seat_played[s]))
            masks[s] = sum(1 << c for c in cards)
        kinds = [1] * q.players
        w *= play_likelihood(Opponents(kinds, None, None, 0.0, play_trust, 0.0),
                             RoundInfo(q.players, q.r, q.hook, turn_up, q.trump), q.me, masks, list(q.bids),
                             list(q.played), len(q.played))
    return w


def heard_mixed(q, hands: dict[int, set[int]], turn_up: int, bid_trust: float, play_trust: float,
                doubt: float, seat_doubt: float = 0.0, trump_trust: float | None = None) -> float:
    """``heard`` with the table's type in doubt: ``doubt * P(what was done | a blind table)`` plus ``1 -
    doubt`` times the sum, over every set of seats blind on their own (prior ``seat_doubt`` each), of the
    product of each seat's probability of what it did, as modelled or blind: its heard bid (uniform over
    the legal bids if blind, and under the model at trust 0), the named suit and its chosen cards where
    the model weighs them (a quarter; one of the seat's legal cards uniformly)."""
    trump_trust = bid_trust if trump_trust is None else trump_trust
    dealer = q.players - 1
    whole = {s: sorted(hands[s] | set(cards_of(q.seat_played[s]))) for s in hands}
    others = [s for s in range(q.players) if s != q.me]
    model, blind = dict.fromkeys(others, 1.0), dict.fromkeys(others, 1.0)
    for s in others:
        forbidden = -1
        if q.hook and s == dealer:
            left = q.r - sum(q.bids[:-1])
            forbidden = left if 0 <= left <= q.r else -1
        n_bids = len([b for b in range(q.r + 1) if b != forbidden])
        blind[s] /= n_bids
        if bid_trust == 0:
            model[s] /= n_bids
        else:
            b = heuristic_bid(PARAMS, VALUES, s, q.players, q.r, whole[s], q.trump, list(q.bids), forbidden)
            model[s] *= bid_weight(b, q.bids[s], q.r, forbidden, bid_trust)
    if q.trump_card is not None and 52 <= q.trump_card < 56 and q.me != dealer and trump_trust > 0:
        model[dealer] *= trump_weight(heuristic_trump_choices(PARAMS, VALUES, q.players, q.r, whole[dealer]), q.trump,
                                      trump_trust)
        blind[dealer] /= 4
    if play_trust > 0 and q.played:
        masks = [0] * q.players
        for s in range(q.players):
            cards = whole[s] if s != q.me else set(q.hand) | set(cards_of(q.seat_played[s]))
            masks[s] = sum(1 << c for c in cards)
        by_model, by_chance = play_seat_likelihoods(Opponents([1] * q.players, None, None, 0.0, play_trust, 0.0),
                                                    RoundInfo(q.players, q.r, q.hook, turn_up, q.trump), q.me, masks,
                                                    list(q.bids), list(q.played), len(q.played))
        for s in others:
            model[s] *= by_model[s]
            blind[s] *= by_chance[s]
    seats = 0.0
    for types in itertools.product((False, True), repeat=len(others)):
        p = 1.0
        for s, is_blind in zip(others, types, strict=True):
            p *= seat_doubt * blind[s] if is_blind else (1 - seat_doubt) * model[s]
        seats += p
    every = 1.0
    for s in others:
        every *= blind[s]
    return (1 - doubt) * seats + doubt * every


def deals(q):
    """Every (turn_up, {seat: hand}) consistent with the counts and voids, each once."""
    others = [s for s in range(q.players) if s != q.me]
    if q.last_round:
        turn_ups = [-1]
    elif q.trump_card is not None:
        turn_ups = [q.trump_card]
    else:
        turn_ups = [c for c in cards_of(q.turn_up_pool) if q.unseen_mask >> c & 1]
    for t in turn_ups:
        pool = [c for c in cards_of(q.unseen_mask) if c != t]
        for hands in _split(pool, [q.held_counts[s] for s in others]):
            ok = all(not any(q.voids[s] >> suit & 1 and int(SUIT_MASKS[suit]) >> c & 1 for suit in range(4)
                             for c in h) for s, h in zip(others, hands, strict=True))
            if ok:
                yield t, dict(zip(others, (set(h) for h in hands), strict=True))


def _split(pool, counts):
    if not counts:
        yield []
        return
    for combo in itertools.combinations(pool, counts[0]):
        rest = [c for c in pool if c not in combo]
        for tail in _split(rest, counts[1:]):
            yield [combo, *tail]


def play_out(q, hands: dict[int, set[int]], turn_up: int, first: int) -> int:
    """The player's tricks at the end of the round: it plays ``first`` now, then everyone plays the
    heuristic twin; every rule from ``rules.reference.Trick``."""
    hands = {s: set(h) for s, h in hands.items()}
    hands[q.me] = set(q.hand)
    tricks = list(q.tricks)
    played = list(q.played)
    voids = [{suit for suit in range(4) if q.voids[s] >> suit & 1} for s in range(q.players)]
    leader = q.leader
    trick = Trick(trump=q.trump, cards=list(q.trick_cards))
    while sum(tricks) < q.r:
        while len(trick.cards) < q.players:
            s = (leader + len(trick.cards)) % q.players
            legal = [c for c in sorted(hands[s]) if trick.may_play(hands[s], c)]
            if s == q.me and first is not None:
                card, first = first, None
                assert card in legal
            else:
                card = heuristic_card(s, q.players, sorted(hands[s]), legal, turn_up, q.trump,
                                      q.bids[s] - tricks[s], played, list(trick.cards), voids)
            led = trick.led
            if led >= 0 and card_suit(card) >= 0 and card_suit(card) != led:
                voids[s].add(led)
            hands[s].remove(card)
            played.append(card)
            trick.cards.append(card)
        winner = (leader + trick.winner()) % q.players
        tricks[winner] += 1
        leader = winner
        trick = Trick(trump=q.trump)
    return tricks[q.me]


def brute_force(q, bid_trust: float = 1.0, play_trust: float = 0.0, doubt: float = 0.0, seat_doubt: float = 0.0,
                trump_trust: float | None = None):
    """card -> (p_make, ev, expected_tricks, n_deals): the deals weighted by the chance of what was heard
    (with the table's type in doubt: the mixture's, ``heard_mixed``); ``trump_trust`` None: the bid trust."""
    got = {c: [] for c in (int(x) for x in q.legal_cards)}
    weights = []
    for turn_up, hands in deals(q):
        w = heard(q, hands, turn_up, bid_trust, play_trust, trump_trust) if doubt == 0 and seat_doubt == 0 else \
            heard_mixed(q, hands, turn_up, bid_trust, play_trust, doubt, seat_doubt, trump_trust)
        if w == 0:
            continue
        weights.append(w)
        for c in got:
            got[c].append(play_out(q, hands, turn_up, c))
    bid = q.bids[q.me]
    out = {}
    total = sum(weights)
    for c, tricks in got.items():
        out[c] = (sum(w * (t == bid) for w, t in zip(weights, tricks, strict=True)) / total,
                  sum(w * score_round(bid, t) for w, t in zip(weights, tricks, strict=True)) / total,
                  sum(w * t for w, t in zip(weights, tricks, strict=True)) / total, len(weights))
    return out


def random_state(players: int, r: int, seed: int, n_played: int, hook: bool = False, show_turn_up: bool = False,
                 truth: dict | None = None):
    """A realistic play-phase question: a random deal, the heuristic twin's bids and its first
    ``n_played`` cards; returns advise_play's keyword arguments for the seat to play next (and fills
    ``truth`` with the hidden hands, the tricks taken and the leader, when given)."""
    import random

    from wizsim.cards import format_card, format_cards, format_trump

    rng = random.Random(seed)
    deck = list(range(N_CARDS))
    rng.shuffle(deck)
    hands = [set(deck[s * r:(s + 1) * r]) for s in range(players)]
    last = players * r == N_CARDS
    turn_up = -1 if last else deck[players * r]
    dealer = players - 1
    if turn_up < 0 or turn_up >= 56:
        trump = -1
    elif turn_up >= 52:
        trump = rng.choice(heuristic_trump_choices(PARAMS, VALUES, players, r, sorted(hands[dealer])))
    else:
        trump = card_suit(turn_up)
    bids: list[int] = []
    for s in range(players):
        forbidden = -1
        if hook and s == dealer and 0 <= r - sum(bids) <= r:
            forbidden = r - sum(bids)
        bids.append(heuristic_bid(PARAMS, VALUES, s, players, r, sorted(hands[s]), trump, bids + [-1] * (players - s),
                                  forbidden))
    tricks = [0] * players
    played: list[int] = []
    voids = [set() for _ in range(players)]
    leader = 0
    trick = Trick(trump=trump)
    while len(played) < n_played:
        s = (leader + len(trick.cards)) % players
        legal = [c for c in sorted(hands[s]) if trick.may_play(hands[s], c)]
        card = heuristic_card(s, players, sorted(hands[s]), legal, turn_up, trump, bids[s] - tricks[s], played,
                              list(trick.cards), voids)
        if trick.led >= 0 and card_suit(card) >= 0 and card_suit(card) != trick.led:
            voids[s].add(trick.led)
        hands[s].remove(card)
        played.append(card)
        trick.cards.append(card)
        if len(trick.cards) == players:
            leader = (leader + trick.winner()) % players
            tricks[leader] += 1
            trick = Trick(trump=trump)
    me = (leader + len(trick.cards)) % players
    if truth is not None:
        truth.update(hands=[set(h) for h in hands], tricks=list(tricks), leader=leader, turn_up=turn_up)
    out = dict(hand=format_cards(sorted(hands[me])), trump=format_trump(trump), seat=me + 1, players=players,
               bids=bids, played=format_cards(played) if played else "", hook=hook)
    if show_turn_up and turn_up >= 0:
        out["trump_card"] = format_card(turn_up)
    return out
