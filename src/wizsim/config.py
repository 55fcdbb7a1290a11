"""The parameters of wizsim, declared once: their ranges, defaults and one validator.

``RulesConfig`` holds the rule options of a run (players, hook), validated once. The other constants
are the ranges every entry point (library, CLI, dataset) checks against; the CLI builds its options
from them, so a range is written here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim._numba import kernel
from wizsim.cards import N_CARDS, shorten
from wizsim.errors import ConfigError, PlayerError  # noqa: F401 - re-exported

MIN_PLAYERS = 3
MAX_PLAYERS = 6
DEFAULT_PLAYERS = 4
MAX_SEED = 2**63 - 1  # seeds are 0..MAX_SEED (a uint64 key with the top bit clear)
MAX_ROUND_INDEX = 2**63 - 1  # a round's index in its run's random stream is an int64
DEFAULT_SEED = 0
DEFAULT_ROUNDS = 100_000  # rounds simulated when a run gives a round size but no count
DEFAULT_TOURNAMENT_GAMES = 10_000
MAX_SAMPLES = 100_000_000  # advice: a fixed sample count above this would run for hours, a mistake not a wish
ENGINES = ("local", "dask")  # where a dataset run's chunks are simulated; the first is the default
RULES_VERSION = 3  # bump when simulated results for a given seed could change


@kernel
def n_game_rounds(players):
    """Rounds in a whole game, and the largest round size: 60 / players (20, 15, 12 or 10)."""
    return N_CARDS // players


def check_int(value, name: str, *, error: type[ValueError] = ConfigError) -> int:
    """``value`` as a Python int, else ``error`` naming ``name``: the one test of what a whole number
    is. Python's and NumPy's integers pass (``np.int64(4)`` is 4); bools, floats (even whole ones),
    text and NumPy non-integers are refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise error(f"{name} must be a whole number, got {shorten(repr(value), 40)}")
    return int(value)


def check_count(value, name: str, minimum: int | None = 0, maximum: int | None = None, *,
                error: type[ValueError] = ConfigError, type_error: type[ValueError] | None = None) -> int:
    """``value`` as an int in ``minimum..maximum`` (None: unbounded), else ``error`` (a ``ConfigError``
    unless a caller has its own kind, like the advisor's) naming ``name`` and the range; a value that
    is not a whole number (``check_int``) raises ``type_error`` (default: ``error``).
    """
    value = check_int(value, name, error=type_error or error)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        if maximum is None:
            wanted = f"{minimum} or more"
        elif minimum is None:
            wanted = f"{maximum} or less"
        else:
            wanted = f"{minimum}..{maximum}"
        raise error(f"{name} must be {wanted}, got {value}")
    return value


def check_flag(value, name: str, *, error: type[ValueError] = ConfigError) -> bool:
    """``value`` as a bool, else ``error`` naming ``name``: only True or False (numpy's too) are a
    switch; 1, "no" or None are refused rather than read as on or off."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be True or False, got {shorten(repr(value), 40)}")
    return bool(value)


def check_seed(seed) -> int:
    """A run seed 0..MAX_SEED; None draws a fresh one from the operating system."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % MAX_SEED)
    return check_count(seed, "seed", 0, MAX_SEED)


@dataclass(frozen=True)
class RulesConfig:
    players: int = DEFAULT_PLAYERS
    hook: bool = False

    def __post_init__(self):
        # NumPy's integers and bools are taken (and stored as Python's), as everywhere a count is
        object.__setattr__(self, "players", check_count(self.players, "players", MIN_PLAYERS, MAX_PLAYERS))
        object.__setattr__(self, "hook", check_flag(self.hook, "hook"))

    @property
    def rounds_per_game(self) -> int:
        return n_game_rounds(self.players)

    def check_round(self, r: int) -> int:
        r = check_int(r, "round size")
        if not 1 <= r <= self.rounds_per_game:
            raise ConfigError(f"round size must be 1..{self.rounds_per_game} for {self.players} players, got {shorten(str(r), 40)}")
        return r
