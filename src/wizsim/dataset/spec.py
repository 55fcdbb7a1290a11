"""A dataset run, named by its parameters, and its split into fixed chunks.

A run is what ``wizsim simulate --out`` was asked for: players, one round size and a number of rounds
(rounds mode) or a number of whole games (game mode), the policies, the hook, the seed, whether
tricks are logged, and the chunk size. Chunk k covers units (rounds or games)
``k * chunk_size .. (k + 1) * chunk_size - 1`` whatever the engine, thread count or number of
workers, and each chunk writes the same files: ``TABLE/players=P/round=R/part-{k:06d}.parquet``
(one per round size it holds; game mode holds every size). Since a round depends only on
(seed, round index), a chunk's files depend only on the run and k.

The run id is a hash of the parameters, what each seat's player is (``identities``, one per entry of
``policies``: ``wizsim.identity``; a built-in by its name and wizsim's version, a user's player by the
digest of its file, its module's files or its jitted functions' source) and the schema, rules and
wizsim versions; the canonical command (``RunSpec.command``) re-creates the run. Engine, threads,
workers, ``--overwrite`` and the decision time limit change how a run is executed, never its data, so
they are in neither.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from dataclasses import dataclass, field, fields

from wizsim.config import RULES_VERSION
from wizsim.identity import wizsim_version
from wizsim.io.schema import SCHEMA_VERSION
from wizsim.policies.registry import seat_identity
from wizsim.sim.plan import GAME_CHUNK, ROUND_CHUNK, RunPlan, make_plan

__all__ = ["GAME_CHUNK", "ROUND_CHUNK", "RunSpec", "make_spec", "wizsim_version"]


@dataclass(frozen=True)
class RunSpec(RunPlan):
    """A run plan (``sim.plan``) that writes a dataset, with or without the trick log, and what each
    seat's player is (``identities``, taken when the spec is made: the players seated then)."""

    trick_log: bool = False
    identities: tuple = field(default=(), hash=False)  # one identity dict per entry of policies

    @property
    def tables(self) -> list[str]:
        return ["rounds", "tricks"] if self.trick_log else ["rounds"]

    def file_path(self, table: str, r: int, k: int) -> str:
        """Path of chunk k's file for round size r, relative to the dataset folder."""
        return f"{table}/players={self.players}/round={r}/part-{k:06d}.parquet"

    def chunk_files(self, k: int) -> list[str]:
        return [self.file_path(t, r, k) for t in self.tables for r in self.round_sizes]

    def chunk_of(self, rel: str) -> int | None:
        """The chunk whose file is named ``rel`` (relative to the folder), or None when the run writes no such file."""
        parts = rel.split("/")
        if len(parts) != 4:
            return None
        table, _, rnd, name = parts
        k, r = int(name[len("part-"):-len(".parquet")]), int(rnd[len("round="):])
        if k < self.n_chunks and table in self.tables and r in self.round_sizes and rel == self.file_path(table, r, k):
            return k
        return None

    def expected(self, rel: str, k: int) -> tuple[dict, int | None]:
        """What the footer of chunk k's file ``rel`` must say (its ``wizsim.file`` metadata) and its rows."""
        start, stop = self.chunk_range(k)
        table, _, rnd = rel.split("/")[:3]
        r = int(rnd.split("=")[1])
        want = {"chunk": k, "first": start, "stop": stop, "unit": self.unit, "players": self.players, "round": r}
        return want, (stop - start) * (self.players if table == "rounds" else r)

    def params(self) -> dict:
        return {"mode": self.mode, "players": self.players, "round": self.round, "rounds": self.rounds,
                "games": self.games, "policies": list(self.policies), "hook": self.hook, "seed": self.seed,
                "chunk_size": self.chunk_size, "trick_log": self.trick_log}

    def identity(self) -> dict:
        """Everything the data depends on: the parameters, the players and the versions."""
        return {**self.params(), "identities": [dict(i) for i in self.identities], "schema_version": SCHEMA_VERSION,
                "rules_version": RULES_VERSION, "wizsim_version": wizsim_version()}

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
    """Check a run's parameters (``sim.plan.make_plan``: ``ConfigError`` naming the bad one) and name the run."""
    plan = make_plan(players, r=r, rounds=rounds, games=games, policies=policies, hook=hook, seed=seed,
                     chunk_size=chunk_size)
    return RunSpec(**{f.name: getattr(plan, f.name) for f in fields(RunPlan)}, trick_log=bool(trick_log),
                   identities=tuple(seat_identity(name) for name in plan.policies))
