"""Jitted rules kernels: led suit, legal-play masks, trick strength and winner, round score.

A trick in progress is summarised by its *led* code: a suit 0..3, ``LED_NONE`` (-1: no card yet, or
only Jesters so far) or ``LED_WIZARD`` (-2: a Wizard was the first non-Jester card, so the trick is
free). Card strength is a small int, comparable only within one trick: the card with the strictly
highest strength wins, ties going to the earlier card, which is what makes the first Wizard and the
first Jester win.
"""

from __future__ import annotations

import numpy as np

from wizsim._jit import kernel
from wizsim.cards import (
    FIRST_JESTER,
    FIRST_WIZARD,
    FULL_DECK_MASK,
    JESTER_MASK,
    N_CARDS,
    N_RANKS,
    SUIT_MASKS,
    WIZARD_MASK,
)

LED_NONE = -1
LED_WIZARD = -2

_FREE_MASK = WIZARD_MASK | JESTER_MASK
_WIZARD_STRENGTH = 100
_TRUMP_BASE = 50
_LED_BASE = 20

# Hot-loop forms of the rules, indexed by (led + 2) and (trump + 1): table lookups instead of
# branches on random data, which the processor cannot predict. Built from the branchy definitions
# below, which the tests pin to the reference twins.
_FOLLOW_MASKS = np.array([FULL_DECK_MASK, FULL_DECK_MASK] + [int(m) for m in SUIT_MASKS], dtype=np.uint64)


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
        return _WIZARD_STRENGTH
    suit = card // N_RANKS
    if suit == trump:
        return _TRUMP_BASE + 1 + card % N_RANKS
    if suit == led:
        return _LED_BASE + 1 + card % N_RANKS
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
