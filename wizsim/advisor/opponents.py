"""Who the advisor assumes sits at the table: one policy per other seat, and how far their choices are trusted.

``opponent_names`` reads the ``policy`` argument (one name for every other seat, or one per other seat in
seat order), and ``OpponentModel`` turns the names into what the kernels of ``policies.model`` read:
per 0-based seat a model kind (blind for a policy whose bids ignore its hand, else the heuristic's
decisions with that policy's parameters) and a parameter row, plus the two trusts. A search policy is
modelled by the heuristic's decisions with its ``bid_shift``: asking the search itself for its bid
thousands of times per answer would cost minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from wizsim.advisor.question import AdviceError, AdviceTypeError
from wizsim.cards import shorten
from wizsim.policies import N_PARAMS, make_slots, parse_policy
from wizsim.policies.model import MODEL_BLIND, MODEL_HEURISTIC

DEFAULT_OPPONENTS = "heuristic"
# How far heard bids (and a dealer's named suit) and chosen cards are trusted by default: fitted by
# benchmarks/robustness.py (see the README's robustness table).
DEFAULT_BID_TRUST = 0.7
DEFAULT_PLAY_TRUST = 0.5


def check_trust(value, name: str) -> float:
    """A trust 0..1 (``None``: the default for ``name``); a bool, text or NaN is refused naming it."""
    if value is None:
        return DEFAULT_BID_TRUST if name == "bid_trust" else DEFAULT_PLAY_TRUST
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise AdviceTypeError(f"{name} must be a number 0..1, got {shorten(repr(value), 40)}")
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise AdviceError(f"{name} must be 0..1, got {shorten(repr(value), 40)}")
    return value


def opponent_names(policy, players: int, seat: int) -> tuple[str, ...]:
    """The canonical policy name of each other seat, in seat order (``seat`` is 1-based and left out).
    ``policy``: None (the default), one name, a comma list or a sequence of names, one per other seat."""
    from wizsim.policies import check_policy

    if policy is None:
        policy = DEFAULT_OPPONENTS
    if isinstance(policy, str):
        names = [p for p in policy.split(",")]
    elif isinstance(policy, (list, tuple)):
        names = list(policy)
    else:
        raise AdviceTypeError(f"policy must be a name or a list of names, got {shorten(repr(policy), 40)}")
    if any(not isinstance(n, str) for n in names):
        raise AdviceTypeError(f"policy must be a name or a list of names, got {shorten(repr(policy), 40)}")
    if any(not n.strip() for n in names):
        raise AdviceError(f"policy must name a policy, got {shorten(repr(policy), 40)}")
    names = [check_policy(n) for n in names]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise AdviceError(f"policy: give one name, or one per other seat ({players - 1}), got {len(names)}")
    return tuple(names)


@dataclass(frozen=True)
class OpponentModel:
    """What ``policies.model`` reads about each seat (0-based; the player's own seat is never weighed)."""

    names: tuple[str, ...]  # per seat; the player's own seat holds its play policy
    me: int
    kinds: np.ndarray  # (players,) int8
    params: np.ndarray  # (players, N_PARAMS) float64
    table: np.ndarray
    bid_trust: float
    play_trust: float

    @classmethod
    def build(cls, opponents: tuple[str, ...], me: int, player_policy: str, bid_trust: float,
              play_trust: float) -> OpponentModel:
        names = list(opponents)
        names.insert(me, player_policy)
        slots = make_slots(names)
        kinds = np.zeros(len(names), np.int8)
        params = np.zeros((len(names), N_PARAMS), np.float64)
        for s, name in enumerate(names):
            spec = parse_policy(name)
            kinds[s] = MODEL_BLIND if spec.entry.hand_blind else MODEL_HEURISTIC
            params[s] = spec.params_row()
        return cls(tuple(names), me, kinds, params, slots.table, bid_trust, play_trust)

    @property
    def players(self) -> int:
        return len(self.names)

    def reads_bids(self, seats) -> bool:
        """Whether any of these seats' bids tells something under the model."""
        return self.bid_trust > 0 and any(s != self.me and self.kinds[s] != MODEL_BLIND for s in seats)

    def opponents_label(self) -> str:
        """One name when every other seat has the same policy, else the list in seat order."""
        others = [n for s, n in enumerate(self.names) if s != self.me]
        return others[0] if len(set(others)) == 1 else ",".join(others)
