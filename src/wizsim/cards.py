"""Card encoding and text notation: the only module that knows how cards are written.

Encoding (a data contract, fixed by docs/rules.md section 1):

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
interchangeable, so numbering them in order of appearance loses nothing. For the same reason a Wizard
(Jester) id that stands in two places (twice in a list, or in a hand and on the trick) is two copies:
the second takes a free id of its kind, as a turned-up Wizard does; a fifth is an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from wizsim.errors import CardError, CardTypeError  # noqa: F401 - re-exported

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
# The commercial deck prints ranks as 1..13; docs/rules.md rejects those spellings with a pointer.
_COMMERCIAL_RANKS = {"1", "11", "12", "13"}


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
    """Canonical text of a sequence of ids, in the order given: ``[52, 12, 14] -> "W,AS,3H"``.

    Checked as ``parse_cards`` checks ids: a suited card twice is an error, Wizards and Jesters are
    interchangeable (``[52, 52]`` is ``"W,W"``)."""
    return ",".join(format_card(c) for c in card_ids(ids, "ids"))


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
    shown = shorten(token.strip(), 30)
    word = token.strip().upper()
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


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to about ``limit`` characters with "...", for echoing user input in one error line
    (line breaks, as in a NumPy array's repr, become single spaces)."""
    text = re.sub(r"\s*\n\s*", " ", str(text))
    return text if len(text) <= limit else f"{text[:limit - 20]}...{text[-12:]} ({len(text):,} characters)"


def _named(name: str | None) -> str:
    """The start of an error message that names the argument (nothing for the CLI, whose errors
    click already attributes to an option)."""
    return f"{name}: " if name else ""


def _kind_of(card: int) -> tuple[int, str] | None:
    if FIRST_WIZARD <= card < FIRST_JESTER:
        return FIRST_WIZARD, "Wizards"
    if FIRST_JESTER <= card < N_CARDS:
        return FIRST_JESTER, "Jesters"
    return None


def _as_copies(ids: list[int], taken: Iterable[int]) -> list[int]:
    """The four Wizards (Jesters) are interchangeable: an id already standing elsewhere (in ``taken`` or
    earlier in ``ids``) is another copy and takes the first id of its kind that is free; a suited card
    twice is a duplicate; more than four of a kind is an error."""
    taken_set = {int(c) for c in taken}
    claimed = taken_set | set(ids)  # ids given explicitly later keep theirs
    used: set[int] = set()
    out = []
    for card in ids:
        kind = _kind_of(card)
        if card in taken_set or card in used:
            if kind is None:
                raise CardError(f"duplicate card {format_card(card)} (id {card}): each card is in the deck once")
            first, name = kind
            free = [c for c in range(first, first + 4) if c not in claimed]
            if not free:
                raise CardError(f"more than 4 {name}: the deck has only four")
            card = free[0]
            claimed.add(card)
        used.add(card)
        out.append(card)
    return out


def _one_id(item, name: str | None, position: int, taken: list[int]) -> int:
    if isinstance(item, str):
        return parse_card(item, taken)
    if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, np.integer)):
        raise CardTypeError(f"{_named(name)}card {position} is {item!r} ({type(item).__name__}); give card ids "
                            f"(whole numbers 0..{N_CARDS - 1}) or card text like {EXAMPLE_HAND!r}")
    card = int(item)
    if not 0 <= card < N_CARDS:
        raise CardError(f"card id {shorten(card, 30)} is not a card: ids run 0..{N_CARDS - 1}")
    return card


def card_ids(value, name: str | None = "cards", taken: Iterable[int] = (), max_cards: int | None = None) -> np.ndarray:
    """Card ids (int8, in the order given) from card text, from a 1-D sequence of ids or from a
    sequence of card texts (``["W", "AS"]``); errors name the argument ``name``.

    Wizards and Jesters are interchangeable copies (see ``_as_copies``): one whose id is in ``taken``
    (another hand, the trick) or given twice takes a free id of its kind.
    """
    taken = [int(c) for c in taken]
    if isinstance(value, str):
        try:
            ids = _parse_text(value, taken)
        except CardError as err:
            raise CardError(f"{_named(name)}{err}") from None
    else:
        if isinstance(value, np.ndarray):
            if value.ndim != 1:
                raise CardTypeError(f"{_named(name)}a {value.ndim}-D array is not a list of cards; give one card per "
                                    f"element, like {EXAMPLE_HAND!r} or [52, 12, 14]")
            if value.dtype.kind not in "iu" and value.dtype != object and value.dtype.kind != "U":
                raise CardTypeError(f"{_named(name)}card ids must be whole numbers, got an array of {value.dtype}")
        elif isinstance(value, (bytes, bytearray, dict, set, frozenset)) or not isinstance(value, Iterable):
            raise CardTypeError(f"{_named(name)}{shorten(repr(value), 40)} ({type(value).__name__}) is not cards; "
                                f"give card text like {EXAMPLE_HAND!r} or a list of card ids")
        n_given = len(value) if hasattr(value, "__len__") else None
        if max_cards is not None and n_given is not None and n_given > max_cards:
            raise CardError(f"{_named(name)}at most {max_cards} cards, got {n_given:,}")
        items = list(value) if max_cards is None else list(_at_most(value, max_cards + 1))
        try:
            ids = []
            for i, item in enumerate(items):
                ids.append(_one_id(item.item() if isinstance(item, np.generic) else item, name, i + 1, taken + ids))
            ids = _as_copies(ids, taken)
        except CardError as err:
            if isinstance(err, CardTypeError):
                raise
            raise CardError(f"{_named(name)}{err}") from None
    if max_cards is not None and len(ids) > max_cards:
        raise CardError(f"{_named(name)}at most {max_cards} cards, got {len(ids):,}" if isinstance(value, str)
                        else f"{_named(name)}at most {max_cards} cards, got more")
    return np.array(ids, dtype=np.int8)


def _at_most(values: Iterable, n: int):
    for i, v in enumerate(values):
        if i >= n:
            return
        yield v


def _parse_text(text: str, taken: list[int]) -> list[int]:
    if not text.strip():
        return []
    tokens = text.split(",")
    ids: list[int] = []
    for i, token in enumerate(tokens):
        if not token.strip():
            raise CardError(f"empty card (position {i + 1}) in {shorten(repr(text))}: separate cards with single "
                            f"commas, like {EXAMPLE_HAND!r}")
        try:
            ids.append(parse_card(token, taken + ids))
        except CardError as err:
            raise CardError(f"{err} (in {shorten(repr(text))})") from None
    return ids


def parse_cards(text: str | Iterable[int], taken: Iterable[int] = ()) -> np.ndarray:
    """Card ids (int8, in the order given) from text like ``"W,AS,3H"``.

    Also accepts a 1-D sequence of ids (or of card texts), which it checks. Raises ``CardError`` (a
    ``ValueError``; a ``TypeError`` too for what is not cards at all, such as floats or nested lists)
    naming the bad token on an unknown token, a ``1S``-style rank, an empty token, a duplicate, or more
    than 4 Wizards or Jesters. ``taken`` are ids already used elsewhere (another hand, the trick): a
    Wizard or Jester among them is another copy and takes the next free id of its kind, a suited card
    among them is a duplicate.
    """
    if isinstance(taken, (str, bytes, bytearray, dict, set, frozenset)) or not isinstance(taken, Iterable):
        raise CardTypeError(f"taken: a list of card ids (whole numbers 0..{N_CARDS - 1}), got "
                            f"{shorten(repr(taken), 40)} ({type(taken).__name__})")
    try:
        taken = [_one_id(c.item() if isinstance(c, np.generic) else c, "taken", i + 1, [])
                 for i, c in enumerate(taken)]
    except CardError as err:
        if isinstance(err, CardTypeError):
            raise
        raise CardError(f"taken: {err}") from None
    return card_ids(text, "text", taken)


def parse_trump(value: str | int | None, name: str | None = "trump") -> int:
    """Trump code -1..3 from ``S``/``H``/``D``/``C``/``none`` (any case) or from the code itself."""
    if value is None:
        return NO_TRUMP
    if isinstance(value, (bool, np.bool_)):  # True is not hearts
        raise CardTypeError(f"{_named(name)}{value!r} is not a trump: use S, H, D, C or none (or -1..3)")
    if isinstance(value, (int, np.integer)):
        if -1 <= int(value) <= 3:
            return int(value)
        raise CardError(f"{_named(name)}trump code {shorten(value, 30)} is not one of -1 (none), 0 (S), 1 (H), 2 (D), 3 (C)")
    if not isinstance(value, str):
        raise CardTypeError(f"{_named(name)}{shorten(repr(value), 40)} ({type(value).__name__}) is not a trump: "
                            f"use S, H, D, C or none (or -1..3)")
    word = value.strip().upper()
    if word in ("NONE", "-", "NT", "NO", "-1"):
        return NO_TRUMP
    if len(word) == 1 and word in SUIT_LETTERS:
        return SUIT_LETTERS.index(word)
    raise CardError(f"{_named(name)}unknown trump {shorten(repr(value), 40)}: use S, H, D, C or none")


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


def format_masks(masks) -> np.ndarray:
    """Card text (canonical notation, ascending ids) of each uint64 hand mask, as an object array."""
    text = np.array([format_card(c) for c in range(N_CARDS)], dtype=object)
    return np.array([",".join(text[row]) for row in masks_to_cards_matrix(masks)], dtype=object)
