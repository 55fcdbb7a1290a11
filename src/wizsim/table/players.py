"""Players: anything with ``trump(obs)``, ``bid(obs)`` and ``card(obs)`` (each an ``Observation`` in,
a suit code, a bid or a card id out). ``player(name)`` gives wizsim's own policies as such objects; they
decide through the very kernels the round kernel runs (``policies.dispatch``), from the observation
alone.

A built-in player draws from its own random stream when asked directly. At a ``Round``'s or ``Game``'s
own ``play`` it draws from the round's play stream instead, in the order the round kernel does, so a
table of built-in players stepped through the public API plays exactly the rounds ``simulate_rounds``
and ``simulate_games`` play with the same seed.

The users' players seated in this process, the player protocol (``is_player``), loading a player from a
spec, and a decision's time limit live in ``policies.players`` (the registry reads them there); this
module re-exports them. An ``Observation`` becomes the kernels' ``Obs`` by ``table.observation.kernel_view``.
"""

from __future__ import annotations

import numpy as np

from wizsim.config import ConfigError
from wizsim.policies.dispatch import SEARCH, choose_bid, choose_card, choose_trump
from wizsim.policies.players import (  # the users' players and the player protocol (re-exported: read here)
    DECISIONS,
    USER_PLAYERS,
    DecisionTimeout,
    Seated,
    ask,
    check_timeout,
    describe_failure,
    display_name,
    is_player,
    load_player,
    load_player_identity,
    player_name,
    register_player,
)
from wizsim.policies.registry import check_policy, make_slots, seat_name
from wizsim.policies.search import search_bid, search_card, search_trump
from wizsim.table.observation import kernel_view


class Player(Seated):
    """One of wizsim's policies as a player object (``wizsim.player(name)``)."""

    def __init__(self, name: str, seed: int | None = None):
        self.name = check_policy(name)
        slots = make_slots([self.name])
        self._kind, self._params, self._table = slots.kinds[0], slots.params[0], slots.table
        # None: compiled without the search policy's (net's) code (``dispatch.kernel_ext``, which says which play-outs)
        self._search, _, self._net = slots.ext or (None, None, None)
        self._stream(seed)

    def __repr__(self) -> str:
        return f"wizsim.player({self.name!r})"

    def decide(self, obs, rng: np.ndarray) -> int:
        """The decision ``obs.phase`` asks for, drawing from the stream ``rng`` ((1,) uint64, advanced)."""
        v = kernel_view(obs)
        search, net = self._search, self._net
        if self._kind == SEARCH:  # its own kernels, not the dispatch: a first decision compiles only search's code
            decide = {"trump": search_trump, "bid": search_bid, "card": search_card}.get(obs.phase)
            if decide is not None:
                return int(decide(self._params, self._table, v, rng, search))
        if obs.phase == "trump":
            return int(choose_trump(self._kind, self._params, self._table, v, rng, search, None, net))
        if obs.phase == "bid":
            return int(choose_bid(self._kind, self._params, self._table, v, rng, search, None, net))
        if obs.phase == "card":
            return int(choose_card(self._kind, self._params, self._table, v, rng, search, None, net))
        raise ValueError(f"seat {obs.seat} has no decision to make: the phase is {obs.phase!r}")


class JitPlayer(Seated):
    """A user's player written as Numba-jitted functions over the observation record (``wizsim.jit``):
    ``jit_functions`` = (trump, bid, card), each called as ``f(obs, rng)`` with ``obs`` a
    ``policies.observation.Obs`` and ``rng`` a (1,) uint64 random stream. Seated in ``simulate_rounds``,
    ``simulate_games`` or a tournament it runs inside the round kernel; on the open table it decides
    through the same functions, drawing from the round's play stream as a built-in player does, so both
    play the same rounds."""

    cost = 1.0  # in heuristic card plays, for run-time estimates (the advisor's budget)

    def __init__(self, name: str, trump, bid, card, seed: int | None = None):
        self.name = name
        self.jit_functions = (trump, bid, card)
        self._stream(seed)

    def __repr__(self) -> str:
        return f"wizsim.jit_player({self.name!r})"

    def decide(self, obs, rng: np.ndarray) -> int:
        """The decision ``obs.phase`` asks for, drawing from the stream ``rng`` ((1,) uint64, advanced)."""
        if obs.phase not in DECISIONS:
            raise ValueError(f"seat {obs.seat} has no decision to make: the phase is {obs.phase!r}")
        import warnings

        from numba.core.errors import NumbaExperimentalFeatureWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            return int(self.jit_functions[DECISIONS.index(obs.phase)](kernel_view(obs), rng))


def player(name: str, *, seed: int | None = None) -> Player:
    """wizsim's policy ``name`` (``"heuristic"``, ``"search:worlds=64"``, ...) as a player object with
    ``.trump(obs)``, ``.bid(obs)`` and ``.card(obs)``. ``seed`` fixes its own random stream."""
    return Player(name, seed)


def seated(name: str, seed: int | None = None):
    """The player object behind a canonical seat name (``registry.seat_name``)."""
    return USER_PLAYERS[name] if name in USER_PLAYERS else Player(name, seed)


def as_player(item, seed: int | None = None):
    """A player object from a policy name, a ``FILE.py:NAME`` / ``module:NAME`` spec, or a player object."""
    if is_player(item):
        return item
    if isinstance(item, str):
        return seated(seat_name(item), seed)
    raise ConfigError(f"a player must be a policy name or an object with trump, bid and card methods, got "
                      f"{type(item).__name__}")


__all__ = ["DecisionTimeout", "JitPlayer", "Player", "as_player", "ask", "check_timeout", "describe_failure", "display_name", "is_player", "kernel_view",
           "load_player", "load_player_identity", "player", "player_name", "register_player", "seated"]
