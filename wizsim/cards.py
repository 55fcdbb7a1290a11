"""Card encoding and text notation: the only module that knows how cards are written.

Encoding (a data contract, fixed by RULES.md section 1):

- Suits in order S = 0, H = 1, D = 2, C = 3; ranks 2..A map to 0..12.
- A suited card's id is ``suit * 13 + rank_index`` (2S = 0, AS = 12, 2H = 13, ..., AC = 51).
- Wizards are ids 52..55, Jesters 56..59. ``NO_CARD = -1`` means "no card".
- A set of cards is a uint64 bit mask: bit ``id`` is set when the card is present.
- Trump is 0..3 for a suit and ``NO_TRUMP = -1`` for none; in text ``S``, ``H``, ``D``, ``C`` or ``none``.

Grammar (case-insensitive, spaces around commas ignored)::

    hand    := card ("," card)*
    card    := rank suit | wizard | jester
    rank    := 2..10 | T | J | Q | K | A
    suit    := S | H | D | C
    wizard  := W | Z | WIZARD
    jester  := J | N | JESTER          (J followed by a suit is a Jack)

The k-th Wizard in a text gets id 51 + k and the k-th Jester id 55 + k: the four of each kind are
interchangeable, so numbering them in order of appearance loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

N_SUITS = 4
N_RANKS = 13
N_SUITED = N_SUITS * N_RANKS
N_WIZARDS = 4
N_JESTERS = 4
N_CARDS = N_SUITED + N_WIZARDS + N_JESTERS
FIRST_WIZARD = 52
FIRST_JESTER = 56
NO_CARD = -1
NO_TRUMP = -1

SUIT_LETTERS = "SHDC"
RANK_LETTERS = "23456789TJQKA"

SUIT_MASKS = np.array([((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS)], dtype=np.uint64)
WIZARD_MASK = np.uint64(((1 << N_WIZARDS) - 1) << FIRST_WIZARD)
JESTER_MASK = np.uint64(((1 << N_JESTERS) - 1) << FIRST_JESTER)
FULL_DECK_MASK = np.uint64((1 << N_CARDS) - 1)

EXAMPLE_HAND = "W,AS,TH,3H,J"

_WIZARD_WORDS = {"W", "Z", "WIZARD"}
_JESTER_WORDS = {"J", "N", "JESTER"}
_RANK_WORDS = {**{ch: i for i, ch in enumerate(RANK_LETTERS)}, "10": 8}
# The commercial deck prints ranks as 1..13; RULES.md rejects those spellings with a pointer.
_COMMERCIAL_RANKS = {"1", "11", "12", "13"}


class CardError(ValueError):
    """A card text or card id that does not follow RULES.md; the message names the bad part."""


def is_wizard(card: int) -> bool:
    return FIRST_WIZARD <= card < FIRST_JESTER


def is_jester(card: int) -> bool:
    return FIRST_JESTER <= card < N_CARDS


def card_suit(card: int) -> int:
    """Suit 0..3 of a suited card, -1 for a Wizard or Jester."""
    return card // N_RANKS if 0 <= card < N_SUITED else -1


def card_rank(card: int) -> int:
    """Rank index 0..12 (2..A) of a suited card, -1 for a Wizard or Jester."""
    return card % N_RANKS if 0 <= card < N_SUITED else -1


def format_card(card: int) -> str:
    card = int(card)
    if 0 <= card < N_SUITED:
        return RANK_LETTERS[card % N_RANKS] + SUIT_LETTERS[card // N_RANKS]
    if is_wizard(card):
        return "W"
    if is_jester(card):
        return "J"
    raise CardError(f"card id {card} is not a card: ids run 0..{N_CARDS - 1}")


def format_cards(ids: Iterable[int]) -> str:
    """Canonical text of a sequence of ids, in the order given: ``[52, 12, 14] -> "W,AS,3H"``."""
    return ",".join(format_card(c) for c in np.asarray(ids, dtype=np.int64).ravel())


def _parse_suited(token: str, shown: str) -> int:
    rank_text, suit_text = token[:-1], token[-1]
    if suit_text not in SUIT_LETTERS or not rank_text:
        raise CardError(f"unknown card {shown!r}: write cards like {EXAMPLE_HAND!r}")
    if rank_text in _COMMERCIAL_RANKS:
        raise CardError(
            f"{shown!r} is not a rank wizsim accepts: ranks are 2..10, J, Q, K, A "
            f"(write '2{suit_text}' for the two, 'A{suit_text}' for the ace)"
        )
    if rank_text not in _RANK_WORDS:
        raise CardError(f"unknown card {shown!r}: write cards like {EXAMPLE_HAND!r}")
    return SUIT_LETTERS.index(suit_text) * N_RANKS + _RANK_WORDS[rank_text]


def parse_card(token: str, taken: Iterable[int] = ()) -> int:
    """One card's id. A Wizard or Jester takes the first id of its kind not in ``taken``."""
    shown = token.strip()
    word = shown.upper()
    if not word:
        raise CardError(f"empty card: write cards like {EXAMPLE_HAND!r}")
    taken_set = {int(c) for c in taken}
    for words, first, name in ((_WIZARD_WORDS, FIRST_WIZARD, "Wizards"), (_JESTER_WORDS, FIRST_JESTER, "Jesters")):
        if word in words:
            for card in range(first, first + 4):
                if card not in taken_set:
                    return card
            raise CardError(f"more than 4 {name}: the deck has only four")
    card = _parse_suited(word, shown)
    if card in taken_set:
        raise CardError(f"duplicate card {shown!r}: each card is in the deck once")
    return card


def _check_ids(ids: np.ndarray) -> np.ndarray:
    bad = ids[(ids < 0) | (ids >= N_CARDS)]
    if bad.size:
        raise CardError(f"card id {int(bad[0])} is not a card: ids run 0..{N_CARDS - 1}")
    uniq, counts = np.unique(ids, return_counts=True)
    if (counts > 1).any():
        raise CardError(f"duplicate card id {int(uniq[counts > 1][0])} ({format_card(int(uniq[counts > 1][0]))})")
    return ids.astype(np.int8)


def parse_cards(text: str | Iterable[int], taken: Iterable[int] = ()) -> np.ndarray:
    """Card ids (int8, in the order given) from text like ``"W,AS,3H"``.

    Also accepts a sequence of ids, which it checks. Raises ``CardError`` naming the bad token on an
    unknown token, a ``1S``-style rank, an empty token, a duplicate, or more than 4 Wizards or Jesters.
    ``taken`` are ids already used elsewhere (another hand, the trick): Wizards and Jesters are numbered
    after them and a suited card among them is a duplicate.
    """
    if not isinstance(text, str):
        return _check_ids(np.asarray(list(text), dtype=np.int64))
    if not text.strip():
        return np.zeros(0, dtype=np.int8)
    tokens = text.split(",")
    taken = [int(c) for c in taken]
    ids: list[int] = []
    for i, token in enumerate(tokens):
        if not token.strip():
            raise CardError(f"empty card (position {i + 1}) in {text!r}: separate cards with single commas, like {EXAMPLE_HAND!r}")
        try:
            ids.append(parse_card(token, taken + ids))
        except CardError as err:
            raise CardError(f"{err} (in {text!r})") from None
    return np.array(ids, dtype=np.int8)


def parse_trump(value: str | int | None) -> int:
    """Trump code -1..3 from ``S``/``H``/``D``/``C``/``none`` (any case) or from the code itself."""
    if value is None:
        return NO_TRUMP
    if isinstance(value, (int, np.integer)):
        if -1 <= int(value) <= 3:
            return int(value)
        raise CardError(f"trump code {value} is not one of -1 (none), 0 (S), 1 (H), 2 (D), 3 (C)")
    word = str(value).strip().upper()
    if word in ("NONE", "-", "NT", "NO", "-1"):
        return NO_TRUMP
    if len(word) == 1 and word in SUIT_LETTERS:
        return SUIT_LETTERS.index(word)
    raise CardError(f"unknown trump {value!r}: use S, H, D, C or none")


def format_trump(trump: int) -> str:
    return "none" if trump == NO_TRUMP else SUIT_LETTERS[int(trump)]


def cards_to_mask(ids: Iterable[int]) -> int:
    """A Python int mask of the given ids (use ``np.uint64(...)`` to hand it to a kernel)."""
    mask = 0
    for c in ids:
        mask |= 1 << int(c)
    return mask


def mask_to_cards(mask: int) -> np.ndarray:
    """Ascending ids (int8) of the cards in a mask."""
    mask = int(mask)
    return np.array([c for c in range(N_CARDS) if mask >> c & 1], dtype=np.int8)


def masks_to_cards_matrix(masks: np.ndarray) -> np.ndarray:
    """Vectorised decode: (n,) uint64 masks -> (n, 60) bool membership matrix."""
    bits = np.arange(N_CARDS, dtype=np.uint64)
    return ((np.asarray(masks, dtype=np.uint64)[:, None] >> bits) & np.uint64(1)).astype(bool)
