"""Play advice's exact path lists the consistent deals in a kernel (``advisor.kernels.world_batches.enumerate_worlds_kernel``):
the same deals as its twin (``sim.reference.enumerate_worlds``), each once, and its caps on the deals and
on the walk's work say so instead of running on."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wizsim.advisor.kernels.reference import enumerate_worlds
from wizsim.advisor.kernels.world_batches import TOO_COSTLY, TOO_MANY, enumerate_worlds_kernel
from wizsim.cards import N_CARDS, SUIT_MASKS

ALL = (1 << 64) - 1


@st.composite
def small_deals(draw):
    """A seat ``me`` with a hand, up to 13 unseen cards for the others, each other seat a count and voids,
    and the turned-up cards to try (or none)."""
    players = draw(st.integers(3, 6))
    cards = draw(st.lists(st.integers(0, N_CARDS - 1), min_size=1, max_size=15, unique=True))
    unseen_cards = cards[: max(1, len(cards) - 2)]
    hand = sum(1 << c for c in cards[len(unseen_cards):])
    unseen = sum(1 << c for c in unseen_cards)
    me = draw(st.integers(0, players - 1))
    needs = [0] * players
    room = len(unseen_cards)
    for s in range(players):
        if s != me:
            needs[s] = draw(st.integers(0, min(room, 5)))
            room -= needs[s]
    allowed = [ALL] * players
    for s in range(players):
        if s != me:
            voids = draw(st.integers(0, 15))
            allowed[s] = ALL & ~sum(int(SUIT_MASKS[k]) for k in range(4) if voids >> k & 1)
    turn_ups = [-1]
    if room > 0 and draw(st.booleans()):
        turn_ups = sorted(draw(st.lists(st.sampled_from(unseen_cards), min_size=1, max_size=3, unique=True)))
    order = [s for s in range(players) if s != me]
    order = draw(st.permutations(order))
    return players, me, hand, unseen, needs, allowed, turn_ups, list(order)


def _run(me, hand, unseen, needs, allowed, turn_ups, order, cap, max_steps=10**9):
    worlds = np.zeros((cap, len(needs)), np.uint64)
    tu = np.full(cap, -1, np.int8)
    n = enumerate_worlds_kernel(np.int64(me), np.uint64(hand), np.uint64(unseen), np.array(needs, np.int64),
                                np.array(allowed, np.uint64), np.array(order, np.int64), np.array(turn_ups, np.int64),
                                np.int64(max_steps), worlds, tu)
    return n, worlds, tu


@settings(deadline=None, max_examples=400)
@given(small_deals())
def test_enumeration_kernel_equals_twin(setup):
    players, me, hand, unseen, needs, allowed, turn_ups, order = setup
    want = enumerate_worlds(me, hand, unseen, needs, allowed, turn_ups)
    n, worlds, tu = _run(me, hand, unseen, needs, allowed, turn_ups, order, cap=len(want) + 5)
    assert n == len(want)
    got = [(tuple(int(x) for x in worlds[i]), int(tu[i])) for i in range(n)]
    assert len(set(got)) == n  # each deal once
    assert sorted(got) == sorted(want)
    if want:  # one deal too many for the output: said, not cut silently
        assert _run(me, hand, unseen, needs, allowed, turn_ups, order, cap=len(want) - 1)[0] == TOO_MANY


def test_the_walk_stops_at_its_step_cap():
    """17 unseen cards to three seats of 5, 6 and 6 cards: 5.7 million deals; a cap of 1,000 steps ends it."""
    needs = [5, 0, 6, 6]
    unseen = (1 << 17) - 1
    n, _, _ = _run(1, 1 << 40, unseen, needs, [ALL] * 4, [-1], [0, 2, 3], cap=100_000, max_steps=1_000)
    assert n == TOO_COSTLY
    n, _, _ = _run(1, 1 << 40, unseen, needs, [ALL] * 4, [-1], [0, 2, 3], cap=100, max_steps=10**9)
    assert n == TOO_MANY


def test_a_seat_void_in_most_suits_is_dealt_first_without_dead_ends():
    """Seat 4 may hold only diamonds (13 cards unseen: 4 diamonds, 9 spades): the other seats share the spades."""
    diamonds = int(SUIT_MASKS[2])
    unseen = (0b1111 << 26) | 0b111111111
    allowed = [ALL, ALL, ALL, diamonds]
    n, worlds, _ = _run(1, 1 << 50, unseen, [4, 0, 5, 4], allowed, [-1], [3, 0, 2], cap=200)
    assert n == 126  # C(9, 4): seat 4 gets the four diamonds, seat 1 four of the nine spades
    assert all(int(w[3]) == 0b1111 << 26 for w in worlds[:n])
