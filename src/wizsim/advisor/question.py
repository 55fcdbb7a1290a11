"""What the player asking for advice knows, checked and turned into the round kernel's fixed parts.

The information set (docs/rules.md section 3): the player's hand, seat, the player count, the trump, the
turned-up card when given, the bids already heard, and the hook. The unknown cards are the 60 minus
the hand minus the turned-up card:

- ``trump_card`` given: the turned-up card is that card (a Wizard or Jester given there takes the
  next id of its kind not in the hand); on a Wizard, ``trump`` is the suit the dealer named;
- only a trump suit: the turned-up card is an unknown card of that suit;
- ``none`` before the last round: the turned-up card is an unknown Jester;
- the last round (``rules.kernels.is_last_round``): nothing is turned up and there is no trump.

Every bad input raises ``AdviceError`` (a ``ValueError``) whose message names the problem.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np

from wizsim.cards import (
    FIRST_JESTER,
    FIRST_WIZARD,
    FULL_DECK_MASK,
    JESTER_MASK,
    NO_TRUMP,
    SUIT_MASKS,
    CardError,
    CardTypeError,
    card_ids,
    cards_to_mask,
    format_card,
    format_cards,
    format_trump,
    parse_trump,
    shorten,
)
from wizsim.config import MAX_PLAYERS, MAX_SAMPLES, MIN_PLAYERS, check_count, check_flag, check_int, n_game_rounds
from wizsim.errors import AdviceError, AdviceTypeError  # noqa: F401 - re-exported
from wizsim.rules.kernels import forbidden_bid, is_last_round, trump_of_turn_up


class HandRound:
    """What a bid and a play question both derive from their hand, player count and round size."""

    hand: tuple[int, ...]
    players: int
    r: int

    @property
    def last_round(self) -> bool:
        return bool(is_last_round(self.players, self.r))

    @property
    def hand_mask(self) -> int:
        return cards_to_mask(self.hand)


@dataclass(frozen=True)
class Question(HandRound):
    """A checked question. Seats here are 1-based, as the user gives them."""

    hand: tuple[int, ...]  # card ids in the order given
    players: int
    seat: int
    trump: int  # -1..3
    trump_card: int | None  # the turned-up card's id when given
    earlier_bids: tuple[int, ...] | None  # bids of seats 1..seat-1, or None when unknown
    hook: bool
    policy: str  # the opponents' policy
    player_policy: str  # the policy that plays the player's cards to its bid

    @property
    def r(self) -> int:
        return len(self.hand)

    @property
    def turn_up_pool(self) -> int:
        """The cards the turned-up card may be (0 in the last round: nothing is turned up)."""
        return turn_up_pool(self.trump, self.trump_card, self.hand_mask, self.last_round)

    @property
    def unknown_mask(self) -> int:
        """Cards the player cannot see; the turned-up card is out when its identity is known."""
        known = self.hand_mask | (1 << self.trump_card if self.trump_card is not None else 0)
        return int(FULL_DECK_MASK) & ~known

    @property
    def forbidden(self) -> int:
        """The bid the hook forbids the player (the dealer), or -1."""
        if self.earlier_bids is None:
            return -1
        return int(forbidden_bid(self.hook, self.seat - 1, self.players, self.r, sum(self.earlier_bids)))

    @property
    def dealer_named_trump(self) -> bool:
        """A turned-up Wizard whose suit an opponent (the dealer) named after seeing their hand."""
        return self.trump_card is not None and FIRST_WIZARD <= self.trump_card < FIRST_JESTER \
            and self.seat != self.players

    def describe(self) -> dict:
        return {
            "hand": format_cards(self.hand),
            "players": self.players,
            "seat": self.seat,
            "trump": format_trump(self.trump),
            "trump_card": None if self.trump_card is None else format_card(self.trump_card),
            "earlier_bids": None if self.earlier_bids is None else list(self.earlier_bids),
            "hook": self.hook,
        }


def turn_up_pool(trump: int, trump_card: int | None, seen_mask: int, last_round: bool) -> int:
    """The cards the turned-up card may be, for a player who has seen ``seen_mask``: that card when
    given, else the unseen cards of the trump suit (the unseen Jesters for no trump); 0 in the last
    round, when nothing is turned up."""
    if last_round:
        return 0
    if trump_card is not None:
        return 1 << trump_card
    if trump == NO_TRUMP:
        return int(JESTER_MASK) & ~seen_mask
    return int(SUIT_MASKS[trump]) & ~seen_mask


def _int_option(value, name: str) -> int:
    return check_int(value, name, error=AdviceTypeError)


@contextlib.contextmanager
def advice_errors():
    """Within the block, the card parser's errors become the advisor's (same message, same kind)."""
    try:
        yield
    except CardTypeError as err:
        raise AdviceTypeError(str(err)) from None
    except CardError as err:
        raise AdviceError(str(err)) from None


def check_table(players, seat) -> tuple[int, int]:
    """The player count 3..6 and the 1-based seat at that table, as ints; else an error naming them."""
    players = check_count(players, "players", MIN_PLAYERS, MAX_PLAYERS, error=AdviceError, type_error=AdviceTypeError)
    seat = _int_option(seat, "seat")
    if not 1 <= seat <= players:
        raise AdviceError(f"seat must be 1..{players} with {players} players (seat {players} deals), "
                          f"got {shorten(str(seat), 40)}")
    return players, seat


def builtin_policy(name: str, what: str) -> str:
    """The canonical name of built-in policy ``name`` in the advisor's model (``what``: the argument);
    a user's player (``FILE.py:NAME``) is refused as such: the model's kernels run built-in policies only."""
    from wizsim.policies import check_policy
    from wizsim.policies.registry import looks_like_player_spec, policy_names

    if looks_like_player_spec(name):
        raise AdviceError(f"{what}: {name.strip()!r} is a user's player, but the advisor's model of the table takes "
                          f"built-in policies only: {', '.join(policy_names())}")
    try:
        return check_policy(name)
    except ValueError as err:
        raise AdviceError(f"{what}: {err}") from None


def check_policy_name(name, what: str, default: str) -> str:
    """The canonical policy name given as ``what`` (``policy``, ``play``), ``default`` when None; else an
    error naming ``what``."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise AdviceTypeError(f"{what} must be a policy name, got {shorten(repr(name), 40)}")
    return builtin_policy(name, what)


def check_sampling(samples, max_samples, method, methods: tuple[str, ...]) -> tuple[int | None, int | None]:
    """An advice call's ``samples`` and ``max_samples`` (None, or 1..``MAX_SAMPLES``: more would run for
    hours, a mistake rather than a wish) and its ``method`` (one of ``methods``)."""
    out = []
    for value, name in ((samples, "samples"), (max_samples, "max_samples")):
        if value is not None:
            value = check_count(value, name, 1, error=AdviceError, type_error=AdviceTypeError)
            if value > MAX_SAMPLES:
                raise AdviceError(f"{name} must be at most {MAX_SAMPLES:,} (hours of simulation), "
                                  f"got {shorten(str(value), 30)}")
        out.append(value)
    if not isinstance(method, str) or method not in methods:
        raise AdviceError(f"method must be one of {', '.join(methods)}, got {shorten(repr(method), 40)}")
    return out[0], out[1]


def parse_bids(bids) -> tuple[int, ...] | None:
    """Bids from ``"1,0"`` or a sequence of ints; None stays None (bids unknown)."""
    if bids is None:
        return None
    if isinstance(bids, str):
        text = bids.strip()
        if not text:
            return ()
        out = []
        for i, token in enumerate(text.split(",")):
            token = token.strip()
            if not token.lstrip("-").isdigit() or len(token) > 4:
                raise AdviceError(f"bids: bid {shorten(repr(token), 20)} (position {i + 1}) in {shorten(repr(bids))} "
                                  f"is not a whole number 0..20: write earlier bids like '1,0'")
            out.append(int(token))
        return tuple(out)
    if isinstance(bids, (bytes, dict, set, frozenset)) or not hasattr(bids, "__iter__") or \
            (isinstance(bids, np.ndarray) and bids.ndim != 1):
        raise AdviceTypeError(f"bids must be text like '1,0' or a list of whole numbers, got {shorten(repr(bids), 40)}")
    return tuple(_int_option(b, f"bids: bid {i + 1}") for i, b in enumerate(bids))


# Bytes of the result arrays per deal and candidate (a bid or a card): the tricks (int8), their scores
# and the intermediate copies of the means and spreads (int64 and float64)
BYTES_PER_CANDIDATE = 48


def check_memory(counts: dict, n_candidates: int, per_deal: int = 0) -> None:
    """Refuse a sample count (``counts``: name -> value or None) whose arrays for ``n_candidates``
    candidates (plus ``per_deal`` bytes a deal) cannot fit in this machine's memory, naming it,
    rather than failing with a MemoryError after allocating for minutes."""
    from wizsim.sim.driver import _physical_memory

    total = _physical_memory()
    for name, n in counts.items():
        need = (n or 0) * (n_candidates * BYTES_PER_CANDIDATE + per_deal)
        if total and need > total:
            raise AdviceError(f"{name}={n:,} needs about {need / 1e9:,.0f} GB of results, more than this machine's "
                              f"{total / 1e9:,.0f} GB: ask for fewer")


def make_question(hand, trump, seat, players=4, *, bids=None, hook=False, trump_card=None,
                  policy="random", player_policy="random") -> Question:
    """Check a question (see the module docstring) and return it; raise ``AdviceError`` otherwise."""
    players, seat = check_table(players, seat)
    hook = check_flag(hook, "hook", error=AdviceTypeError)
    with advice_errors():
        ids = card_ids(hand, "hand")
    r = len(ids)
    max_r = n_game_rounds(players)
    if r == 0:
        raise AdviceError("the hand is empty: give your cards, like 'W,AS,3H'")
    if r > max_r:
        raise AdviceError(f"{r} cards is too many for {players} players: rounds have at most {max_r} cards each")
    hand_ids = tuple(int(c) for c in ids)
    trump_code, card = resolve_trump(trump, trump_card, hand_ids, players, r)

    earlier = parse_bids(bids)
    if earlier is not None:
        if len(earlier) != seat - 1:
            play = f" (for play advice give all {players} bids, seat 1 first and yours included)"
            raise AdviceError(f"seat {seat} hears {seat - 1} earlier bid{'s' if seat != 2 else ''} "
                              f"(seats 1..{seat - 1}), got {len(earlier)}{play}" if seat > 1 else
                              f"seat 1 bids first: there are no earlier bids, got {len(earlier)}{play}")
        for i, b in enumerate(earlier):
            if not 0 <= b <= r:
                raise AdviceError(f"bids: the bid of seat {i + 1} is {shorten(b, 20)}: bids are 0..{r} in a round of {r} "
                                  f"card{'s' if r != 1 else ''}")
    if hook and seat == players and earlier is None:
        raise AdviceError(f"with the hook the dealer (seat {players}) needs the earlier bids (--bids, "
                          f"{players - 1} of them) to know the forbidden bid")
    return Question(hand_ids, players, seat, trump_code, card, earlier, hook, policy, player_policy)


def resolve_trump(trump, trump_card, seen_ids, players: int, r: int, seen: str = "the hand") -> tuple[int, int | None]:
    """The trump code -1..3 and the turned-up card's id (or None) from ``trump`` and ``trump_card``
    (see the module docstring), checked against the cards the player has seen (``seen_ids``, named
    ``seen`` in messages): a turned-up Wizard or Jester takes the next id of its kind not among them."""
    seen_ids = tuple(int(c) for c in seen_ids)
    last_round = bool(is_last_round(players, r))
    trump_code = None
    if trump is not None and not (isinstance(trump, str) and not trump.strip()):
        with advice_errors():
            trump_code = parse_trump(trump, "trump")

    card = None
    if trump_card is not None:
        if last_round:
            raise AdviceError(f"round {r} with {players} players is the last round: every card is dealt and "
                              f"nothing is turned up, so leave out the trump card")
        with advice_errors():
            one_id = isinstance(trump_card, (int, np.integer)) and not isinstance(trump_card, (bool, np.bool_))
            got = card_ids([trump_card] if one_id else trump_card, "trump card")
        if len(got) != 1:
            raise AdviceError(f"trump card: give one turned-up card, got {len(got)} ({shorten(repr(trump_card))})")
        card = int(got[0])
        if card >= FIRST_WIZARD:
            # the four Wizards (Jesters) are interchangeable: the turned-up one is one not seen
            first = FIRST_WIZARD if card < FIRST_JESTER else FIRST_JESTER
            free = [c for c in range(first, first + 4) if c not in seen_ids]
            if not free:
                kind = "Wizards" if first == FIRST_WIZARD else "Jesters"
                raise AdviceError(f"the trump card {format_card(card)} cannot be turned up: all four {kind} are "
                                  f"in {seen}")
            card = free[0]
        if card in seen_ids:
            raise AdviceError(f"the trump card {format_card(card)} is also in {seen}: a card is in the deck once")
        if FIRST_WIZARD <= card < FIRST_JESTER:
            if trump_code is None:
                raise AdviceError("a Wizard was turned up: give --trump, the suit the dealer named")
            if trump_code == NO_TRUMP:
                raise AdviceError("a Wizard was turned up: the dealer names a suit (S, H, D or C), never 'none'")
        else:
            implied = int(trump_of_turn_up(card))
            if trump_code is not None and trump_code != implied:
                raise AdviceError(f"the trump card {format_card(card)} makes trump {format_trump(implied)}, "
                                  f"not {format_trump(trump_code)}")
            trump_code = implied

    if trump_code is None:
        if not last_round:
            raise AdviceError("give the trump: S, H, D, C or none (or the turned-up card)")
        trump_code = NO_TRUMP
    if last_round and trump_code != NO_TRUMP:
        raise AdviceError(f"round {r} with {players} players is the last round: nothing is turned up and there "
                          f"is no trump, so trump {format_trump(trump_code)} is impossible")

    mask = cards_to_mask(seen_ids)
    if card is None and not last_round:
        if trump_code == NO_TRUMP and not (int(JESTER_MASK) & ~mask):
            raise AdviceError("no trump before the last round means a Jester was turned up, "
                              f"but all four Jesters are in {seen}")
        if trump_code >= 0 and not (int(SUIT_MASKS[trump_code]) & ~mask):
            raise AdviceError(f"trump {format_trump(trump_code)} means a card of that suit was turned up, "
                              f"but all of them are in {seen}")
    return trump_code, card
