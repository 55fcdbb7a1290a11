"""The heuristic policy: bids from a simulated card-value table, then plays to take exactly its bid.

Bid. A hand is described by features (``hand_value``): Wizards, Jesters, each trump rank held, each
side-suit rank held by the length of its suit (1, 2, 3, 4+ cards), side suits void while holding a
trump, the earlier bids' excess over a fair share (``sum(earlier bids) - seat * r / players``) and
the seat. The value table gives each feature's expected contribution to the tricks taken, one row per
(players, round size, trump or no trump); ``scripts/derive_heuristic_values.py`` fits it by
simulation (``data/heuristic_values.csv``, ``policies/heuristic_values.py``). The bid is the value
rounded to the nearest integer (plus ``params[P_BID_SHIFT]``), clamped to 0..r; on the hook's
forbidden bid it moves one step toward the unrounded value.

Play (``heuristic_card``), with ``need = bid - tricks taken``:

- leading, ``need > 0``: everything still needed -> the strongest card; else cash a side-suit boss
  (the highest card of its suit still unseen), else a trump boss, else a Wizard, else the cheapest card;
- leading, ``need <= 0``: a low side card, else a Jester, else the weakest card;
- following, ``need > 0``: with Wizards enough to cover the need, a Wizard (other cards would risk
  overtricks); else the cheapest winner that no unseen suited card can beat; else, when every
  trick is still needed, the strongest winner; else the highest non-Wizard winner, else a Wizard; no
  winner -> shed a spare Wizard on a trick already won by a Wizard, else the least useful card;
- following, ``need <= 0``: the most dangerous card that still loses (a card that does not beat the
  current winner can never win the trick), Jesters last; if every legal card wins, the weakest
  (it may be overtaken), or the most dangerous when nobody plays after it.

"Unseen" cards are those neither played this round, nor in the hand, nor turned up: that is how the
policy tracks the trumps and Wizards still out. Trump on a turned-up Wizard: the suit whose cards in
the hand have the highest total trump value in the table.

Everything here sees only the view listed in ``dispatch``; ``heuristic_reference`` is the plain-Python
twin.
"""

from __future__ import annotations

import numpy as np

from wizsim._jit import kernel
from wizsim.bits import ONE, ZERO, bit, lowest_bit, popcount
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, FULL_DECK_MASK, JESTER_MASK, N_RANKS, N_SUITED, SUIT_MASKS, WIZARD_MASK
from wizsim.rules.kernels import STRENGTH, next_led

# Feature layout of one table row.
F_WIZARD = 0
F_JESTER = 1
F_TRUMP = 2  # + rank (13)
F_SIDE = 15  # + (min(length, 4) - 1) * 13 + rank (52)
N_LENGTH_BUCKETS = 4
F_VOID = 67  # side suits void while holding a trump
F_EARLIER = 68  # sum of earlier bids - seat * r / players
F_SEAT = 69  # + seat (6)
N_FEATURES = 75

# Rows: one per (players, r, context), context 0 = a trump suit, 1 = no trump.
N_CONTEXTS = 2
_COMBO_START = np.array([0, 0, 0, 0, 20, 35, 47], dtype=np.int64)  # by players; 60 // p rounds each
N_COMBOS = 57
TABLE_SIZE = N_COMBOS * N_CONTEXTS * N_FEATURES

# Parameters (one row of the slot's params).
P_BID_SHIFT = 0

_JESTERS_AND_WIZARDS = WIZARD_MASK | JESTER_MASK


def feature_names() -> list[str]:
    ranks = "23456789TJQKA"
    names = ["wizard", "jester"] + [f"trump_{k}" for k in ranks]
    for length in ("1", "2", "3", "4+"):
        names += [f"side_len{length}_{k}" for k in ranks]
    names += ["void_with_trump", "earlier_bids_excess"] + [f"seat_{s + 1}" for s in range(6)]
    assert len(names) == N_FEATURES
    return names


@kernel
def table_row(players, r, trump):
    """Offset in the value table of the row for (players, r, trump or not)."""
    ctx = 1 if trump < 0 else 0
    return ((_COMBO_START[players] + r - 1) * N_CONTEXTS + ctx) * N_FEATURES


@kernel
def _hand_counts(hand, trump, seat, players, r, bids):
    """(Wizards, Jesters, trumps, side suits void while holding a trump, earlier bids' excess)."""
    n_trump = 0
    if trump >= 0:
        n_trump = popcount(hand & SUIT_MASKS[trump])
    n_void = 0
    if n_trump > 0:
        for s in range(4):
            if s != trump and hand & SUIT_MASKS[s] == ZERO:
                n_void += 1
    earlier = 0
    for s in range(seat):
        earlier += bids[s]
    return popcount(hand & WIZARD_MASK), popcount(hand & JESTER_MASK), n_trump, n_void, earlier - seat * r / players


@kernel
def _suit_base(hand, s, trump):
    """First feature index of the cards of suit ``s`` (trump ranks, or side ranks by suit length)."""
    if s == trump:
        return F_TRUMP
    return F_SIDE + (min(popcount(hand & SUIT_MASKS[s]), N_LENGTH_BUCKETS) - 1) * N_RANKS


@kernel
def hand_value(table, row, hand, trump, seat, players, r, bids):
    """Estimated tricks of ``hand``: the sum of its features' values in ``table[row:row + N_FEATURES]``.

    ``bids`` (players,) int8 holds the earlier seats' bids (seats < ``seat``). The sum runs in a fixed
    order (Wizards, Jesters, suits 0..3 with ranks ascending, voids, earlier bids, seat) so that the
    reference twin gets the same float.
    """
    n_wiz, n_jes, n_trump, n_void, excess = _hand_counts(hand, trump, seat, players, r, bids)
    v = n_wiz * table[row + F_WIZARD]
    v += n_jes * table[row + F_JESTER]
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        base = _suit_base(hand, s, trump) - s * N_RANKS
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - ONE
            v += table[row + base + c]
    v += n_void * table[row + F_VOID]
    v += excess * table[row + F_EARLIER]
    v += table[row + F_SEAT + seat]
    return v


@kernel
def hand_features(hand, trump, seat, players, r, bids, out):
    """Add the feature counts of ``hand`` to ``out`` (N_FEATURES,) float64: the derivation script's
    regressors, the same ones ``hand_value`` weighs."""
    n_wiz, n_jes, n_trump, n_void, excess = _hand_counts(hand, trump, seat, players, r, bids)
    out[F_WIZARD] += n_wiz
    out[F_JESTER] += n_jes
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        base = _suit_base(hand, s, trump) - s * N_RANKS
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - ONE
            out[base + c] += 1.0
    out[F_VOID] += n_void
    out[F_EARLIER] += excess
    out[F_SEAT + seat] += 1.0


@kernel
def heuristic_bid(params, table, seat, players, r, hand, turn_up, trump, bids, forbidden):
    """The heuristic's bid: the hand's value rounded, 0..r, never ``forbidden`` (-1: none)."""
    v = hand_value(table, table_row(players, r, trump), hand, trump, seat, players, r, bids)
    v += params[P_BID_SHIFT]
    b = np.int64(np.floor(v + 0.5))
    b = min(max(b, 0), r)
    if b == forbidden:
        step = 1 if v >= b else -1
        if b + step < 0 or b + step > r:
            step = -step
        b += step
    return b


@kernel
def heuristic_trump(params, table, players, r, hand):
    """The dealer's suit on a turned-up Wizard: the highest total trump value of the hand's cards."""
    row = table_row(players, r, 0)
    best = -1.0e300
    choice = 0
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        v = 0.0
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - ONE
            v += table[row + F_TRUMP + c - s * N_RANKS]
        if v > best:
            best = v
            choice = s
    return choice


@kernel
def power(card, trump):
    """How strong a card is on its own: Jester 0, side card 21..33, trump 51..63, Wizard 100."""
    led = card // N_RANKS + 2 if card < N_SUITED else 0
    return STRENGTH[trump + 1, led, card]


@kernel
def _discard_key(card, trump):
    """Order in which a player who still wants tricks gives cards away: side cards by rank, a Jester
    like a middling side card (it is worth keeping as an escape), then trumps, Wizards last."""
    if card >= FIRST_JESTER:
        return 13
    if card >= FIRST_WIZARD:
        return 100
    rank = card % N_RANKS
    if card // N_RANKS == trump:
        return 40 + rank
    return 2 * rank


@kernel
def _above(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    suit = card // N_RANKS
    return SUIT_MASKS[suit] & ~((ONE << np.uint64(card + 1)) - ONE)


@kernel
def _pick_max(mask, trump):
    """The card of ``mask`` with the highest power (lowest id on ties)."""
    best = -1
    pick = -1
    m = mask
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - ONE
        p = power(c, trump)
        if p > best:
            best = p
            pick = c
    return pick


@kernel
def _pick_min(mask, trump):
    """The card of ``mask`` with the lowest power (lowest id on ties)."""
    best = 1000
    pick = -1
    m = mask
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - ONE
        p = power(c, trump)
        if p < best:
            best = p
            pick = c
    return pick


@kernel
def _pick_discard(mask, trump):
    best = 1000
    pick = -1
    m = mask
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - ONE
        k = _discard_key(c, trump)
        if k < best:
            best = k
            pick = c
    return pick


@kernel
def _bosses(cards, unseen):
    """The suited cards of ``cards`` that no unseen card of their suit outranks."""
    out = ZERO
    m = cards & ~_JESTERS_AND_WIZARDS
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - ONE
        if unseen & _above(c) == ZERO:
            out |= bit(c)
    return out


@kernel
def _safe(card, led_after, trump, unseen, seat, players, n_later, voids):
    """Whether a suited card that wins the trick so far stays ahead of every unseen suited card
    (Wizards still out are ignored: they beat everything and nothing can be done about them)."""
    if unseen & _above(card) != ZERO:
        return False
    suit = card // N_RANKS
    if suit == trump or trump < 0 or unseen & SUIT_MASKS[trump] == ZERO:
        return True
    # a later player out of the suit may trump it: known voids, or too few unseen cards to go round
    for i in range(1, n_later + 1):
        s = (seat + i) % players
        if (voids[s] >> suit) & 1:
            return False
    return popcount(unseen & SUIT_MASKS[suit]) >= n_later


@kernel
def heuristic_card(params, table, seat, players, r, hand, legal, turn_up, trump, bids, tricks,
                   played, trick_cards, n_in_trick, led, winning_pos, voids):
    """The heuristic's card (see the module docstring for the plan it follows)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    hs = popcount(hand)
    need = bids[seat] - tricks[seat]
    known = played | hand
    if turn_up >= 0:
        known |= bit(turn_up)
    unseen = FULL_DECK_MASK & ~known
    wiz = legal & WIZARD_MASK
    n_wiz = popcount(hand & WIZARD_MASK)
    suited = legal & ~_JESTERS_AND_WIZARDS

    if n_in_trick == 0:
        if need > 0:
            if need >= hs:
                return _pick_max(legal, trump)
            boss = _bosses(suited, unseen)
            if trump >= 0:
                side_boss = boss & ~SUIT_MASKS[trump]
                if side_boss != ZERO:
                    return _pick_max(side_boss, trump)
            if boss != ZERO:
                return _pick_min(boss, trump)
            if wiz != ZERO:
                return lowest_bit(wiz)
            return _pick_discard(legal, trump)
        low_side = suited
        if trump >= 0:
            low_side &= ~SUIT_MASKS[trump]
        if low_side != ZERO:
            c = _pick_min(low_side, trump)
            if c % N_RANKS <= 7:
                return c
        jes = legal & JESTER_MASK
        if jes != ZERO:
            return lowest_bit(jes)
        return _pick_min(legal, trump)

    best = STRENGTH[trump + 1, led + 2, trick_cards[winning_pos]]
    winners = ZERO
    m = legal
    while m != ZERO:
        c = lowest_bit(m)
        m &= m - ONE
        if STRENGTH[trump + 1, next_led(led, c) + 2, c] > best:
            winners |= bit(c)
    losers = legal & ~winners
    n_later = players - 1 - n_in_trick

    if need > 0:
        if winners != ZERO:
            if n_later == 0:
                return _pick_min(winners, trump)
            win_wiz = winners & WIZARD_MASK
            if win_wiz != ZERO and need <= n_wiz:
                return lowest_bit(win_wiz)
            safe = ZERO
            plain = winners & ~WIZARD_MASK
            m = plain
            while m != ZERO:
                c = lowest_bit(m)
                m &= m - ONE
                if c < N_SUITED and _safe(c, next_led(led, c), trump, unseen, seat, players, n_later, voids):
                    safe |= bit(c)
            if safe != ZERO:
                return _pick_min(safe, trump)
            if need >= hs:
                return _pick_max(winners, trump)
            if plain != ZERO:
                return _pick_max(plain, trump)
            return lowest_bit(win_wiz)
        if wiz != ZERO and n_wiz > need:
            return lowest_bit(wiz)
        return _pick_discard(legal, trump)

    if losers != ZERO:
        return _pick_max(losers, trump)
    if n_later == 0:
        return _pick_max(winners, trump)
    return _pick_min(winners, trump)
