"""Who the advisor assumes sits at the table: one policy per other seat, and how far their choices are trusted.

``opponent_names`` reads the ``policy`` argument (one name for every other seat, or one per other seat in
seat order), and ``OpponentModel`` turns the names into what the kernels of ``policies.model`` read:
per 0-based seat a model kind (blind for a policy whose bids ignore its hand; net's own bid and trump
networks for ``net``; else the heuristic's decisions with that policy's parameters) and a parameter row, plus the two trusts, the play noise of its
simulations and the two doubts (the table's type and each seat's, ``policies.model``). A search policy is
modelled by the heuristic's decisions with its ``bid_shift``: asking the search itself for its bid
thousands of times per answer would cost minutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from wizsim.advisor.question import AdviceError, AdviceTypeError, builtin_policy
from wizsim.cards import shorten
from wizsim.policies import N_PARAMS, check_policy, make_slots, parse_policy
from wizsim.policies.model import MODEL_BLIND, MODEL_HEURISTIC, MODEL_NET
from wizsim.policies.records import Opponents

DEFAULT_OPPONENTS = "heuristic"
# How far heard bids (and a dealer's named suit) and chosen cards are trusted by default: fitted by
# benchmarks/robustness.py (see the robustness table of docs/results.md).
DEFAULT_BID_TRUST = 0.7
DEFAULT_PLAY_TRUST = 0.5
# The opponents' play in the advisor's simulations is soft too: a seat modelled by the heuristic plays a
# uniformly random legal card with this probability, its heuristic card otherwise (``heuristic:play_noise``).
# Fitted with benchmarks/robustness.py --no-play --questions 40 (4 players, r = 3, 6, 10, 15, the same
# questions for every value; observed - predicted P(exact) pooled over r, value of the advised bid in
# points a round):
#   noise 0    heuristic +0.058 (value +4.44)  random -0.119                      (the run)
#   noise 0.1  heuristic +0.026 (value +2.19)  random -0.118 (r=15: -0.259)
#   noise 0.2  heuristic +0.011 (value +0.88)  random -0.097 (r=15: -0.227)  search r=3 -0.056
#   noise 0.3  heuristic +0.009 (value +0.25)  random -0.084 (r=15: -0.194)
# The bid_shift tables move by under 0.01. More noise moves the random table's calibration the right way
# but slowly (noise 1, every card random, is needed to calibrate it) and costs the advised bid's value at
# a table that does play like the heuristic: 0.1 is the largest value that keeps the heuristic table's
# value above +1.5 points a round. Bid and trump advice use it. Checked at 100 questions (paired with
# noise 0, on h/model2): heuristic +0.029 -> +0.019 (value +3.83 -> +2.88), random -0.108 -> -0.100,
# search:worlds=8 -0.071 -> -0.055 (value -0.58 -> +0.17), mixed -0.075 -> -0.063, bid_shift tables unchanged.
DEFAULT_PLAY_NOISE = 0.1
# Play advice keeps the noiseless heuristic by default: a noisy model draws at random in its play-outs,
# so the endgame's exact enumeration (``advisor.play``) would be lost, and its play value was measured
# with the plain heuristic (``--play-noise`` sets it).
DEFAULT_PLAY_ADVICE_NOISE = 0.0


# The table's type is in doubt (``policies.model``): with this prior the other seats are a blind table
# (uniform bids, random cards; played out as ``DOUBT_POLICY``), whose chance the heard bids then update
# deal by deal. Bid and trump advice use it (play advice its own prior, below). Fitted with
# benchmarks/robustness.py --no-play --questions 40 --doubt D (4 players, r = 3, 6, 10, 15, the same 160
# questions a table for every D, play noise 0.1; observed - predicted P(exact) pooled over r, value of
# the advised bid in points a round; benchmarks/results/robustness-doubt-fit.txt):
#   doubt 0     heuristic +0.026 (value +2.19)  random -0.119 (r=15 -0.264)  search -0.102  mixed -0.084
#   doubt 0.1   heuristic +0.019 (value +1.69)  random -0.061 (r=15 -0.103)  search -0.098  mixed -0.049
#   doubt 0.2   heuristic +0.024 (value +1.81)  random -0.028 (r=15 -0.032)  search -0.079  mixed -0.061
#   doubt 0.35  heuristic +0.033 (value +2.12)  random -0.032 (r=15 -0.068)  search -0.081  mixed -0.057
# 0.2 against 0, paired: random +0.091 [+0.036, +0.147] (value +4.56 [+1.24, +7.88]), heuristic -0.002
# [-0.017, +0.013] (value -0.38 [-1.24, +0.49]), search +0.023 [+0.003, +0.043]; the bid_shift tables
# move by under 0.015. A search table stays over-predicted, most at 15 cards: its players bid a
# little under the heuristic (the four bids sum to 13.7 against 15.0 at 15 cards) and then shed their
# surplus tricks onto the other seats, so what the model misses is their play (docs/results.md, robustness).
# At 100 questions (paired with 0, benchmarks/results/robustness-bid-100*.json):
# heuristic +0.023 -> +0.016 (value +3.08 -> +2.35), random -0.100 -> -0.018, search -0.053 -> -0.045,
# mixed -0.063 -> -0.037.
DEFAULT_DOUBT = 0.2
# A seat in doubt (``policies.model``): on the model's table each seat heard (its bid, or a dealer's named
# suit) is blind on its own with this prior, and a bid unlike the model's makes that seat, not the whole
# table, play at random in the simulations; seats not heard yet keep the model. Bid advice uses it (round 1's
# enumeration too); trump advice hears nothing. Fitted on
# the first 200 questions a size at r = 10 and 15 (the sizes where the mixed table missed most), paired
# with the same questions without it (benchmarks/results/robustness-seat-doubt-fit.txt; obs - pred P(exact),
# value of the advised bid):
#   0.15, heard seats   control +0.002 / +0.000 (value -0.10 / -0.30)  mixed +0.008 / +0.028 [+0.006, +0.050]
#   0.3,  heard seats   control +0.016 / +0.019 (value +1.10 / +0.60)  mixed -0.001 / +0.026
#   0.15, every seat    control -0.020 / -0.011 (value -1.35 / -1.80)  mixed +0.002 / +0.019
# Every seat (those not heard drawn blind from the prior) makes every table's simulations noisier and
# costs the advised bid's value where the table is the model (tag experiment-seat-doubt); 0.3 pushes the
# control's under-prediction up. The whole-table figures with 0.15 are the robustness table of docs/results.md.
DEFAULT_SEAT_DOUBT = 0.15
DOUBT_POLICY = "random"
# Play advice weighs its worlds by the same mixture (``advisor.play``: the heard bids, a named suit and the
# cards chosen, on the model's table and on a blind one), but plays them out on the model's table only, so
# that the endgame's enumeration stays exact. Measured with benchmarks/robustness.py --no-bid --deals 16
# --play-doubt 0.2 against doubt 0 (64 deals a table, paired; observed - predicted P(make) of the first
# card's advice as said, value in points a round): random +0.049 [+0.014, +0.084] (-0.120 -> -0.071),
# value +0.31 [-3.42, +4.04]; every other table moves by under 0.02 (bid_shift=0.5 -0.016, the rest under
# 0.01) and changes at most 2 of its 64 deals' outcomes (value between -1.72 and +1.09, every interval
# across 0; the heuristic table none).
DEFAULT_PLAY_ADVICE_DOUBT = 0.2
# Play advice weighs its worlds by the same per-seat mixture (every other seat is heard; a seat's chosen
# cards count in its part) and plays them out on the model's table. Against 0, paired on the 256 deals a
# table of benchmarks/results/robustness-play-64*.json: 2 to 21 of a table's 256 deals end differently, the
# first card's P(make) as said moves by under 0.013, value -0.12 [-0.84, +0.61] at the heuristic table,
# +0.16 [-1.92, +2.23] at search:worlds=8, -1.84 [-4.05, +0.38] at mixed (no interval excludes 0); kept so
# that bid and play advice read one model.
DEFAULT_PLAY_ADVICE_SEAT_DOUBT = 0.15


# How far a dealer's named suit (on a turned-up Wizard) is trusted as evidence of its hand, apart from its
# bid: naming a suit is an easier and surer choice than a bid (any player names a suit it holds well), so it
# has a trust of its own (``trump_weight``), measured at the robustness tables with every deal turning up
# a Wizard (docs/results.md, "The dealer's named suit").
DEFAULT_TRUMP_TRUST = 0.9

_DEFAULTS = {"bid_trust": DEFAULT_BID_TRUST, "trump_trust": DEFAULT_TRUMP_TRUST, "play_trust": DEFAULT_PLAY_TRUST, "play_noise": DEFAULT_PLAY_NOISE,
             "doubt": DEFAULT_DOUBT, "seat_doubt": DEFAULT_SEAT_DOUBT}


def check_trust(value, name: str) -> float:
    """A trust (or the play noise) 0..1 (``None``: the default for ``name``); a bool, text or NaN is
    refused naming it."""
    if value is None:
        return _DEFAULTS[name]
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise AdviceTypeError(f"{name} must be a number 0..1, got {shorten(repr(value), 40)}")
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise AdviceError(f"{name} must be 0..1, got {shorten(repr(value), 40)}")
    return value


def opponent_names(policy, players: int, seat: int) -> tuple[str, ...]:
    """The canonical policy name of each other seat, in seat order (``seat`` is 1-based and left out).
    ``policy``: None (the default), one name, a comma list or a sequence of names, one per other seat."""
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
    names = [builtin_policy(n, "policy") for n in names]
    if len(names) == 1:
        names = names * (players - 1)
    if len(names) != players - 1:
        raise AdviceError(f"policy: give one name, or one per other seat ({players - 1}), got {len(names)}")
    return tuple(names)


def with_play_noise(name: str, play_noise: float) -> str:
    """The canonical name of policy ``name`` playing with ``play_noise`` when it is the heuristic or net
    without a noise of its own (``heuristic:play_noise=0.1`` keeps its 0.1); any other policy unchanged."""
    spec = parse_policy(name)
    if spec.entry.name not in ("heuristic", "net") or play_noise <= 0:
        return name
    values = dict(zip((p.name for p in spec.entry.params), spec.values, strict=True))
    if values["play_noise"] > 0:
        return name
    return check_policy(f"{name}:play_noise={play_noise!r}")


@dataclass(frozen=True)
class OpponentModel:
    """What ``policies.model`` reads about each seat (0-based; the player's own seat is never weighed)."""

    names: tuple[str, ...]  # per seat, as the simulations run them; the player's own seat holds its play policy
    me: int
    kinds: np.ndarray  # (players,) int8
    params: np.ndarray  # (players, N_PARAMS) float64
    table: np.ndarray
    bid_trust: float
    play_trust: float
    play_noise: float = 0.0
    labels: tuple[str, ...] = ()  # per seat, the policies as named (without the play noise)
    doubt: float = 0.0  # the prior of the blind table (``policies.model``); 0: the model's table for sure
    seat_doubt: float = 0.0  # the prior that one other seat is blind on its own (``policies.model``)
    trump_trust: float = DEFAULT_TRUMP_TRUST  # how far a dealer's named suit is trusted (``policies.model``)

    @classmethod
    def build(cls, opponents: tuple[str, ...], me: int, player_policy: str, bid_trust: float,
              play_trust: float, play_noise: float | None = None, doubt: float = 0.0,
              seat_doubt: float = 0.0, trump_trust: float = DEFAULT_TRUMP_TRUST) -> OpponentModel:
        if play_noise is None:
            play_noise = DEFAULT_PLAY_NOISE
        labels = list(opponents)
        labels.insert(me, player_policy)
        names = [n if s == me else with_play_noise(n, play_noise) for s, n in enumerate(labels)]
        slots = make_slots(names)
        kinds = np.zeros(len(names), np.int8)
        params = np.zeros((len(names), N_PARAMS), np.float64)
        for s, name in enumerate(names):
            spec = parse_policy(name)
            kinds[s] = (MODEL_BLIND if spec.entry.hand_blind else MODEL_NET if spec.entry.name == "net"
                        else MODEL_HEURISTIC)
            params[s] = spec.params_row()
        return cls(tuple(names), me, kinds, params, slots.table, bid_trust, play_trust, play_noise, tuple(labels),
                   doubt, seat_doubt, trump_trust)

    @property
    def players(self) -> int:
        return len(self.names)

    def record(self) -> Opponents:
        """The model as the kernels take it (``records.Opponents``): its ``net`` True only where a seat's
        model is net, so that advice at any other table compiles none of net's code."""
        net = True if (self.kinds == MODEL_NET).any() else None
        return Opponents(self.kinds, self.params, self.table, float(self.bid_trust), float(self.play_trust),
                         float(self.trump_trust), net)

    def reads_bids(self, seats) -> bool:
        """Whether any of these seats' bids tells something under the model."""
        return self.bid_trust > 0 and any(s != self.me and self.kinds[s] != MODEL_BLIND for s in seats)

    def opponents_label(self) -> str:
        """One name when every other seat has the same policy, else the list in seat order."""
        others = [n for s, n in enumerate(self.labels or self.names) if s != self.me]
        return others[0] if len(set(others)) == 1 else ",".join(others)
