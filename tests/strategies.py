"""Hypothesis strategies that build valid wizsim states: cards, hands, tricks in progress, round setups.

Uniformly drawn cards rarely put two Wizards or Jesters on one trick, so the card strategies mix a
uniform draw with a "special-heavy" one that draws from the 8 Wizards and Jesters plus a suit or two:
that is where the led-suit rules (Jester leads, Wizard leads, all-Jester tricks) live.
"""

from __future__ import annotations

from hypothesis import strategies as st

from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, N_CARDS, N_RANKS

ALL_CARDS = list(range(N_CARDS))
SPECIALS = list(range(FIRST_WIZARD, N_CARDS))
WIZARDS = list(range(FIRST_WIZARD, FIRST_JESTER))
JESTERS = list(range(FIRST_JESTER, N_CARDS))

seeds = st.integers(0, 2**63 - 1)
round_indices = st.integers(0, 2**40)
trumps = st.integers(-1, 3)
player_counts = st.integers(3, 6)


@st.composite
def card_pools(draw):
    """The cards an example draws from: the whole deck, or the specials plus one or two suits."""
    if draw(st.booleans()):
        return ALL_CARDS
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    return SPECIALS + [s * N_RANKS + k for s in suits for k in range(N_RANKS)]


@st.composite
def distinct_cards(draw, min_size=0, max_size=N_CARDS):
    """Distinct card ids in a random order, often Wizard- and Jester-heavy."""
    pool = draw(card_pools())
    return draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=min(max_size, len(pool)), unique=True))


@st.composite
def hand_and_trick(draw, max_hand=20):
    """(hand ids, trick ids in order of play): disjoint, trick of 0..5 cards, hand of 1..max_hand."""
    cards = draw(distinct_cards(min_size=1, max_size=max_hand + 5))
    n_trick = draw(st.integers(0, min(5, len(cards) - 1)))
    return cards[n_trick:][:max_hand], cards[:n_trick]


@st.composite
def tricks(draw, min_size=1, max_size=6):
    """A trick in order of play (1..6 distinct cards)."""
    return draw(distinct_cards(min_size=min_size, max_size=max_size))


@st.composite
def round_setups(draw):
    """(players, r, hook): any legal round size, the last round drawn often."""
    players = draw(player_counts)
    last = N_CARDS // players
    r = draw(st.one_of(st.integers(1, last), st.sampled_from([1, last - 1, last])))
    return players, r, draw(st.booleans())


@st.composite
def fixed_round_inputs(draw, players, r):
    """Keyword arguments fixing parts of a round (all optional): one seat's hand, a turn-up pool,
    a trump, forced or conditioning bids. Always satisfiable: the pool keeps a card outside the
    fixed hand whenever a card is turned up."""
    out = {}
    fixed_hands = [0] * players
    hand: list[int] = []
    if draw(st.booleans()):
        seat = draw(st.integers(0, players - 1))
        hand = draw(st.permutations(ALL_CARDS))[:r]
        for c in hand:
            fixed_hands[seat] |= 1 << c
        out["fixed_hands"] = fixed_hands
    if players * r < N_CARDS and draw(st.booleans()):
        free = [c for c in ALL_CARDS if c not in hand]
        pool_cards = draw(st.lists(st.sampled_from(free), min_size=1, max_size=8, unique=True))
        pool = 0
        for c in pool_cards:
            pool |= 1 << c
        out["turn_up_pool"] = pool
    if draw(st.booleans()):
        out["fixed_trump"] = draw(st.integers(-1, 3))
    if draw(st.booleans()):
        modes = draw(st.lists(st.integers(0, 2), min_size=players, max_size=players))
        bids = draw(st.lists(st.integers(0, r), min_size=players, max_size=players))
        out["bid_mode"] = modes
        out["fixed_bids"] = bids
    return out
