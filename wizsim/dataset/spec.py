"""A dataset run, named by its parameters, and its split into fixed chunks.

A run is what ``wizsim simulate --out`` was asked for: players, one round size and a number of rounds
(rounds mode) or a number of whole games (game mode), the policies, the hook, the seed, whether
tricks are logged, and the chunk size. Chunk k covers units (rounds or games)
``k * chunk_size .. (k + 1) * chunk_size - 1`` whatever the engine, thread count or number of
workers, and each chunk writes the same files: ``TABLE/players=P/round=R/part-{k:06d}.parquet``
(one per round size it holds; game mode holds every size). Since a round depends only on
(seed, round index), a chunk's files depend only on the run and k.

The run id is a hash of the parameters and the schema, rules and wizsim versions; the canonical
command (``RunSpec.command``) re-creates the run. Engine, threads, workers and ``--overwrite`` change
how a run is executed, never its data, so they are in neither.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from dataclasses import dataclass
from importlib import metadata

from wizsim.config import RULES_VERSION, ConfigError, RulesConfig
from wizsim.io.schema import SCHEMA_VERSION
from wizsim.policies import check_policy
from wizsim.sim.driver import check_seed, seat_policies

ROUND_CHUNK = 1 << 20  # rounds per chunk: 4M rows, about 40 MB of Parquet at 4 players
GAME_CHUNK = 1 << 16  # games per chunk


def wizsim_version() -> str:
    try:
        return metadata.version("wizsim")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


@dataclass(frozen=True)
class RunSpec:
    players: int
    round: int | None
    rounds: int | None
    games: int | None
    policies: tuple[str, ...]
    hook: bool
    seed: int
    chunk_size: int
    trick_log: bool

    @property
    def mode(self) -> str:
        return "games" if self.games is not None else "rounds"

    @property
    def n_units(self) -> int:
        """Rounds (rounds mode) or games (game mode) in the run."""
        return self.games if self.games is not None else self.rounds

    @property
    def unit(self) -> str:
        return "game" if self.games is not None else "round"

    @property
    def n_chunks(self) -> int:
        return (self.n_units + self.chunk_size - 1) // self.chunk_size

    def chunk_range(self, k: int) -> tuple[int, int]:
        start = k * self.chunk_size
        return start, min(start + self.chunk_size, self.n_units)

    @property
    def round_sizes(self) -> list[int]:
        if self.games is not None:
            return list(range(1, RulesConfig(self.players).rounds_per_game + 1))
        return [self.round]

    @property
    def tables(self) -> list[str]:
        return ["rounds", "tricks"] if self.trick_log else ["rounds"]

    def file_path(self, table: str, r: int, k: int) -> str:
        """Path of chunk k's file for round size r, relative to the dataset folder."""
        return f"{table}/players={self.players}/round={r}/part-{k:06d}.parquet"

    def chunk_files(self, k: int) -> list[str]:
        return [self.file_path(t, r, k) for t in self.tables for r in self.round_sizes]

    def params(self) -> dict:
        return {"mode": self.mode, "players": self.players, "round": self.round, "rounds": self.rounds,
                "games": self.games, "policies": list(self.policies), "hook": self.hook, "seed": self.seed,
                "chunk_size": self.chunk_size, "trick_log": self.trick_log}

    def identity(self) -> dict:
        """Everything the data depends on: the parameters and the versions."""
        return {**self.params(), "schema_version": SCHEMA_VERSION, "rules_version": RULES_VERSION,
                "wizsim_version": wizsim_version()}

    @property
    def run_id(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def command(self, out: str = "DIR") -> str:
        """The canonical command line that re-creates this run's data in ``out``."""
        args = ["wizsim", "simulate", "--players", str(self.players)]
        if self.games is not None:
            args += ["--games", str(self.games)]
        else:
            args += ["--round", str(self.round), "--rounds", str(self.rounds)]
        args += ["--policies", ",".join(self.policies)]
        if self.hook:
            args.append("--hook")
        args += ["--seed", str(self.seed), "--chunk-size", str(self.chunk_size)]
        if self.trick_log:
            args.append("--trick-log")
        args += ["--out", out]
        return shlex.join(args)

    def run_metadata(self) -> dict:
        """What every data file records about its run (JSON): enough to re-create any file."""
        return {"run_id": self.run_id, **self.identity(), "command": self.command()}


def make_spec(players: int = 4, *, r: int | None = None, rounds: int | None = None, games: int | None = None,
              policies="random", hook: bool = False, seed: int | None = 0, trick_log: bool = False,
              chunk_size: int | None = None) -> RunSpec:
    """Check a run's parameters (``ConfigError`` naming the bad one) and name the run."""
    cfg = RulesConfig(players=players, hook=bool(hook))
    if (r is None) == (games is None):
        raise ConfigError("give a round size and a number of rounds, or a number of games (not both)")
    if games is not None:
        if not isinstance(games, int) or games < 1:
            raise ConfigError(f"the number of games must be 1 or more, got {games!r}")
        rounds = None
    else:
        cfg.check_round(r)
        if not isinstance(rounds, int) or rounds < 1:
            raise ConfigError(f"the number of rounds must be 1 or more, got {rounds!r}")
    names = tuple(check_policy(n) for n in seat_policies(policies, players))
    if chunk_size is None:
        chunk_size = GAME_CHUNK if games is not None else ROUND_CHUNK
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise ConfigError(f"the chunk size must be 1 or more, got {chunk_size!r}")
    return RunSpec(players, r, rounds, games, names, cfg.hook, check_seed(seed), chunk_size, bool(trick_log))
