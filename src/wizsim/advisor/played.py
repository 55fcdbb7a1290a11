"""A play-phase question: the cards played so far, checked and turned into the public state of the round.

What the player knows once the bidding is over (docs/guide/advisor.md, "Which card now?"): the cards it still holds,
its seat, the player count, the trump (or the turned-up card), every player's bid (seat 1 first, its own
included), the hook, and the cards played so far in order of play (``"5H,AH,2S,9C/KD"``). Seat 1 leads
trick one and the rules' trick winner says who leads each next trick, so the order of play says who
played what. ``/`` between tricks is optional; when given, each one must close a trick.

The round size is the hand plus the player's own played cards. On the player's turn it has played one
card in each complete trick and none in the current one, so ``r = len(hand) + len(played) // players``
before any trick is replayed; replaying then checks that it is in fact the player's turn.

Wizards and Jesters are interchangeable: the k-th ``W`` across the hand, then the played cards in order,
then the turned-up card is the k-th Wizard id (likewise ``J``); more than four is an error.

Every inconsistent state raises ``AdviceError`` naming it: a card both held and played or played twice,
a seat following a suit it showed it lacks, the player's own play breaking follow-suit given the cards
it held then (its hand now plus its later plays), too many cards for the round, not the player's turn,
a bid count other than ``players``, a bid outside 0..r, the dealer making the hook's forbidden bid, a
turned-up card that is held or played, and the bid advisor's checks on the trump.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.advisor.question import (
    AdviceError,
    AdviceTypeError,
    HandRound,
    advice_errors,
    check_table,
    parse_bids,
    resolve_trump,
    turn_up_pool,
)
from wizsim.cards import (
    FIRST_WIZARD,
    FULL_DECK_MASK,
    N_CARDS,
    N_SUITED,
    SUIT_LETTERS,
    CardError,
    card_ids,
    card_suit,
    cards_to_mask,
    format_card,
    format_cards,
    format_trump,
    mask_to_cards,
    parse_card,
    parse_cards,
    shorten,
)
from wizsim.config import check_flag, n_game_rounds
from wizsim.rules.kernels import LED_NONE, forbidden_bid, legal_mask, next_led
from wizsim.rules.replay import leader_now, next_seat, order_of_play

TRICK_SEPARATOR = "/"


@dataclass(frozen=True)
class PlayQuestion(HandRound):
    """A checked play-phase question. ``seat`` is 1-based as the user gives it; every array is in
    0-based seat order (index 0 = seat 1), as the kernels take it."""

    hand: tuple[int, ...]  # the cards held now, in the order given
    players: int
    seat: int
    trump: int  # -1..3 (a turned-up Wizard: the suit the dealer named)
    trump_card: int | None
    bids: tuple[int, ...]  # every seat's bid, seat 1 first
    played: tuple[int, ...]  # the cards played this round, in order of play
    hook: bool
    policy: str  # the opponents' policy
    play: str  # the policy playing the player's own later cards
    r: int
    tricks: tuple[int, ...]  # completed tricks taken per seat
    leader: int  # 0-based seat that led the current trick
    seat_played: tuple[int, ...]  # mask of the cards each seat has played, the current trick included
    voids: tuple[int, ...]  # bit s set when that seat has shown it holds no card of suit s

    @property
    def me(self) -> int:
        return self.seat - 1

    @property
    def n_in_trick(self) -> int:
        return len(self.played) % self.players

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The current trick so far, in order of play."""
        return self.played[len(self.played) - self.n_in_trick:]

    @property
    def led(self) -> int:
        led = LED_NONE
        for card in self.trick_cards:
            led = next_led(led, card)
        return led

    @property
    def legal_cards(self) -> np.ndarray:
        """The player's legal cards now, ascending ids (int8)."""
        return mask_to_cards(int(legal_mask(np.uint64(self.hand_mask), self.led)))

    @property
    def seen_mask(self) -> int:
        """Every card the player has seen: its hand, the cards played and a known turned-up card."""
        mask = self.hand_mask | cards_to_mask(self.played)
        return mask | (1 << self.trump_card if self.trump_card is not None else 0)

    @property
    def turn_up_pool(self) -> int:
        return turn_up_pool(self.trump, self.trump_card, self.hand_mask | cards_to_mask(self.played),
                            self.last_round)

    @property
    def unseen_mask(self) -> int:
        return int(FULL_DECK_MASK) & ~self.seen_mask

    @property
    def held_counts(self) -> tuple[int, ...]:
        """Cards each seat holds now."""
        return tuple(self.r - bin(m).count("1") for m in self.seat_played)

    def played_text(self) -> str:
        """The played cards in canonical text, ``/`` after each complete trick."""
        p = self.players
        tricks = [format_cards(self.played[i:i + p]) for i in range(0, len(self.played), p)]
        text = TRICK_SEPARATOR.join(tricks)
        return text + TRICK_SEPARATOR if self.played and self.n_in_trick == 0 else text

    def describe(self) -> dict:
        """The question's part of the ``--json`` object (docs/guide/advisor.md) (canonical forms)."""
        return {
            "phase": "play",
            "hand": format_cards(self.hand),
            "players": self.players,
            "seat": self.seat,
            "trump": format_trump(self.trump),
            "trump_card": None if self.trump_card is None else format_card(self.trump_card),
            "bids": list(self.bids),
            "played": self.played_text(),
            "tricks_taken": list(self.tricks),
            "hook": self.hook,
        }

    def state(self):
        """The public state of the round as the search kernels take it (``policies.records.PlayState``)."""
        from wizsim.policies.records import PlayState

        return PlayState(players=self.players, r=self.r, hook=self.hook, trump=self.trump,
                         turn_up_pool=self.turn_up_pool, me=self.me, hand=self.hand_mask, bids=self.bids,
                         seat_played=self.seat_played, tricks=self.tricks, leader=self.leader,
                         trick_cards=self.trick_cards, voids=self.voids)


def _parse_hand(hand) -> tuple[int, ...]:
    with advice_errors():
        ids = card_ids(hand, "hand")
    return tuple(int(c) for c in ids)


def _is_list(value) -> bool:
    """A list of items: a list, a tuple or a 1-D NumPy array (not text, a mapping, a set or a scalar)."""
    return isinstance(value, (list, tuple)) or (isinstance(value, np.ndarray) and value.ndim == 1)


def _played_item(item, played):
    """One played card as given in a list: its text, or its id as an int (never a float or a bool)."""
    if isinstance(item, str):
        return item
    if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
        return int(item)
    raise AdviceTypeError(f"played: each card is text like '5H' or a card id 0..59, got {shorten(repr(item), 30)} "
                          f"in {shorten(repr(played), 40)}")


def _played_groups(played) -> list[list]:
    """The played input as groups of tokens (text) or ids, one group per ``/``-separated part: text
    like ``"5H,AH/KD"``, a list of cards (text or ids), or a list of tricks (each a list of cards)."""
    if played is None:
        return [[]]
    if isinstance(played, str):
        if not played.strip():
            return [[]]
        return [[] if not part.strip() else part.split(",") for part in played.split(TRICK_SEPARATOR)]
    if not _is_list(played):
        raise AdviceTypeError(f"played must be text like '5H,AH,2S,9C/KD' or a list of cards, got "
                              f"{shorten(repr(played), 40)}")
    items = list(played)
    if items and all(_is_list(x) for x in items):  # a sequence of tricks
        return [[_played_item(c, played) for c in group] for group in items]
    return [[_played_item(c, played) for c in items]]


def _parse_played(played, hand: tuple[int, ...], players: int) -> tuple[int, ...]:
    """Card ids in order of play, numbering Wizards and Jesters after the hand's; checks duplicates
    against the hand and each other, and that every ``/`` closes a trick."""
    groups = _played_groups(played)
    held = set(hand)
    where: dict[int, int] = {}  # card -> 0-based position of play
    out: list[int] = []
    for g, group in enumerate(groups):
        for token in group:
            pos = len(out)
            trick = pos // players + 1
            if isinstance(token, str):
                if not token.strip():
                    raise AdviceError(f"played: empty card (card {pos + 1}) in {played!r}: separate cards with "
                                      f"single commas and tricks with '/', like '5H,AH,2S,9C/KD'")
                taken = [c for c in (*hand, *out) if c >= FIRST_WIZARD]  # Wizards and Jesters take the next id
                try:
                    card = parse_card(token, taken)
                except CardError as err:
                    text = str(err)
                    if text.startswith("more than 4"):
                        text = text.split(":")[0] + " between your hand and the cards played: the deck has only four"
                    raise AdviceError(f"played: {text} (card {pos + 1}, {token.strip()!r})") from None
            else:
                card = int(token)
                if not 0 <= card < N_CARDS:
                    raise AdviceError(f"played: card id {card} is not a card: ids run 0..{N_CARDS - 1}")
            name = format_card(card)
            if card in held:
                raise AdviceError(f"{name} is both in your hand and played (card {pos + 1}, trick {trick}): "
                                  f"the hand is the cards you still hold")
            if card in where:
                raise AdviceError(f"{name} is played twice (tricks {where[card] // players + 1} and {trick}): "
                                  f"each card is in the deck once")
            where[card] = pos
            out.append(card)
        if g < len(groups) - 1 and (not out or len(out) % players or (g > 0 and not group)):
            at = f"after card {len(out)}" if out else "before any card"
            raise AdviceError(f"played: the '/' {at} does not close a trick: a trick has {players} cards "
                              f"with {players} players")
    return tuple(out)


def _check_bids(bids, players: int, r: int, hook: bool) -> tuple[int, ...]:
    got = parse_bids(bids)
    if got is None or len(got) != players:
        n = 0 if got is None else len(got)
        raise AdviceError(f"play advice needs every player's bid: give all {players} bids (seat 1 first, yours "
                          f"included), got {n}")
    for i, b in enumerate(got):
        if not 0 <= b <= r:
            raise AdviceError(f"the bid of seat {i + 1} is {b}: bids are 0..{r} in a round of {r} cards")
    forbidden = int(forbidden_bid(bool(hook), players - 1, players, r, sum(got[:-1])))
    if got[-1] == forbidden:
        raise AdviceError(f"with the hook the dealer (seat {players}) may not bid {forbidden}: the bids "
                          f"{','.join(map(str, got))} add up to the round size {r}")
    return got


def _check_trump_card_unplayed(trump_card, hand: tuple[int, ...], played: tuple[int, ...]) -> None:
    """A suited turned-up card named among the held or played cards gets a message saying which."""
    if not isinstance(trump_card, str):
        return
    try:
        got = parse_cards(trump_card)
    except CardError:
        return  # resolve_trump names the bad card
    if len(got) == 1 and int(got[0]) < N_SUITED:
        card = int(got[0])
        if card in hand:
            raise AdviceError(f"the trump card {format_card(card)} is also in your hand: a card is in the deck once")
        if card in played:
            raise AdviceError(f"the trump card {format_card(card)} is among the cards played: the turned-up "
                              f"card takes no part in play")


def _suit_name(suit: int) -> str:
    return SUIT_LETTERS[suit]


def replay(played: tuple[int, ...], hand: tuple[int, ...], players: int, seat0: int, trump: int):
    """Replay the played cards trick by trick (``rules.replay``): (tricks, leader, seat_played, voids),
    checking voids, the player's own follow-suit and the turn (see the module docstring)."""
    tricks = [0] * players
    seat_played = [0] * players
    voids = [0] * players
    void_shown: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, suit) -> (card, trick) that showed it
    turns = list(order_of_play(played, players, trump))
    for t in turns:
        s, card, trick_no = t.seat, t.card, t.trick + 1
        suit = card_suit(card)
        if suit >= 0 and (s, suit) in void_shown:
            shown, t_shown = void_shown[(s, suit)]
            who = "you" if s == seat0 else f"seat {s + 1}"
            raise AdviceError(f"{who} showed no {_suit_name(suit)} ({format_card(shown)} on a {_suit_name(suit)} "
                              f"lead in trick {t_shown}) and then played {format_card(card)} in trick {trick_no}")
        if t.void >= 0:
            voids[s] |= 1 << t.void
            void_shown.setdefault((s, t.void), (card, trick_no))
        seat_played[s] |= 1 << card
        if t.winner >= 0:
            tricks[t.winner] += 1
    _check_own_plays([t for t in turns if t.seat == seat0], hand)
    to_play = next_seat(turns, players)
    if to_play != seat0:
        n = len(played) % players
        trick_no = len(played) // players + 1
        doing = f"leads trick {trick_no}" if n == 0 else f"plays card {n + 1} of trick {trick_no}"
        raise AdviceError(f"it is not your turn: seat {to_play + 1} {doing} (you are seat {seat0 + 1})")
    return tricks, leader_now(turns), seat_played, voids


def _check_own_plays(own, hand) -> None:
    """Each of the player's own cards (its ``rules.replay`` turns) was legal given what it held then: its
    hand now plus its later plays."""
    held = cards_to_mask(hand) | cards_to_mask(t.card for t in own)
    for t in own:
        card, led = t.card, t.led
        if not int(legal_mask(np.uint64(held), led)) >> card & 1:
            lead = _suit_name(led)
            had = format_cards([int(c) for c in mask_to_cards(held) if card_suit(int(c)) == led])
            raise AdviceError(f"your {format_card(card)} in trick {t.trick + 1} does not follow the {lead} lead, "
                              f"but you held {had} then (in your hand now or played later)")
        held &= ~(1 << card)


def advice_phase(bids, seat, players) -> str:
    """"play" when ``bids`` holds every player's bid (exactly ``players`` of them, docs/guide/advisor.md), else
    "bid": bid advice then checks that they are the seat-1 earlier bids, and names any other count."""
    got = parse_bids(bids)
    return "play" if got is not None and len(got) == players else "bid"


def make_play_question(hand, trump, seat, players=4, *, bids, played=(), hook=False, trump_card=None,
                       policy="heuristic", play="heuristic") -> PlayQuestion:
    """Check a play-phase question (see the module docstring) and return it; raise ``AdviceError``."""
    players, seat = check_table(players, seat)
    hook = check_flag(hook, "hook", error=AdviceTypeError)
    held = _parse_hand(hand)
    if not held:
        raise AdviceError("the hand is empty: on your turn you hold at least one card, like 'W,AS,3H'")
    order = _parse_played(played, held, players)
    r = len(held) + len(order) // players
    max_r = n_game_rounds(players)
    if r > max_r:
        raise AdviceError(f"your {len(held)} cards in hand and {len(order) // players} played make a round of "
                          f"{r} cards, more than a round holds with {players} players (at most {max_r} each)")
    _check_trump_card_unplayed(trump_card, held, order)
    trump_code, card = resolve_trump(trump, trump_card, held + order, players, r,
                                     seen="your hand or the cards played")
    got_bids = _check_bids(bids, players, r, hook)
    tricks, leader, seat_played, voids = replay(order, held, players, seat - 1, trump_code)
    return PlayQuestion(held, players, seat, trump_code, card, got_bids, order, hook, policy, play, r,
                        tuple(tricks), leader, tuple(seat_played), tuple(voids))
