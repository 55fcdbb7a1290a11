"""The shape of a round: the few named records every kernel that moves a round takes.

A round travels as a handful of records, not as twenty loose arrays (pgx keeps a game as one state
record and a few pure functions; a batch is the same step over a leading axis). They are named tuples:
Numba passes a tuple of arrays as its members, at no cost, and its disk cache keys them by their class.
The round kernel (``sim.round``), the game kernel (``sim.kernels``), the one trick loop
(``policies.rollout.play_tricks``), play advice's kernels and the batched environment (``envs.vector``)
all take them; when one more fact is needed, a record grows, not six signatures.

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
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from wizsim._jit import inline_kernel

RoundInfo = namedtuple("RoundInfo", ("players", "r", "hook", "turn_up", "trump"))
RoundState = namedtuple("RoundState", ("live", "seat_played", "voids", "trick_cards", "bids", "tricks"))
Seats = namedtuple("Seats", ("seat_slot", "slot_kind", "slot_params", "table"))
Fixed = namedtuple("Fixed", ("hands", "turn_up_pool", "trump", "bid_mode", "bids"))
Log = namedtuple("Log", ("want", "cards", "leader", "winner"))

for _rec, _doc in ((RoundInfo, "The public facts of a round"), (RoundState, "What playing a card moves"),
                   (Seats, "Who decides in each seat"), (Fixed, "What the round kernel fixes in advance"),
                   (Log, "The trick log")):
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
