"""The run plan every batch command iterates: what to simulate, checked once, cut into fixed chunks.

A run is players, one round size and a number of rounds (rounds mode) or a number of whole games
(games mode), the policies (one canonical name per seat), the hook and the seed. ``make_plan`` checks
every argument and raises ``ConfigError`` naming the bad one, with the words the CLI uses, so
``summarize(...)``, ``write_dataset(...)`` and ``wizsim simulate`` refuse the same input the same way.

Chunk k covers units (rounds or games) ``k * chunk_size .. (k + 1) * chunk_size - 1``. Since a round
depends only on (seed, round index), chunking changes how much is in memory at once, never a result.
``summarize`` and ``write_dataset`` chunk rounds or games; ``run_tournament`` chunks deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizsim.config import (
    DEFAULT_ROUNDS,
    MAX_ROUND_INDEX,
    ConfigError,
    RulesConfig,
    check_count,
    check_seed,
    n_game_rounds,
)
from wizsim.policies import seat_policies

ROUND_CHUNK = 1 << 20  # rounds per chunk: 4M rows, about 40 MB of Parquet at 4 players
GAME_CHUNK = 1 << 16  # games per chunk
DEAL_CHUNK = 512  # tournament deals per chunk (each played once per rotation of the policies)


@dataclass(frozen=True)
class Chunk:
    index: int
    start: int  # first unit (round or game index of the run)
    stop: int  # one past the last

    @property
    def size(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class RunPlan:
    players: int
    round: int | None  # the round size (rounds mode), None in games mode
    rounds: int | None  # rounds to simulate (rounds mode)
    games: int | None  # whole games to simulate (games mode)
    policies: tuple[str, ...]  # canonical policy name per seat (per player in games mode)
    hook: bool
    seed: int
    chunk_size: int

    @property
    def mode(self) -> str:
        return "games" if self.games is not None else "rounds"

    @property
    def unit(self) -> str:
        return "game" if self.games is not None else "round"

    @property
    def n_units(self) -> int:
        """Rounds (rounds mode) or games (games mode) in the run."""
        return self.games if self.games is not None else self.rounds

    @property
    def n_chunks(self) -> int:
        return (self.n_units + self.chunk_size - 1) // self.chunk_size

    def chunk_range(self, k: int) -> tuple[int, int]:
        start = k * self.chunk_size
        return start, min(start + self.chunk_size, self.n_units)

    def chunks(self):
        """The chunks in order."""
        for k in range(self.n_chunks):
            yield Chunk(k, *self.chunk_range(k))

    @property
    def round_sizes(self) -> list[int]:
        if self.games is not None:
            return list(range(1, n_game_rounds(self.players) + 1))
        return [self.round]

    @property
    def rounds_per_unit(self) -> int:
        return len(self.round_sizes)

    @property
    def card_plays_per_unit(self) -> int:
        return sum(self.round_sizes) * self.players


def make_plan(players: int = 4, *, r: int | None = None, rounds: int | None = None, games: int | None = None,
              policies="heuristic", hook: bool = False, seed: int | None = 0, chunk_size: int | None = None) -> RunPlan:
    """Check a run's parameters (``ConfigError`` naming the bad one) and plan its chunks.

    Rounds mode: ``r`` and ``rounds`` (default ``DEFAULT_ROUNDS``); games mode: ``games``. The chunk
    size defaults to ``ROUND_CHUNK`` rounds or ``GAME_CHUNK`` games.
    """
    cfg = RulesConfig(players=players, hook=hook)
    players = cfg.players  # a NumPy integer as a Python int
    if games is None and r is None:
        raise ConfigError("give --round R (r, cards per player) or --games N (games, whole games)")
    if games is not None and r is not None:
        raise ConfigError("--round and --games do not go together: a game plays every round size")
    if games is not None and rounds is not None:
        raise ConfigError("--rounds and --games do not go together: --games N plays N whole games")
    if games is not None:
        # every round of a run has an int64 index in its random streams (and in the datasets)
        games = check_count(games, "games", 1, (MAX_ROUND_INDEX + 1) // n_game_rounds(players))
    else:
        cfg.check_round(r)
        rounds = check_count(DEFAULT_ROUNDS if rounds is None else rounds, "rounds", 1, MAX_ROUND_INDEX + 1)
    names = tuple(seat_policies(policies, players))
    if chunk_size is None:
        chunk_size = GAME_CHUNK if games is not None else ROUND_CHUNK
    chunk_size = check_count(chunk_size, "chunk_size", 1)
    return RunPlan(players, r, rounds, games, names, cfg.hook, check_seed(seed), chunk_size)


# What a run's time estimate is made from, measured end to end on one thread of the reference machine
# (2 cores shared with other work: the same run measured 1.7-2x faster on a quiet machine than on a
# loaded one, so these are the quiet machine's figures made 1.3x slower; 4 players, r = 5, 15 and whole games):
# seconds = rounds * (seats * SEAT_SECONDS + card plays / PLAYS_PER_SECOND) / threads
#           + rows written * ROW_SECONDS (with --out: building, compressing and writing each row).
# "python": a user's Python player at the open table (its decisions, and the table's loop around every seat)
PLAYS_PER_SECOND = {"random": 115e6, "heuristic": 27e6, "search": 370, "python": 5e3}  # per thread
SEAT_SECONDS = {"random": 0.06e-6, "heuristic": 0.14e-6, "search": 26e-3, "python": 0.5e-3}  # a seat's bid and bookkeeping per round
# one dataset row (4 players, r = 5, random: 400,000 rounds written in 0.53-0.83 CPU s on 2026-12-06, at
# this release and the one before; 0.13e-6 then read half of a CI run's figure)
ROW_SECONDS = 0.25e-6
# Whole games cost more per card than rounds of one size (the game kernel sets up each round's state and
# keeps the running scores): measured 1.25x (heuristic) to 1.4x (random) the rounds figures above.
GAME_FACTOR = 1.3


def estimate_seconds(players: int, policies, n_units: int, unit: str, r: int | None, threads: int,
                     rows: bool = False, trick_log: bool = False) -> float:
    """Seconds a run of ``n_units`` rounds of ``r`` cards (``unit`` "round") or whole games ("game")
    should take on ``threads`` threads, with ``rows`` the dataset writing; see the constants above."""
    from wizsim.policies import policy_entry
    from wizsim.policies.registry import is_user_player, jit_functions

    names = ["heuristic" if jit_functions(n) is not None else "python" if is_user_player(n) else policy_entry(n).name
             for n in policies]
    sizes = [r] if unit == "round" else list(range(1, n_game_rounds(players) + 1))
    per_play = sum(1.0 / PLAYS_PER_SECOND.get(n, 1e3) for n in names) / len(names)
    per_seat = sum(SEAT_SECONDS.get(n, 1e-3) for n in names) / len(names)
    compute = sum(players * per_seat + players * s * per_play for s in sizes)
    if unit == "game":
        compute *= GAME_FACTOR
    write = sum(players + (s if trick_log else 0) for s in sizes) * ROW_SECONDS if rows else 0.0
    return n_units * (compute / max(1, threads) + write)
