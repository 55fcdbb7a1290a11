"""The observation record: what a seat sees when it decides, the one argument of every policy's decision.

Every decision (the dealer's trump on a turned-up Wizard, a bid, a card) shows the deciding seat one
``Obs``, built here by ``observe`` and nowhere else. It holds exactly what that seat may see (docs/rules.md:
bids are public, played cards and the turned-up card are seen by all; who played what follows from
seat 1 leading trick one and the trick winners leading the next), which is what keeps a policy honest.
Adding a fact for the policies means a field here and in ``observe`` (or in the records it reads); the kernels that
decide (``policies.dispatch``), the built-in policies and a user's jitted player (``wizsim.jit_player``)
all read the same record.

Fields (seats 0-based: index 0 = seat 1, bids first and leads trick one; ``players - 1`` the dealer;
card ids, suit codes and masks as in ``cards``: bit ``c`` of a mask set when card ``c`` is in it):

==============  ==========================  ===========================================================
field           type                        meaning
==============  ==========================  ===========================================================
seat            int                         the deciding seat
players         int                         players at the table, 3..6
r               int                         cards per player this round (the round number in a game)
hook            bool                        the hook variant (the dealer's bid may not make the bids
                                            add up to ``r``)
hand            uint64 mask                 the cards the seat holds now
legal           uint64 mask                 card decision: the cards it may play (never empty); 0 at a
                                            bid or trump decision
forbidden       int                         bid decision: the hook's forbidden bid, -1 for none (any
                                            of 0..r is allowed); -1 otherwise
turn_up         int                         the turned-up card's id, -1 when none (the last round)
trump           int                         the trump suit 0..3, -1 for no trump; -1 at the dealer's
                                            trump decision, where it is being chosen
bids            (players,) int8 array       each seat's bid, -1 for seats yet to bid
tricks          (players,) int8 array       tricks each seat has taken this round (complete tricks)
seat_played     (players,) uint64 array     the cards each seat has played this round (the current
                                            trick included)
played          uint64 mask                 every card played this round, the current trick included
trick_cards     (players,) int8 array       the current trick in order of play: the first
                                            ``n_in_trick`` entries (the rest are stale)
n_in_trick      int                         cards already on the current trick (0: the seat leads)
led             int                         the led code of the current trick (``rules.kernels``:
                                            ``LED_NONE`` before a suit is set, a suit 0..3, or the
                                            code of a Wizard lead, which frees the suit)
winning_pos     int                         index in ``trick_cards`` of the card winning the trick so
                                            far, -1 on an empty trick
voids           (players,) int8 array       bit ``k`` set when that seat has shown it holds no card of
                                            suit ``k`` (it did not follow suit ``k``)
==============  ==========================  ===========================================================

The arrays are the kernels' own: a decision reads them and must not write them. The seat's need
(bid minus tricks taken) is ``bids[seat] - tricks[seat]``; the card winning so far is
``trick_cards[winning_pos]``.
"""

from __future__ import annotations

from collections import namedtuple

from wizsim._numba import inline_kernel

FIELDS = ("seat", "players", "r", "hook", "hand", "legal", "forbidden", "turn_up", "trump", "bids", "tricks",
          "seat_played", "played", "trick_cards", "n_in_trick", "led", "winning_pos", "voids")

Obs = namedtuple("Obs", FIELDS)
Obs.__doc__ = "What a seat sees when it decides (see the module docstring for the fields)."


@inline_kernel
def observe(info, state, seat, hand, legal, forbidden, played, n_in_trick, led, winning_pos):
    """The observation record (``Obs``) of one decision: the one place that builds it. ``info`` is the
    round's ``records.RoundInfo`` (its trump -1 at the dealer's trump decision), ``state`` its
    ``records.RoundState``; the rest as the fields of the same names."""
    return Obs(seat, info.players, info.r, info.hook, hand, legal, forbidden, info.turn_up, info.trump, state.bids,
               state.tricks, state.seat_played, played, state.trick_cards, n_in_trick, led, winning_pos, state.voids)
