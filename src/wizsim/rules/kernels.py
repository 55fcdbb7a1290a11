"""Jitted rules kernels: trump, the hook, the last round, led suit, legal plays, trick winner, score.

Every rule of docs/rules.md has its one home here (twins in ``rules.reference``); other modules call these.

A trick in progress is summarised by its *led* code: a suit 0..3, ``LED_NONE`` (-1: no card yet, or
only Jesters so far) or ``LED_WIZARD`` (-2: a Wizard was the first non-Jester card, so the trick is
free). Card strength is a small int, comparable only within one trick: the card with the strictly
highest strength wins, ties going to the earlier card, which is what makes the first Wizard and the
first Jester win.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.cards import (
    FIRST_JESTER,
    FIRST_WIZARD,
    FULL_DECK_MASK,
    JESTER_MASK,
    N_CARDS,
    N_RANKS,
    NO_TRUMP,
    SUIT_MASKS,
    WIZARD_MASK,
)

LED_NONE = -1
LED_WIZARD = -2

# ``trump_of_turn_up`` of a Wizard: the dealer names the trump suit (not a suit code: never index by it).
DEALER_NAMES = 4

_FREE_MASK = WIZARD_MASK | JESTER_MASK
# Strength levels (``card_strength``): a Wizard; a trump or led-suit card of rank k is the base + 1 + k.
WIZARD_STRENGTH = 100
TRUMP_BASE = 50
LED_BASE = 20

# Hot-loop forms of the rules, indexed by (led + 2) and (trump + 1): table lookups instead of
# branches on random data, which the processor cannot predict. Built from the branchy definitions
# below, which the tests pin to the reference twins.
_FOLLOW_MASKS = np.array([FULL_DECK_MASK, FULL_DECK_MASK] + [int(m) for m in SUIT_MASKS], dtype=np.uint64)


@kernel
def trump_of_turn_up(turn_up):
    """Trump by docs/rules.md 3 from the turned-up card id (-1: nothing turned up, the last round): its
    suit for a suited card, ``NO_TRUMP`` for a Jester or nothing, ``DEALER_NAMES`` for a Wizard."""
    if turn_up < 0 or turn_up >= FIRST_JESTER:
        return NO_TRUMP
    if turn_up >= FIRST_WIZARD:
        return DEALER_NAMES
    return turn_up // N_RANKS


@kernel
def forbidden_bid(hook, seat, players, r, total_so_far):
    """The bid the hook (docs/rules.md 4) forbids ``seat`` (0-based; ``players - 1`` deals) after earlier
    bids totalling ``total_so_far``, or -1: only the dealer, and only when r - total is a bid 0..r."""
    left = r - total_so_far
    if hook and seat == players - 1 and 0 <= left <= r:
        return left
    return -1


@kernel
def is_last_round(players, r):
    """Whether a round of ``r`` cards deals the whole deck (docs/rules.md 2): nothing is turned up."""
    return players * r == N_CARDS


@kernel
def next_led(led, card):
    """The led code after ``card`` is played on a trick whose led code is ``led``."""
    if led != LED_NONE or card >= FIRST_JESTER:
        return led
    if card >= FIRST_WIZARD:
        return LED_WIZARD
    return card // N_RANKS


@kernel
def legal_mask(hand, led):
    """Mask of the cards in ``hand`` (uint64) that may be played on a trick with led code ``led``."""
    # With no led suit the "follow" set is the whole hand, so one expression covers every case.
    follow = hand & _FOLLOW_MASKS[led + 2]
    return (follow | (hand & _FREE_MASK)) if follow != 0 else hand


@kernel
def card_strength(card, trump, led):
    """Strength of ``card`` in a trick with the given trump (-1..3) and led code (after this card)."""
    if card >= FIRST_JESTER:
        return 0
    if card >= FIRST_WIZARD:
        return WIZARD_STRENGTH
    suit = card // N_RANKS
    if suit == trump:
        return TRUMP_BASE + 1 + card % N_RANKS
    if suit == led:
        return LED_BASE + 1 + card % N_RANKS
    return 0


def _strength_table():
    table = np.zeros((5, 6, 64), dtype=np.int8)
    for trump in range(-1, 4):
        for led in range(-2, 4):
            for card in range(N_CARDS):
                table[trump + 1, led + 2, card] = card_strength.py_func(card, trump, led)
    return table


STRENGTH = _strength_table()


@kernel
def trick_winner(cards, n_cards, trump):
    """Index (0 = first played) of the winning card among ``cards[:n_cards]`` (int8 ids), n_cards >= 1."""
    led = LED_NONE
    best = -1
    winner = 0
    for i in range(n_cards):
        card = cards[i]
        led = next_led(led, card)
        strength = card_strength(card, trump, led)
        if strength > best:
            best = strength
            winner = i
    return winner


@kernel
def trick_winners(cards, trump):
    """Winning position (0 = first played) of each row of ``cards`` (n, width) int: n complete tricks
    played in column order, one trump (-1..3) for all; (n,) int64."""
    n, width = cards.shape
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = trick_winner(cards[i], width, trump)
    return out


@kernel
def score_round(bid, tricks):
    """Round score: 20 + 10 * tricks when tricks == bid, else -10 per trick of difference."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


@kernel
def score_rounds(bids, tricks, out):
    """Elementwise ``score_round`` over int arrays of one shape, into ``out`` (int16 or wider)."""
    flat_b = bids.ravel()
    flat_t = tricks.ravel()
    flat_o = out.ravel()
    for i in range(flat_b.size):
        flat_o[i] = score_round(flat_b[i], flat_t[i])
    return out
