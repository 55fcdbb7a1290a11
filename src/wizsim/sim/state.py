"""The public state of a round in progress, as one seat sees it: what play advice hands the kernels.

Seats are 0-based (index 0 = seat 1). ``hand`` is the seat's cards now; ``seat_played[s]`` the cards
seat s has played this round (the current trick included); ``trick_cards`` the current trick in
order of play, led by ``leader``; ``voids[s]`` bit k set when seat s has shown it holds no card of
suit k; ``turn_up_pool`` the cards the turned-up card may be (one card when it is known, the unseen
cards of the trump suit when only the suit is, 0 in the last round). ``kernel_args`` gives the same
as the arrays and scalars the kernels of ``policies.worlds``, ``policies.rollout`` and
``sim.evaluation`` take.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.cards import FULL_DECK_MASK
from wizsim.policies.records import RoundInfo, RoundState


@dataclass(frozen=True)
class PlayState:
    players: int
    r: int
    hook: bool
    trump: int
    turn_up_pool: int
    me: int
    hand: int
    bids: tuple[int, ...]
    seat_played: tuple[int, ...]
    tricks: tuple[int, ...]
    leader: int
    trick_cards: tuple[int, ...]
    voids: tuple[int, ...]

    @property
    def played(self) -> int:
        out = 0
        for m in self.seat_played:
            out |= m
        return out

    @property
    def unseen(self) -> int:
        """The cards the seat has not seen: not held, not played, not a known turned-up card."""
        known = self.hand | self.played
        pool = self.turn_up_pool & ~known
        if pool and pool & (pool - 1) == 0:  # one card: the turned-up card is known
            known |= pool
        return int(FULL_DECK_MASK) & ~known

    @property
    def needs(self) -> tuple[int, ...]:
        """Cards each other seat holds now (0 for the seat itself)."""
        return tuple(0 if s == self.me else self.r - bin(m).count("1") for s, m in enumerate(self.seat_played))

    def kernel_args(self) -> dict:
        trick = np.full(self.players, -1, np.int8)
        trick[:len(self.trick_cards)] = self.trick_cards
        return dict(
            players=np.int64(self.players), r=np.int64(self.r), hook=bool(self.hook), trump=np.int64(self.trump),
            me=np.int64(self.me), hand=np.uint64(self.hand), pool=np.uint64(self.turn_up_pool),
            unseen=np.uint64(self.unseen), needs=np.array(self.needs, np.int64),
            bids=np.array(self.bids, np.int8), seat_played=np.array(self.seat_played, np.uint64),
            tricks=np.array(self.tricks, np.int8), leader=np.int64(self.leader), trick_cards=trick,
            n_in_trick=np.int64(len(self.trick_cards)), voids=np.array(self.voids, np.int8),
            played=np.uint64(self.played),
        )

    def kernel_records(self) -> tuple:
        """(``records.RoundInfo`` (its turn_up -1: each world has its own), ``records.RoundState`` (its
        live hands 0: each world's), me, n_in_trick, leader, played): the state as the play kernels take
        it."""
        a = self.kernel_args()
        info = RoundInfo(a["players"], a["r"], a["hook"], np.int64(-1), a["trump"])
        state = RoundState(np.zeros(self.players, np.uint64), a["seat_played"], a["voids"], a["trick_cards"],
                           a["bids"], a["tricks"])
        return info, state, a["me"], a["n_in_trick"], a["leader"], a["played"]
