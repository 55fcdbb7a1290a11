"""The shape of a round: the few named records every kernel that moves a round takes.

A round travels as a handful of records, not as twenty loose arrays (pgx keeps a game as one state
record and a few pure functions; a batch is the same step over a leading axis). They are named tuples:
Numba passes a tuple of arrays as its members, at no cost, and its disk cache keys them by their class.
The round kernel (``sim.round``), the game kernel (``sim.kernels``), the one trick loop
(``policies.rollout.play_tricks``), play advice's kernels and the batched environment (``envs.vector``)
all take them; when one more fact is needed, a record grows, not six signatures.
One hazard, should a kernel ever be parallel again: inside a ``prange`` loop Numba loses writes to
arrays taken out of a tuple (or a record's field); the batch kernels are serial and run spans of rows
from threads (``sim.driver.run_batch``), so none is.

Seats are 0-based (index 0 = seat 1, bids first and leads trick one; ``players - 1`` the dealer).

``RoundInfo(players, r, hook, turn_up, trump)``
    the public facts of the round: the table's size, cards per player, the hook variant, the turned-up
    card (-1: none) and the trump suit (-1: none).
``RoundState(live, seat_played, voids, trick_cards, bids, tricks)``
    what playing a card moves (``rollout.play_card``, ``close_trick``): (players,) arrays, the cards each
    seat holds (uint64), has played this round (uint64, the current trick included), the suits it showed
    void in (int8 bits), the current trick in order of play (int8), the bids (int8, -1 not yet) and the
    tricks taken (int8).
``Seats(seat_slot, slot_kind, slot_params, table)``
    who decides: each seat's policy slot (players,) int8, each slot's kind (n_slots,) int8 and parameters
    (n_slots, k) float64, and the data the policies share (m,) float64 (``policies.registry``).
``Fixed(hands, turn_up_pool, trump, bid_mode, bids)``
    what the round kernel fixes in advance (``sim.round``'s module docstring): (players,) uint64 hands (0:
    dealt), the cards the turned-up card may be (uint64), the trump (``TRUMP_BY_RULES``: the rules decide),
    each seat's bid mode and forced bid ((players,) int8).
``Log(want, cards, leader, winner)``
    the trick log: ``want`` bool; the cards in order of play (r * players,) int8 and each trick's leader
    and winner (r,) int8, written only when ``want``.

The opponents' model (``policies.model``) takes three more:

``Opponents(kinds, params, table, bid_trust, play_trust, trump_trust, net)``
    each seat's model: its kind (players,) int8 (``MODEL_BLIND``, ``MODEL_HEURISTIC``, ``MODEL_NET``) and
    policy parameters (players, k) float64, the data the policies share (m,) float64 (net's weights
    included where a model is net), how far the heard bids, the cards chosen and a dealer's named suit
    are trusted (float), and ``net``: True where a seat's model is ``MODEL_NET``, else None (the default),
    so that kernels built for a table without one compile none of net's code (``policies.model``).
``Evidence(bids, n_heard, named, seat_played, order, n_played)``
    what the seat heard and saw: the bids (players,) int8 of which the first ``n_heard`` were heard,
    the suit an opponent dealer named on a turned-up Wizard (-2 or -1: none; int), the cards each seat
    has played (players,) uint64, and the round's cards in order of play (int8), ``n_played`` of them
    read (a deal not yet played: an empty order and 0).
``TableDoubt(doubt, seat_doubt, seat_blind)``
    the table's type in doubt: the prior that every other seat is blind (float), each seat's prior that
    it alone is (players,) float64, and each seat's probability of what it was heard doing if blind
    (players,) float64 (the same for every deal).

``PlayState`` (a frozen dataclass, Python only) is a round in progress as one seat sees it: play advice
and the open table's ``Round.resample`` build it, and it gives the records and arrays above
(``kernel_records``, ``kernel_args``).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from wizsim._numba import inline_kernel
from wizsim.cards import FULL_DECK_MASK

RoundInfo = namedtuple("RoundInfo", ("players", "r", "hook", "turn_up", "trump"))
RoundState = namedtuple("RoundState", ("live", "seat_played", "voids", "trick_cards", "bids", "tricks"))
Seats = namedtuple("Seats", ("seat_slot", "slot_kind", "slot_params", "table"))
Fixed = namedtuple("Fixed", ("hands", "turn_up_pool", "trump", "bid_mode", "bids"))
Log = namedtuple("Log", ("want", "cards", "leader", "winner"))
Opponents = namedtuple("Opponents", ("kinds", "params", "table", "bid_trust", "play_trust", "trump_trust", "net"),
                       defaults=(None,))
Evidence = namedtuple("Evidence", ("bids", "n_heard", "named", "seat_played", "order", "n_played"))
TableDoubt = namedtuple("TableDoubt", ("doubt", "seat_doubt", "seat_blind"))

for _rec, _doc in ((RoundInfo, "The public facts of a round"), (RoundState, "What playing a card moves"),
                   (Seats, "Who decides in each seat"), (Fixed, "What the round kernel fixes in advance"),
                   (Log, "The trick log"), (Opponents, "Each seat's model and the trusts"),
                   (Evidence, "What the seat heard and saw"), (TableDoubt, "The table's type in doubt")):
    _rec.__doc__ = f"{_doc} (see ``wizsim.policies.records``)."


@inline_kernel
def no_log(players):
    """A ``Log`` that records nothing (its arrays are never written)."""
    empty = np.zeros(1, np.int8)
    return Log(False, empty, empty, empty)


def state_arrays(players: int, hands=None) -> RoundState:
    """A fresh ``RoundState`` in Python: the seats hold ``hands`` (zeros when None), nothing played."""
    live = np.zeros(players, np.uint64) if hands is None else np.array(hands, np.uint64)
    return RoundState(live, np.zeros(players, np.uint64), np.zeros(players, np.int8), np.full(players, -1, np.int8),
                      np.full(players, -1, np.int8), np.zeros(players, np.int8))

# --- play advice's state: a round in progress as one seat sees it ---


@dataclass(frozen=True)
class PlayState:
    """The public state of a round in progress, as one seat sees it: what play advice hands the kernels.

    Seats are 0-based (index 0 = seat 1). ``hand`` is the seat's cards now; ``seat_played[s]`` the cards
    seat s has played this round (the current trick included); ``trick_cards`` the current trick in
    order of play, led by ``leader``; ``voids[s]`` bit k set when seat s has shown it holds no card of
    suit k; ``turn_up_pool`` the cards the turned-up card may be (one card when it is known, the unseen
    cards of the trump suit when only the suit is, 0 in the last round). ``kernel_args`` gives the same
    as the arrays and scalars the world sampler (``policies.worlds``, ``advisor.kernels.world_batches``)
    and the opponents' model take; ``kernel_records`` as the records the play-outs
    (``advisor.kernels.playouts``) take."""

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
