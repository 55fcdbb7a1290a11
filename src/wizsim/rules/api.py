"""Checked public wrappers over the rules kernels: ``trick_winner``, ``legal_plays``, ``score``.

They take card text (``"J,W,2C"``), 1-D sequences of ids or of card texts, and check everything the
kernels assume: bad input raises ``ValueError`` (``TypeError`` for the wrong kind of value) with a
message that names the argument. A Wizard or Jester id given both in the hand and on the trick is
two copies (docs/rules.md 1: they are interchangeable).
"""

from __future__ import annotations

import numpy as np

from wizsim.cards import CardError, card_ids, cards_to_mask, mask_to_cards, parse_trump, shorten
from wizsim.config import MAX_PLAYERS, MIN_PLAYERS, n_game_rounds
from wizsim.rules import kernels

MAX_ROUND = n_game_rounds.py_func(MIN_PLAYERS)  # the most cards a hand holds (20, with 3 players); py_func: no
# kernel is loaded at import (the first load costs Numba its registries, a fifth of a second)


def trick_winner(trick, trump) -> int:
    """Index (0 = first card played) of the card that wins a complete or partial trick.

    ``trick`` is text (``"J,W,2C,AC"``) or ids in order of play; ``trump`` is S/H/D/C/none or -1..3.
    """
    ids = card_ids(trick, "trick", max_cards=MAX_PLAYERS)
    if ids.size == 0:
        raise CardError("trick: an empty trick has no winner")
    return int(kernels.trick_winner(ids, ids.size, parse_trump(trump, "trump")))


def legal_plays(hand, trick) -> np.ndarray:
    """The ids in ``hand`` that may be played on the cards already in ``trick``, ascending (int8)."""
    hand_ids = card_ids(hand, "hand", max_cards=MAX_ROUND)
    trick_ids = card_ids(trick, "trick", taken=hand_ids, max_cards=MAX_PLAYERS - 1)
    led = kernels.LED_NONE
    for card in trick_ids:
        led = kernels.next_led(led, card)
    mask = kernels.legal_mask(np.uint64(cards_to_mask(hand_ids)), led)
    return mask_to_cards(int(mask))


def _counts(value, name: str) -> np.ndarray:
    """``value`` (an int or an array of ints) as int64, each 0..MAX_ROUND; else a named error."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: {value!r} is not a number of tricks; give a whole number 0..{MAX_ROUND}")
    if isinstance(value, (int, np.integer)):
        if not 0 <= int(value) <= MAX_ROUND:
            raise ValueError(f"{name} must be 0..{MAX_ROUND} (a round has at most {MAX_ROUND} tricks), "
                             f"got {shorten(value, 30)}")
        arr = np.asarray(int(value), dtype=np.int64)
    else:
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError):  # ragged nesting
            raise TypeError(f"{name}: not a number or an array of numbers") from None
        if arr.size == 0:  # no bids (no tricks) at all: an empty answer, whatever dtype NumPy guessed for []
            arr = arr.astype(np.int64)
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name}: must be whole numbers 0..{MAX_ROUND}, got {arr.dtype.name} "
                            f"({str(value)[:40]!r})")
    if arr.size and (arr.min() < 0 or arr.max() > MAX_ROUND):
        bad = arr.min() if arr.min() < 0 else arr.max()
        raise ValueError(f"{name} must be 0..{MAX_ROUND} (a round has at most {MAX_ROUND} tricks), got {bad}")
    return arr.astype(np.int64)


def score(bid, tricks):
    """Round score (docs/rules.md 6); elementwise on numpy arrays, an int for scalars.

    ``bid`` and ``tricks`` are whole numbers 0..20 (or integer arrays of them that broadcast)."""
    b, t = _counts(bid, "bid"), _counts(tricks, "tricks")
    if b.ndim == 0 and t.ndim == 0:
        return int(kernels.score_round(int(b), int(t)))
    try:
        b, t = np.broadcast_arrays(b, t)
    except ValueError:
        raise ValueError(f"bid and tricks have shapes {b.shape} and {t.shape}, which do not broadcast") from None
    out = np.empty(b.shape, dtype=np.int64)
    kernels.score_rounds(np.ascontiguousarray(b), np.ascontiguousarray(t), out)
    return out
