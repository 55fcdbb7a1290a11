"""Checked public wrappers over the rules kernels: ``trick_winner``, ``legal_plays``, ``score``."""

from __future__ import annotations

import numpy as np

from wizsim.cards import CardError, cards_to_mask, mask_to_cards, parse_cards, parse_trump
from wizsim.rules import kernels


def trick_winner(trick, trump) -> int:
    """Index (0 = first card played) of the card that wins a complete or partial trick.

    ``trick`` is text (``"J,W,2C,AC"``) or ids in order of play; ``trump`` is S/H/D/C/none or -1..3.
    """
    ids = parse_cards(trick)
    if ids.size == 0:
        raise CardError("an empty trick has no winner")
    if ids.size > 6:
        raise CardError(f"a trick has at most 6 cards (one per player), got {ids.size}")
    return int(kernels.trick_winner(ids, ids.size, parse_trump(trump)))


def legal_plays(hand, trick) -> np.ndarray:
    """The ids in ``hand`` that may be played on the cards already in ``trick``, ascending (int8)."""
    hand_ids = parse_cards(hand)
    trick_ids = parse_cards(trick, taken=hand_ids) if isinstance(trick, str) else parse_cards(trick)
    if np.intersect1d(hand_ids, trick_ids).size:
        raise CardError("a card cannot be both in the hand and on the trick")
    led = kernels.LED_NONE
    for card in trick_ids:
        led = kernels.next_led(led, card)
    mask = kernels.legal_mask(np.uint64(cards_to_mask(hand_ids)), led)
    return mask_to_cards(int(mask))


def score(bid, tricks):
    """Round score (RULES.md 6); elementwise on numpy arrays, an int for scalars."""
    if np.isscalar(bid) and np.isscalar(tricks):
        return int(kernels.score_round(int(bid), int(tricks)))
    b, t = np.broadcast_arrays(np.asarray(bid, dtype=np.int64), np.asarray(tricks, dtype=np.int64))
    out = np.empty(b.shape, dtype=np.int64)
    kernels.score_rounds(np.ascontiguousarray(b), np.ascontiguousarray(t), out)
    return out
