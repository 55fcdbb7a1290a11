"""One fixed-size tensor for what a seat sees, and one flat action space: what every environment of
``wizsim.envs`` (PettingZoo, OpenSpiel, the batched ``VectorEnv``) hands a learner.

Observation tensor (``OBS_DIM`` = 611 entries; the same layout for 3..6 players and every round size).
Seats are *relative* to the observer: relative seat 0 is the observer, 1 the next seat to its left (who
plays after it), and so on; blocks have ``MAX_PLAYERS`` = 6 slots and the slots past ``players`` stay 0.

========== ============ =====================================================================
offset      size         meaning
========== ============ =====================================================================
HAND        60           1 for each card (id 0..59, docs/rules.md) in the observer's hand now
TRICK       6 x 60       the current trick: slot ``rel * 60 + card`` is 1 when relative seat
                         ``rel`` played ``card`` into it
PLAYED      60           every card played this round so far (the current trick included)
TURN_UP     61           the turned-up card (60 ids), or index 60 when none (the last round)
TRUMP       6            trump S, H, D, C, none, or "not named yet" (a turned-up Wizard before
                         the dealer names a suit)
BID_MADE    6            per relative seat, 1 once it has bid
BID         6            per relative seat, its bid (a count 0..20; 0 before it bids)
TRICKS      6            per relative seat, tricks taken so far (a count)
VOIDS       6 x 4        slot ``rel * 4 + suit``: that seat has shown it holds no card of suit
ROUND       1            the round size r (cards per hand, a count 1..20)
PLAYERS     4            one-hot, 3..6 players
HOOK        1            1 when the hook variant is on
SEAT        6            one-hot, the observer's seat 1..6 (seat 1 bids first, seat ``players``
                         deals)
LEADER      6            one-hot, the relative seat that leads the current trick
PHASE       4            one-hot: trump, bid, card, over
========== ============ =====================================================================

Every entry is 0/1 except BID, TRICKS and ROUND (small counts): the tensor fits int8 exactly, and the
environments give it as float32 (PettingZoo, OpenSpiel) or int8 (``VectorEnv``, to keep the batch in
cache). It holds only what docs/rules.md lets the seat see: no other seat's cards.

Actions (``N_ACTIONS`` = 85, one flat discrete space for every decision):

- ``0..59``: play that card id;
- ``60..80``: bid 0..20 (``BID_ACTION + bid``);
- ``81..84``: name trump S, H, D, C (``TRUMP_ACTION + suit``) on a turned-up Wizard (the dealer only).

``action_of(phase, value)`` and ``value_of(action)`` convert between these and the open table's own
actions (card ids, bids and suit codes, ``wizsim.Round.legal_actions``); ``action_mask`` gives the legal
actions of a decision as an int8 mask of length ``N_ACTIONS``.

``encode_observation`` here is the plain-Python encoder (the reference twin of ``VectorEnv``'s kernel).

``ENCODING_VERSION`` names this layout (the tensor and the action space). Learned weights record the
version they were trained on and are refused on load when it differs: any change of an offset, a size or
the meaning of an entry bumps it.
"""

from __future__ import annotations

import numpy as np

from wizsim.cards import FIRST_WIZARD, N_CARDS, format_card

# The layout's version: weights learned on it record it (bump on any change of the tensor or the actions).
ENCODING_VERSION = 1

MAX_PLAYERS = 6
MAX_ROUND = 20
N_SUITS = 4

# The tensor's fields in order, each with its size (the docstring's table): each field's offset is the sum of
# the sizes before it. ``FIELDS`` (name -> (offset, size)) cuts a tensor into them for people reading one
# (``fields(tensor)``).
FIELDS: dict[str, tuple[int, int]] = {}
for _name, _size in (("hand", N_CARDS), ("trick", MAX_PLAYERS * N_CARDS), ("played", N_CARDS),
                     ("turn_up", N_CARDS + 1), ("trump", 6), ("bid_made", MAX_PLAYERS), ("bid", MAX_PLAYERS),
                     ("tricks", MAX_PLAYERS), ("voids", MAX_PLAYERS * N_SUITS), ("round", 1), ("players", 4),
                     ("hook", 1), ("seat", MAX_PLAYERS), ("leader", MAX_PLAYERS), ("phase", 4)):
    FIELDS[_name] = (sum(size for _, size in FIELDS.values()), _size)
del _name, _size
(HAND, TRICK, PLAYED, TURN_UP, TRUMP, BID_MADE, BID, TRICKS, VOIDS, ROUND, PLAYERS, HOOK, SEAT, LEADER,
 PHASE) = (offset for offset, _ in FIELDS.values())
OBS_DIM = PHASE + FIELDS["phase"][1]
TURN_UP_NONE = TURN_UP + N_CARDS
TRUMP_NONE = TRUMP + 4
TRUMP_UNNAMED = TRUMP + 5

PHASES = ("trump", "bid", "card", "over")
PHASE_CODE = {p: i for i, p in enumerate(PHASES)}

BID_ACTION = N_CARDS
TRUMP_ACTION = BID_ACTION + MAX_ROUND + 1
N_ACTIONS = TRUMP_ACTION + N_SUITS


def fields(tensor) -> dict[str, np.ndarray]:
    """The tensor cut into its named fields (views)."""
    return {name: tensor[off:off + size] for name, (off, size) in FIELDS.items()}


def action_of(phase: str, value: int) -> int:
    """The flat action for the open table's action ``value`` in ``phase`` (a card id, a bid, a suit)."""
    if phase == "card":
        return int(value)
    if phase == "bid":
        return BID_ACTION + int(value)
    if phase == "trump":
        return TRUMP_ACTION + int(value)
    raise ValueError(f"no action in phase {phase!r}")


def value_of(action: int) -> tuple[str, int]:
    """``(phase, value)`` of a flat action: ``("card", id)``, ``("bid", n)`` or ``("trump", suit)``."""
    a = int(action)
    if 0 <= a < BID_ACTION:
        return "card", a
    if BID_ACTION <= a < TRUMP_ACTION:
        return "bid", a - BID_ACTION
    if TRUMP_ACTION <= a < N_ACTIONS:
        return "trump", a - TRUMP_ACTION
    raise ValueError(f"action {action!r} is outside 0..{N_ACTIONS - 1}")


def card_label(card: int) -> str:
    """A card's name that tells the four Wizards (Jesters) apart by id: ``"AS"``, ``"W53"``, ``"J56"``."""
    name = format_card(card)
    return name if card < FIRST_WIZARD else f"{name}{card}"


def action_name(action: int) -> str:
    """``"AS"``, ``"W53"`` (``card_label``: every action has its own name), ``"bid 2"`` or ``"trump H"``."""
    phase, v = value_of(action)
    if phase == "card":
        return card_label(v)
    return f"bid {v}" if phase == "bid" else f"trump {'SHDC'[v]}"


def action_mask(phase: str, legal) -> np.ndarray:
    """int8 (N_ACTIONS,) mask of the flat actions for the open table's legal actions ``legal`` in ``phase``."""
    out = np.zeros(N_ACTIONS, np.int8)
    for v in legal:
        out[action_of(phase, v)] = 1
    return out


def round_action_mask(rd) -> np.ndarray:
    """The legal flat actions of a ``wizsim.Round`` (or ``Game``) now; all 0 when it is over."""
    if rd.phase == "over":
        return np.zeros(N_ACTIONS, np.int8)
    return action_mask(rd.phase, rd.legal_actions())


def encode_observation(obs, out: np.ndarray | None = None, dtype=np.float32) -> np.ndarray:
    """The tensor of an ``Observation`` (``wizsim.Round.observation(seat)``), into ``out`` when given."""
    if out is None:
        out = np.zeros(OBS_DIM, dtype)
    else:
        out[:] = 0
    p, me = obs.players, obs.seat

    def rel(seat: int) -> int:
        return (seat - me) % p

    for c in obs.hand:
        out[HAND + c] = 1
    start = len(obs.played) - len(obs.trick)
    for s, c in obs.played[start:]:
        out[TRICK + rel(s) * N_CARDS + c] = 1
    for _, c in obs.played:
        out[PLAYED + c] = 1
    out[TURN_UP_NONE if obs.turn_up < 0 else TURN_UP + obs.turn_up] = 1
    out[TRUMP_UNNAMED if obs.trump is None else TRUMP_NONE if obs.trump < 0 else TRUMP + obs.trump] = 1
    for s in range(1, p + 1):
        k = rel(s)
        b = obs.bids[s - 1]
        if b is not None:
            out[BID_MADE + k] = 1
            out[BID + k] = b
        out[TRICKS + k] = obs.tricks[s - 1]
        for suit in obs.voids[s - 1]:
            out[VOIDS + k * N_SUITS + suit] = 1
    out[ROUND] = obs.r
    out[PLAYERS + p - 3] = 1
    out[HOOK] = int(bool(obs.hook))
    out[SEAT + me - 1] = 1
    out[LEADER + rel(obs.leader)] = 1
    out[PHASE + PHASE_CODE[obs.phase]] = 1
    return out


__all__ = ["BID_ACTION", "ENCODING_VERSION", "FIELDS", "MAX_PLAYERS", "N_ACTIONS", "OBS_DIM", "PHASES", "TRUMP_ACTION", "action_mask",
           "action_name", "action_of", "card_label", "encode_observation", "fields", "round_action_mask", "value_of"]
