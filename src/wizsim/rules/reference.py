"""Plain-Python twins of ``rules.kernels``, written from docs/rules.md sections 2-6, not from the kernels.

They work on card ids and Python sets and model a trick as a small class, so a reader can check them
against the rule book line by line. Tests run kernel and twin on the same random inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wizsim.cards import N_CARDS, NO_CARD, NO_TRUMP, card_suit, is_jester, is_wizard

LED_NONE = -1
LED_WIZARD = -2
DEALER_NAMES = 4  # mirror of rules.kernels.DEALER_NAMES: the twin does not import what it checks


@dataclass
class Trick:
    """A trick in play: the cards in order, and what docs/rules.md 5 says they establish."""

    trump: int
    cards: list[int] = field(default_factory=list)

    @property
    def led(self) -> int:
        """The led suit: set by the first card that is not a Jester (a Wizard frees the trick)."""
        for card in self.cards:
            if is_jester(card):
                continue
            return LED_WIZARD if is_wizard(card) else card_suit(card)
        return LED_NONE

    def may_play(self, hand: set[int], card: int) -> bool:
        if card not in hand:
            return False
        if is_wizard(card) or is_jester(card):
            return True  # a Wizard or a Jester may always be played
        led = self.led
        if led < 0:
            return True  # no led suit yet, or a Wizard led: anything goes
        holds_led = any(card_suit(c) == led for c in hand)
        return card_suit(card) == led or not holds_led

    def winner(self) -> int:
        # 1. the first Wizard played
        for i, card in enumerate(self.cards):
            if is_wizard(card):
                return i
        # 2. the highest trump
        trumps = [(card, i) for i, card in enumerate(self.cards) if self.trump >= 0 and card_suit(card) == self.trump]
        if trumps:
            return max(trumps)[1]
        # 3. the highest card of the led suit
        led = self.led
        followers = [(card, i) for i, card in enumerate(self.cards) if led >= 0 and card_suit(card) == led]
        if followers:
            return max(followers)[1]
        # 4. every card was a Jester: the first one
        return 0


def trump_of_turn_up(turn_up: int) -> int:
    """docs/rules.md 3: a suited card makes its suit trump; a Jester, or nothing turned up (the last
    round), makes no trump; a Wizard lets the dealer name the suit."""
    if turn_up == NO_CARD or is_jester(turn_up):
        return NO_TRUMP
    if is_wizard(turn_up):
        return DEALER_NAMES
    return card_suit(turn_up)


def forbidden_bid(hook: bool, seat: int, players: int, r: int, total_so_far: int) -> int:
    """docs/rules.md 4: with the hook the dealer (the last seat, 0-based ``players - 1``) may not bid the
    number that makes the bids add up to r; when that number is not a possible bid nothing is forbidden."""
    if not hook or seat != players - 1:
        return -1
    forbidden = r - total_so_far
    return forbidden if forbidden in range(r + 1) else -1


def is_last_round(players: int, r: int) -> bool:
    """docs/rules.md 2: the round that deals all 60 cards turns nothing up."""
    return players * r == N_CARDS


def next_led(led: int, card: int) -> int:
    return Trick(trump=-1, cards=[card]).led if led == LED_NONE else led


def legal_mask(hand: int, led: int) -> int:
    """Mask of the legal cards of ``hand`` (int mask) on a trick whose led code is ``led``."""
    cards = {c for c in range(60) if hand >> c & 1}
    if led == LED_WIZARD:
        return hand
    trick = Trick(trump=-1)
    if led >= 0:
        trick.cards.append(led * 13)  # any card of the led suit stands for the lead
    out = 0
    for card in cards:
        if trick.may_play(cards, card):
            out |= 1 << card
    return out


def trick_winner(cards: list[int], n_cards: int, trump: int) -> int:
    return Trick(trump=trump, cards=[int(c) for c in cards[:n_cards]]).winner()


def trick_winners(cards, trump: int) -> list[int]:
    """The winner of each trick (row) of ``cards``, by ``Trick.winner``."""
    return [Trick(trump=trump, cards=[int(c) for c in row]).winner() for row in cards]


def score_round(bid: int, tricks: int) -> int:
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)
