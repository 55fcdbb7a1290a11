"""The heuristic policy: bids from a simulated card-value table, then plays to take exactly its bid.

Bid. A hand is described by features (``hand_value``): Wizards, Jesters, each trump rank held, each
side-suit rank held by the length of its suit (1, 2, 3, 4+ cards), side suits void while holding a
trump, the earlier bids' excess over a fair share (``sum(earlier bids) - seat * r / players``) and
the seat. The value table gives each feature's expected contribution to the tricks taken, one row per
(players, round size, trump or no trump); ``scripts/derive_heuristic_values.py`` fits it by
simulation (``data/heuristic_values.csv``, ``policies/heuristic_values.py``). The bid is the value
rounded to the nearest integer after adding ``params[P_BID_SHIFT]`` (``DEFAULT_BID_SHIFT``), clamped to 0..r; on the hook's
forbidden bid it moves one step toward the unrounded value.

Play noise: with ``params[P_PLAY_NOISE]`` = ε > 0 (``heuristic:play_noise=ε``), each card with a choice is
a uniformly random legal card with probability ε (``heuristic_noisy``, drawn from the round's play
stream), else the plan below. The policy's default is 0; the advisor's model of the opponents is noisy.

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
the hand have the highest total trump value in the table, ties (a hand without suited cards) broken
uniformly at random.

Everything here sees only the view listed in ``dispatch``; ``policies.reference`` holds the plain-Python
twin.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import inline_kernel, kernel
from wizsim.bits import ONE, ZERO, bit, highest_bit, lowest_bit, popcount
from wizsim.cards import FULL_DECK_MASK, JESTER_MASK, N_RANKS, N_SUITED, SUIT_MASKS, WIZARD_MASK
from wizsim.config import MAX_PLAYERS, MIN_PLAYERS, n_game_rounds
from wizsim.deal.kernels import next_u64, rand_below
from wizsim.rules.kernels import LED_BASE, LED_NONE, LED_WIZARD, STRENGTH, TRUMP_BASE, WIZARD_STRENGTH

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
# First row of each player count (rows of smaller tables come first): 0, 20, 35, 47 for 3..6 players.
_COMBO_START = np.array([sum(n_game_rounds.py_func(q) for q in range(MIN_PLAYERS, p)) if p > MIN_PLAYERS else 0
                         for p in range(MAX_PLAYERS + 1)], dtype=np.int64)
N_COMBOS = sum(n_game_rounds.py_func(p) for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))
TABLE_SIZE = N_COMBOS * N_CONTEXTS * N_FEATURES

# Parameters (one row of the slot's params).
P_BID_SHIFT = 0
# Column 4, clear of the search policy's columns (its row also serves as the heuristic's own in its play-outs).
P_PLAY_NOISE = 4
# No shift: bidding a quarter trick under the value made 0.6 points more bids exact in 4-player
# self-play (62.8% against 62.2%) but lost points (mean 258 against 277 per game, 139 against 176
# versus random players): the exact bids it gains are low ones, worth little.
DEFAULT_BID_SHIFT = 0.0

# The heuristic policy plays its card (no noise): the golden runs pin it. The advisor's model of the
# opponents plays a noisy heuristic (``advisor.opponents.DEFAULT_PLAY_NOISE``).
DEFAULT_PLAY_NOISE = 0.0
_UNIT = 1.0 / 9007199254740992.0  # 2**-53

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


@inline_kernel
def _hand_walk(table, row, hand, trump, seat, players, r, bids, out):
    """The features of ``hand`` in a fixed order (Wizards, Jesters, suits 0..3 with ranks ascending, voids,
    earlier bids, seat): returns the sum of their values in ``table[row:row + N_FEATURES]``, the order that
    gives the reference twin the same float, and adds each feature's count to ``out`` (N_FEATURES,) float64
    unless ``out`` is None (the type: then none of that code is compiled, as for ``hand_value``)."""
    n_wiz, n_jes, n_trump, n_void, excess = _hand_counts(hand, trump, seat, players, r, bids)
    v = n_wiz * table[row + F_WIZARD]
    v += n_jes * table[row + F_JESTER]
    if out is not None:
        out[F_WIZARD] += n_wiz
        out[F_JESTER] += n_jes
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        base = _suit_base(hand, s, trump) - s * N_RANKS
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - ONE
            v += table[row + base + c]
            if out is not None:
                out[base + c] += 1.0
    v += n_void * table[row + F_VOID]
    v += excess * table[row + F_EARLIER]
    v += table[row + F_SEAT + seat]
    if out is not None:
        out[F_VOID] += n_void
        out[F_EARLIER] += excess
        out[F_SEAT + seat] += 1.0
    return v


@kernel
def hand_value(table, row, hand, trump, seat, players, r, bids):
    """Estimated tricks of ``hand``: the sum of its features' values in ``table[row:row + N_FEATURES]``.

    ``bids`` (players,) int8 holds the earlier seats' bids (seats < ``seat``); the features and their order
    are ``_hand_walk``'s.
    """
    return _hand_walk(table, row, hand, trump, seat, players, r, bids, None)


_NO_VALUES = np.zeros(N_FEATURES)


@kernel
def hand_features(hand, trump, seat, players, r, bids, out):
    """Add the feature counts of ``hand`` to ``out`` (N_FEATURES,) float64: the derivation script's
    regressors, the same ones ``hand_value`` weighs (one walk, ``_hand_walk``)."""
    _hand_walk(_NO_VALUES, 0, hand, trump, seat, players, r, bids, out)


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
def heuristic_noisy(params, legal, rng):
    """Whether the heuristic plays a uniformly random legal card this time instead of its own: with
    probability ``params[P_PLAY_NOISE]`` (ε), one draw from the round's play stream. No draw at ε = 0 or
    with a single legal card, so the noiseless heuristic's streams and results are untouched. A noisy
    heuristic is the soft model of an opponent's play: its card with probability 1 - ε + ε/n, each other
    legal card ε/n."""
    eps = params[P_PLAY_NOISE]
    if eps <= 0.0 or legal & (legal - ONE) == ZERO:
        return False
    return (next_u64(rng) >> np.uint64(11)) * _UNIT < eps


@kernel
def heuristic_trump_choices(params, table, players, r, hand):
    """The suits (a mask, bit s for suit s) the dealer may name on a turned-up Wizard: those whose
    cards in the hand have the highest total trump value. More than one on a tie (a hand of Wizards
    and Jesters only ties all four), and then each is equally likely."""
    row = table_row(players, r, 0)
    best = -1.0e300
    choices = 0
    for s in range(4):
        m = hand & SUIT_MASKS[s]
        v = 0.0
        while m != ZERO:
            c = lowest_bit(m)
            m &= m - ONE
            v += table[row + F_TRUMP + c - s * N_RANKS]
        if v > best:
            best = v
            choices = 1 << s
        elif v == best:
            choices |= 1 << s
    return choices


@kernel
def heuristic_trump(params, table, players, r, hand, rng):
    """The dealer's suit on a turned-up Wizard: the highest total trump value of the hand's cards,
    ties broken uniformly at random from the round's play stream (one draw, only on a tie), so that
    the named suit is evidence about the hand, not proof of a heart when the hand gives no edge."""
    choices = heuristic_trump_choices(params, table, players, r, hand)
    n = 0
    for s in range(4):
        n += (choices >> s) & 1
    k = 0 if n == 1 else rand_below(rng, n)
    for s in range(4):
        if (choices >> s) & 1:
            if k == 0:
                return s
            k -= 1
    return 0


_RANK_BITS = np.uint64((1 << N_RANKS) - 1)
_SUITED_MASK = np.uint64((1 << N_SUITED) - 1)
# bit k of every suit: the cards of rank k
_RANK_ACROSS = np.array([sum(1 << (s * N_RANKS + k) for s in range(4)) for k in range(N_RANKS)], dtype=np.uint64)
_S13 = np.uint64(N_RANKS)
_S26 = np.uint64(2 * N_RANKS)
_S39 = np.uint64(3 * N_RANKS)


@kernel
def _trump_mask(trump):
    return SUIT_MASKS[trump] if trump >= 0 else ZERO


@kernel
def _fold(side):
    """The ranks present in any suit of a mask of suited cards, as a 13-bit mask."""
    return (side | (side >> _S13) | (side >> _S26) | (side >> _S39)) & _RANK_BITS


@kernel
def _above(card):
    """Mask of the cards of ``card``'s suit ranked above it."""
    return SUIT_MASKS[card // N_RANKS] & ~((ONE << np.uint64(card + 1)) - ONE)


@kernel
def _pick_max(mask, trump):
    """The strongest card of a non-empty ``mask`` on its own: a Wizard, else the highest trump, else the
    highest-ranked side card, else a Jester (the lowest id among equals)."""
    w = mask & WIZARD_MASK
    if w != ZERO:
        return lowest_bit(w)
    tm = _trump_mask(trump)
    t = mask & tm
    if t != ZERO:
        return highest_bit(t)
    side = mask & _SUITED_MASK & ~tm
    if side != ZERO:
        return lowest_bit(side & _RANK_ACROSS[highest_bit(_fold(side))])
    return lowest_bit(mask)


@inline_kernel
def _pick_low(mask, trump, side_rank):
    """The lowest-ranked side card of a non-empty ``mask`` when its rank is at most ``side_rank`` or ``mask``
    holds no Jester, else a Jester, else the lowest card (the lowest trump, else a Wizard; the lowest id
    among equals)."""
    j = mask & JESTER_MASK
    if j == ZERO or side_rank >= 0:  # (a Jester and no rank at most side_rank: the side cards do not matter)
        side = mask & _SUITED_MASK & ~_trump_mask(trump)
        if side != ZERO:
            rank = lowest_bit(_fold(side))
            if rank <= side_rank or j == ZERO:
                return lowest_bit(side & _RANK_ACROSS[rank])
    if j != ZERO:
        return lowest_bit(j)
    return lowest_bit(mask)


@kernel
def _pick_min(mask, trump):
    """The weakest card of a non-empty ``mask``: a Jester, else the lowest-ranked side card, else the
    lowest trump, else a Wizard (the lowest id among equals)."""
    return _pick_low(mask, trump, -1)


@kernel
def _pick_discard(mask, trump):
    """The card a player who still wants tricks gives away: a side card up to 8, else a Jester (worth
    keeping as an escape, but less than a high card), else the lowest side card, else the lowest trump,
    else a Wizard."""
    return _pick_low(mask, trump, 6)


@kernel
def _bosses(cards, unseen):
    """The suited cards of ``cards`` that no unseen card of their suit outranks."""
    out = ZERO
    for s in range(4):
        c = cards & SUIT_MASKS[s]
        if c == ZERO:
            continue
        u = unseen & SUIT_MASKS[s]
        if u == ZERO:
            out |= c
        else:
            out |= c & _above(highest_bit(u))
    return out


@kernel
def _winners(legal, trump, led, best):
    """The cards of ``legal`` that would beat the trick's winning card (strength ``best``) if played now."""
    if led == LED_NONE:
        # an empty trick or only Jesters so far: every non-Jester card takes the lead
        return legal & ~JESTER_MASK
    if led == LED_WIZARD or best >= WIZARD_STRENGTH:
        return ZERO
    out = legal & WIZARD_MASK
    tm = _trump_mask(trump)
    if best >= TRUMP_BASE:
        # a trump leads: only a higher trump beats it (strength = base + 1 + rank)
        out |= legal & tm & ~((ONE << np.uint64(trump * N_RANKS + best - TRUMP_BASE)) - ONE)
    else:
        out |= legal & tm
        if led != trump:
            out |= legal & SUIT_MASKS[led] & ~((ONE << np.uint64(led * N_RANKS + best - LED_BASE)) - ONE)
    return out


@kernel
def _threatened(suit, trump, unseen, seat, players, n_later, voids):
    """Whether a later player may trump a side suit: trumps are still unseen and some later player is
    known to be void in it, or too few of its cards are unseen to go round."""
    if suit == trump or trump < 0 or unseen & SUIT_MASKS[trump] == ZERO:
        return False
    for i in range(1, n_later + 1):
        s = seat + i
        if s >= players:
            s -= players
        if (voids[s] >> suit) & 1:
            return True
    return popcount(unseen & SUIT_MASKS[suit]) < n_later


@kernel
def heuristic_card(seat, players, hand, legal, turn_up, trump, need, played, win_card, n_in_trick, led, voids):
    """The heuristic's card (see the module docstring for the plan it follows).

    The view of ``dispatch.choose_card`` boiled down to what the plan uses (scalars are cheaper to
    pass than arrays in the hot loop): ``need`` = own bid - own tricks so far, ``win_card`` = the card
    winning the trick so far (any value on an empty trick).
    """
    if legal & (legal - ONE) == ZERO:
        return lowest_bit(legal)
    hs = popcount(hand)
    known = played | hand
    if turn_up >= 0:
        known |= bit(turn_up)
    unseen = FULL_DECK_MASK & ~known
    wiz = legal & WIZARD_MASK
    n_wiz = popcount(hand & WIZARD_MASK)
    tm = _trump_mask(trump)

    if n_in_trick == 0:
        if need > 0:
            if need >= hs:
                return _pick_max(legal, trump)
            boss = _bosses(legal, unseen)
            side_boss = boss & ~tm
            if side_boss != ZERO:
                return _pick_max(side_boss, trump)
            if boss != ZERO:
                return _pick_min(boss, trump)
            if wiz != ZERO:
                return lowest_bit(wiz)
            return _pick_discard(legal, trump)
        low_side = legal & _SUITED_MASK & ~tm
        if low_side != ZERO:
            c = _pick_min(low_side, trump)
            if c % N_RANKS <= 7:
                return c
        jes = legal & JESTER_MASK
        if jes != ZERO:
            return lowest_bit(jes)
        return _pick_min(legal, trump)

    best = STRENGTH[trump + 1, led + 2, win_card]
    winners = _winners(legal, trump, led, best)
    n_later = players - 1 - n_in_trick

    if need > 0:
        if winners != ZERO:
            if n_later == 0:
                return _pick_min(winners, trump)
            win_wiz = winners & WIZARD_MASK
            if win_wiz != ZERO and need <= n_wiz:
                return lowest_bit(win_wiz)
            plain = winners & ~WIZARD_MASK
            safe = _bosses(plain, unseen)
            for s in range(4):
                if safe & SUIT_MASKS[s] != ZERO and _threatened(s, trump, unseen, seat, players, n_later, voids):
                    safe &= ~SUIT_MASKS[s]
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

    losers = legal & ~winners
    if losers != ZERO:
        return _pick_max(losers, trump)
    if n_later == 0:
        return _pick_max(winners, trump)
    return _pick_min(winners, trump)


@inline_kernel
def heuristic_obs_card(obs):
    """``heuristic_card`` on the observation record ``obs`` (``policies.observation.Obs``): what the trick
    loop's heuristic seats, the opponents' model and a user's jitted player ask."""
    seat = obs.seat
    return heuristic_card(seat, obs.players, obs.hand, obs.legal, obs.turn_up, obs.trump,
                          obs.bids[seat] - obs.tricks[seat], obs.played, obs.trick_cards[max(obs.winning_pos, 0)],
                          obs.n_in_trick, obs.led, obs.voids)
