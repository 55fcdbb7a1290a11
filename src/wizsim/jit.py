"""Your own player at kernel speed: Numba-jitted functions over the observation record.

``jit_player(name, *, bid, card, trump=None)`` makes a player of three ``@numba.njit`` functions, each
called as ``f(obs, rng)``:

- ``obs``: the observation record of the decision, ``Obs`` (fields documented in
  ``wizsim.policies.observation``: ``seat``, ``players``, ``r``, ``hook``, ``hand``, ``legal``,
  ``forbidden``, ``turn_up``, ``trump``, ``bids``, ``tricks``, ``seat_played``, ``played``,
  ``trick_cards``, ``n_in_trick``, ``led``, ``winning_pos``, ``voids``; seats 0-based, cards as
  uint64 masks), read-only;
- ``rng``: the round's play stream, a (1,) uint64 array: draw from it with ``draw_below(rng, n)``
  (uniform 0..n-1) and a run stays reproducible per (seed, round index), whatever the threads;
- ``bid`` returns a bid 0..r other than ``obs.forbidden``; ``card`` a card id in ``obs.legal``;
  ``trump`` (the dealer on a turned-up Wizard) a suit 0..3, by default the heuristic's choice.
  A value outside these stops the run with a ValueError.

The player sits wherever a policy name does (``simulate_rounds``, ``simulate_games``,
``run_tournament``, ``--policies FILE.py:NAME`` when ``NAME`` is a jitted player): the round kernel
then calls the functions itself, as it calls its own policies (one jitted player a run; with two or
more, or beside a Python player, the table plays through the open table's loop, still through these
functions). On the open table (``wizsim.Round``/``Game``) it decides through the same functions.

The functions run as the round kernel does, without Numba's reference counting (counting the record's
arrays at every decision would cost three quarters of the time): they may read the record, compute and
call other jitted functions, not create arrays. One that must allocate is decorated
``@numba.njit(_nrt=True)`` and then runs with the counting, about four times slower.

The kernels compile a version of themselves for the player's functions, in memory, once per process:
Numba's disk cache cannot key an entry by a function object. So each process's first run compiles for
about 8 s (15 s on an empty cache; longer with a search seat), later runs in it start at once.

Helpers a jitted player may call: ``draw_below``, ``lowest_card`` / ``highest_card`` (of a mask, by
card id), ``n_cards``, and the built-in heuristic's decisions on the record (``heuristic_bid``,
``heuristic_card``, ``heuristic_trump``): a player of those three plays exactly as ``heuristic``.
"""

from __future__ import annotations

import numpy as np

from wizsim._numba import kernel
from wizsim.bits import highest_bit, lowest_bit, popcount
from wizsim.config import ConfigError
from wizsim.deal.kernels import rand_below
from wizsim.policies.heuristic import heuristic_bid as _bid
from wizsim.policies.heuristic import heuristic_obs_card as _card
from wizsim.policies.heuristic import heuristic_trump as _trump
from wizsim.policies.heuristic_values import VALUES
from wizsim.policies.observation import FIELDS, Obs
from wizsim.policies.registry import N_PARAMS, POLICIES
from wizsim.table.players import JitPlayer

_TABLE = np.array(VALUES, dtype=np.float64)  # the heuristic's card values (its slot's shared table)
_PARAMS = np.zeros(N_PARAMS, dtype=np.float64)  # the heuristic's parameters at their defaults


# Helpers for a player's functions: the engine's own kernels under the names a player thinks in.
draw_below = rand_below  # (rng, n): a uniform whole number in 0..n-1 (1 <= n <= 2**32), the stream advanced
lowest_card = lowest_bit  # (mask): the lowest card id in a non-empty mask
highest_card = highest_bit  # (mask): the highest card id in a non-empty mask
n_cards = popcount  # (mask): the number of cards in the mask


@kernel
def heuristic_bid(obs):
    """The built-in heuristic's bid on this record (at its default parameters)."""
    return _bid(_PARAMS, _TABLE, obs.seat, obs.players, obs.r, obs.hand, obs.turn_up, obs.trump, obs.bids,
                obs.forbidden)


@kernel
def heuristic_card(obs):
    """The built-in heuristic's card on this record."""
    return _card(obs)


@kernel
def heuristic_trump(obs, rng):
    """The built-in heuristic's suit as dealer on a turned-up Wizard (ties drawn from ``rng``)."""
    return _trump(_PARAMS, _TABLE, obs.players, obs.r, obs.hand, rng)


def jit_player(name: str, *, bid, card, trump=None, seed: int | None = None) -> JitPlayer:
    """A player of jitted functions (see the module docstring); ``name`` is its canonical name in results
    (not a built-in policy's), ``seed`` its own stream when asked directly on the open table."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"a jitted player needs a name, got {name!r}")
    name = name.strip()
    if name.split(":")[0].strip().lower() in POLICIES:
        raise ConfigError(f"a player's name must not be a built-in policy's, got {name!r}")
    trump = heuristic_trump if trump is None else trump
    functions = []
    for what, f in (("trump", trump), ("bid", bid), ("card", card)):
        if not hasattr(f, "py_func") or not hasattr(f, "targetoptions"):
            raise ConfigError(f"jit_player {name!r}: {what} must be a @numba.njit function of (obs, rng), "
                              f"got {type(f).__name__}")
        if f is not heuristic_trump:  # wizsim's own needs no check
            _check_signature(name, what, f)
        functions.append(f)
    return JitPlayer(name, *functions, seed)


def _sample_args():
    """An observation record and a random stream of the types the open table passes a player's function:
    the types its functions are checked against here, before any kernel compiles them."""
    from wizsim.table.observation import kernel_view
    from wizsim.table.round import Round

    return kernel_view(Round(4, 1, seed=0).observation(1)), np.zeros(1, np.uint64)


def _check_signature(name: str, what: str, f) -> None:
    """``f`` takes (obs, rng) and, typed with the observation record, compiles and returns a whole number;
    otherwise one line naming the player and the function, not Numba's pages of typing errors (which a
    kernel compiling it would give). The check compiles a copy (a fresh dispatcher of the same Python
    function, tenths of a second): ``f`` itself stays uncompiled, for the kernels compile it their own
    way (without reference counting, which refuses a function that creates arrays in their words)."""
    import inspect
    import re

    import numba
    from numba.core.errors import NumbaError

    where = f"jit_player {name!r}: {what}"
    try:
        inspect.signature(f.py_func).bind(None, None)
    except TypeError:
        raise ConfigError(f"{where} must take two arguments (obs, rng), got {f.py_func.__name__}"
                          f"{inspect.signature(f.py_func)}") from None
    except ValueError:  # no signature to read (a builtin): let Numba judge it below
        pass
    sig = tuple(numba.typeof(a) for a in _sample_args())
    copy = numba.njit(f.py_func)
    try:
        result = copy.compile(sig)
    except NumbaError as err:
        lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).strip() for line in str(err).splitlines()]
        reason = next((line for line in lines if line and not line.startswith(("Failed in", "During:", "File "))),
                      "it does not compile")
        reason = re.sub(r"of type Obs\(.*", "of the observation record (obs)", reason)
        raise ConfigError(f"{where} does not compile for (obs, rng): {reason[:160]}") from None
    returned = result[1] if isinstance(result, tuple) else copy.overloads[sig].signature.return_type
    if not isinstance(returned, numba.types.Integer):
        raise ConfigError(f"{where} must return a whole number (a suit, a bid or a card id), returns {returned}")


__all__ = ["FIELDS", "Obs", "draw_below", "heuristic_bid", "heuristic_card", "heuristic_trump", "highest_card",
           "jit_player", "lowest_card", "n_cards"]
