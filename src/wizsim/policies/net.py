"""The learned policy ``net``: bid, card and trump by small multi-layer perceptrons inside the kernels.

Three networks read the observation record (``Obs``) through feature vectors defined here
(``ENCODING_VERSION``); their weights come from ``wizsim/data/net.npz`` (``policies.net_weights`` loads
and checks them) and travel to the kernels at the end of the policies' shared ``table``, after the
heuristic's value table (``NET_OFFSET``), so that ``net`` sits at any table beside the heuristic and the
search policy. Every decision is the legal action of highest logit (ties: the lowest index): the policy
draws nothing at random, so its choices depend only on what its seat sees.

Suits are canonical: the trump suit is suit 0 and the other suits keep their order as 1..3 (no trump:
the suits as they are), and the four Wizards (Jesters) are one card kind, so a card is one of
``N_KINDS`` = 54 kinds (52 suited, Wizard, Jester). Seats are relative to the deciding seat.

Card network (``D_CARD`` inputs, ``CARD_H1``, ``CARD_H2`` hidden ReLU units, 54 logits, one per kind):

=========  ====  ================================================================================
offset     size  meaning
=========  ====  ================================================================================
C_HAND     54    the hand (counts for Wizard and Jester)
C_PLAYED   54    every card played this round, the current trick included
C_TRICK    54    the current trick's cards
C_WIN      55    the kind of the card winning the trick so far, or index 54 on an empty trick
C_TURN     55    the turned-up card's kind, index 54 when none
C_LED      6     the led code: none, a Wizard lead, canonical suit 0..3
C_POS      6     one-hot, cards already on the trick (0: the seat leads)
C_PLAYERS  4     one-hot, 3..6 players
C_NEED     7     one-hot, the seat's bid minus its tricks, clipped to -1..5
C_SCAL     2     the need / r, the cards in hand / 20
C_WINNER   6     one-hot, the relative seat whose card wins the trick so far (none on an empty trick)
C_SEATS    50    per relative seat 1..5 (10 each): its need one-hot clipped to -1..3, a flag when it
                 plays after the seat in this trick, its voids (canonical suits)
C_MISC     4     no trump, r / 20, the bids' total minus r over r, the cards played / 60
C_OVER     7     one-hot, the bids' total minus r clipped to -3..3
=========  ====  ================================================================================

Bid network (``D_BID`` inputs, ``BID_H1``, ``BID_H2`` hidden, 21 logits for the bids 0..20): the hand (54),
the turned-up kind (55), no trump (1), a dealer-named trump (1: a Wizard turned up), players (4),
r one-hot (20), seat one-hot (6), the earlier seats' bids one-hot clipped to 0..5 for relative seats
-1..-5 (30), the earlier bids' excess over a fair share over r (1), the hook (1).

Trump network (``D_TRUMP`` inputs, ``TRUMP_H`` hidden twice, one output): the dealer's hand as if
suit ``s`` were trump (canonical, 54), players (4), r one-hot (20); scored for each suit, the highest
named (one network applied four times, so the choice does not depend on the suits' names).

Layer ``k`` of a network is stored as ``W`` (inputs, outputs) then ``b`` (outputs), row-major, except the
last, stored as ``W.T`` (outputs, inputs) then ``b``: each legal action's logit is then one contiguous
dot product. ``policies.net_reference`` is the plain NumPy twin of everything here.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel, literal_kernel
from wizsim.bits import ZERO, lowest_bit, popcount
from wizsim.cards import N_RANKS, N_SUITED
from wizsim.deal.kernels import next_u64
from wizsim.policies.heuristic import TABLE_SIZE
from wizsim.rules.kernels import LED_NONE, LED_WIZARD

ENCODING_VERSION = 1
N_KINDS = 54
KIND_WIZARD = 52
KIND_JESTER = 53
MAX_BID = 20

# Card network layout
C_HAND = 0
C_PLAYED = C_HAND + N_KINDS
C_TRICK = C_PLAYED + N_KINDS
C_WIN = C_TRICK + N_KINDS
C_TURN = C_WIN + N_KINDS + 1
C_LED = C_TURN + N_KINDS + 1
C_POS = C_LED + 6
C_PLAYERS = C_POS + 6
C_NEED = C_PLAYERS + 4
C_SCAL = C_NEED + 7
C_WINNER = C_SCAL + 2
C_SEATS = C_WINNER + 6
SEAT_BLOCK = 10
C_MISC = C_SEATS + 5 * SEAT_BLOCK
C_OVER = C_MISC + 4
D_CARD = C_OVER + 7

# Bid network layout
B_HAND = 0
B_TURN = B_HAND + N_KINDS
B_NOTRUMP = B_TURN + N_KINDS + 1
B_NAMED = B_NOTRUMP + 1
B_PLAYERS = B_NAMED + 1
B_R = B_PLAYERS + 4
B_SEAT = B_R + MAX_BID
B_EARLIER = B_SEAT + 6
B_EXCESS = B_EARLIER + 5 * 6
B_HOOK = B_EXCESS + 1
D_BID = B_HOOK + 1

# Trump network layout
T_HAND = 0
T_PLAYERS = T_HAND + N_KINDS
T_R = T_PLAYERS + 4
D_TRUMP = T_R + MAX_BID

CARD_H1, CARD_H2 = 128, 64
BID_H1, BID_H2 = 128, 128
TRUMP_H = 32

# name, inputs, hidden sizes, outputs
NETS = (("card", D_CARD, (CARD_H1, CARD_H2), N_KINDS),
        ("bid", D_BID, (BID_H1, BID_H2), MAX_BID + 1),
        ("trump", D_TRUMP, (TRUMP_H, TRUMP_H), 1))


def _layout():
    """Offsets (from ``NET_OFFSET``) of each network's parameters, and the total size."""
    out = {}
    at = 0
    for name, d_in, hidden, d_out in NETS:
        sizes = (d_in, *hidden, d_out)
        offs = []
        for a, b in zip(sizes[:-1], sizes[1:], strict=True):
            offs.append((at, at + a * b))  # W, then b
            at += a * b + b
        out[name] = tuple(offs)
    return out, at


LAYOUT, N_WEIGHTS = _layout()
NET_OFFSET = TABLE_SIZE  # the net's weights follow the heuristic's value table in the shared table
TABLE_LEN = TABLE_SIZE + N_WEIGHTS

(_CW1, _CB1), (_CW2, _CB2), (_CW3, _CB3) = [(NET_OFFSET + w, NET_OFFSET + b) for w, b in LAYOUT["card"]]
(_BW1, _BB1), (_BW2, _BB2), (_BW3, _BB3) = [(NET_OFFSET + w, NET_OFFSET + b) for w, b in LAYOUT["bid"]]
(_TW1, _TB1), (_TW2, _TB2), (_TW3, _TB3) = [(NET_OFFSET + w, NET_OFFSET + b) for w, b in LAYOUT["trump"]]


@kernel
def canon_suit(s, trump):
    """Suit ``s`` with trump as suit 0 and the other suits in order (no trump: ``s``)."""
    if trump < 0:
        return s
    if s == trump:
        return 0
    return s + 1 if s < trump else s


@kernel
def card_kind(c, trump):
    """The canonical kind 0..53 of card ``c``."""
    if c >= N_SUITED + 4:
        return KIND_JESTER
    if c >= N_SUITED:
        return KIND_WIZARD
    return canon_suit(c // N_RANKS, trump) * N_RANKS + c % N_RANKS


@literal_kernel
def add_cards(x, at, mask, trump):
    """Add 1 at ``x[at + kind]`` for each card of ``mask``."""
    m = mask
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        x[at + card_kind(c, trump)] += 1.0


@literal_kernel
def start_features(obs, x, at_hand, at_turn):
    """Zero ``x``, then the seat's hand (a count per kind from ``at_hand``) and the turned-up card (one-hot
    from ``at_turn``; slot ``at_turn + N_KINDS`` when none): what the card and bid networks' inputs share."""
    x[:] = 0.0
    add_cards(x, at_hand, obs.hand, obs.trump)
    if obs.turn_up >= 0:
        x[at_turn + card_kind(obs.turn_up, obs.trump)] = 1.0
    else:
        x[at_turn + N_KINDS] = 1.0


@kernel
def card_features(obs, x):
    """Fill ``x`` (D_CARD,) float64 with the card network's input for ``obs`` (see the module docstring)."""
    start_features(obs, x, C_HAND, C_TURN)
    trump = obs.trump
    players = obs.players
    seat = obs.seat
    r = obs.r
    n = obs.n_in_trick
    add_cards(x, C_PLAYED, obs.played, trump)
    for i in range(n):
        x[C_TRICK + card_kind(obs.trick_cards[i], trump)] += 1.0
    if n > 0 and obs.winning_pos >= 0:
        x[C_WIN + card_kind(obs.trick_cards[obs.winning_pos], trump)] = 1.0
        # the winner's seat relative to the deciding seat: the trick's i-th card is n - i seats before it
        x[C_WINNER + (players - (n - obs.winning_pos)) % players] = 1.0
    else:
        x[C_WIN + N_KINDS] = 1.0
    led = obs.led
    if led == LED_NONE:
        x[C_LED] = 1.0
    elif led == LED_WIZARD:
        x[C_LED + 1] = 1.0
    else:
        x[C_LED + 2 + canon_suit(led, trump)] = 1.0
    x[C_POS + n] = 1.0
    x[C_PLAYERS + players - 3] = 1.0
    need = obs.bids[seat] - obs.tricks[seat]
    x[C_NEED + min(max(need, -1), 5) + 1] = 1.0
    hs = popcount(obs.hand)
    x[C_SCAL] = need / r
    x[C_SCAL + 1] = hs / 20.0
    total = 0
    for k in range(1, players):
        s = (seat + k) % players
        at = C_SEATS + (k - 1) * SEAT_BLOCK
        nk = obs.bids[s] - obs.tricks[s]
        x[at + min(max(nk, -1), 3) + 1] = 1.0
        if k < players - n:
            x[at + 5] = 1.0
        v = obs.voids[s]
        for q in range(4):
            if (v >> q) & 1:
                x[at + 6 + canon_suit(q, trump)] = 1.0
    for s in range(players):
        total += obs.bids[s]
    x[C_MISC] = 1.0 if trump < 0 else 0.0
    x[C_MISC + 1] = r / 20.0
    x[C_MISC + 2] = (total - r) / r
    x[C_MISC + 3] = popcount(obs.played) / 60.0
    x[C_OVER + min(max(total - r, -3), 3) + 3] = 1.0


@kernel
def bid_features(obs, x):
    """Fill ``x`` (D_BID,) float64 with the bid network's input for ``obs``."""
    start_features(obs, x, B_HAND, B_TURN)
    seat = obs.seat
    if N_SUITED <= obs.turn_up < N_SUITED + 4:
        x[B_NAMED] = 1.0
    if obs.trump < 0:
        x[B_NOTRUMP] = 1.0
    x[B_PLAYERS + obs.players - 3] = 1.0
    x[B_R + obs.r - 1] = 1.0
    x[B_SEAT + seat] = 1.0
    earlier = 0
    for k in range(1, seat + 1):
        b = obs.bids[seat - k]
        earlier += b
        if k <= 5:
            x[B_EARLIER + (k - 1) * 6 + min(b, 5)] = 1.0
    x[B_EXCESS] = (earlier - seat * obs.r / obs.players) / obs.r
    x[B_HOOK] = 1.0 if obs.hook else 0.0


@kernel
def trump_features(hand, players, r, s, x):
    """Fill ``x`` (D_TRUMP,) float64 with the trump network's input for naming suit ``s``."""
    x[:] = 0.0
    add_cards(x, T_HAND, hand, s)
    x[T_PLAYERS + players - 3] = 1.0
    x[T_R + r - 1] = 1.0


@literal_kernel
def hidden(table, x, d_in, w1, b1, h1, w2, b2, h2):
    """The two ReLU layers: ``h1 = relu(x W1 + b1)``, ``h2 = relu(h1 W2 + b2)`` (zero inputs skipped)."""
    n1 = h1.shape[0]
    n2 = h2.shape[0]
    for j in range(n1):
        h1[j] = table[b1 + j]
    for i in range(d_in):
        xi = x[i]
        if xi != 0.0:
            row = w1 + i * n1
            for j in range(n1):
                h1[j] += xi * table[row + j]
    for j in range(n2):
        h2[j] = table[b2 + j]
    for i in range(n1):
        v = h1[i]
        if v > 0.0:
            row = w2 + i * n2
            for j in range(n2):
                h2[j] += v * table[row + j]
        else:
            h1[i] = 0.0
    for j in range(n2):
        if h2[j] < 0.0:
            h2[j] = 0.0


@literal_kernel
def logit(table, h2, w3, b3, a):
    """Output ``a`` of the last layer (stored transposed: one contiguous row per output)."""
    n2 = h2.shape[0]
    row = w3 + a * n2
    v = table[b3 + a]
    for j in range(n2):
        v += h2[j] * table[row + j]
    return v


@literal_kernel
def scratch(d_in, n1, n2):
    """(x, h1, h2): one network's input and hidden layers, views of one allocation."""
    buf = np.empty(d_in + n1 + n2)
    return buf[:d_in], buf[d_in:d_in + n1], buf[d_in + n1:]


@kernel
def net_card(table, obs):
    """The card network's choice: the legal card of highest logit (the lowest id of its kind)."""
    x, h1, h2 = scratch(D_CARD, CARD_H1, CARD_H2)
    legal = obs.legal
    if legal & (legal - np.uint64(1)) == ZERO:
        return lowest_bit(legal)
    card_features(obs, x)
    hidden(table, x, D_CARD, _CW1, _CB1, h1, _CW2, _CB2, h2)
    best = -1.0e300
    choice = -1
    done = np.uint64(0)  # kinds scored (one bit per kind)
    m = legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        k = card_kind(c, obs.trump)
        kb = np.uint64(1) << np.uint64(k)
        if done & kb != ZERO:
            continue
        done |= kb
        v = logit(table, h2, _CW3, _CB3, k)
        if v > best:
            best = v
            choice = c
    return choice


# ``net:temperature=T`` (this column of a seat's params row; 0, the default: the highest output): a decision
# is drawn from the softmax of the outputs over T, as ``net_card_softmax`` and ``net_bid_softmax`` give it
# at T = 1, by the Gumbel-max trick (one draw per legal card kind or allowed bid from the round's play
# stream). The outputs are values in tens of points, so T = 1 swaps options worth a few points apart and
# keeps options tens of points apart: the kind of mistake a search over few worlds makes, unlike
# ``play_noise``'s uniformly random card. A model of a table, not a player to field.
P_TEMPERATURE = 7
# ``net:weights=search`` (this column, the index in WEIGHT_SETS): which weights file the seat's table holds
# (``registry``: the table ``net_search`` instead of ``net``). No kernel reads it: the table is the choice.
# The search's ``rollout`` column, which no net kernel reads either.
P_WEIGHTS = 6
WEIGHT_SETS = ("play", "search")
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@kernel
def gumbel(rng):
    """A standard Gumbel draw from the stream ``rng`` (53 bits, never 0 or 1)."""
    u = ((next_u64(rng) >> np.uint64(11)) + 0.5) * _UNIT
    return -np.log(-np.log(u))


@kernel
def net_card_drawn(table, obs, t, rng):
    """A legal card drawn from the card network's softmax over the legal kinds at temperature ``t`` > 0
    (the lowest id of the kind drawn); no draw with a single legal card."""
    x, h1, h2 = scratch(D_CARD, CARD_H1, CARD_H2)
    legal = obs.legal
    if legal & (legal - np.uint64(1)) == ZERO:
        return lowest_bit(legal)
    card_features(obs, x)
    hidden(table, x, D_CARD, _CW1, _CB1, h1, _CW2, _CB2, h2)
    best = -1.0e300
    choice = -1
    done = np.uint64(0)
    m = legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        k = card_kind(c, obs.trump)
        kb = np.uint64(1) << np.uint64(k)
        if done & kb != ZERO:
            continue
        done |= kb
        v = logit(table, h2, _CW3, _CB3, k) / t + gumbel(rng)
        if v > best:
            best = v
            choice = c
    return choice


@kernel
def net_bid_drawn(table, obs, t, rng):
    """An allowed bid drawn from the bid network's softmax at temperature ``t`` > 0 (one draw per allowed
    bid, 0 up)."""
    h2 = bid_hidden(table, obs)
    best = -1.0e300
    choice = 0
    for b in range(obs.r + 1):
        if b == obs.forbidden:
            continue
        v = logit(table, h2, _BW3, _BB3, b) / t + gumbel(rng)
        if v > best:
            best = v
            choice = b
    return choice


@kernel
def net_card_softmax(table, obs, probs):
    """The card network's softmax over the kinds of the legal cards: ``probs`` (N_KINDS,) gets each legal
    kind's probability (0 for the others). A card's probability is its kind's shared among the legal cards of
    that kind (two Wizards in hand: half each). The opponents' model reads it as the likelihood of a card a
    net seat played (``policies.model.net_card_weight``)."""
    x, h1, h2 = scratch(D_CARD, CARD_H1, CARD_H2)
    card_features(obs, x)
    hidden(table, x, D_CARD, _CW1, _CB1, h1, _CW2, _CB2, h2)
    probs[:] = 0.0
    kinds = ZERO
    m = obs.legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - np.uint64(1)
        kinds |= np.uint64(1) << np.uint64(card_kind(c, obs.trump))
    best = -1.0e300
    for k in range(N_KINDS):
        if (kinds >> np.uint64(k)) & np.uint64(1) != ZERO:
            probs[k] = logit(table, h2, _CW3, _CB3, k)
            best = max(best, probs[k])
    z = 0.0
    for k in range(N_KINDS):
        if (kinds >> np.uint64(k)) & np.uint64(1) != ZERO:
            probs[k] = np.exp(probs[k] - best)
            z += probs[k]
    for k in range(N_KINDS):
        probs[k] /= z


@kernel
def bid_hidden(table, obs):
    """The bid network's last hidden layer for ``obs`` (its logits are ``logit`` of it)."""
    x, h1, h2 = scratch(D_BID, BID_H1, BID_H2)
    bid_features(obs, x)
    hidden(table, x, D_BID, _BW1, _BB1, h1, _BW2, _BB2, h2)
    return h2


@kernel
def net_bid(table, obs):
    """The bid network's choice: the allowed bid (0..r, never the hook's forbidden one) of highest logit."""
    h2 = bid_hidden(table, obs)
    best = -1.0e300
    choice = 0
    for b in range(obs.r + 1):
        if b == obs.forbidden:
            continue
        v = logit(table, h2, _BW3, _BB3, b)
        if v > best:
            best = v
            choice = b
    return choice


@kernel
def net_bid_softmax(table, obs, probs):
    """The bid network's softmax over the allowed bids: ``probs`` (at least r + 1,) gets, for each bid 0..r,
    its probability (0 for the hook's forbidden bid), and the bid of highest logit (``net_bid``'s choice)
    is returned. The opponents' model reads it as a bid's likelihood given a hand (``policies.model``)."""
    h2 = bid_hidden(table, obs)
    best = -1.0e300
    choice = 0
    for b in range(obs.r + 1):
        probs[b] = 0.0
        if b != obs.forbidden:
            probs[b] = logit(table, h2, _BW3, _BB3, b)
            if probs[b] > best:
                best = probs[b]
                choice = b
    z = 0.0
    for b in range(obs.r + 1):
        if b != obs.forbidden:
            probs[b] = np.exp(probs[b] - best)
            z += probs[b]
    for b in range(obs.r + 1):
        probs[b] /= z
    return choice


@kernel
def net_trump_softmax(table, hand, players, r, probs):
    """The trump network's softmax over the four suits for a dealer holding ``hand``: ``probs`` (4,) the
    probability of naming each suit (the opponents' model's likelihood of a named suit)."""
    best = -1.0e300
    for s in range(4):
        probs[s] = trump_score(table, hand, players, r, s)
        best = max(best, probs[s])
    z = 0.0
    for s in range(4):
        probs[s] = np.exp(probs[s] - best)
        z += probs[s]
    for s in range(4):
        probs[s] /= z


@kernel
def trump_score(table, hand, players, r, s):
    """The trump network's score for naming suit ``s``."""
    x, h1, h2 = scratch(D_TRUMP, TRUMP_H, TRUMP_H)
    trump_features(hand, players, r, s, x)
    hidden(table, x, D_TRUMP, _TW1, _TB1, h1, _TW2, _TB2, h2)
    return logit(table, h2, _TW3, _TB3, 0)


@kernel
def net_trump(table, obs):
    """The trump network's suit: the highest score (ties: the lowest suit)."""
    best = -1.0e300
    choice = 0
    for s in range(4):
        v = trump_score(table, obs.hand, obs.players, obs.r, s)
        if v > best:
            best = v
            choice = s
    return choice
