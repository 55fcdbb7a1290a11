"""The opponents' model: how likely is what a seat was seen doing, given the cards it held.

Everything a player observes about the other seats' hidden cards is weighed here, and only here: the
bid each seat made, the suit a dealer named on a turned-up Wizard, and each card a seat chose. Bid
advice, play advice, round 1's exact enumeration and the search policy all ask these kernels for the
likelihood of the observations given a *world* (a full deal of the hidden cards); the hard facts
(cards seen, voids shown, how many cards each seat holds) are the world sampler's business
(``policies.worlds``), not a weight.

A model of a seat is a kind (``MODEL_BLIND``: its choices tell nothing about its cards, as for the
``random`` policy; ``MODEL_HEURISTIC``: it decides as the heuristic would, with that seat's policy
parameters, e.g. ``bid_shift``; ``MODEL_NET``: its bid and named suit are the learned policy ``net``'s,
below) and a trust. Decisions are soft: a deterministic policy's choice ``c*``
gets most of the mass and the rest is spread over the other legal choices, nearer ones likelier,

- a bid ``b`` heard from a seat whose model bids ``b*``: ``rho ** |b - b*| / Z(b*)`` with
  ``rho = 1 - bid_trust`` and ``Z(b*)`` the sum of ``rho ** |b' - b*|`` over the legal bids ``b'``
  (0..r, the hook's forbidden bid left out). ``bid_trust = 1`` is hard evidence (only ``b*`` is
  possible), ``bid_trust = 0`` says nothing (every legal bid equally likely, whatever the cards);
- a suit named by a dealer whose model names one of the suits ``C`` (uniformly): weight 1 for a
  suit in ``C`` and ``rho`` for the others, normalised over the four suits (the same ``rho``);
- a card ``c`` chosen among ``n`` legal cards where the model plays ``c*``: ``1 / (1 + (n-1) rho_p)``
  when ``c == c*``, ``rho_p / (1 + (n-1) rho_p)`` otherwise, with ``rho_p = 1 - play_trust``.

A ``net`` seat (``MODEL_NET``) is weighed by net's own networks (``policies.net``), whose softmax is already
a soft choice:

- a heard bid ``b``: ``bid_trust * softmax(b) + (1 - bid_trust) / n``, the softmax of the bid network's
  outputs over the ``n`` legal bids for the seat's observation at its bid (its whole hand, the turned-up
  card, the trump, the earlier seats' bids, the hook; ``net_bid_weight``); its model bid (``model_bids``,
  the explanations') is net's own, the highest output;
- a named suit ``s``: ``trump_trust * softmax(s) + (1 - trump_trust) / 4`` over the trump network's scores
  of the four suits (``net_trump_weight``);
- a card ``c`` it chose (``play_seat_likelihoods``, ``play_likelihoods``, ``trick_likelihood``):
  ``play_trust * softmax(c) + (1 - play_trust) / n`` over the ``n`` legal cards, the softmax of the card
  network's outputs over the legal card kinds for the seat's observation then, a kind's share split among
  its legal cards (``net_card_weight``). What the table's play is learned from (``play_choices``, the
  table fit's noise) is each card against the card network's own choice, where the table fit is asked on net
  (``advisor.table_fit.TablePlay(model="net")``), as the noise is modelled: net's card, or a random one.

Net's code is compiled only where some seat's model is net: the kinds are runtime values, so the record's
``Opponents.net`` field (True, or None) chooses by its type (``_net_bid_weight``, as ``policies.dispatch``
chooses net's deciders); with None a ``MODEL_NET`` seat is refused (ValueError), never weighed as another.

The table's type. The opponents are unknown, so the model is a mixture over two *types* of table, shared
by every other seat: the *model* type (each seat as above) with prior ``1 - doubt``, and the *blind*
type with prior ``doubt``: every other seat bids uniformly among its legal bids and plays a uniformly
random legal card (the ``random`` policy). A world's weight is then
``(1 - doubt) * P(heard | world, model) + doubt * P(heard | blind)`` (``table_mixture``; the blind
type's likelihood of the bids is the same for every world, ``blind_bids_likelihood``; of the cards
chosen, ``1 / (legal cards)`` each, which depends on the world, ``play_likelihoods``), and the
posterior chance that the table is blind given the world, ``doubt * P(heard | blind) / weight``, picks
the type each world is played out under (bid and trump advice; play advice plays every world on the
model's table). Choices that the model would not make raise it; at ``doubt = 0`` the model is as above.

A seat in doubt. On the model's table, each seat that was heard (its bid, or a dealer's named suit) may
also be blind on its own, with prior ``seat_doubt``, independently of the others: one
wild player at a table of sensible ones. A seat's part of the likelihood is then
``(1 - seat_doubt) P(its choice | world, model) + seat_doubt P(its choice | blind)`` (``seat_factors``,
``seat_mixture``), and each world is played out with the seats drawn blind from
their posteriors playing ``random`` (bid advice; play advice weighs its worlds so, a seat's chosen cards
in its part, ``play_seat_likelihoods``, and plays them out on the model's table). Seats not heard yet
keep the model: nothing tells about them, and playing them at random at a table that is the model would
cost the advice there (docs/results.md, robustness).

No legal observation gets weight 0 unless a trust is exactly 1, so no legal state is ever
impossible: unlikely evidence only counts for less. At trust 0 every world gets the same weight, and the
likelihoods below leave that constant factor out (they return 1). Seats are 0-based (index 0 = seat 1). The twins
are in ``policies.reference`` (same names).

The kernels take the model and what was seen as named records (``policies.records``: ``Opponents``,
``Evidence``, ``TableDoubt`` next to the round's ``RoundInfo`` and ``RoundState``).
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from wizsim._numba import inline_kernel, kernel
from wizsim.bits import ZERO, bit, lowest_bit, popcount
from wizsim.policies.heuristic import heuristic_bid, heuristic_card, heuristic_obs_card, heuristic_trump_choices
from wizsim.policies.net import (
    MAX_BID,
    N_KINDS,
    card_kind,
    net_bid_softmax,
    net_card,
    net_card_softmax,
    net_trump_softmax,
)
from wizsim.policies.observation import observe
from wizsim.policies.records import Log, RoundInfo, RoundState
from wizsim.policies.rollout import play_tricks
from wizsim.rules.kernels import LED_NONE, STRENGTH, forbidden_bid, legal_mask, next_led

MODEL_BLIND = 0
MODEL_HEURISTIC = 1
MODEL_NET = 2


@kernel
def bid_weight(model_bid, heard, r, forbidden, trust):
    """P(a seat bids ``heard`` | its model bids ``model_bid``), over the legal bids 0..r."""
    if trust >= 1.0:
        return 1.0 if heard == model_bid else 0.0
    rho = 1.0 - trust
    z = 0.0
    for b in range(r + 1):
        if b != forbidden:
            z += rho ** abs(b - model_bid)
    return rho ** abs(heard - model_bid) / z


@kernel
def max_bid_weight(heard, r, forbidden, trust):
    """The largest ``bid_weight`` of ``heard`` over every model bid: a bound for rejection sampling."""
    best = 0.0
    for m in range(r + 1):
        if m != forbidden:
            best = max(best, bid_weight(m, heard, r, forbidden, trust))
    return best


@kernel
def trump_weight(choices, named, trust):
    """P(the dealer names suit ``named`` | its model names uniformly among the suits in the mask
    ``choices``)."""
    n = popcount(np.uint64(choices))
    inside = (choices >> named) & 1
    if trust >= 1.0:
        return inside / n
    rho = 1.0 - trust
    return (1.0 if inside else rho) / (n + rho * (4 - n))


@kernel
def card_weight(is_choice, n_legal, trust):
    """P(the seat played this card | its model plays ``is_choice``-ly this card) among ``n_legal``."""
    if n_legal <= 1:
        return 1.0
    if trust >= 1.0:
        return 1.0 if is_choice else 0.0
    rho = 1.0 - trust
    return (1.0 if is_choice else rho) / (1.0 + (n_legal - 1) * rho)


@kernel
def model_bid(kind, params, table, seat, info, hand, bids, forbidden):
    """The bid the model of 0-based ``seat`` makes with ``hand`` (-1 for a blind model) in the round
    ``info`` (``records.RoundInfo``). ``bids``: the earlier seats' bids (later entries are not read)."""
    if kind == MODEL_BLIND:
        return -1
    return heuristic_bid(params, table, seat, info.players, info.r, hand, info.turn_up, info.trump, bids, forbidden)


@kernel
def net_bid_weight(table, seat, info, hand, bids, forbidden, trust):
    """(P(the seat bids ``bids[seat]`` | its model is net), net's own bid): ``trust`` times the bid network's
    softmax over the legal bids, for the seat's observation at its bid (``hand``, the earlier seats'
    ``bids``, the round ``info``), plus ``1 - trust`` spread uniformly over the legal bids."""
    probs = np.empty(MAX_BID + 1, np.float64)
    state = RoundState(np.zeros(info.players, np.uint64), np.zeros(info.players, np.uint64),
                       np.zeros(info.players, np.int8), np.full(info.players, -1, np.int8), bids,
                       np.zeros(info.players, np.int8))
    choice = net_bid_softmax(table, observe(info, state, seat, hand, ZERO, forbidden, ZERO, 0, LED_NONE, -1), probs)
    return trust * probs[bids[seat]] + (1.0 - trust) / n_legal_bids(info.r, forbidden), np.int64(choice)


@kernel
def net_trump_weight(table, players, r, dealer_hand, named, trust):
    """P(a dealer holding ``dealer_hand`` names suit ``named`` | its model is net): ``trust`` times the trump
    network's softmax over the four suits, plus ``1 - trust`` spread over them."""
    probs = np.empty(4, np.float64)
    net_trump_softmax(table, dealer_hand, players, r, probs)
    return trust * probs[named] + (1.0 - trust) / 4.0


@kernel
def net_card_weight(table, obs, card, trust):
    """P(a net seat plays ``card`` | what it saw, ``obs``): ``trust`` times the card network's softmax over the
    legal kinds (a kind's share split among the legal cards of that kind), plus ``1 - trust`` spread
    uniformly over the legal cards; 1 where one card is legal."""
    n = popcount(obs.legal)
    if n <= 1:
        return 1.0
    probs = np.empty(N_KINDS, np.float64)
    net_card_softmax(table, obs, probs)
    kind = card_kind(card, obs.trump)
    same = 0
    m = obs.legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        if card_kind(c, obs.trump) == kind:
            same += 1
    return trust * probs[kind] / same + (1.0 - trust) / n


def _net_card_weight(net, table, obs, card, trust):
    """``net_card_weight`` where ``net`` is not None (kernels only, as ``_net_bid_weight``)."""
    raise TypeError("kernels only")


def _net_bid_weight(net, table, seat, info, hand, bids, forbidden, trust):
    """``net_bid_weight`` where ``net`` is not None (kernels only, as ``policies.dispatch._net``: the model's
    kinds are runtime values, so net's code is chosen by the type of ``Opponents.net``)."""
    raise TypeError("kernels only")


@kernel
def _refuse_net():
    """The refusal of a net seat in kernels compiled without net's code (one raise, shared by both gates)."""
    raise ValueError("a net model seat in kernels compiled without net's code: give records.Opponents net=True "
                     "where a seat's model is MODEL_NET")


@overload(_net_bid_weight)
def _net_bid_weight_typed(net, table, seat, info, hand, bids, forbidden, trust):
    """None: no seat's model is net, and its networks are not compiled in; a net seat there is a caller's
    bug, refused."""
    if isinstance(net, types.NoneType):
        def refuse(net, table, seat, info, hand, bids, forbidden, trust):
            _refuse_net()
            return 0.0, np.int64(-1)
        return refuse
    return lambda net, table, seat, info, hand, bids, forbidden, trust: net_bid_weight(table, seat, info, hand, bids,
                                                                                       forbidden, trust)


def _net_trump_weight(net, table, players, r, dealer_hand, named, trust):
    """``net_trump_weight`` where ``net`` is not None (kernels only, as ``_net_bid_weight``)."""
    raise TypeError("kernels only")


@overload(_net_trump_weight)
def _net_trump_weight_typed(net, table, players, r, dealer_hand, named, trust):
    if isinstance(net, types.NoneType):
        def refuse(net, table, players, r, dealer_hand, named, trust):
            _refuse_net()
            return 0.0
        return refuse
    return lambda net, table, players, r, dealer_hand, named, trust: net_trump_weight(table, players, r, dealer_hand,
                                                                                      named, trust)


@overload(_net_card_weight)
def _net_card_weight_typed(net, table, obs, card, trust):
    if isinstance(net, types.NoneType):
        def refuse(net, table, obs, card, trust):
            _refuse_net()
            return 1.0
        return refuse
    return lambda net, table, obs, card, trust: net_card_weight(table, obs, card, trust)


@kernel
def seat_bid_weight(opponents, seat, info, hand, bids, forbidden):
    """(P(0-based ``seat`` bids ``bids[seat]`` | its model, its whole ``hand``), its model's bid) for a seat
    whose model is not blind, at ``opponents.bid_trust`` (above 0): ``bid_weight`` of the heuristic's bid,
    or for a net seat ``net_bid_weight``. ``opponents``: an ``Opponents``; ``info``: the round's ``RoundInfo``."""
    kind, trust = opponents.kinds[seat], opponents.bid_trust
    if kind == MODEL_NET:
        return _net_bid_weight(opponents.net, opponents.table, seat, info, hand, bids, forbidden, trust)
    m = model_bid(kind, opponents.params[seat], opponents.table, seat, info, hand, bids, forbidden)
    return bid_weight(m, bids[seat], info.r, forbidden, trust), np.int64(m)


@kernel
def bids_likelihood(opponents, info, me, hands, bids, n_heard, model_bids):
    """The likelihood of the first ``n_heard`` seats' bids ``bids`` given each seat's whole hand
    ``hands[s]`` (the cards it was dealt this round): the product of ``seat_bid_weight`` at
    ``opponents.bid_trust`` over the seats other than ``me`` whose model is not blind. ``opponents``: an
    ``Opponents``; ``info``: the round's ``records.RoundInfo``. ``model_bids`` (players,) int8 gets each
    seat's model bid (-1: not asked; a net seat's: net's own, its highest logit)."""
    kinds, trust = opponents.kinds, opponents.bid_trust
    players, r, hook = info.players, info.r, info.hook
    like = 1.0
    total = 0
    for s in range(players):
        model_bids[s] = -1
    for s in range(n_heard):
        forbidden = forbidden_bid(hook, s, players, r, total)
        if s != me and kinds[s] != MODEL_BLIND and trust > 0.0:
            if kinds[s] == MODEL_NET:  # ``seat_bid_weight``, written out: one kernel layer less to compile
                w, m = _net_bid_weight(opponents.net, opponents.table, s, info, hands[s], bids, forbidden, trust)
            else:
                m = model_bid(kinds[s], opponents.params[s], opponents.table, s, info, hands[s], bids, forbidden)
                w = bid_weight(m, bids[s], r, forbidden, trust)
            model_bids[s] = m
            like *= w
        total += bids[s]
    return like


@kernel
def bids_bound(kinds, trust, players, r, hook, me, bids, n_heard):
    """The largest value ``bids_likelihood`` can take for these heard bids, whatever the hands."""
    bound = 1.0
    total = 0
    for s in range(n_heard):
        forbidden = forbidden_bid(hook, s, players, r, total)
        if s != me and kinds[s] != MODEL_BLIND and trust > 0.0:
            if kinds[s] == MODEL_NET:  # a softmax of 1
                bound *= trust + (1.0 - trust) / n_legal_bids(r, forbidden)
            else:
                bound *= max_bid_weight(bids[s], r, forbidden, trust)
        total += bids[s]
    return bound


@kernel
def named_trump_likelihood(kind, params, table, trust, players, r, dealer_hand, named, net):
    """The likelihood that the dealer, holding ``dealer_hand``, named suit ``named`` on a turned-up Wizard
    (``trump_weight`` of the heuristic's choices; for a net dealer ``net_trump_weight``; ``net``: the
    ``Opponents.net`` flag, None where no model is net)."""
    if kind == MODEL_BLIND or trust <= 0.0:
        return 1.0
    if kind == MODEL_NET:
        return _net_trump_weight(net, table, players, r, dealer_hand, named, trust)
    return trump_weight(heuristic_trump_choices(params, table, players, r, dealer_hand), named, trust)


@kernel
def named_trump_bound(kind, trust):
    """The largest value ``named_trump_likelihood`` can take for a dealer of model ``kind`` (a dealer whose
    only choice is the suit; for net, a softmax of 1)."""
    if trust <= 0.0:
        return 1.0
    if kind == MODEL_NET:
        return trust + (1.0 - trust) / 4.0
    return trump_weight(1, 0, trust)


@kernel
def play_likelihood(opponents, info, me, hands, bids, order, n_played):
    """The likelihood of the first ``n_played`` cards of ``order`` (the round's cards in order of play:
    seat 1 leads the first trick, each trick's winner the next), given the seats' whole hands
    ``hands``: the product of ``card_weight`` at ``opponents.play_trust`` over the cards of seats other
    than ``me`` whose model (``opponents.kinds``) is not blind, each compared with the heuristic's card in
    that seat's place (its hand then, the tricks taken, the cards played, the trick so far and the voids
    shown). ``info``: the round's ``records.RoundInfo``. The cards are replayed through the one trick loop
    (``rollout.play_tricks``), so the seat's place is the round kernel's own."""
    return play_likelihoods(opponents, info, me, hands, bids, order, n_played)[0]


@kernel
def play_likelihoods(opponents, info, me, hands, bids, order, n_played):
    """(``play_likelihood``, the same cards' likelihood on the blind table): the second is the product of
    ``1 / (legal cards)`` over the same cards (those ``play_likelihood`` weighs), each chosen uniformly
    among the cards the seat could play with its hand in the world. Both are 1 at trust 0."""
    like = np.ones((2, info.players), np.float64)
    play_seat_likelihoods(opponents, info, me, hands, bids, order, n_played, like)
    model, blind = 1.0, 1.0
    for s in range(info.players):
        model *= like[0, s]
        blind *= like[1, s]
    return model, blind


@kernel
def play_seat_likelihoods(opponents, info, me, hands, bids, order, n_played, like):
    """``play_likelihoods`` seat by seat: ``like[0, s]`` (2, players) the likelihood of seat ``s``'s cards
    under its model, ``like[1, s]`` on the blind table; 1 where nothing is weighed (and at trust 0)."""
    like[:] = 1.0
    trust = opponents.play_trust
    if trust <= 0.0:
        return
    _replay(_replayed_card, (order, opponents, trust, me, like), info.players, info.r, hands, info.turn_up,
            info.trump, bids, n_played)


@inline_kernel
def _replay(choose, ctx, players, r, hands, turn_up, trump, bids, n_played):
    """The first ``n_played`` cards of the round replayed through the one trick loop from the seats' whole
    ``hands``, each card ``choose(ctx, obs)`` (the card the order of play says, noted as the chooser
    wants). The hook is not known here and is not read: False in the records."""
    trick_cards = np.full(players, -1, np.int8)
    state = RoundState(hands.copy(), np.zeros(players, np.uint64), np.zeros(players, np.int8), trick_cards, bids,
                       np.zeros(players, np.int8))
    play_tricks(choose, ctx, RoundInfo(players, r, False, turn_up, trump), state, 0, 0, ZERO, n_played,
                Log(False, trick_cards, trick_cards, trick_cards))


@inline_kernel
def _replayed_card(ctx, obs):
    """``play_seat_likelihoods``'s chooser: the card ``order`` says, its weight under the seat's model (against
    the heuristic's choice; a net seat's by ``net_card_weight``) multiplied into ``like[0, seat]`` and its
    uniform weight into ``like[1, seat]``; ``ctx`` = (order, opponents, trust, me, like)."""
    order, opponents, trust, me, like = ctx
    seat = obs.seat
    card = order[popcount(obs.played)]
    kind = opponents.kinds[seat]
    if seat != me and kind != MODEL_BLIND:
        n = popcount(obs.legal)
        if kind == MODEL_NET:
            like[0, seat] *= _net_card_weight(opponents.net, opponents.table, obs, card, trust)
        else:
            like[0, seat] *= card_weight(heuristic_obs_card(obs) == card, n, trust)
        like[1, seat] /= n
    return card


@kernel
def play_choices(info, hands, bids, order, n_played, out, net, table):
    """What a finished (or begun) round (``info``: its ``records.RoundInfo``; the hook is not read) shows of
    each seat's play against the model: ``out`` (n_played, 3) gets, card by card in order of play, the seat
    that played it, 1 if it was the model's card in that seat's place else 0, and the seat's legal cards
    then. The model is the heuristic where ``net`` is None, else the card network over ``table`` (a
    ``make_slots`` table holding net's weights): the card each plays without noise, as the advisor's model
    of a seat plays it. The table's play learned from earlier rounds (``advisor.table_fit``) reads it."""
    _replay(_chosen_card, (order, out, net, table), info.players, info.r, hands, info.turn_up, info.trump, bids,
            n_played)


@inline_kernel
def _chosen_card(ctx, obs):
    """``play_choices``'s chooser: the card ``order`` says, compared with the model's; ``ctx`` = (order, out,
    net, table)."""
    order, out, net, table = ctx
    j = popcount(obs.played)
    card = order[j]
    out[j, 0] = obs.seat
    out[j, 1] = 1 if _model_card(net, table, obs) == card else 0
    out[j, 2] = popcount(obs.legal)
    return card


def _model_card(net, table, obs):
    """The model's card for ``play_choices``: the heuristic's where ``net`` is None, else the card network's
    (kernels only, as ``_net_bid_weight``)."""
    raise TypeError("kernels only")


@overload(_model_card)
def _model_card_typed(net, table, obs):
    if isinstance(net, types.NoneType):
        return lambda net, table, obs: heuristic_obs_card(obs)
    return lambda net, table, obs: net_card(table, obs)


@kernel
def trick_likelihood(opponents, info, state, me, played, n_in_trick, leader):
    """The likelihood of the current trick's cards so far (``state.trick_cards[:n_in_trick]``, led by
    ``leader``) given the cards each seat holds now (``state.live``; a card on the trick was held until it
    was played): the product of ``card_weight`` at ``opponents.play_trust`` over the cards of seats other
    than ``me`` whose model is not blind, each compared with the heuristic's card in that seat's place (the
    trick before it, ``played`` less the trick's later cards, its tricks taken; the voids known now); a net
    seat's card weighed by ``net_card_weight`` in the same place.
    ``info``: the round's ``records.RoundInfo``, ``state`` its ``records.RoundState``. The search policy's
    inference from play: its observation holds the current trick, not the order of the tricks before it."""
    kinds, trust = opponents.kinds, opponents.play_trust
    players, turn_up, trump = info.players, info.turn_up, info.trump
    hands, voids, trick_cards, bids, tricks = state.live, state.voids, state.trick_cards, state.bids, state.tricks
    like = 1.0
    if trust <= 0.0:
        return like
    before = played
    for j in range(n_in_trick):
        before &= ~bit(trick_cards[j])
    led = LED_NONE
    best = -1
    win_pos = -1
    for j in range(n_in_trick):
        s = leader + j
        if s >= players:
            s -= players
        c = trick_cards[j]
        if s != me and kinds[s] == MODEL_NET:
            hand = hands[s] | bit(c)
            like *= _net_card_weight(opponents.net, opponents.table,
                                     observe(info, state, s, hand, legal_mask(hand, led), -1, before, j, led, win_pos),
                                     c, trust)
        elif s != me and kinds[s] != MODEL_BLIND:
            hand = hands[s] | bit(c)
            legal = legal_mask(hand, led)
            choice = heuristic_card(s, players, hand, legal, turn_up, trump, bids[s] - tricks[s], before,
                                    trick_cards[max(win_pos, 0)], j, led, voids)
            like *= card_weight(choice == c, popcount(legal), trust)
        led = next_led(led, c)
        strength = STRENGTH[trump + 1, led + 2, c]
        if strength > best:
            best = strength
            win_pos = j
        before |= bit(c)
    return like


@kernel
def n_legal_bids(r, forbidden):
    """How many bids 0..r are legal, the hook's ``forbidden`` bid (-1: none) left out."""
    return r + 1 - (1 if 0 <= forbidden <= r else 0)


@kernel
def blind_bids_likelihood(kinds, trust, players, r, hook, me, bids, n_heard, every):
    """The likelihood of the first ``n_heard`` heard bids under uniform bidding: the product of
    ``1 / n_legal_bids`` over the seats other than ``me``. ``every``: over all of them (the blind table);
    else only over those ``bids_likelihood`` leaves out (a blind model, or trust 0), the constant factor
    that makes ``bids_likelihood`` times it the probability of the heard bids under the model."""
    like = 1.0
    total = 0
    for s in range(n_heard):
        forbidden = forbidden_bid(hook, s, players, r, total)
        if s != me and (every or kinds[s] == MODEL_BLIND or trust <= 0.0):
            like /= n_legal_bids(r, forbidden)
        total += bids[s]
    return like


@kernel
def seat_factors(opponents, info, me, hands, bids, n_heard, named, model_bids, blind, factors):
    """Per 0-based seat, ``factors[s]`` the probability of what seat ``s`` was heard doing given its whole
    hand ``hands[s]``: under its model (``blind`` False), its bid (``bid_weight`` of the model bid
    ``model_bids[s]`` that ``bids_likelihood`` left there, for a net seat ``seat_bid_weight`` again, or
    ``1 / n_legal_bids`` where the model's bid tells nothing) and, for an opponent dealer when ``named`` >= 0, the suit it named; if the seat is blind
    (``blind`` True, the same for every hand), ``1 / n_legal_bids`` and 1/4 for the suit. 1 for the
    player's own seat and the seats not heard. Under the model their product is ``bids_likelihood`` times
    ``named_trump_likelihood`` times ``blind_bids_likelihood(..., every=False)``. ``opponents``: an
    ``Opponents`` (its ``bid_trust``, and ``trump_trust`` for the named suit); ``info``: the round's ``records.RoundInfo``."""
    kinds, params, table, trust = opponents.kinds, opponents.params, opponents.table, opponents.bid_trust
    players, r, hook = info.players, info.r, info.hook
    total = 0
    for s in range(players):
        factors[s] = 1.0
    for s in range(n_heard):
        forbidden = forbidden_bid(hook, s, players, r, total)
        if s != me:
            if model_bids[s] >= 0 and not blind:
                if kinds[s] == MODEL_NET:  # a softmax, not a function of net's own bid
                    factors[s] = _net_bid_weight(opponents.net, opponents.table, s, info, hands[s], bids, forbidden,
                                                 trust)[0]
                else:
                    factors[s] = bid_weight(model_bids[s], bids[s], r, forbidden, trust)
            else:
                factors[s] = 1.0 / n_legal_bids(r, forbidden)
        total += bids[s]
    dealer = players - 1
    if named >= 0 and dealer != me:
        factors[dealer] *= 0.25 if blind else named_trump_likelihood(kinds[dealer], params[dealer], table,
                                                                     opponents.trump_trust, players, r,
                                                                     hands[dealer], named, opponents.net)


@kernel
def seat_mixture(model_f, blind_f, doubt, seat_doubt, me, post):
    """(a world's weight, the posterior chance that the whole table is blind given it) when each other seat
    may also be blind on its own: with prior ``doubt`` every other seat is blind, else each is blind with
    prior ``seat_doubt``, independently. ``model_f``, ``blind_f`` (players,): each seat's probability of
    what it was heard doing under its model and if blind (``seat_factors``).
    ``post[s]`` gets the posterior chance that seat ``s`` alone is blind, given that the whole table is
    not. At ``seat_doubt`` 0 it is ``table_mixture`` of the products."""
    per = 1.0
    every = 1.0
    for s in range(model_f.shape[0]):
        post[s] = 0.0
        if s == me:
            continue
        e = seat_doubt[s]
        x = (1.0 - e) * model_f[s] + e * blind_f[s]
        per *= x
        every *= blind_f[s]
        if x > 0.0:
            post[s] = e * blind_f[s] / x
    return table_mixture(per, every, doubt)


@kernel
def table_mixture(like_model, like_blind, doubt):
    """(a world's weight, the posterior chance that the table is blind given it): ``like_model`` and
    ``like_blind`` are the probabilities of what was heard given the world under the model and under the
    blind table, ``doubt`` the blind table's prior."""
    weight = (1.0 - doubt) * like_model + doubt * like_blind
    if weight <= 0.0:
        return 0.0, 0.0
    return weight, doubt * like_blind / weight
