"""The order of play, replayed in Python: who plays each card of a round, on what lead, showing what void,
and who takes each trick. Play advice (``advisor.played``), a game record's check (``record.game``) and
its review (``record.rating``) all read a round's played cards through this one replay.

docs/rules.md: seat 1 (index 0, left of the dealer) leads trick one and each trick's winner leads the
next; the led code of a trick follows ``rules.kernels.next_led``; a seat that plays a suited card off a
led suit shows it holds none of that suit (a void). Seats are 0-based here, as the kernels take them.
The replay checks nothing: what a seat could not have played is its callers' business (they name it in
their own words).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from wizsim.cards import card_suit
from wizsim.rules.kernels import LED_NONE, next_led, trick_winner


class Turn(NamedTuple):
    """One card of a round in order of play."""

    position: int  # 0-based, in the order of play of the round
    trick: int  # 0-based trick number
    seat: int  # 0-based seat that plays the card
    card: int  # card id
    led: int  # the trick's led code before this card (``LED_NONE`` on a lead)
    void: int  # the suit 0..3 the card shows its seat holds none of (it did not follow), else -1
    winner: int  # on a trick's last card, the 0-based seat that takes the trick; else -1


def order_of_play(cards: Sequence[int], players: int, trump: int) -> Iterator[Turn]:
    """Each of ``cards`` (ids in order of play, a round's or its first part) as a ``Turn``; ``trump`` is
    -1..3."""
    leader, led = 0, LED_NONE
    for position, card in enumerate(cards):
        trick, i = divmod(position, players)
        if i == 0:
            led = LED_NONE
        seat = (leader + i) % players
        suit = card_suit(card)
        void = led if led >= 0 and suit >= 0 and suit != led else -1
        winner = -1
        if i == players - 1:
            done = np.array(cards[position - players + 1: position + 1], np.int8)
            winner = leader = (leader + int(trick_winner(done, players, trump))) % players
        yield Turn(position, trick, seat, int(card), led, void, winner)
        led = next_led(led, card)


def next_seat(turns: Sequence[Turn], players: int) -> int:
    """The 0-based seat to play the card after ``turns`` (all of a round's turns so far, in order)."""
    return (leader_now(turns) + len(turns) % players) % players


def leader_now(turns: Sequence[Turn]) -> int:
    """The 0-based seat that leads the current trick after ``turns`` (the last trick's winner; seat 0
    before any trick is complete)."""
    return next((t.winner for t in reversed(turns) if t.winner >= 0), 0)


__all__ = ["Turn", "leader_now", "next_seat", "order_of_play"]
